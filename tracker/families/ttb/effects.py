"""What each action does once paid (docs/rules/ttb-turns.md#s2-5), and `spend`, the one way actions are taken.

Actions that need the table (Doctor, Impose, Trick, a disengaging strike) ask a prompt; the rest
resolve at once. Moving away while engaged queues one optional disengaging strike per engaging enemy
(decision A20); a hit cancels the move and the AP stay spent.
"""

from __future__ import annotations

from typing import Literal

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count, is_number
from tracker.families.ttb import actions, conditions, damage, duel, gm_modifiers, movement, show
from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.fate import opposed
from tracker.families.ttb.fate.cards import parse_card
from tracker.families.ttb.records.state import CardEffect
from tracker.families.ttb.tables.actions import ACTIONS
from tracker.families.ttb.tables.skills import skill_key
from tracker.present.words import counted


def spend(eng: TTBEngine, who_text: str, action_text: str, args: list[str], override: bool = False) -> None:
    """`spend NAME ACTION [ARG] [override]`: check, pay, apply; or trigger a declared Wait out of turn.

    ``override`` is the GM's flag of decision A31: a Fatemaster character with 0 Fate Points may take
    Defensive Stance without paying the Fate Point in place of the discard.
    """
    who = eng.living(who_text)
    key = actions.action_key(action_text)
    f = eng.fighter(who)
    triggered = not eng.is_active(who) and f.wait == key
    if override and key != "defensive":
        raise Refusal("override is the GM's flag for Defensive Stance without a Fate Point (decision A31)")
    reason = actions.legality(eng, who, key, args, triggered=triggered, override=override)
    if reason:
        raise Refusal(reason)
    target = actions.target_of(eng, who, key, args)
    cost = 0 if triggered else actions.cost_of(eng, key, args)
    actions.precheck(eng, who, key, args, target)
    if triggered:
        f.wait = None
        cost, f.wait_ap = f.wait_ap, 0
        eng.log(f"{who}'s Wait triggers: {ACTIONS[key].title} (already paid)")
    else:
        actions.pay(eng, who, key, cost)
    apply_action(eng, who, key, args, target, cost)


def apply_action(eng: TTBEngine, who: str, key: str, args: list[str], target: str | None, cost: int) -> None:
    f = eng.fighter(who)
    title = ACTIONS[key].title
    if key in ("walk", "run"):
        movement.move(eng, who, key, args)
    elif key == "drop_prone":
        conditions.gain(eng, who, "prone", why="Drop Prone")
    elif key == "stand_up":
        conditions.lower(eng, who, "prone", None, "Stand Up")
    elif key == "focus":
        conditions.gain(eng, who, "focused", 1, why="Focus")
    elif key == "pass":
        f.pending_init_mod += 1
        eng.log(f"{who} passes: Initiative +1 from next round")
    elif key == "wait":
        named = actions.action_key(args[0])
        f.wait = named
        f.wait_ap = cost - 1
        f.pending_init_mod -= 1
        eng.log(f"{who} Waits to {ACTIONS[named].title}: Initiative −1 from next round")
    elif key == "defensive":
        _defensive(eng, who, args, cost)
    elif key == "order":
        assert target is not None
        f.ordered = target
        eng.log(f"{who} Orders {target}: it acts right after this turn")
    elif key == "assist":
        assert target is not None
        _assist(eng, who, target, args)
    elif key in ("impose", "trick"):
        assert target is not None
        skill, resist = ("intimidate", "centering") if key == "impose" else ("deceive", "scrutiny")
        contest = f"{skill.title()} vs {resist.title()}"
        # Between two Fated the tracker can flip both sides, as it does an attack (opposed, [000:L418]); each
        # side's own state counts: the actor attempts an action (Dazed, Focused), the target resists.
        flip = opposed.offer_data(eng, who, target, skill, resist)
        if flip:
            ours = duel.acting(eng, who, skill, action=True)
            flip.update(opposed.sides_data(ours, duel.acting(eng, target, resist, action=False)))
            duel.spend_parts(eng, who, ours)
        named = f" — {opposed.describe(flip)}" if flip.get("op_counted") or flip.get("op_counted_d") else ""
        how = f"; or flip (both flip: {contest}{named})" if flip else ""
        eng.ask(
            key,
            f"{who} tries to {title} {target} ({contest}): pass or fail? (pass N for N Margins){how}",
            ["pass", "fail", *(["flip"] if flip else [])],
            who=who,
            target=target,
            **flip,
        )
    elif key == "doctor":
        assert target is not None
        tn = 20 if target == who else 15
        head = f"{who} treats {target}'s Bleeding Out: Doctor duel TN {tn}"
        duel.ask(eng, "doctor", who, head, "doctor", tn, action=True, target=target)
    elif key == "reduce_burning":
        assert target is not None
        conditions.lower(eng, target, "burning", 1, f"{who} beats at the flames")
    elif key == "charge":
        assert target is not None
        link = sorted([who, target])
        if link not in eng.st.engagements:
            eng.st.engagements.append(link)
        eng.log(f"{who} charges {target}: now engaged; two (1)-AP melee attacks")
        _attacks(eng, who, target, args[1:], "melee", 2)
    elif key == "shoot":
        target, rest = actions.attack_words(eng, who, args)
        _shoot(eng, who, rest)
        _attacks(eng, who, target, rest, "projectile", 1)
    elif key == "reload":
        _reload(eng, who, args, cost)
    elif key == "strike":
        target, rest = actions.attack_words(eng, who, args)
        eng.log(f"{who} strikes" + (f" at {target}" if target else ""))
        _attacks(eng, who, target, rest, "melee", 1)
    elif key == "show":
        assert target is not None
        show.ask(eng, who, target)
    elif key == "quick_action":
        f.quick_action_used = True
        f.ap += 1
        eng.log(f"{who} spends a Fate Point on Quick Action: {f.ap} General AP ({f.fate_points} FP left)")
    elif key == "recovery":
        cond = conditions.condition_key(args[0])
        eng.log(f"{who} spends a Fate Point on Recovery ({f.fate_points} FP left)")
        conditions.lower(eng, who, cond, None, "Recovery")
    elif key == "second_wind":
        eng.log(f"{who} spends a Fate Point on Second Wind ({f.fate_points} FP left)")
        damage.heal(eng, who, 2, "Second Wind")
    elif key == "competence":
        eng.log(f"{who} spends a Fate Point on Competence: ⊞ on one duel ({f.fate_points} FP left)")
    else:
        eng.log(f"{who}: {title}" + (f" ({' '.join(args)})" if args else ""))


def attack_weapon(eng: TTBEngine, who: str, args: list[str], kind: str) -> str | None:
    """The weapon named in `args`, else the first on file of `kind` (CONTRACT §3 "Weapons (TTB)")."""
    for a in args:
        if actions.weapon_word(eng, who, a):
            return actions.named_weapon(eng, who, a)
    return next((w.name for w in eng.sheet(who).weapons if w.kind == kind), None)


def _attacks(eng: TTBEngine, who: str, target: str | None, args: list[str], kind: str, times: int) -> None:
    """Queue `times` attack duels with the file's weapon (none without a target or a weapon on file)."""
    if target is None:
        return
    weapon = attack_weapon(eng, who, args, kind)
    if weapon is None:
        return
    eng.push(*[step("attack", who, f"{target}\t{weapon}") for _ in range(times)])


#: Prompt data naming the Fated who flips Defense against a Fatemaster's attack (the attack flow only).
DEFENDER = "defender"
#: Prompt data of a Fatemaster's attack on a Fatemaster: the attacker's acting value + Rank Value, which
#: the target's Defense + Rank Value (``tn``) opposes without a card (the attack flow only).
COMPARED = "compared"


def attack_offer(eng: TTBEngine, who: str, arg: str) -> None:
    """Agenda step: the attack duel (docs/rules/ttb-damage.md#s2-8-1): the table answers pass N, fail, or flip.

    The tracker can flip a Fated's attack on a Fatemaster character: TN = the target's Defense + Rank
    Value (docs/rules/ttb.md#s2-2-5), acting value from the attacker's ``skills`` for the weapon's skill; and a Fated's
    attack on a Fated, where both flip and may cheat, the lower total first (`opposed`, docs/rules/ttb.md#s2-2-4). The
    duel is built by `tracker.families.ttb.duel` from everything in play, each modifier named in the question.
    """
    target, weapon, *flow = arg.split("\t")
    guided = bool(flow) and flow[0] == "guided"
    gm, _ = gm_modifiers.gm_parts(flow[1].split() if len(flow) > 1 else [])
    f = eng.fighter(who)
    if f.dead or f.unconscious or f.conditions.get("paralyzed") or eng.fighter(target).dead:
        return
    spec = next(w for w in eng.sheet(who).weapons if w.name == weapon)
    skill = spec.attack_skill()
    tsheet = eng.sheet(target)
    flip: dict[str, str | int | bool | list[str]] = {}
    asheet = eng.sheet(who)
    test: duel.Duel | None = None
    if asheet.fated and not tsheet.fated and tsheet.rank_value is not None:
        # An Unconscious Fatemaster character resists with Rank Value 0 (docs/rules/ttb-conditions.md#s2-7 [000:L352]).
        test = duel.attack(eng, who, target, skill, spec.kind, gm)
        flip = {**test.data(), "skill": skill}
    elif guided and not asheet.fated and tsheet.fated and asheet.rank_value is not None:
        # The flow lets the tracker flip a Fatemaster's attack too: the Fated defends, Defense against
        # TN = the attacker's acting value + Rank Value (docs/rules/ttb.md#s2-2-5), and may cheat its flip
        # (docs/rules/ttb.md#s2-2-4).
        test = duel.attack(eng, who, target, skill, spec.kind, gm)
        flip = {**test.data(), "skill": "defense", DEFENDER: target, "attacker": who}
    elif guided and not asheet.fated and not tsheet.fated and None not in (asheet.rank_value, tsheet.rank_value):
        # Fatemaster against Fatemaster: no card; the higher acting value + Rank Value wins, the aggressor
        # on a tie (docs/rules/ttb.md#s2-2-5), so the tracker resolves it at once when asked. Only TN changes count.
        test = duel.attack(eng, who, target, skill, spec.kind, gm)
        flip = {"tn": test.final_tn, COMPARED: test.av + test.bonus, "skill": skill, "counted": test.counted()}
    else:
        flip = opposed.offer_data(eng, who, target, skill)
        if flip:
            ours, theirs = duel.opposed_sides(eng, who, target, skill, spec.kind, gm)
            flip.update(opposed.sides_data(ours, theirs))
            duel.spend_parts(eng, who, ours)
    if test is not None:
        duel.spend_focus(eng, test)
    how = "pass N (N Margins), fail"
    if DEFENDER in flip and damage.resists_blind(eng, target):
        how += f" or flip ({target} is Unconscious: its Defense counts as the Black Joker)"
    elif DEFENDER in flip:
        how += f" or flip ({target} defends: Defense vs TN {flip['tn']})"
    elif COMPARED in flip:
        how += f" or flip (no card: {flip[COMPARED]} vs {flip['tn']})"
    elif "tn" in flip:
        how += f" or flip (TN {flip['tn']})"
    elif flip:
        how += f" or flip (both flip: {skill.title()} vs Defense)"
    options = ["pass", "fail", *(["flip"] if flip else [])]
    if guided:
        # The flow offers the tracker's flip first (option 1), the table's result after it.
        from tracker.families.ttb import attack

        options = [*(["flip"] if flip else []), "pass", "fail"]
        # The chance is for the screen's label: a run of the fight's odds asks for none (`TTBEngine.labelled`).
        odds = attack.hit_chance(eng, who, target, spec, gm) if eng.labelled else None
        chance = attack.odds_text(odds, attack.cheater_against(eng, who, target)) if odds is not None else "both flip"
        does = "compares" if COMPARED in flip else "flips"
        labels = [*([f"flip: the tracker {does} · {chance}"] if flip else []), "pass: the table's hit", "fail: a miss"]
        flip = {**flip, "guided": True, "labels": labels}
    eng.ask(
        "attack",
        f"{who} attacks {target} with the {weapon} ({spec.damage}): {_described(test, flip, how)}?",
        options,
        who=who,
        target=target,
        weapon=weapon,
        weapon_kind=spec.kind,
        **flip,
    )


def _described(test: duel.Duel | None, flip: dict[str, str | int | bool | list[str]], how: str) -> str:
    """The duel as the question names it: every modifier counted with its source, then what to answer."""
    if opposed.MARK in flip and (flip.get("op_counted") or flip.get("op_counted_d")):
        return f"{opposed.describe(flip)} — {how}"
    if test is None or not flip.get("counted"):
        return how
    return f"{test.describe()} — {how}"


def resolve_attack(
    eng: TTBEngine,
    who: str,
    target: str,
    weapon: str,
    passed: bool,
    margins: int,
    diff: int | None,
    guided: bool = False,
) -> None:
    """A hit makes the weapon's damage flip with the accuracy modifier (docs/rules/ttb-damage.md#s2-8-1, decision A2).

    In the attack flow (``guided``, `tracker.families.ttb.attack`) the damage flip is asked rather than made
    at once. With the tracker's flip the difference is known exactly; from the table's ``pass N`` the middle of
    the N-Margin band is used (0 Margins ⊟, 1 none, 2 or more ⊞): the band edges 5 and 10 need ``damage``
    with ``margin=D`` instead.
    """
    if not passed:
        eng.log(f"{who}'s attack with the {weapon} misses {target}")
        return
    if eng.fighter(target).dead:
        return
    spec = next(w for w in eng.sheet(who).weapons if w.name == weapon)
    accuracy = damage.modifier_from_margin(diff if diff is not None else 5 * margins + 2)
    # Beside the accuracy modifier: Trick's ⊞ and hard cover's ⊟ on the damage flip [000:L262, L300].
    extra = duel.damage_parts(eng, who, target, spec.kind)
    modifier = max(-duel.CAP, min(duel.CAP, accuracy + sum(p.fate for p in extra)))
    eng.log(f"{who}'s attack with the {weapon} hits {target}")
    if extra:
        eng.log(f"damage flip: accuracy {accuracy:+d}, {', '.join(p.text() for p in extra)} → {modifier:+d}")
    if guided:
        from tracker.families.ttb import attack

        counted = [p.text() for p in extra]
        if accuracy:
            how = (
                f"{margins} Margin{'' if margins == 1 else 's'}"
                if diff is None
                else "a tie"
                if diff == 0
                else f"by {diff}"
            )
            counted.insert(0, f"{'⊞' * accuracy if accuracy > 0 else '⊟' * -accuracy} accuracy: {how}")
        attack.damage_offer(eng, who, target, weapon, spec.damage, modifier, counted, spec.blast)
        return
    damage.damage_flip(eng, target, spec.damage, modifier, None, True, attacker=who, blast=spec.blast)


def _defensive(eng: TTBEngine, who: str, args: list[str], cost: int) -> None:
    f = eng.fighter(who)
    if eng.sheet(who).fated:
        cards = [a for a in args if not is_number(a)]
        if cards:
            from tracker.families.ttb.fate.deck import discard_from_hand

            code = discard_from_hand(eng, who, cards[0])
            eng.log(f"{who} discards {parse_card(code).label()} for Defensive Stance")
        else:
            eng.ask(
                "discard",
                f"{who} discards a card for Defensive Stance: which one?",
                list(f.hand),
                who=who,
                labels=[parse_card(c).short() for c in f.hand],
            )
            # The stance holds once its card is gone: the agenda takes it after the answer, so the log
            # never shows the bonus before the discard it needs.
            eng.push(step("defensive_stance", who, cost))
            return
    elif f.fate_points < 1:
        eng.log(f"GM override (decision A31): {who} takes Defensive Stance without a Fate Point to pay")
    else:
        f.fate_points -= 1
        eng.log(f"{who} spends a Fate Point in place of the discard ({f.fate_points} FP left)")
    take_stance(eng, who, cost)


def take_stance(eng: TTBEngine, who: str, cost: int) -> None:
    """Defensive Stance applies: Defensive +AP spent (docs/rules/ttb-turns.md#s2-5), once its discard (or Fate Point) is
    paid."""
    conditions.gain(eng, who, "defensive", cost, why="Defensive Stance")


def _assist(eng: TTBEngine, who: str, target: str, args: list[str]) -> None:
    ranks = 0
    skills = {k.casefold(): v for k, v in eng.sheet(who).skills.items()}
    for a in args[1:]:
        ranks = count(a, "ranks") if is_number(a) else skills.get(skill_key(eng, a), 0)
    if eng.sheet(who).subordinate:
        ranks = (ranks + 1) // 2
    if ranks < 1:
        eng.log(f"{who} assists {target} but has no ranks to give: no bonus")
        return
    eng.fighter(target).assist = ranks
    eng.fighter(target).assist_turns = 0
    eng.log(f"{who} assists {target}: +{ranks} to its next duel (until the end of its next turn)")


def _shoot(eng: TTBEngine, who: str, args: list[str]) -> None:
    actions.count_shot(eng, who, actions.weapon_of(eng, who, args, "projectile"))


def _reload(eng: TTBEngine, who: str, args: list[str], cost: int) -> None:
    f = eng.fighter(who)
    weapon = actions.weapon_of(eng, who, args, "projectile")
    assert weapon is not None
    spec = next(w for w in eng.sheet(who).weapons if w.name == weapon)
    done = f.reload_progress.get(weapon, 0) + cost
    if done >= spec.reload:
        f.reload_progress.pop(weapon, None)
        if spec.capacity:
            f.shots[weapon] = spec.capacity
        eng.log(
            f"{who} reloads the {weapon}: ready" + (f" ({counted(spec.capacity, 'shot')})" if spec.capacity else "")
        )
    else:
        f.reload_progress[weapon] = done
        eng.log(f"{who} reloads the {weapon}: {done}/{spec.reload} AP so far")


def resolve_contest(eng: TTBEngine, kind: str, who: str, target: str, passed: bool, margins: int) -> None:
    """Impose or Trick after the table's answer: an effect until the start of `who`'s next turn."""
    if not passed:
        eng.log(f"{who}'s {kind.title()} on {target} fails")
        return
    magnitude = 1 + margins if kind == "impose" else 1
    effect: Literal["impose", "trick"] = "impose" if kind == "impose" else "trick"
    eng.st.effects.append(CardEffect(kind=effect, owner=who, target=target, magnitude=magnitude))
    if kind == "impose":
        eng.log(
            f"{who} Imposes on {target}: {'⊟' * magnitude} on attacks not targeting {who} "
            f"until the start of {who}'s next turn"
        )
    else:
        eng.log(f"{who} Tricks {target}: ⊞ on attack and damage flips against it until {who}'s next turn")
