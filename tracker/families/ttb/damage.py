"""Damage, armor, criticals, unconsciousness, death and healing (docs/rules/ttb-damage.md#s2-8).

Damage that leaves a character at 0 Wounds or less queues a critical flip and an unconsciousness
check as agenda steps, so a prompt for the table (a card, a Toughness challenge) can interrupt and the
rest of the command or the turn end resumes after the answer.
"""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.fate import deck
from tracker.families.ttb.fate.cards import (
    LOCATION_BY_SUIT,
    Card,
    Severity,
    accuracy_modifier,
    choose,
    parse_damage_profile,
    severity_of,
)
from tracker.families.ttb.records.state import Critical
from tracker.present.words import counted

TOUGHNESS_TN = 10


def damage(
    eng: TTBEngine,
    name: str,
    raw: int,
    *,
    armor: bool = True,
    severity: Severity | None = None,
    why: str = "",
    kills_at_zero: bool = False,
    red_joker: bool = False,
) -> int:
    """Apply `raw` damage before armor; returns the damage suffered (docs/rules/ttb-damage.md#s2-8-1 step 5,
    docs/rules/ttb-damage.md#s2-8-2)."""
    f = eng.fighter(name)
    sheet = eng.sheet(name)
    reduce = sheet.armor if armor else 0
    final = 0 if raw <= 0 else max(1, raw - reduce)
    before = f.wounds
    f.wounds -= final
    label = f"{why}: " if why else ""
    if reduce and raw > 0:
        eng.log(f"{label}{name} takes {raw} − {reduce} armor = {final} ({before} → {f.wounds})")
    else:
        note = ", no armor" if not armor and sheet.armor else ""
        eng.log(f"{label}{name} takes {final}{note} ({before} → {f.wounds})")
    if final < 1:
        return 0
    ignores = sheet.ignores_critical_effects and not sheet.fated
    if f.wounds <= 0 and kills_at_zero:
        die(eng, name, f"{why or 'damage'} left {counted(f.wounds, 'Wound')}")
        return final
    if ignores:
        if f.wounds <= 0 or red_joker:
            eng.log(f"{name} ignores critical effects and keeps fighting")
        if f.wounds <= 0 and eng.settings.critical_immune_at_zero == "toughness":
            eng.push(step("unconscious_check", name))
        return final
    steps = []
    if red_joker:
        steps.append(step("critical", name, "severe"))
    elif f.wounds <= 0:
        steps.append(step("critical", name, severity or "weak"))
    if f.wounds <= 0:
        steps.append(step("unconscious_check", name))
    eng.push(*steps)
    return final


def damage_flip(
    eng: TTBEngine,
    name: str,
    profile: str,
    modifier: int,
    card: str | None,
    armor: bool,
    kills_at_zero: bool = False,
    taken: Card | None = None,
    attacker: str | None = None,
    blast: int = 0,
) -> None:
    """A weapon's damage flip (docs/rules/ttb-damage.md#s2-8-1): accuracy modifier, cards, severity, Jokers, armor.

    A Fated `attacker` may cheat the tracker's flip (docs/rules/ttb.md#s2-2-4 via `cheat.offer`); a card the table typed
    is final, and if it is in that attacker's Control Hand it is played from the hand (the table cheated).
    """
    from tracker.families.ttb.fate import cheat

    wms = parse_damage_profile(profile)
    if wms is None:
        raise Refusal(f"'{profile}' is not a damage profile like 2/3/5")
    typed = taken is not None or card is not None
    if taken is not None:
        cards = [taken]
        chosen = taken
    elif card is not None:
        code = cheat.held(eng, attacker, card)
        if attacker is not None and code is not None:
            cards = [cheat.play(eng, attacker, code, None)]
        else:
            cards = [deck.take(eng, card)]
        chosen = cards[0]
    else:
        cards = deck.flip(eng, 1 + abs(modifier))
        chosen = choose(cards, modifier, damage_flip=True)
    shown = ", ".join(c.label() for c in cards) if len(cards) > 1 else ""
    sev = severity_of(chosen)
    mod = "" if modifier == 0 else f" with {'⊞' * modifier if modifier > 0 else '⊟' * -modifier}"
    if sev is None:
        eng.log(f"damage flip vs {name}{mod}: {shown + ' → ' if shown else ''}Black Joker, no damage", kind="result")
    else:
        amount = wms[SEVERITIES.index(sev)]
        eng.log(
            f"damage flip vs {name}{mod}: {shown + ' → ' if shown else ''}{chosen.label()}, {sev} {amount}",
            kind="result",
        )

    def helps(c: Card) -> bool:
        return _amount(wms, c) > _amount(wms, chosen) or (c.is_red_joker and not chosen.is_red_joker)

    def makes(c: Card) -> str:
        sev = severity_of(c)
        if sev is None:
            return "no damage"
        return f"{sev} {_amount(wms, c)}" + (" + Severe Critical" if c.is_red_joker else "")

    if not typed and cheat.offer(
        eng,
        attacker,
        chosen,
        cards,
        modifier,
        helps,
        "damage",
        makes,
        target=name,
        profile=profile,
        armor=armor,
        kills=kills_at_zero,
        blast=blast,
    ):
        return
    land(eng, name, profile, chosen, armor, kills_at_zero, blast)


SEVERITIES = ("weak", "moderate", "severe")
#: The same, typed as the severities `damage` takes.
SEVERITY_NAMES: tuple[Severity, ...] = ("weak", "moderate", "severe")


def _amount(wms: tuple[int, int, int], card: Card) -> int:
    sev = severity_of(card)
    return 0 if sev is None else wms[SEVERITIES.index(sev)]


def land(
    eng: TTBEngine, name: str, profile: str, chosen: Card, armor: bool, kills_at_zero: bool, blast: int = 0
) -> None:
    """The damage flip's card is final: its damage lands (docs/rules/ttb-damage.md#s2-8-1 steps 4-5); a blast's question
    follows the primary target's own criticals (`tracker.families.ttb.area.blast`)."""
    wms = parse_damage_profile(profile)
    assert wms is not None
    sev = severity_of(chosen)
    queued = len(eng.st.agenda)
    _landed(eng, name, wms, chosen, sev, armor, kills_at_zero)
    if blast:
        added = len(eng.st.agenda) - queued  # the primary's critical and unconsciousness check come first
        eng.st.agenda.insert(added, step("blast", name, f"{profile}\t{sev or ''}\t{blast}"))


def _landed(
    eng: TTBEngine,
    name: str,
    wms: tuple[int, int, int],
    chosen: Card,
    sev: Severity | None,
    armor: bool,
    kills_at_zero: bool,
) -> None:
    if sev is None:
        damage(eng, name, 0, armor=armor, why="Black Joker")
        return
    amount = _amount(wms, chosen)
    if kills_at_zero:
        damage(eng, name, amount, armor=armor, kills_at_zero=True, why="Suffocating")
    else:
        damage(eng, name, amount, armor=armor, severity=sev, why=f"{sev} damage", red_joker=chosen.is_red_joker)


def modifier_from_margin(margin: int) -> int:
    """The accuracy modifier for an attack that beat the TN by `margin` (docs/rules/ttb-damage.md#s2-8-1, decision
    A2)."""
    return accuracy_modifier(margin)


def run_critical(eng: TTBEngine, name: str, severity: str) -> None:
    """Agenda step: the critical flip — prompt the table, or flip at once if flips are automatic."""
    if eng.fighter(name).dead:
        return
    if eng.settings.flips == "auto":
        resolve_critical(eng, name, severity, deck.flip(eng, 1)[0])
        return
    eng.ask(
        "critical",
        f"{name} suffers a {severity.title()} Critical Effect: which card was flipped? (or flip)",
        ["flip"],
        who=name,
        severity=severity,
    )


def resolve_critical(eng: TTBEngine, name: str, severity: str, card: Card) -> None:
    """Record the critical: the suit gives the location; Jokers follow 1E (docs/rules/ttb-damage.md#s2-8-2, decision
    A28)."""
    f = eng.fighter(name)
    if card.is_red_joker:
        eng.log(f"critical flip for {name}: Red Joker, no critical effect")
        return
    if card.is_black_joker:
        location, note = "GM's choice", " (Black Joker: maximum effect)"
    elif card.suit is None:
        location, note = "unknown (no suit given)", ""
    else:
        location, note = LOCATION_BY_SUIT[card.suit], ""
    crit = Critical(
        severity=severity,
        location=location,
        card=card.code,
        negative_wounds=max(0, -f.wounds),
        round=eng.st.round,
    )
    f.criticals.append(crit)
    eng.log(
        f"{name} suffers a {severity.title()} Critical Effect to the {location}{note}: "
        f"card {card.label()}, {counted(crit.negative_wounds, 'negative Wound')}"
    )


def run_unconscious_check(eng: TTBEngine, name: str) -> None:
    """Agenda step: at 0 Wounds or less, a Fated makes a TN 10 Toughness challenge; a FM fails, unless it
    ignores critical effects: then it takes the challenge too with ``critical_immune_at_zero = "toughness"``,
    and none at all by decision A35 (the default)."""
    f = eng.fighter(name)
    if f.dead or f.unconscious:
        return
    sheet = eng.sheet(name)
    if not sheet.fated and sheet.ignores_critical_effects and eng.settings.critical_immune_at_zero != "toughness":
        return
    if sheet.fated or sheet.ignores_critical_effects:
        from tracker.families.ttb import duel

        head = f"{name} is at {counted(f.wounds, 'Wound')}: TN {TOUGHNESS_TN} Toughness challenge"
        duel.ask(eng, "unconscious_check", name, head, "toughness", TOUGHNESS_TN, action=False)
        return
    fall_unconscious(eng, name, "a Fatemaster character fails the check automatically")


def fall_unconscious(eng: TTBEngine, name: str, why: str) -> None:
    """Unconscious: Prone, no AP, no actions (docs/rules/ttb-conditions.md#s2-7-2)."""
    f = eng.fighter(name)
    f.unconscious = True
    f.conditions["prone"] = True
    f.ap = 0
    f.combat_ap = 0
    eng.log(f"{name} falls Unconscious and Prone ({why})")


def resists_blind(eng: TTBEngine, name: str) -> bool:
    """Whether a Fated counts as flipping the Black Joker on the Defense or Willpower duel that resists an
    attack: while Unconscious (docs/rules/ttb-conditions.md#s2-7 Unconscious [000:L350])."""
    return eng.sheet(name).fated and eng.fighter(name).unconscious


def die(eng: TTBEngine, name: str, why: str) -> None:
    """Death: out of the initiative order and out of every engagement (docs/rules/ttb-conditions.md#s2-7-2 Dead)."""
    st = eng.st
    f = eng.fighter(name)
    if f.dead:
        return
    f.dead = True
    f.ap = 0
    f.combat_ap = 0
    f.wait = None
    if name in st.order:
        st.order.remove(name)
    st.engagements = [pair for pair in st.engagements if name not in pair]
    eng.log(f"{name} dies ({why})")
    if eng.is_active(name) and st.ending != name:
        eng.close_turn(name, effects=False)


def heal(eng: TTBEngine, name: str, amount: int, why: str = "") -> None:
    """Heal up to the maximum (decision A38); waking needs ≥1 Wound afterwards (docs/rules/ttb-damage.md#s2-8-3)."""
    f = eng.fighter(name)
    top = eng.sheet(name).wounds
    before = f.wounds
    f.wounds = min(top, f.wounds + amount)
    label = f"{why}: " if why else ""
    eng.log(f"{label}{name} heals {f.wounds - before} ({before} → {f.wounds})")
    if f.unconscious and amount >= 1 and f.wounds >= 1:
        f.unconscious = False
        eng.log(f"{name} regains consciousness (still Prone)")


def healing_flip(eng: TTBEngine, name: str, profile: str, card: str | None) -> None:
    """A healing flip, never cheated: Black Joker none … Red Joker all damage (docs/rules/ttb-damage.md#s2-8-3)."""
    wms = parse_damage_profile(profile)
    if wms is None:
        raise Refusal(f"'{profile}' is not a healing profile like 1/2/3")
    chosen = deck.take(eng, card) if card is not None else deck.flip(eng, 1)[0]
    sev = severity_of(chosen)
    if sev is None:
        eng.log(f"healing flip for {name}: Black Joker, no healing", kind="result")
        return
    if chosen.is_red_joker:
        amount = eng.sheet(name).wounds - eng.fighter(name).wounds
        eng.log(f"healing flip for {name}: Red Joker, all damage healed", kind="result")
    else:
        amount = wms[("weak", "moderate", "severe").index(sev)]
        eng.log(f"healing flip for {name}: {chosen.label()} → {sev} {amount}", kind="result")
    heal(eng, name, amount, why="healing flip")
