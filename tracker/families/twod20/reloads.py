"""Burst and Reloads (docs/rules/2d20-combat.md#s3-7 [004:L1693-1701]): Reloads spent before an attack's dice, each for
1 bonus Momentum on that attack, at most the weapon's Burst; an "M" weapon spends one every attack for nothing.
The Reloads left are kept per weapon on the fighter (``reloads`` in the state and its JSON).
"""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.sheet import TwoD20Weapon
from tracker.present.words import counted


def check_reloads(eng: TwoD20Engine, who: str, weapon: TwoD20Weapon, spent: int) -> None:
    """Refuse Reloads the rules do not allow before anything changes: more than the Burst, more than are
    left, any for a weapon whose Reloads the table does not count, or none left for an M weapon
    [004:L1695-1701]."""
    if spent < 0:
        raise Refusal("Reloads spent cannot be negative")
    if weapon.reloads is None:
        if spent:
            raise Refusal(f"the {weapon.name} has no Reloads on the sheet (reloads = N)")
        return
    used = max(spent, 1 if weapon.mandatory_reload else 0)
    if used > weapon.burst:
        raise Refusal(f"the {weapon.name} has Burst {weapon.burst}: at most {weapon.burst} Reloads an attack")
    left = eng.fighter(who).reloads.get(weapon.name, 0)
    if used > left:
        must = " (M: one each attack)" if weapon.mandatory_reload and not spent else ""
        raise Refusal(f"{who}'s {weapon.name} has {counted(left, 'Reload')} left, not {used}{must}")


def spend_reloads(eng: TwoD20Engine, who: str, weapon: TwoD20Weapon, spent: int) -> int:
    """Spend `spent` Reloads before the attack's dice (an M weapon at least 1): the bonus Momentum they give,
    1 each but the mandatory one [004:L1697-1701], kept in ``bonus_momentum`` (never saved, [004:L518]).
    `check_reloads` has accepted them."""
    if weapon.reloads is None:
        return 0
    used = max(spent, 1 if weapon.mandatory_reload else 0)
    if not used:
        return 0
    a = eng.fighter(who)
    a.reloads[weapon.name] = a.reloads.get(weapon.name, 0) - used
    bonus = used - (1 if weapon.mandatory_reload else 0)
    eng.st.bonus_momentum += bonus
    why = f"{bonus} bonus Momentum" if bonus else "the mandatory Reload (M), no benefit"
    eng.log(f"{who} spends {counted(used, 'Reload')} of the {weapon.name}: {why} ({a.reloads[weapon.name]} left)")
    return bonus


def reloads_word(value: str) -> tuple[str, int]:
    """The roll answer without its ``reloads=N`` word, and N (0 when absent)."""
    kept, spent = [], 0
    for word in value.split():
        key, eq, rest = word.partition("=")
        if eq and key.casefold() in ("reloads", "reload"):
            spent = count(rest, "Reloads")
        else:
            kept.append(word)
    return " ".join(kept), spent
