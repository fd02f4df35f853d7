"""docs/rules/2d20-combat.md#s3-6 (Zones, Reach, ranges: zone distance, range categories, the range-difficulty table,
the Reach penalty, Prone at range), docs/rules/2d20-combat.md#s3-7 (attack forms), scenario C37 and decisions B1, B4,
B22."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from tracker.engine.errors import Refusal
from tracker.families.twod20.records.scene import Zone
from tracker.families.twod20.zones import (
    RANGES,
    AttackDifficulty,
    ZoneMap,
    attack_difficulty,
    range_category,
    range_step,
)


@dataclass
class Area:
    """A plain zone (anything with name, adjacent and traits fits ZoneMap)."""

    name: str
    adjacent: list[str] = field(default_factory=list)
    traits: list[str] = field(default_factory=list)


def dockside() -> ZoneMap:
    """A five-zone line with a branch, plus an island nobody can reach:

    Street — Warehouse — Dock — Pier — Boat, with Roof off the Warehouse; Lighthouse alone.
    Borders are listed on one side only, to check symmetry.
    """
    return ZoneMap(
        [
            Zone(name="Street", adjacent=["Warehouse"], traits=["Crowded"]),
            Zone(name="Warehouse", adjacent=["dock", "Roof"], traits=["Dim Light", "Crates"]),
            Zone(name="Dock"),
            Zone(name="Pier", adjacent=["DOCK"]),
            Zone(name="Boat", adjacent=["Pier"], traits=["Unstable"]),
            Zone(name="Roof"),
            Zone(name="Lighthouse"),
        ]
    )


# --- docs/rules/2d20-combat.md#s3-6 zone map --------------------------------------------------------------------------


def test_s3_6_names_in_file_order() -> None:
    """docs/rules/2d20-combat.md#s3-6: the map knows its zones, in the order the file gives them."""
    assert dockside().names() == ["Street", "Warehouse", "Dock", "Pier", "Boat", "Roof", "Lighthouse"]


def test_s3_6_adjacency_is_symmetric_when_listed_once() -> None:
    """docs/rules/2d20-combat.md#s3-6: a border listed by either zone joins both (Street lists Warehouse, not vice
    versa)."""
    zones = dockside()
    assert "Street" in zones.neighbours("Warehouse")
    assert "Warehouse" in zones.neighbours("Street")
    assert sorted(zones.neighbours("Dock")) == ["Pier", "Warehouse"]
    assert zones.neighbours("Lighthouse") == []


def test_s3_6_zone_names_are_case_insensitive() -> None:
    """docs/rules/2d20-combat.md#s3-6: zones are named in any case, or by a unique prefix, like combatants."""
    zones = dockside()
    assert zones.resolve("warehouse") == "Warehouse"
    assert zones.resolve("LIGHT") == "Lighthouse"
    assert zones.distance("street", "BOAT") == 4
    with pytest.raises(Refusal, match="no zone named 'Attic'"):
        zones.resolve("Attic")


def test_s3_6_distance_counts_zones_crossed() -> None:
    """docs/rules/2d20-combat.md#s3-6: Close = same zone (0), Medium = adjacent (1), Long = 2, Extreme = 3+."""
    zones = dockside()
    assert zones.distance("Dock", "Dock") == 0
    assert zones.distance("Dock", "Pier") == 1
    assert zones.distance("Street", "Dock") == 2
    assert zones.distance("Street", "Pier") == 3
    assert zones.distance("Street", "Boat") == 4
    assert zones.distance("Roof", "Boat") == 4
    assert zones.distance("Boat", "Street") == zones.distance("Street", "Boat")


def test_s3_6_distance_takes_the_shortest_way() -> None:
    """docs/rules/2d20-combat.md#s3-6: with two ways round, the distance is the shorter (a ring of five zones)."""
    ring = ZoneMap([Area(name=n, adjacent=[m]) for n, m in zip("ABCDE", "BCDEA", strict=True)])
    assert ring.distance("A", "C") == 2
    assert ring.distance("A", "D") == 2
    assert ring.distance("A", "E") == 1


def test_s3_6_unreachable_zone_has_no_distance() -> None:
    """docs/rules/2d20-combat.md#s3-6: a zone no border leads to is at no distance at all (None), not Extreme."""
    assert dockside().distance("Street", "Lighthouse") is None


def test_s3_6_traits() -> None:
    """docs/rules/2d20-combat.md#s3-6 Terrain: a zone's traits are kept as written."""
    zones = dockside()
    assert zones.traits("warehouse") == ["Dim Light", "Crates"]
    assert zones.traits("Dock") == []


def test_s3_6_problems_for_the_file_checker() -> None:
    """docs/rules/2d20-combat.md#s3-6: a border to an unknown zone, a zone bordering itself and duplicate names are
    reported."""
    zones = ZoneMap(
        [
            Area(name="Hall", adjacent=["Kitchen", "Cellar"]),
            Area(name="Kitchen", adjacent=["kitchen"]),
            Area(name="hall"),
        ]
    )
    problems = zones.problems()
    assert len(problems) == 3
    assert any("'Cellar'" in p and "'Hall'" in p for p in problems)
    assert any("'Kitchen'" in p and "itself" in p for p in problems)
    assert any("'hall'" in p and "more than once" in p for p in problems)
    assert zones.names() == ["Hall", "Kitchen"]
    assert zones.neighbours("Kitchen") == ["Hall"]
    assert dockside().problems() == []


# --- docs/rules/2d20-combat.md#s3-6 range categories and the range table ----------------------------------------------


@pytest.mark.parametrize(
    ("distance", "category"),
    [(0, "close"), (1, "medium"), (2, "long"), (3, "extreme"), (4, "extreme"), (9, "extreme")],
)
def test_s3_6_range_category(distance: int, category: str) -> None:
    """docs/rules/2d20-combat.md#s3-6: 0 Close, 1 Medium, 2 Long, 3 or more Extreme."""
    assert range_category(distance) == category


def test_s3_6_negative_distance_refused() -> None:
    """docs/rules/2d20-combat.md#s3-6: zone distances are never negative."""
    with pytest.raises(Refusal):
        range_category(-1)


#: docs/rules/2d20-combat.md#s3-6 range-difficulty table: rows are the weapon's range, columns the target's range.
RANGE_TABLE = {
    "close": (0, 1, 2, 3),
    "medium": (1, 0, 1, 2),
    "long": (2, 1, 0, 1),
    "extreme": (3, 2, 1, 0),
}


@pytest.mark.parametrize("weapon", RANGES)
def test_s3_6_full_range_table(weapon: str) -> None:
    """docs/rules/2d20-combat.md#s3-6 [004:L1676-1691]: every cell of the range-difficulty table."""
    assert tuple(range_step(weapon, target) for target in RANGES) == RANGE_TABLE[weapon]


def test_s3_6_range_names_any_case_and_unknown_refused() -> None:
    """docs/rules/2d20-combat.md#s3-6: range names are case-insensitive; an unknown one is refused in one line."""
    assert range_step("Close", "LONG") == 2
    with pytest.raises(Refusal, match="no range named 'far'"):
        range_step("far", "close")


# --- C37 and docs/rules/2d20-combat.md#s3-6 attack difficulty ---------------------------------------------------------


def test_c37_close_weapon_at_long_range_is_d4() -> None:
    """C37 (srd, B1 base 2): a Close weapon firing at Long range is D2 + 2 = 4."""
    result = attack_difficulty("ranged", 2, "close", base=2, attacker_in_reach=False)
    assert result == AttackDifficulty(range="long", difficulty=4, notes=("Long range with a Close weapon: +2",))


def test_c37_medium_weapon_at_extreme_range_is_d4() -> None:
    """C37 (srd): a Medium weapon at Extreme range is D2 + 2 = 4 (distance 3 or more)."""
    assert attack_difficulty("ranged", 3, "medium", base=2, attacker_in_reach=False).difficulty == 4
    assert attack_difficulty("ranged", 5, "medium", base=2, attacker_in_reach=False).range == "extreme"


def test_c37_within_reach_adds_2_more() -> None:
    """C37 / docs/rules/2d20-combat.md#s3-6 [004:L1567]: a shooter within Reach of an enemy pays +2 more (6)."""
    result = attack_difficulty("ranged", 2, "close", base=2, attacker_in_reach=True)
    assert result.difficulty == 6
    assert result.notes == ("Long range with a Close weapon: +2", "within Reach of an enemy: +2")


def test_c37_melee_has_no_reach_penalty() -> None:
    """C37 / docs/rules/2d20-combat.md#s3-6: the Reach penalty is for tests that are not melee or mental attacks."""
    result = attack_difficulty("melee", 0, None, base=1, attacker_in_reach=True)
    assert result == AttackDifficulty(range="close", difficulty=1, notes=())


def test_s3_6_mental_attack_has_no_reach_or_range_penalty() -> None:
    """docs/rules/2d20-combat.md#s3-6: a mental attack is exempt from the Reach penalty and the weapon range table."""
    result = attack_difficulty("mental", 2, None, base=1, attacker_in_reach=True)
    assert (result.range, result.difficulty, result.notes) == ("long", 1, ())


@pytest.mark.parametrize(
    ("weapon", "distance", "expected"),
    [("close", 0, 1), ("close", 1, 2), ("close", 3, 4), ("long", 0, 3), ("long", 2, 1), ("extreme", 1, 3)],
)
def test_c37_infinity_ballistics_d1_plus_1_per_category_either_direction(
    weapon: str, distance: int, expected: int
) -> None:
    """C37 / docs/rules/2d20-combat.md#s3-6 (infinity, B1 base 1): +1 per range category away from the weapon's, either
    way."""
    result = attack_difficulty(
        "ranged", distance, weapon, base=1, attacker_in_reach=False, ranged_step_rule="either_direction"
    )
    assert result.difficulty == expected


def test_s3_6_weapon_in_its_own_range_adds_nothing() -> None:
    """docs/rules/2d20-combat.md#s3-6: at the weapon's own range the table adds +0 and no note is logged."""
    assert attack_difficulty("ranged", 1, "Medium", base=2, attacker_in_reach=False) == AttackDifficulty(
        range="medium", difficulty=2, notes=()
    )


def test_s3_6_prone_target_at_medium_or_further() -> None:
    """docs/rules/2d20.md#s3-0 Prone / B4: a ranged attack on a Prone target from Medium+ is +1 (SRD), +2 (Infinity)."""
    srd = attack_difficulty("ranged", 1, "medium", base=2, attacker_in_reach=False, target_prone=True)
    assert srd.difficulty == 3
    assert srd.notes == ("Prone target at Medium range: +1",)
    infinity = attack_difficulty(
        "ranged",
        2,
        "long",
        base=1,
        attacker_in_reach=False,
        target_prone=True,
        prone_step=2,
        ranged_step_rule="either_direction",
    )
    assert infinity.difficulty == 3


def test_s3_6_prone_target_at_close_range_no_penalty() -> None:
    """docs/rules/2d20.md#s3-0 Prone: Close-range shots and melee attacks on a Prone target pay no Prone Difficulty."""
    assert attack_difficulty("ranged", 0, "close", base=2, attacker_in_reach=False, target_prone=True).difficulty == 2
    assert attack_difficulty("melee", 0, None, base=1, attacker_in_reach=False, target_prone=True).difficulty == 1


def test_s3_6_everything_together() -> None:
    """docs/rules/2d20-combat.md#s3-6: range step, Reach and Prone all add up (Close weapon at Extreme, in Reach, Prone
    target)."""
    result = attack_difficulty("ranged", 4, "close", base=2, attacker_in_reach=True, target_prone=True)
    assert result.difficulty == 2 + 3 + 2 + 1
    assert len(result.notes) == 3


def test_s3_7_attack_difficulty_refusals() -> None:
    """docs/rules/2d20-combat.md#s3-7: the form must be melee, ranged or mental; a ranged attack needs its weapon's
    range."""
    with pytest.raises(Refusal, match="weapon's range"):
        attack_difficulty("ranged", 1, None, base=2, attacker_in_reach=False)
    with pytest.raises(Refusal):
        attack_difficulty("psychic", 1, None, base=2, attacker_in_reach=False)
    with pytest.raises(Refusal):
        attack_difficulty("ranged", 1, "medium", base=2, attacker_in_reach=False, ranged_step_rule="grid")
