"""docs/rules/2d20-harm.md#s3-11 (2d20 conditions: SRD states and Infinity conditions with their timing),
docs/rules/2d20-combat.md#s3-6/docs/rules/2d20-combat.md#s3-7 through `range_report` (Prone at range, C37),
docs/rules/2d20-lifecycle.md#s3-13 (turn_start Bleeding, turn_end Burning, scene_end). Scenario checks C37, C40;
decisions B4, B25, B26, B27, B28, B37.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest

from tests.conftest import d20, d20_state, run, session_from
from tests.rules.twod20.scenes import KIT_SKILLS, combatant, header, zones
from tracker.engine import rng
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.twod20.engine import range_report
from tracker.families.twod20.tables.catalogue import CONDITIONS
from tracker.families.twod20.tables.profiles import PROFILES


def scene(profile: str) -> str:
    """The encounter in a row of four zones, A to D."""
    return header("Conditions", seed=5, profile=profile) + zones("A", "B", "C", "D")


SRD_CAST = (
    combatant("Kit", skills=KIT_SKILLS, stress=10, armor=1, zone="A")
    + combatant("Thug", npc_type="minor", stress=8, zone="B")
    + combatant("Brute", npc_type="minor", stress=8, zone="A")
)

#: Infinity: Ana has Armour 2 and Courage 1 (no Morale dice), the Trooper no soak at all.
INFINITY_CAST = (
    combatant("Ana", stress={"vigour": 12, "resolve": 10, "firewall": 8}, armor=2, courage=1, harm_capacity=9, zone="A")
    + combatant("Trooper", npc_type="minor", stress={"vigour": 8, "resolve": 6}, zone="B")
    + combatant("Brute", npc_type="minor", stress={"vigour": 8, "resolve": 6}, zone="A")
)

INFINITY_ONLY = sorted(k for k, c in CONDITIONS.items() if c.infinity_only)


def srd() -> Session:
    return session_from(scene("srd") + SRD_CAST)


def infinity() -> Session:
    return session_from(scene("infinity") + INFINITY_CAST)


@dataclass
class _Probe:
    seed: int
    draws: int
    secret: str | None = None
    branch: int = 0


def force(s: Session, faces: Sequence[int]) -> None:
    """Make the next Challenge Dice the engine rolls show `faces` (the seed and draw counter drive every die)."""
    for start in range(200_000):
        probe = _Probe(d20_state(s).seed, start)
        if all(rng.roll(probe, 6) == face for face in faces):
            d20_state(s).draws = start
            return
    raise AssertionError(f"no draw counter rolls {faces}")


def conditions(s: Session, name: str) -> dict[str, int | bool]:
    return dict(d20_state(s).fighters[name].conditions)


# --- docs/rules/2d20-harm.md#s3-11 which conditions exist where -------------------------------------------------------


def test_s3_11_catalogue_marks_the_infinity_conditions() -> None:
    """docs/rules/2d20-harm.md#s3-11-2: Bleeding, Blind, Burning, Deafened, Fatigued, Staggered … are Infinity
    conditions."""
    assert {
        "bleeding",
        "blind",
        "burning",
        "deafened",
        "fatigued",
        "staggered",
        "helpless",
        "marked",
        "stuck",
        "checked",
    } <= set(INFINITY_ONLY)
    assert not {"prone", "stunned", "snared", "persistent", "unconscious"} & set(INFINITY_ONLY)


@pytest.mark.parametrize("condition", INFINITY_ONLY)
def test_s3_11_srd_refuses_infinity_only_conditions(condition: str) -> None:
    """docs/rules/2d20-harm.md#s3-11: an SRD encounter refuses Infinity-only conditions, and the refusal changes
    nothing."""
    s = srd()
    before = dump(d20_state(s))
    with pytest.raises(Refusal, match="Infinity condition"):
        run(s, f"add Kit {condition}")
    assert dump(d20_state(s)) == before


@pytest.mark.parametrize("condition", ["prone", "stunned", "unconscious"])
def test_s3_11_1_srd_states_can_be_added(condition: str) -> None:
    """docs/rules/2d20-harm.md#s3-11-1: the SRD states are conditions the GM may set by hand."""
    s = srd()
    run(s, f"add Kit {condition}")
    assert conditions(s, "Kit")[condition] is True


def test_s3_11_unknown_or_misvalued_conditions_are_refused() -> None:
    """docs/rules/2d20-harm.md#s3-11, docs/reference/language.md: unknown conditions, and numbers on unvalued ones, are
    refused."""
    s = infinity()
    with pytest.raises(Refusal):
        run(s, "add Ana wobbly")
    with pytest.raises(Refusal, match="not valued"):
        run(s, "add Ana dazed 2")
    with pytest.raises(Refusal, match="does not have"):
        run(s, "remove Ana dazed")


# --- docs/rules/2d20-harm.md#s3-11-2 Bleeding (B26) -------------------------------------------------------------------


def test_s3_11_2_b26_bleeding_ticks_at_turn_start_ignoring_soak_with_harm() -> None:
    """docs/rules/2d20-harm.md#s3-11-2, docs/rules/2d20-lifecycle.md#s3-13 turn_start 2, B26: 3[CD] physical at the
    start of each of the character's turns, ignoring Soak (Armour 2 does not help), with the Harm threshold (a 5+ tick
    is a Wound)."""
    s = infinity()
    run(s, "add Ana bleeding", "start")
    force(s, [2, 2, 2])
    run(s, "pick Ana")
    ana = d20_state(s).fighters["Ana"]
    assert ana.stress["vigour"] == 6
    assert ana.harms == {"wound": 1}
    assert conditions(s, "Ana") == {"bleeding": True}  # it goes on until Absterge or treatment (B25)
    run(s, "next", "pick Trooper", "next", "pick Brute", "next")
    force(s, [1, 3, 4])
    run(s, "pick Ana")
    assert d20_state(s).fighters["Ana"].stress["vigour"] == 7
    assert d20_state(s).fighters["Ana"].harms == {"wound": 1}


def test_s3_11_2_bleeding_only_at_its_owner_turn_start() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13: Bleeding ticks at the start of the bleeding character's own turns, not
    others'."""
    s = infinity()
    run(s, "add Ana bleeding", "start", "pick Trooper")
    assert d20_state(s).fighters["Ana"].stress["vigour"] == 0
    run(s, "next")
    assert d20_state(s).fighters["Ana"].stress["vigour"] == 0


# --- docs/rules/2d20-harm.md#s3-11-2 Burning X (B27) ------------------------------------------------------------------


def test_s3_11_2_b27_burning_rolled_once_applied_to_vigour_and_resolve() -> None:
    """docs/rules/2d20-harm.md#s3-11-2, docs/rules/2d20-lifecycle.md#s3-13 turn_end 2, B27: X[CD] rolled once at the end
    of the burning character's turn, applied to Vigour (Armour 2) and Resolve (Courage 1); without Effects it lasts its
    one round."""
    s = infinity()
    run(s, "start", "pick Ana", "add Ana burning 2")
    assert conditions(s, "Ana") == {"burning": 2}
    force(s, [2, 1])
    drawn = d20_state(s).draws
    run(s, "next")
    assert d20_state(s).draws == drawn + 2  # one roll of 2[CD], not one per track
    ana = d20_state(s).fighters["Ana"]
    assert ana.stress == {"vigour": 1, "resolve": 2, "firewall": 0}
    assert "burning" not in conditions(s, "Ana")
    assert ana.burning_rounds == 0


def test_s3_11_2_b27_burning_effects_extend_it() -> None:
    """docs/rules/2d20-harm.md#s3-11-2, B27: each Effect rolled on the Burning damage adds 1 round."""
    s = infinity()
    run(s, "start", "pick Ana", "add Ana burning 2")
    force(s, [2, 5])  # 3 damage, 1 Effect
    run(s, "next")
    assert conditions(s, "Ana") == {"burning": 2}
    assert d20_state(s).fighters["Ana"].burning_rounds == 1
    assert state_json(s)["combatants"][0]["conditions"] == {"burning": 2}
    run(s, "pick Trooper", "next", "pick Brute", "next")
    force(s, [3, 4])
    run(s, "pick Ana", "next")
    assert "burning" not in conditions(s, "Ana")


def test_s3_11_2_burning_ticks_only_at_its_owner_turn_end() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 turn_end, B27: "each turn" is the burning character's own turn."""
    s = infinity()
    run(s, "start", "pick Ana", "add Trooper burning 3", "next")
    assert d20_state(s).fighters["Trooper"].stress == {"vigour": 0, "resolve": 0}
    assert conditions(s, "Trooper") == {"burning": 3}


def test_s3_11_2_incendiary_sets_burning_for_the_effects_rolled() -> None:
    """docs/rules/2d20-combat.md#s3-8 (Incendiary), docs/rules/2d20-harm.md#s3-11-2: an Incendiary X hit with Effects
    sets Burning X for that many rounds."""
    s = infinity()
    run(s, "start", "pick Ana", "damage Trooper 4 icons=2 incendiary=3")
    assert conditions(s, "Trooper") == {"burning": 3}
    assert d20_state(s).fighters["Trooper"].burning_rounds == 2


def test_s3_11_2_removing_burning_ends_it() -> None:
    """docs/rules/2d20-harm.md#s3-11-2: Burning ends when removed (Absterge or the GM)."""
    s = infinity()
    run(s, "start", "pick Ana", "add Ana burning 2", "remove Ana burning", "next")
    assert d20_state(s).fighters["Ana"].stress["vigour"] == 0
    assert d20_state(s).fighters["Ana"].burning_rounds == 0


# --- docs/rules/2d20-harm.md#s3-11-2 Dazed → Staggered (C40) ----------------------------------------------------------


def test_s3_11_2_c40_dazed_twice_is_staggered_in_infinity() -> None:
    """C40, docs/rules/2d20-harm.md#s3-11-2: a Dazed character that gains Dazed again becomes Staggered."""
    s = infinity()
    run(s, "add Ana dazed")
    assert conditions(s, "Ana") == {"dazed": True}
    run(s, "add Ana dazed")
    assert conditions(s, "Ana").get("staggered") is True


def test_s3_11_2_c40_srd_has_no_staggered() -> None:
    """C40: Dazed twice → Staggered is an Infinity rule (profile `dazed_twice_staggered`)."""
    s = srd()
    run(s, "add Kit dazed", "add Kit dazed")
    assert "staggered" not in conditions(s, "Kit")
    assert not PROFILES["srd"].dazed_twice_staggered
    assert PROFILES["infinity"].dazed_twice_staggered


def test_s3_11_2_c40_staggered_pays_one_momentum_per_standard_action() -> None:
    """C40, docs/rules/2d20-harm.md#s3-11-2: Staggered needs 1 Momentum to take a Standard (Major) Action; with an empty
    pool a player character pays it as +1 Heat instead (docs/rules/2d20.md#s3-3: PCs may pay Momentum costs with
    Threat)."""
    s = infinity()
    run(s, "add Ana staggered", "start", "pick Ana", "momentum -1")
    run(s, "spend Ana attack")
    assert d20_state(s).momentum == 0
    run(s, "spend Ana movement")  # a Minor costs nothing extra
    assert d20_state(s).momentum == 0
    s2 = infinity()
    run(s2, "add Ana staggered", "start", "pick Ana", "momentum -2")
    heat = d20_state(s2).threat
    run(s2, "spend Ana attack")
    assert d20_state(s2).threat == heat + 1


def test_s3_11_2_staggered_npc_pays_heat() -> None:
    """docs/rules/2d20.md#s3-3 with docs/rules/2d20-harm.md#s3-11-2: an NPC's Momentum costs come from the GM's pool
    (Heat)."""
    s = infinity()
    run(s, "add Trooper staggered", "start", "pick Ana", "next", "pick Trooper")
    heat = d20_state(s).threat
    run(s, "spend Trooper attack")
    assert d20_state(s).threat == heat - 1


# --- docs/rules/2d20-harm.md#s3-11-2 Blind / Deafened (B28) -----------------------------------------------------------


@pytest.mark.parametrize("condition", ["blind", "deafened"])
def test_s3_11_2_b28_blind_and_deafened_deal_mental_damage_on_gain(condition: str) -> None:
    """docs/rules/2d20-harm.md#s3-11-2, B28: 3[CD] mental damage on becoming Blind or Deafened (Courage 1 applies);
    gaining it again while held deals nothing."""
    s = infinity()
    force(s, [2, 2, 1])
    run(s, f"add Ana {condition}")
    ana = d20_state(s).fighters["Ana"]
    assert ana.stress == {"vigour": 0, "resolve": 4, "firewall": 0}
    assert ana.conditions == {condition: True}
    run(s, f"add Ana {condition}")
    assert d20_state(s).fighters["Ana"].stress["resolve"] == 4


def test_s3_11_2_blind_on_a_combatant_without_resolve_is_no_crash() -> None:
    """docs/rules/2d20-harm.md#s3-11-2: Blind on a Vigour-only combatant (no Resolve track) still blinds it and deals no
    mental damage (the engine must not half-apply a command and then refuse it)."""
    text = scene("infinity") + INFINITY_CAST + combatant("Drone", npc_type="minor", stress=6, zone="C")
    s = session_from(text)
    run(s, "add Drone blind")
    assert conditions(s, "Drone") == {"blind": True}
    assert d20_state(s).fighters["Drone"].stress == {"vigour": 0}


# --- Prone per profile (C40, B4, B37) and range_report (C37) ----------------------------------------


def test_s3_11_1_c40_srd_prone_adds_one_at_medium_range() -> None:
    """C40, docs/rules/2d20-harm.md#s3-11-1: a Prone target is +1 Difficulty to ranged attacks from Medium range (SRD
    base 2)."""
    s = srd()
    assert range_report(d20(s), "Kit", "Thug", "medium") == "Medium range, Difficulty 2"
    run(s, "add Thug prone")
    report = range_report(d20(s), "Kit", "Thug", "medium")
    assert report.startswith("Medium range, Difficulty 3")
    assert "Prone" in report


def test_s3_11_2_c40_infinity_prone_adds_two_at_medium_range() -> None:
    """C40, docs/rules/2d20-harm.md#s3-11-2: in Infinity the same Prone target is +2 Difficulty (base D1)."""
    s = infinity()
    assert range_report(d20(s), "Ana", "Trooper", "medium") == "Medium range, Difficulty 1"
    run(s, "add Trooper prone")
    assert range_report(d20(s), "Ana", "Trooper", "medium").startswith("Medium range, Difficulty 3")


@pytest.mark.parametrize("make", [srd, infinity])
def test_s3_11_prone_is_no_harder_to_shoot_at_close_range(make: Callable[[], Session]) -> None:
    """docs/rules/2d20-harm.md#s3-11: the Prone penalty is for ranged attacks from Medium or further, not Close."""
    s = make()
    shooter = "Kit" if "Kit" in d20_state(s).fighters else "Ana"
    before = range_report(d20(s), shooter, "Brute", "close")
    run(s, "add Brute prone")
    assert range_report(d20(s), shooter, "Brute", "close") == before


def test_s3_11_c40_prone_constants_per_profile() -> None:
    """C40, B4: bonus Momentum against a Prone target in melee is 1 (SRD) or 2 (Infinity); Infinity Prone is
    also Hindered."""
    assert (PROFILES["srd"].prone_ranged_difficulty, PROFILES["srd"].prone_bonus_momentum) == (1, 1)
    assert (PROFILES["infinity"].prone_ranged_difficulty, PROFILES["infinity"].prone_bonus_momentum) == (2, 2)
    assert PROFILES["infinity"].prone_hindered and not PROFILES["srd"].prone_hindered


@pytest.mark.parametrize(
    ("shooter_zone", "weapon", "expected"),
    [
        ("C", "close", "Long range, Difficulty 4"),  # C37: base 2 + 2
        ("D", "medium", "Extreme range, Difficulty 4"),  # C37: base 2 + 2
        ("B", "medium", "Medium range, Difficulty 2"),
        ("A", "long", "Close range, Difficulty 4"),
    ],
)
def test_s3_6_c37_srd_range_table_through_range_report(shooter_zone: str, weapon: str, expected: str) -> None:
    """C37, docs/rules/2d20-combat.md#s3-6: the SRD range table on top of the ranged base Difficulty 2 (B1)."""
    s = srd()
    if shooter_zone != "B":
        run(s, f"move Thug {shooter_zone}")
    assert range_report(d20(s), "Thug", "Kit", weapon).startswith(expected)


def test_s3_6_c37_reach_penalty_for_ranged_not_melee() -> None:
    """C37: a shooter within Reach of an enemy is +2 more (6); a melee attack suffers no Reach penalty."""
    s = srd()
    run(s, "move Thug C")
    run(s, "reach Kit Brute")  # Kit (zone A) is within Reach of the Brute
    assert range_report(d20(s), "Kit", "Thug", "close").startswith("Long range, Difficulty 6")
    assert range_report(d20(s), "Kit", "Brute", None, kind="melee") == "Close range, Difficulty 1"


@pytest.mark.parametrize(
    ("trooper_zone", "weapon", "difficulty"),
    [
        ("C", "close", 3),  # 2 categories away
        ("A", "long", 3),  # 2 categories away, the other direction
        ("B", "medium", 1),
        ("D", "close", 4),
    ],
)
def test_s3_6_c37_infinity_one_per_category_either_direction(trooper_zone: str, weapon: str, difficulty: int) -> None:
    """C37, docs/rules/2d20-combat.md#s3-6: Infinity Ballistics is D1 + 1 per range category away in either
    direction."""
    s = infinity()
    if trooper_zone != "B":
        run(s, f"move Trooper {trooper_zone}")
    assert f"Difficulty {difficulty}" in range_report(d20(s), "Ana", "Trooper", weapon)


def test_s3_11_2_b37_infinity_prone_adds_two_soak_per_cover_effect() -> None:
    """docs/rules/2d20-harm.md#s3-11-2, B37: a Prone character rolling Cover soak gains +2 soak per Effect rolled
    (Infinity)."""
    s = infinity()
    run(s, "add Ana prone")
    force(s, [5])  # Cover 1[CD]: 1 + an Effect → 1 + 2
    run(s, "damage Ana 10 cover=1")
    assert d20_state(s).fighters["Ana"].stress["vigour"] == 10 - 2 - 3


def test_s3_11_1_b37_srd_prone_gets_no_extra_soak() -> None:
    """docs/rules/2d20-harm.md#s3-11-1 with B37: the +2 soak per Effect is Infinity's; SRD Prone adds nothing to
    Cover."""
    s = srd()
    run(s, "add Kit prone")
    force(s, [5])
    run(s, "damage Kit 10 cover=1")
    assert d20_state(s).fighters["Kit"].stress["stress"] == 10 - 1 - 1


def test_s3_11_1_stand_ends_prone() -> None:
    """docs/rules/2d20-harm.md#s3-11-1: Prone ends with Stand (a Minor Action); Drop Prone and Stand not both in one
    turn."""
    s = srd()
    run(s, "add Kit prone", "start", "pick Kit", "spend Kit stand")
    assert "prone" not in conditions(s, "Kit")
    with pytest.raises(Refusal):
        run(s, "spend Kit drop-prone")


# --- docs/rules/2d20-harm.md#s3-11-1 Persistent as a condition, docs/rules/2d20-lifecycle.md#s3-13 scene_end ----------


def test_s3_11_1_added_persistent_ticks_once_at_turn_end() -> None:
    """docs/rules/2d20-harm.md#s3-11-1: `add NAME persistent X` is one Persistent X instance with a single tick."""
    s = srd()
    run(s, "start", "pick Kit", "add Kit persistent 2")
    assert conditions(s, "Kit") == {"persistent": 1}
    force(s, [2, 2])
    run(s, "next")
    assert d20_state(s).fighters["Kit"].stress == {"stress": 3}
    assert "persistent" not in conditions(s, "Kit")


def test_s3_13_scene_end_clears_stress_and_stun() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 scene_end, docs/rules/2d20-harm.md#s3-10-4 (SRD): all Stress is removed; a
    pending Stun does not outlive the scene; Momentum decays by 1."""
    s = srd()
    run(s, "start", "pick Kit", "damage Thug 4 icons=1 stun", "damage Kit 4")
    assert conditions(s, "Thug") == {"stunned": True}
    run(s, "end")
    assert d20_state(s).fighters["Thug"].stress == {"stress": 0}
    assert d20_state(s).fighters["Kit"].stress == {"stress": 0}
    assert "stunned" not in conditions(s, "Thug")
    assert d20_state(s).momentum == 1
    assert all(c["stress"] == {"stress": 0} for c in state_json(s)["combatants"])


def test_s3_13_scene_end_ends_round_counted_effects() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 scene_end (judgement, README): Persistent and Burning, counted in turns and
    rounds, end with the scene instead of ticking into the next one."""
    s = infinity()
    run(s, "start", "pick Ana", "damage Ana 9 icons=2 persistent=1 incendiary=2")
    assert d20_state(s).fighters["Ana"].persistent and d20_state(s).fighters["Ana"].conditions.get("burning")
    run(s, "end")
    ana = d20_state(s).fighters["Ana"]
    assert not ana.persistent and "burning" not in ana.conditions and "persistent" not in ana.conditions
