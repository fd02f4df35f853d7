"""The SRD's psychological warfare [004:L2365-2415]: a threat is a mental attack whose weapon names how it
is delivered and what makes it bite, as words among its effects (docs/reference/file-format.md)::

    weapons = [{ name = "Ransom note", range = "close", damage = 1, effects = ["mental", "written", "evidence"] }]

The medium [004:L2387-2397]: face-to-face (the default) is a normal attack at Close range; ``remote`` ignores
range and is +1 Difficulty; ``delayed`` ignores range, allows no reaction and is +2 Difficulty; ``written`` is
as delayed and widens the complication range by 1. A delayed or written threat's target makes a Will + Survive
test at Difficulty 1 on receipt to avoid the damage (``receipt=4,17`` in the damage answer types its faces).

The factors [004:L2399-2415] add Challenge Dice and damage effects: awe +2[CD]; evidence +1[CD] and Vicious 1;
horrifying Drain; obvious Area and Perilous; personal Intense; revelatory Destructive; shocking Knockdown and
Stun; status +1[CD]; unnatural Piercing 2. The base damage is the weapon's (the SRD's 1[CD]) plus Talk, as
for every mental attack [004:L2403].
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tracker.families.twod20.records.sheet import TwoD20Weapon


@dataclass(frozen=True)
class Medium:
    """How a threat reaches its target: its Difficulty, complication range, and whether it is received live."""

    difficulty: int
    complication: int = 0
    #: Received live: the target may react (the SRD's opposed mental test); else no reaction, and a test on
    #: receipt avoids the damage [004:L2395-2396].
    live: bool = True


MEDIA: dict[str, Medium] = {
    "remote": Medium(1),
    "delayed": Medium(2, live=False),
    "written": Medium(2, 1, live=False),
}


@dataclass(frozen=True)
class Factor:
    """What makes a threat bite: Challenge Dice added and damage effects gained [004:L2407-2415]."""

    dice: int = 0
    effects: dict[str, int] = field(default_factory=dict)


FACTORS: dict[str, Factor] = {
    "awe": Factor(2),
    "evidence": Factor(1, {"vicious": 1}),
    "horrifying": Factor(effects={"drain": 1}),
    "obvious": Factor(effects={"area": 1, "perilous": 1}),
    "personal": Factor(effects={"intense": 1}),
    "revelatory": Factor(effects={"destructive": 1}),
    "shocking": Factor(effects={"knockdown": 1, "stun": 1}),
    "status": Factor(1),
    "unnatural": Factor(effects={"piercing": 2}),
}
#: The Difficulty of the test on receipt of a delayed or written threat [004:L2395-2396].
RECEIPT_DIFFICULTY = 1


def _words(weapon: TwoD20Weapon) -> list[str]:
    return [e.partition("=")[0].strip().casefold() for e in weapon.effects]


def medium(weapon: TwoD20Weapon | None) -> str:
    """The threat's medium: ``face-to-face`` unless its effects name another."""
    found = [w for w in _words(weapon) if w in MEDIA] if weapon is not None else []
    return found[0] if found else "face-to-face"


def test_parts(weapon: TwoD20Weapon | None, kind: str, parts: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A remote, delayed or written threat ignores range and pays its medium's Difficulty instead."""
    how = medium(weapon)
    if kind != "mental" or how not in MEDIA:
        return parts
    kept = [(n, name) for n, name in parts if "range" not in name.casefold()]
    return [*kept, (MEDIA[how].difficulty, f"{how} threat")]


def complication(weapon: TwoD20Weapon | None, kind: str) -> int:
    """A written threat's +1 complication range [004:L2396]."""
    how = medium(weapon)
    return MEDIA[how].complication if kind == "mental" and how in MEDIA else 0


def reaction_allowed(weapon: TwoD20Weapon | None, kind: str) -> bool:
    """Whether the target may react (oppose the test): not to a delayed or written threat [004:L2395-2396]."""
    how = medium(weapon)
    return kind != "mental" or how not in MEDIA or MEDIA[how].live


def received(weapon: TwoD20Weapon) -> bool:
    """A delayed or written threat: its target tests on receipt to avoid the damage."""
    return not reaction_allowed(weapon, "mental") and any(w == "mental" for w in _words(weapon))


def extra_dice(weapon: TwoD20Weapon) -> tuple[int, str]:
    """The factors' Challenge Dice and their names ("2[CD] awe + 1[CD] status")."""
    found = [(FACTORS[w].dice, w) for w in _words(weapon) if w in FACTORS and FACTORS[w].dice]
    return sum(n for n, _ in found), " + ".join(f"{n}[CD] {w}" for n, w in found)


def effects(weapon: TwoD20Weapon, out: dict[str, int]) -> dict[str, int]:
    """The weapon's damage effects with its factors' (a rated effect at its higher rating [004:L1772]); the
    medium and factor words themselves are no damage effects."""
    merged = {k: v for k, v in out.items() if k not in FACTORS and k not in MEDIA}
    for word in _words(weapon):
        for key, rating in FACTORS.get(word, Factor()).effects.items():
            merged[key] = max(merged.get(key, 0), rating)
    return merged
