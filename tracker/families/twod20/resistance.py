"""What the GM says of a combatant's own Cover and Morale (the sheet's ``cover_effects`` and ``morale_effects``,
[004:L1795-1800]): rolled apart from what actions grant, so the Effects ([!]) they roll are theirs.

- Sturdy: +1 Resistance for each [!] rolled.
- Fragile: each [!] takes a die off it for later hits; at none left it is destroyed.
- Uncertain: 1 Threat for each [!] rolled.
- Volatile X: one [!] or more and the holder suffers X[CD] damage (physical from Cover, mental from Morale,
  the seed leaving it to the GM) and it is destroyed.

Its dice lost and destroyed live in the fighter's ``resistance_lost``; `harm.damage` asks `standing` before
the roll and `spent` after the hit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.families.twod20 import pools
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.records.sheet import resistance_effects
from tracker.present.words import counted

if TYPE_CHECKING:
    from tracker.families.twod20.engine import TwoD20Engine


def effects(eng: TwoD20Engine, name: str, kind: str) -> dict[str, int]:
    """The effects of `name`'s own ``kind`` ("cover" or "morale"), {} when the GM gave none."""
    sheet = eng.sheet(name)
    return resistance_effects(sheet.cover_effects if kind == "cover" else sheet.morale_effects)


def dice_left(eng: TwoD20Engine, name: str, kind: str) -> int:
    """The dice `name`'s own ``kind`` still gives (Fragile takes them off; 0 once destroyed)."""
    sheet = eng.sheet(name)
    full = sheet.cover if kind == "cover" else sheet.morale
    return max(0, full - eng.fighter(name).resistance_lost.get(kind, 0))


def sturdy(found: dict[str, int], roll: dice.ChallengeRoll) -> int:
    """Sturdy's +1 per [!] rolled [004:L1797]."""
    return roll.icons if "sturdy" in found else 0


def spent(eng: TwoD20Engine, name: str, kind: str, found: dict[str, int], roll: dice.ChallengeRoll) -> int:
    """After the hit: Uncertain's Threat, Fragile's lost dice, Volatile's destruction [004:L1798-1800].
    Returns Volatile's X (the damage dice the holder then suffers), or 0."""
    if not roll.icons:
        return 0
    a = eng.fighter(name)
    if "uncertain" in found:
        pools.threat(eng, roll.icons, f"{name}'s Uncertain {kind}")
    if "volatile" in found:
        a.resistance_lost[kind] = a.resistance_lost.get(kind, 0) + dice_left(eng, name, kind)
        eng.log(f"{name}'s Volatile {kind} goes off and is destroyed: {found['volatile']}[CD] damage to {name}")
        return found["volatile"]
    if "fragile" in found:
        lost = min(roll.icons, dice_left(eng, name, kind))
        a.resistance_lost[kind] = a.resistance_lost.get(kind, 0) + lost
        left = dice_left(eng, name, kind)
        eng.log(
            f"{name}'s Fragile {kind} loses {counted(lost, 'die')}"
            + (f": {left}[CD] left" if left else ": it is destroyed")
        )
    return 0
