"""An attack as one flow (docs/reference/language.md ``attack``; docs/rules/ttb-turns.md#s2-5 Strike and Charge,
docs/rules/ttb-damage.md#s2-8-1, docs/rules/ttb-damage.md#s2-9).

``attack NAME [strike|shoot|charge] [TARGET] [WEAPON]`` pays the action like ``spend`` and then asks, one
pending prompt at a time, what it still needs: the target (the legal ones first, each with its odds), the
weapon when the sheet has more than one of the kind, the attack duel (the tracker flips, or the table's
result), and the damage flip with the weapon's profile and the accuracy modifier (the tracker flips, or the
card the table flipped). Option 1 of every question is the tracker's default, so a key per question plays
the whole attack. A ``spend NAME strike`` typed without a target keeps its meaning (the strike is declared
and the table resolves it by hand); the typed forms with a target are unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.families.ttb import actions, damage, duel, gm_modifiers
from tracker.families.ttb.crowd import flip as crowd_flip
from tracker.families.ttb.crowd import shot
from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.fate import opposed
from tracker.families.ttb.fate.cards import parse_card
from tracker.families.ttb.records.sheet import Weapon
from tracker.families.ttb.records.state import Prompt

if TYPE_CHECKING:  # `fractions` (with `decimal`) is loaded when odds are asked for, not by every `tracker exec`
    from fractions import Fraction

#: The attack actions and the kind of weapon each uses (docs/reference/language.md "Weapons (TTB)").
KINDS = {"strike": "melee", "charge": "melee", "shoot": "projectile"}
VERB = {"strike": "strikes", "charge": "charges", "shoot": "shoots"}
#: Marks an attack step (and its prompts) as part of the flow: the duel offers the tracker's flip
#: first, and a hit asks for the damage flip instead of flipping at once.
GUIDED = "guided"
TARGET, WEAPON, DAMAGE, INTO_MELEE = "attack_target", "attack_weapon", "damage_flip", "into_melee"


def weapons_of(eng: TTBEngine, who: str, key: str) -> list[Weapon]:
    """`who`'s weapons an attack `key` can use (loaded ones only, for a shot)."""
    f = eng.fighter(who)
    kind = KINDS[key]
    return [w for w in eng.sheet(who).weapons if w.kind == kind and f.shots.get(w.name, 1) > 0]


def _action(text: str) -> str | None:
    """The attack action `text` names, if it names one (else it is a target or a weapon)."""
    try:
        return actions.action_key(text)
    except Refusal:
        return None


def _named_weapon(eng: TTBEngine, who: str, text: str) -> str | None:
    for w in eng.sheet(who).weapons:
        if w.name.casefold().startswith(text.casefold()):
            return w.name
    return None


def start(eng: TTBEngine, args: list[str]) -> None:
    """``attack NAME [ACTION] [TARGET] [WEAPON]``: check and pay like ``spend``, then ask what is missing."""
    eng.require_started()
    who = eng.living(args[0])
    gm, rest = gm_modifiers.gm_parts(args[1:])
    key = "strike"
    if rest and _action(rest[0]) in KINDS:
        key = actions.action_key(rest.pop(0))
    kind = KINDS[key]
    if not any(w.kind == kind for w in eng.sheet(who).weapons):
        raise Refusal(
            f"{who} has no {kind} weapon on the sheet: 'spend {who} {key}' declares the attack, "
            "'damage' applies its result"
        )
    target: str | None = None
    weapon: str | None = None
    for word in rest:
        named = _named_weapon(eng, who, word)
        if target is None and weapon is None and named is None:
            target = eng.living(word)
            if target == who:
                raise Refusal(f"{who} cannot attack itself")
            if not eng.enemies(who, target):
                raise Refusal(f"{target} is on {who}'s side ({eng.side(who)})")
        elif named is not None and weapon is None:
            weapon = named
            if next(w for w in eng.sheet(who).weapons if w.name == named).kind != kind:
                raise Refusal(f"the {named} is not a {kind} weapon: {key} needs one")
        else:
            raise Refusal(
                f"usage: attack NAME [strike|shoot|charge] [TARGET] [WEAPON] [+|-|tn=±N] ('{word}' is neither)"
            )
    reason = actions.legality(eng, who, key, [])
    if reason:
        raise Refusal(reason)
    if target is None and not any(eng.enemies(who, n) and not eng.fighter(n).dead for n in eng.present_names()):
        raise Refusal(f"{who} has no enemy left to attack")
    if key == "shoot":
        usable = weapons_of(eng, who, key)
        if not usable or (weapon is not None and weapon not in [w.name for w in usable]):
            raise Refusal(f"{who}'s {weapon or 'projectile weapons'}: empty, reload first")
    actions.pay(eng, who, key, actions.cost_of(eng, key, []))
    eng.log(f"{who} {VERB[key]}" + (f" at {target}" if target else ""))
    extra = " ".join(gm_modifiers.gm_words(gm))
    if gm:
        eng.log(f"the GM's modifiers for this attack: {', '.join(p.text() for p in gm)}")
    if target is None:
        eng.push(step(TARGET, who, f"{key}\t{weapon or ''}\t{extra}"))
        return
    chosen(eng, who, key, target, weapon, extra)


def chosen(eng: TTBEngine, who: str, key: str, target: str, weapon: str | None, gm: str = "") -> None:
    """The target is known: a Charge engages it; then the weapon, asked when there is a choice."""
    if key == "charge":
        link = sorted([who, target])
        if link not in eng.st.engagements:
            eng.st.engagements.append(link)
        eng.log(f"{who} charges {target}: now engaged; two (1)-AP melee attacks")
    if weapon is None:
        usable = weapons_of(eng, who, key)
        if len(usable) > 1:
            eng.ask_weapon(
                WEAPON,
                who,
                target,
                [w.name for w in usable],
                [f"{w.name} ({w.damage})" for w in usable],
                action=key,
                gm=gm,
            )
            return
        weapon = usable[0].name
    armed(eng, who, key, target, weapon, gm)


def armed(eng: TTBEngine, who: str, key: str, target: str, weapon: str, gm: str = "") -> None:
    """Target and weapon known: a shot is counted, then the attack duels (two for a Charge) are queued, each
    with the GM's own modifiers (`gm_modifiers.gm_parts`)."""
    if key == "shoot":
        actions.count_shot(eng, who, weapon)
        crowd = into_melee(eng, who, target)
        if len(crowd) > 1:
            eng.ask(
                INTO_MELEE,
                f"{who} shoots into the melee around {target}: a card for each of {', '.join(crowd)}, the lowest "
                "is hit — flip, or who is hit?",
                ["flip", *crowd],
                who=who,
                target=target,
                weapon=weapon,
                gm=gm,
                labels=["flip: the tracker flips a card each", *[f"{n}: the table's flip" for n in crowd]],
            )
            return
    times = 2 if key == "charge" else 1
    eng.push(*[step("attack", who, f"{target}\t{weapon}\t{GUIDED}\t{gm}") for _ in range(times)])


# --- the target: legal first, each with its odds -----------------------------------------------------------


def hit_chance(
    eng: TTBEngine, who: str, target: str, weapon: Weapon, gm: Sequence[duel.Part] = ()
) -> tuple[Fraction, Fraction | None] | None:
    """The chance the tracker's flip hits `target`, straight and with the flipper's cheat from the hand
    (docs/rules/ttb.md#s2-2-4, docs/rules/ttb.md#s2-2-5), from the same `duel.Duel` the flip uses (every modifier in
    play counted): a Fated's attack on a Fatemaster character, or a Fatemaster's on a Fated (who flips Defense), or a
    Fated's on a Fated (both flip, `opposed_odds`); Fatemaster against Fatemaster is sure either way."""
    from fractions import Fraction

    from tracker.families.ttb.fate.odds import cards_of, duel_odds  # loaded when an attack asks
    from tracker.families.ttb.fate.opposed_odds import opposed_odds

    asheet, tsheet = eng.sheet(who), eng.sheet(target)
    deck, discards = cards_of(eng.st.deck), cards_of(eng.st.discards)
    skill = weapon.attack_skill()
    if asheet.fated and tsheet.fated:
        ours, theirs = duel.opposed_sides(eng, who, target, skill, weapon.kind, gm)
        data = opposed.sides_data(ours, theirs)
        fa, fd, bonus_a, bonus_d = opposed.fates(data)
        av = asheet.skills.get(skill, 0) + eng.fighter(who).assist + bonus_a
        # The attacker's own cheat only: the label goes to the attacker's player, who does not know the
        # defender's hand (its odds come from what that seat knows, docs/guide/seating.md).
        mine = cards_of(eng.fighter(who).hand) if skill in asheet.skills and fa >= 0 else None
        if not eng.settings.offer_cheat:
            mine = None
        blind = damage.resists_blind(eng, target)
        both = opposed_odds(deck, discards, av, tsheet.defense + bonus_d, mine, None, fa=fa, fd=fd, blind=blind)
        return both.straight, both.aggressor_cheats
    if (asheet.fated or tsheet.fated) and None in (asheet.rank_value if tsheet.fated else tsheet.rank_value,):
        return None
    test = duel.attack(eng, who, target, skill, weapon.kind, gm)
    if test.cardless:
        return Fraction(1 if test.av + test.bonus >= test.final_tn else 0), None  # the aggressor wins ties
    if asheet.fated:
        hand = cards_of(eng.fighter(who).hand) if test.trained and eng.settings.offer_cheat else None
        odds = duel_odds(deck, discards, test.final_tn, test.av + test.bonus, test.fate, hand, no_cheat=test.no_cheat())
        return odds.straight, odds.cheat
    if damage.resists_blind(eng, target):
        # the Unconscious Fated's Defense counts as the Black Joker (docs/rules/ttb-conditions.md#s2-7)
        return Fraction(1), None
    hand = cards_of(eng.fighter(target).hand) if eng.settings.offer_cheat else None
    odds = duel_odds(deck, discards, test.final_tn, test.av + test.bonus, test.fate, hand, no_cheat=test.no_cheat())
    return 1 - odds.straight, None if odds.cheat is None else 1 - odds.cheat


def counted_for(eng: TTBEngine, who: str, target: str, weapon: Weapon, gm: Sequence[duel.Part] = ()) -> list[str]:
    """The modifiers the attack duel on `target` would count, as the target list names them beside its odds."""
    asheet, tsheet = eng.sheet(who), eng.sheet(target)
    skill = weapon.attack_skill()
    if asheet.fated and tsheet.fated:
        ours, theirs = duel.opposed_sides(eng, who, target, skill, weapon.kind, gm)
        return [p.text() for p in ours if p.fate or p.tn or p.total] + [
            f"{target}: {p.text()}" for p in theirs if p.fate or p.tn or p.total
        ]
    return duel.attack(eng, who, target, skill, weapon.kind, gm).counted()


def odds_text(chance: tuple[Fraction, Fraction | None] | None, defender: str | None = None) -> str:
    """``45% to hit (61% with the cheat)``: the cheat is the attacker's, or the Fated `defender`'s when a
    Fatemaster character attacks one (``11% to hit (2% if Sofia cheats)``)."""
    if chance is None:
        return "the table's duel"
    straight, cheating = chance
    text = f"{round(100 * straight)}% to hit"
    if cheating is not None and round(100 * cheating) != round(100 * straight):
        whose = f"if {defender} cheats" if defender else "with the cheat"
        text += f" ({round(100 * cheating)}% {whose})"
    return text


def cheater_against(eng: TTBEngine, who: str, target: str) -> str | None:
    """The Fated defender whose cheat the odds of `who`'s attack count, when a Fatemaster character attacks."""
    return target if not eng.sheet(who).fated and eng.sheet(target).fated else None


def candidates(
    eng: TTBEngine, who: str, key: str, weapon: Weapon, gm: Sequence[duel.Part] = ()
) -> tuple[list[tuple[str, str]], list[str]]:
    """Everyone `who` may attack, best first: (name, what the option says), and the modifiers every target's
    odds counted alike (the attacker's own: the question names them once). Legal targets come first
    (docs/rules/ttb-damage.md#s2-9: a Strike reaches the engaged; a Charge or a shot anyone), then by the odds."""
    from fractions import Fraction

    engaged = set(eng.linked(who))
    rows: list[tuple[tuple[int, int, Fraction, int], str, list[str], str, list[str]]] = []
    for i, name in enumerate(eng.present_names()):
        if name == who or not eng.enemies(who, name) or eng.fighter(name).dead:
            continue
        f = eng.fighter(name)
        legal = name in engaged if key == "strike" else True
        notes = []
        if key == "strike":
            notes.append("engaged" if legal else "not engaged")
        elif key == "shoot":
            others = [n for n in eng.linked(name) if n != who]
            if others:
                notes.append(f"in melee with {', '.join(others)}")
        if f.unconscious:
            notes.append("unconscious")
        chance = hit_chance(eng, who, name, weapon, gm)
        counted = counted_for(eng, who, name, weapon, gm) if chance is not None else []
        best = Fraction(-1) if chance is None else max(chance[0], chance[1] or chance[0])
        order = (0 if legal else 1, 1 if f.unconscious else 0, -best, i)
        rows.append((order, name, notes, odds_text(chance, cheater_against(eng, who, name)), counted))
    rows.sort(key=lambda r: r[0])
    counted_rows = [r[4] for r in rows if r[3] != odds_text(None)]
    common = [c for c in counted_rows[0] if all(c in other for other in counted_rows)] if counted_rows else []
    out = []
    for _, name, notes, odds, counted in rows:
        own = "; ".join(c for c in counted if c not in common)
        out.append((name, f"{name} · {', '.join([*notes, f'{odds} ({own})' if own else odds])}"))
    return out, common


def target_offer(eng: TTBEngine, who: str, arg: str) -> None:
    """Agenda step: ask at whom the attack goes (option 1 the best legal target); the modifiers every target's
    odds count (the attacker's own state) are named once, in the question."""
    key, weapon_name, *more = arg.split("\t")
    gm_text = more[0] if more else ""
    if eng.fighter(who).dead or eng.fighter(who).unconscious:
        return
    usable = weapons_of(eng, who, key)
    weapon = next((w for w in usable if w.name == weapon_name), usable[0] if usable else None)
    rows, common = candidates(eng, who, key, weapon, gm_modifiers.gm_parts(gm_text.split())[0]) if weapon else ([], [])
    if not rows:
        eng.log(f"{who} has no one to attack")
        return
    eng.ask(
        TARGET,
        f"{who} {VERB[key]}" + (f" ({'; '.join(common)})" if common else "") + ": at whom?",
        [name for name, _ in rows],
        who=who,
        action=key,
        weapon=weapon_name,
        gm=gm_text,
        labels=[label for _, label in rows],
    )


# --- the answers ----------------------------------------------------------------------------------------


def answer_target(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    target = names.resolve(value, p.options)
    eng.log(f"{p.who} attacks {target}")
    chosen(eng, p.who, str(p.data["action"]), target, str(p.data["weapon"]) or None, str(p.data.get("gm", "")))


def into_melee(eng: TTBEngine, who: str, target: str) -> list[str]:
    """Who a shot at an engaged `target` may hit [000:L294]: the target, then everyone (friend or foe) within 2
    yards of it that the shot could target. The tracker keeps no yards: those in a melee link with the target
    stand within 2 yards of it (docs/guide/decisions.md "Shooting into an engagement")."""
    if not eng.linked(target):
        return [target]
    others = [n for n in eng.linked(target) if n != who and not eng.fighter(n).dead]
    return [target, *others]


def answer_into_melee(eng: TTBEngine, p: Prompt, value: str) -> None:
    """``flip``: one card for each, the lowest is hit (a tie keeps the declared target, else the first named);
    a name: the table flipped and that one is hit. Then the attack duel against whoever is hit."""
    assert p.who is not None
    target, weapon, gm = str(p.data["target"]), str(p.data["weapon"]), str(p.data.get("gm", ""))
    crowd = [o for o in p.options if o != "flip"]
    if value.split()[0].casefold() == "flip":
        # A Fated attacker may cheat these flips [000:L294] (`crowd`).
        crowd_flip(eng, p.who, target, weapon, gm, crowd)
        return
    hit = names.resolve(value, crowd)
    eng.log(f"shooting into the melee: {hit} is hit (the table's flip)")
    shot(eng, p.who, hit, target, weapon, gm)


def answer_weapon(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    weapon = names.resolve(value, p.options)
    armed(eng, p.who, str(p.data["action"]), str(p.data["target"]), weapon, str(p.data.get("gm", "")))


def check(eng: TTBEngine, p: Prompt, value: str) -> None:
    """Refuse a bad answer to one of the flow's questions before anything changes."""
    if p.kind in (TARGET, WEAPON):
        names.resolve(value, p.options)
    elif p.kind == INTO_MELEE and value.split()[0].casefold() != "flip":
        names.resolve(value, [o for o in p.options if o != "flip"])
    elif p.kind == DAMAGE and value.split()[0].casefold() != "flip":
        parse_card(value)


def damage_offer(
    eng: TTBEngine,
    who: str,
    target: str,
    weapon: str,
    profile: str,
    modifier: int,
    counted: Sequence[str] = (),
    blast: int = 0,
) -> None:
    """A hit in the flow: the damage flip is the next question (the tracker flips, or the table's card);
    with ``flips = "auto"`` the tracker flips at once. `counted` names what beside the accuracy changed it."""
    if eng.settings.flips == "auto":
        damage.damage_flip(eng, target, profile, modifier, None, True, attacker=who, blast=blast)
        return
    mod = "" if modifier == 0 else f" with {'⊞' * modifier if modifier > 0 else '⊟' * -modifier}"
    if counted:
        mod += f" ({', '.join(counted)})"
    eng.ask(
        DAMAGE,
        f"{who} hits {target}: damage flip for the {weapon} ({profile}){mod} — flip, or the card flipped?",
        ["flip"],
        who=who,
        target=target,
        profile=profile,
        modifier=modifier,
        blast=blast,
        labels=["flip: the tracker flips"],
    )


def answer_damage(eng: TTBEngine, p: Prompt, value: str) -> None:
    """``flip``: the tracker's damage flip (a Fated may cheat it); a card: the table's flip, final."""
    card = None if value.split()[0].casefold() == "flip" else value
    target = str(p.data["target"])
    profile, modifier, blast = str(p.data["profile"]), int(str(p.data["modifier"])), int(str(p.data.get("blast", 0)))
    damage.damage_flip(eng, target, profile, modifier, card, True, attacker=p.who, blast=blast)
