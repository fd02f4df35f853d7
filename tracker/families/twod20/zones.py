"""Zones, range categories and the Difficulty of attacks at a distance (docs/rules/2d20-combat.md#s3-6, C37).

A battlefield is a handful of named zones and which of them touch. The distance between two zones is the
number of zone borders crossed, and the range category follows from it: Close (same zone), Medium (adjacent),
Long (2 zones), Extreme (3 or more). Reach is a declared state, not a distance (decision B22), so the
caller says whether an attacker is within Reach of an enemy.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from tracker.engine.errors import Refusal
from tracker.engine.names import resolve as resolve_name

#: Range categories, nearest first; the index is the zone distance up to Extreme (docs/rules/2d20-combat.md#s3-6).
RANGES: tuple[str, ...] = ("close", "medium", "long", "extreme")

#: The attack forms (docs/rules/2d20-combat.md#s3-7): only ranged attacks pay for range and for being within Reach.
ATTACK_KINDS: tuple[str, ...] = ("melee", "ranged", "mental")

#: Within Reach of an enemy: +2 Difficulty to every Skill Test that is not a melee or mental attack [004:L1567].
REACH_PENALTY = 2

#: How a profile prices range: the SRD table, or Infinity's "+1 per category away in either direction".
RANGED_STEP_RULES: tuple[str, ...] = ("table", "either_direction")


class ZoneLike(Protocol):
    """What a zone needs to offer: `tracker.families.twod20.records.scene.Zone` (the ``[[zones]]`` table) fits."""

    @property
    def name(self) -> str: ...

    @property
    def adjacent(self) -> Sequence[str]: ...

    @property
    def traits(self) -> Sequence[str]: ...


class ZoneMap:
    """The zones of an encounter and the borders between them.

    Adjacency is symmetric: a border listed by either zone joins both, so the file author need not write
    it twice. Names in `adjacent` are matched case-insensitively; ones that name no zone are ignored here
    and reported by `problems()` for the file checker.
    """

    def __init__(self, zones: Iterable[ZoneLike]) -> None:
        self._zones = list(zones)
        self._by_key: dict[str, ZoneLike] = {}
        for zone in self._zones:
            self._by_key.setdefault(zone.name.casefold(), zone)
        self._names = [zone.name for zone in self._by_key.values()]
        self._links: dict[str, list[str]] = {name: [] for name in self._names}
        for zone in self._by_key.values():
            for other in zone.adjacent:
                found = self._by_key.get(other.casefold())
                if found is None or found is zone:
                    continue
                self._link(zone.name, found.name)

    def _link(self, a: str, b: str) -> None:
        """Join two zones both ways, once."""
        if b not in self._links[a]:
            self._links[a].append(b)
        if a not in self._links[b]:
            self._links[b].append(a)

    def names(self) -> list[str]:
        """Zone names in file order (the first of any duplicates)."""
        return list(self._names)

    def resolve(self, text: str) -> str:
        """The zone `text` names: any case, or a unique prefix; a one-line Refusal otherwise."""
        return resolve_name(text, self._names, what="zone")

    def neighbours(self, name: str) -> list[str]:
        """Zones sharing a border with `name` (Medium range from it)."""
        return list(self._links[self.resolve(name)])

    def traits(self, name: str) -> list[str]:
        """The terrain traits of a zone, as written in the file."""
        return list(self._by_key[self.resolve(name).casefold()].traits)

    def leave_cost(self, name: str) -> int:
        """The Momentum moving out of `name` costs (the Terrain Momentum variant, [004:L1597]); 0 for none."""
        return int(getattr(self._by_key[self.resolve(name).casefold()], "momentum_to_leave", 0))

    def distance(self, a: str, b: str) -> int | None:
        """Borders crossed on the shortest way from `a` to `b`; None if no way joins them."""
        start, goal = self.resolve(a), self.resolve(b)
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here == goal:
                return seen[here]
            for there in self._links[here]:
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return None

    def problems(self) -> list[str]:
        """What the file checker should report: duplicate zones, self-borders, borders to unknown zones."""
        found: list[str] = []
        seen: set[str] = set()
        for zone in self._zones:
            key = zone.name.casefold()
            if key in seen:
                found.append(f"zone '{zone.name}' is defined more than once")
            seen.add(key)
            for other in zone.adjacent:
                if other.casefold() == key:
                    found.append(f"zone '{zone.name}' lists itself as adjacent")
                elif other.casefold() not in self._by_key:
                    found.append(f"zone '{zone.name}' lists '{other}' as adjacent, but there is no zone of that name")
        return found


def range_category(distance: int) -> str:
    """The range category at a zone distance: 0 Close, 1 Medium, 2 Long, 3 or more Extreme
    (docs/rules/2d20-combat.md#s3-6)."""
    if distance < 0:
        raise Refusal(f"a zone distance cannot be negative ({distance})")
    return RANGES[min(distance, len(RANGES) - 1)]


def _range(text: str) -> str:
    """A range category named in any case, or by a unique prefix ("med")."""
    return resolve_name(text, RANGES, what="range")


def range_step(weapon_range: str, target_range: str) -> int:
    """Extra Difficulty for firing a weapon at a target outside its range (docs/rules/2d20-combat.md#s3-6 range table).

    Each category between the weapon's range and the target's costs +1, whichever way (a Close weapon at
    Long is +2, a Long weapon at Close is +2).
    """
    return abs(RANGES.index(_range(weapon_range)) - RANGES.index(_range(target_range)))


@dataclass(frozen=True)
class AttackDifficulty:
    """An attack's Difficulty at a range, with each modifier spelled out for the log."""

    range: str
    difficulty: int
    notes: tuple[str, ...]
    #: Each modifier as (Difficulty, its name), what `tracker.families.twod20.skill_test` lists.
    parts: tuple[tuple[int, str], ...] = field(default=(), compare=False)


def attack_difficulty(
    kind: str,
    distance: int,
    weapon_range: str | None,
    base: int,
    attacker_in_reach: bool,
    target_prone: bool = False,
    prone_step: int = 1,
    ranged_step_rule: str = "table",
) -> AttackDifficulty:
    """The Difficulty of a melee, ranged or mental attack at `distance` zones (docs/rules/2d20-combat.md#s3-6,
    docs/rules/2d20-combat.md#s3-7, C37).

    `base` is the profile's Difficulty for the form (B1: SRD ranged 2, Infinity and SW sheet 1). A ranged
    attack adds the range step, +2 when the attacker is within Reach of an enemy, and `prone_step` against
    a Prone target from Medium range or further (SRD +1, Infinity +2; B4). Melee and mental attacks pay
    none of these; whether a melee target is within Reach is the caller's check (B22).
    `ranged_step_rule` names the profile's wording ("table" for the SRD, "either_direction" for Infinity's
    "+1 per category away in either direction"); both give the same numbers.
    """
    form = resolve_name(kind, ATTACK_KINDS, what="attack form")
    if ranged_step_rule not in RANGED_STEP_RULES:
        raise Refusal(f"unknown ranged step rule '{ranged_step_rule}' ({', '.join(RANGED_STEP_RULES)})")
    category = range_category(distance)
    if form != "ranged":
        return AttackDifficulty(range=category, difficulty=base, notes=())
    if weapon_range is None:
        raise Refusal("a ranged attack needs the weapon's range (close, medium, long or extreme)")
    weapon = _range(weapon_range)
    parts: list[tuple[int, str]] = []
    step = range_step(weapon, category)
    if step:
        parts.append((step, f"{category.title()} range with a {weapon.title()} weapon"))
    if attacker_in_reach:
        parts.append((REACH_PENALTY, "within Reach of an enemy"))
    if target_prone and category != "close" and prone_step:
        parts.append((prone_step, f"Prone target at {category.title()} range"))
    notes = tuple(f"{name}: +{n}" for n, name in parts)
    return AttackDifficulty(category, base + sum(n for n, _ in parts), notes, tuple(parts))
