"""An attack as one flow in the 2d20 System (docs/reference/language.md ``attack``; docs/rules/2d20.md#s3-2,
docs/rules/2d20.md#s3-3, docs/rules/2d20-combat.md#s3-6 to #s3-8).

``attack NAME [TARGET] [WEAPON] [+N|-N]`` takes the Attack (a Major Action, as ``spend NAME attack``) and then
asks, one pending prompt at a time, what it still needs: the target (those the weapon reaches first, each
with its range, Difficulty and chance), the weapon when the sheet has more than one that reaches, under
Infinity the target's Defence reaction or an ally's Guard (with its Heat), the test, and on a hit the damage.
The test is one `tracker.families.twod20.attack_test.AttackTest`: attribute + skill (+ Focus) against a TN, the
Difficulty from the range band, the attacker's and target's state, Protect, Swift Action and the GM's ±N,
each named in the question; opposed where the rules make it (SRD and Secret War melee and mental, Infinity
with a Defence or Guard reaction), both sides rolled (seeded) or typed (``answer 4,17 vs 9,12``) and settled
as docs/rules/2d20.md#s3-2 says. The chances shown are that same test's, exactly. Option 1 is always the tracker's
default: the best target, no reaction, no bought die, no spend, the tracker rolls. The Momentum left unspent
is banked: a player character's in the group pool (under its cap), an NPC's as Threat (docs/rules/2d20.md#s3-3).

The typed forms are unchanged: ``spend NAME attack``, ``roll``, ``challenge`` and ``damage`` work as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.records.model import Prompt
from tracker.families.twod20 import (
    actions,
    breaches,
    infowar,
    outofturn,
    pools,
    psywar,
    roll_answer,
    spend_answer,
    spends,
)
from tracker.families.twod20.attack_test import form, mental_refusal
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.shots import Shot, attack_tn, named_weapon, shots, weapon_of
from tracker.families.twod20.skill_test import gm_modifier
from tracker.present.words import counted

if TYPE_CHECKING:
    from fractions import Fraction

TARGET, WEAPON, ROLL, DAMAGE = "attack_target", "attack_weapon", "attack_roll", "attack_damage"
#: Infinity's Defence or Guard reaction, asked before the roll [003:L299-304]; the melee defender's choice
#: after winning the opposed test: its weapon's damage or a Disengage (B12 [004:L1640]).
REACTION, COUNTER = "attack_reaction", "attack_counter"
#: A hack's Breach asks its Breach Effect after the damage (`tracker.families.twod20.infowar`).
KINDS = (TARGET, WEAPON, ROLL, DAMAGE, REACTION, COUNTER, breaches.BREACH)


def start(eng: TwoD20Engine, args: list[str]) -> None:
    """``attack NAME [TARGET] [WEAPON] [+N|-N]``: check, take the Attack (a Major Action), then ask what is
    missing; the GM's ±N is added to the attack's Difficulty, named "GM" in the question."""
    eng.require_started()
    who = eng.living(args[0])
    if not eng.sheet(who).weapons:
        raise Refusal(f"{who} has no weapon on the sheet: 'spend {who} attack', then 'roll' and 'damage'")
    target: str | None = None
    weapon: str | None = None
    gm: int | None = None
    for word in args[1:]:
        named = named_weapon(eng, who, word)
        modifier = gm_modifier(word)
        if modifier is not None and gm is None:
            gm = modifier
        elif target is None and weapon is None and named is None and modifier is None:
            target = eng.living(word)
            if target == who or not eng.enemies(who, target):
                raise Refusal(f"{target} is not an enemy of {who}")
        elif named is not None and weapon is None:
            weapon = named
        else:
            raise Refusal(f"usage: attack NAME [TARGET] [WEAPON] [+N|-N] ('{word}' is none of them)")
    gm = gm or 0
    if eng.fighter(who).zone is None:
        raise Refusal(f"{who} has no zone: no range to attack at")
    usable = [w for w in eng.sheet(who).weapons if weapon is None or w.name == weapon]
    if target is not None and all(infowar.firewall_refusal(eng, target, form(w)) for w in usable):
        raise Refusal(infowar.firewall_refusal(eng, target, form(usable[0])))
    if all(attack_tn(eng, who, form(w), w)[0] is None for w in usable):
        raise Refusal(f"no TN: {attack_tn(eng, who, form(usable[0]), usable[0])[1]}; 'spend {who} attack', then 'roll'")
    if target is not None and all(mental_refusal(eng, target, form(w)) for w in usable):
        raise Refusal(mental_refusal(eng, target, "mental") + " [004:L1642]")
    if target is not None and not shots(eng, who, target, weapon, gm):
        raise Refusal(f"{who} cannot attack {target} from {eng.fighter(who).zone}: no way there")
    reason = actions.legality(eng, who, "attack")
    if reason:
        raise Refusal(reason)
    if weapon is not None:
        # An M weapon with no Reload left cannot attack [004:L1699-1701]: refused before the Major Action is taken.
        from tracker.families.twod20 import reloads

        reloads.check_reloads(eng, who, weapon_of(eng, who, weapon), 0)
    if target is None and not any(shots(eng, who, n, weapon, gm) for n in _enemies(eng, who)):
        raise Refusal(f"{who} has no enemy it can attack from {eng.fighter(who).zone}")
    actions.spend(eng, who, "attack", [target] if target else [])
    if target is None:
        target_offer(eng, who, weapon, gm)
        return
    chosen(eng, who, target, weapon, gm)


def _enemies(eng: TwoD20Engine, who: str) -> list[str]:
    return [n for n in eng.present_names() if n != who and eng.enemies(who, n) and not eng.fighter(n).dead]


def target_offer(eng: TwoD20Engine, who: str, weapon: str | None, gm: int = 0) -> None:
    """Ask at whom: those the weapon reaches first, then by the chance to hit (docs/rules/2d20-combat.md#s3-6,
    docs/rules/2d20-combat.md#s3-7)."""
    rows: list[tuple[tuple[bool, float, int], str, str]] = []
    for i, name in enumerate(_enemies(eng, who)):
        found = [s for s in shots(eng, who, name, weapon, gm) if s.tn is not None]
        if not found:
            continue
        best = found[0]
        rows.append(((not best.reach, -float(best.chance or 0), i), name, f"{name} · {best.text()}"))
    if not rows:
        eng.log(f"{who} has no one to attack from {eng.fighter(who).zone}")
        return
    rows.sort(key=lambda r: r[0])
    eng.ask(
        TARGET,
        f"{who} attacks: at whom?",
        [name for _, name, _ in rows],
        who=who,
        weapon=weapon or "",
        gm=gm,
        labels=[label for _, _, label in rows],
    )


def chosen(eng: TwoD20Engine, who: str, target: str, weapon: str | None, gm: int = 0) -> None:
    """The target is known: the weapon, asked when more than one reaches it; then the reaction; then the test."""
    found = [s for s in shots(eng, who, target, weapon, gm) if s.tn is not None]
    if weapon is None and len(found) > 1:
        labels = [f"{s.weapon} ({weapon_of(eng, who, s.weapon).damage}[CD]) · {s.text()}" for s in found]
        eng.ask_weapon(WEAPON, who, target, [s.weapon for s in found], labels, gm=gm)
        return
    reaction_offer(eng, who, target, found[0].weapon, gm)


def _reactors(eng: TwoD20Engine, target: str) -> list[tuple[str, str, int]]:
    """Who may react to an attack on `target` under Infinity [003:L299-304], as (answer, who, Heat): the
    target's Defence, an ally's Guard (in the target's zone); a reaction costs Heat 1, 2, 3 … by how many the
    reactor has taken this round (B23), which an NPC must have in the pool; Helpless takes none [003:L425]."""
    out = []
    zone = eng.fighter(target).zone
    for name in [target, *(n for n in eng.present_names() if n != target and not eng.enemies(n, target))]:
        key = "defence" if name == target else "guard"
        b = eng.fighter(name)
        if b.dead or b.zone != zone or b.conditions.get("helpless") or actions.legality(eng, name, key):
            continue
        cost = b.reactions + 1
        if not eng.sheet(name).pc and eng.st.threat < cost:
            continue
        out.append((key if name == target else f"guard {name}", name, cost))
    return out


def reaction_offer(eng: TwoD20Engine, who: str, target: str, weapon: str, gm: int) -> None:
    """Infinity: before the dice, the target may take the Defence reaction (or an ally Guard it), making the
    attack face-to-face [003:L299-304]; elsewhere, and with no one able to react, straight to the test."""
    spec = weapon_of(eng, who, weapon)
    kind = form(spec)
    live = psywar.reaction_allowed(spec, kind)  # no reaction to a delayed or written threat [004:L2395-2396]
    found = _reactors(eng, target) if kind in eng.profile.defence_reaction_forms and live else []
    if not found:
        roll_offer(eng, who, target, shots(eng, who, target, weapon, gm)[0])
        return
    plain = shots(eng, who, target, weapon, gm)[0]
    options, labels = ["none"], [f"no reaction · {_pct(plain.chance)} to hit"]
    for answer_word, name, cost in found:
        shot = Shot(eng, who, target, weapon_of(eng, who, weapon), gm, answer_word.split()[0], name)
        if shot.test is None or shot.test.defence is None:
            continue  # the reactor's sheet cannot make the defence test
        paid = f"+{cost} {eng.pool_name}" if eng.sheet(name).pc else f"{cost} {eng.pool_name}"
        options.append(answer_word)
        what = "Defence" if name == target else f"{name} Guards"
        labels.append(f"{what} for {paid} · {_pct(shot.chance)} to hit")
    if len(options) == 1:
        roll_offer(eng, who, target, plain)
        return
    eng.ask(
        REACTION,
        f"{who} attacks {target} with the {weapon}: does {target} react (Defence), or an ally Guard?",
        options,
        who=who,
        target=target,
        weapon=weapon,
        gm=gm,
        labels=labels,
    )


def _pct(chance: Fraction | None) -> str:
    return f"{round(100 * chance)}%" if chance is not None else "?"


def _cost_text(eng: TwoD20Engine, who: str, cost: int) -> str:
    if not eng.sheet(who).pc:
        return f"{cost} {eng.pool_name}"
    if eng.st.momentum >= cost:
        return f"{cost} Momentum"
    return f"{cost} Momentum/{eng.pool_name}"


def roll_offer(eng: TwoD20Engine, who: str, target: str, shot: Shot, reaction: str = "") -> None:
    """The test, every contribution named; the bought d20s offered with their cost and the chance the same
    test gives (docs/rules/2d20.md#s3-2, docs/rules/2d20.md#s3-3). The prompt keeps both sides' numbers: the roll is the
    test the question shows."""
    assert shot.test is not None
    test = shot.test
    options, labels = [], []
    for bought in range(dice.MAX_BOUGHT_DICE + 1):
        cost = dice.bought_dice_cost(bought)
        if bought and not eng.sheet(who).pc and eng.st.threat < cost:
            break  # an NPC's side pays with Threat it must have
        options.append("roll" if not bought else f"roll+{bought}")
        paid = f" for {_cost_text(eng, who, cost)}" if bought else ""
        labels.append(f"{2 + bought}d20{paid} · {_pct(test.chance(bought))}")
    sides: dict[str, str | int | bool | list[str]] = {}
    for prefix, side in (("", test.test), ("d_", test.defence)):
        if side is not None:
            sides |= {
                f"{prefix}tn": side.tn,
                f"{prefix}difficulty": side.difficulty,
                f"{prefix}range": side.complication_range,
            }
            if side.focus_rating is not None:
                sides[f"{prefix}focus"] = side.focus_rating
    if test.defence is not None:
        sides["defender"] = test.defence.who
    eng.ask(
        ROLL,
        f"{who} attacks {target} with the {shot.weapon}: {test.text()} — roll, buying d20s?",
        options,
        who=who,
        target=target,
        weapon=shot.weapon,
        form=test.kind,
        reaction=reaction,
        modifiers=test.modifiers(),
        labels=labels,
        **sides,
    )


def check(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Refuse a bad answer before anything changes (the prompt, the pools and the dice stay as they were)."""
    if p.kind in (TARGET, WEAPON):
        names.resolve(value, p.options)
    elif p.kind in (REACTION, COUNTER):
        names.resolve(value, p.options, what="answer")
    elif p.kind == ROLL:
        mine, _ = roll_answer.opposed(value)
        _, faces = roll_answer.bought_and_faces(p.options, mine)
        if faces is not None:
            dice.roll_pool(eng.st, 0, 0, dice=len(faces), faces=faces)  # checks the faces, draws nothing
        roll_answer.defence_faces(eng, p, value)
    elif p.kind == DAMAGE:
        spend_answer.check(eng, p, value)
    elif p.kind == breaches.BREACH:
        breaches.check(eng, p, value)


def answer(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Resolve one of the flow's questions (`check` has accepted `value`)."""
    assert p.who is not None
    who = p.who
    gm = int(str(p.data.get("gm", 0)))
    if p.kind == TARGET:
        target = names.resolve(value, p.options)
        eng.log(f"{who} attacks {target}")
        chosen(eng, who, target, str(p.data["weapon"]) or None, gm)
    elif p.kind == WEAPON:
        target = str(p.data["target"])
        reaction_offer(eng, who, target, names.resolve(value, p.options), gm)
    elif p.kind == REACTION:
        _react(eng, p, names.resolve(value, p.options, what="answer"), gm)
    elif p.kind == ROLL:
        _roll(eng, p, value)
    elif p.kind == COUNTER:
        _counter(eng, p, names.resolve(value, p.options, what="answer"))
    elif p.kind == breaches.BREACH:
        breaches.answer(eng, p, value)
    else:
        _damage(eng, p, value)


def _react(eng: TwoD20Engine, p: Prompt, choice: str, gm: int) -> None:
    """Take the chosen reaction (its Heat paid as `spend` pays it, B23), then the face-to-face test."""
    who, target, weapon = str(p.who), str(p.data["target"]), str(p.data["weapon"])
    if choice == "none":
        roll_offer(eng, who, target, shots(eng, who, target, weapon, gm)[0])
        return
    key, _, ally = choice.partition(" ")
    by = names.resolve(ally, eng.present_names()) if ally else target
    actions.spend(eng, by, key, [target] if key == "guard" else [])
    roll_offer(eng, who, target, Shot(eng, who, target, weapon_of(eng, who, weapon), gm, key, by), key)


def _opt(p: Prompt, key: str) -> int | None:
    return int(str(p.data[key])) if key in p.data else None


def _lost(eng: TwoD20Engine, p: Prompt, side: str, momentum: int) -> None:
    """The attack did not hit: the consequence of its form (docs/rules/2d20-combat.md#s3-7 [004:L1640-1642])."""
    who, target, weapon, kind = str(p.who), str(p.data["target"]), str(p.data["weapon"]), str(p.data["form"])
    defender = str(p.data.get("defender", ""))
    eng.log(f"{who}'s attack with the {weapon} misses {target}")
    if kind == "mental":
        eng.fighter(target).mental_immune = True
        eng.log(f"{target} cannot be the target of a mental attack again this scene")
    if side != "reactive":
        return
    if kind == "melee" and defender == target and not eng.fighter(who).dead:
        options, labels = [], []
        own = [w for w in eng.sheet(target).weapons if form(w) == "melee"]
        if own:
            options.append("damage")
            labels.append(f"inflict the {own[0].name}'s {own[0].damage}[CD] on {who}")
        options += ["disengage", "nothing"]
        labels += [f"Disengage from {who}'s Reach", "neither"]
        eng.ask(
            COUNTER,
            f"{target} wins the opposed test ({momentum} Momentum): inflict damage on {who}, or Disengage?",
            options,
            who=target,
            target=who,
            weapon=own[0].name if own else "",
            momentum=momentum,
            labels=labels,
        )
        return
    pools.bank(eng, defender, momentum, f"{defender}'s opposed test")


def _counter(eng: TwoD20Engine, p: Prompt, choice: str) -> None:
    """B12: the winning melee defender inflicts its weapon's damage as if it had hit, or Disengages [004:L1640]."""
    who, attacker, momentum = str(p.who), str(p.data["target"]), int(str(p.data["momentum"]))
    if choice == "damage":
        eng.log(f"{who} strikes back at {attacker} with the {p.data['weapon']}")
        damage_offer(eng, who, attacker, str(p.data["weapon"]), momentum)
        return
    if choice == "disengage":
        eng.st.reach = [pair for pair in eng.st.reach if who not in pair or not eng.enemies(pair[0], pair[1])]
        eng.log(f"{who} Disengages (free, for winning the opposed test)")
    pools.bank(eng, who, momentum, f"{who}'s opposed test")


def _roll(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """The test the question showed: pay for the bought d20s, roll (or score the table's faces), the
    defender's too when opposed, settle it (docs/rules/2d20.md#s3-2); a hit asks the damage, a miss its consequence."""
    who, target, weapon = str(p.who), str(p.data["target"]), str(p.data["weapon"])
    mine, _ = roll_answer.opposed(value)
    bought, faces = roll_answer.bought_and_faces(p.options, mine)
    theirs = roll_answer.defence_faces(eng, p, value)
    cost = dice.bought_dice_cost(bought)
    tn, difficulty = int(str(p.data["tn"])), int(str(p.data["difficulty"]))
    crange = _opt(p, "range") or 1
    result = dice.roll_pool(eng.st, tn, difficulty, dice.BASE_DICE + bought, _opt(p, "focus"), crange, faces=faces)
    # An ally's Assist joins the test: its d20 at its own TN and Focus, rolled by the tracker (docs/rules/2d20.md#s3-2
    # Assistance [004:L502-506]); typed faces here are the attacker's own.
    result, assisted = outofturn.join(eng, who, result)
    if cost:
        why = f"{counted(bought, 'bought d20')}"
        if eng.sheet(who).pc and eng.st.momentum < cost:
            from_pool = eng.st.momentum
            if from_pool:
                pools.momentum(eng, -from_pool, f"{who} buys d20s")
            pools.threat(eng, cost - from_pool, f"{who} buys d20s")
        else:
            pools.pay(eng, who, cost, why)
    outofturn.used(eng, who, assisted)
    eng.log(f"{who} tests: {result.describe()}", kind="result")
    side, momentum = ("active", result.momentum) if result.passed else ("none", 0)
    if "defender" in p.data:
        defender = str(p.data["defender"])
        d_tn, d_difficulty = int(str(p.data["d_tn"])), int(str(p.data["d_difficulty"]))
        focus, d_range = _opt(p, "d_focus"), _opt(p, "d_range") or 1
        defence = dice.roll_pool(eng.st, d_tn, d_difficulty, dice.BASE_DICE, focus, d_range, faces=theirs)
        eng.log(f"{defender} defends: {defence.describe()}", kind="result")
        side, momentum = dice.opposed_outcome(result.passed, result.momentum, defence.passed, defence.momentum)
        winner = {"active": who, "reactive": defender}.get(side)
        eng.log(f"{winner} wins the opposed test with {momentum} Momentum" if winner else "both fail the opposed test")
    if side != "active":
        _lost(eng, p, side, momentum)
        return
    eng.log(f"{who}'s attack with the {weapon} hits {target}")
    damage_offer(eng, who, target, weapon, momentum)


def damage_offer(eng: TwoD20Engine, who: str, target: str, weapon: str, momentum: int) -> None:
    """The hit's damage: the weapon's and the attacker's own Challenge Dice, with the Momentum spends at the
    roll (`tracker.families.twod20.spends`, docs/rules/2d20-combat.md#s3-8)."""
    spends.offer(eng, who, target, weapon, momentum)


def _damage(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Pay the spends, roll the dice, bank what is left, apply the hit (`tracker.families.twod20.spends`)."""
    spends.resolve(eng, p, value)
