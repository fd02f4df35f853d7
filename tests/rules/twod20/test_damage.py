"""docs/rules/2d20-combat.md#s3-8 (damage and damage effects), docs/rules/2d20-combat.md#s3-9 (resistance / Soak) and
docs/rules/2d20-harm.md#s3-10-1 (the Harm threshold), driven through the GM command `damage NAME N [icons=K] [track=T]
[cover=K] [soak=V] [from=NAME] [mental] [EFFECT[=X] …]` (docs/reference/language.md). Scenario checks C28, C34, C36;
decisions B2, B13, B19, B20, B41.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from tests.conftest import d20, d20_state, run, session_from
from tests.rules.twod20.scenes import KIT_SKILLS, combatant, header, zones
from tracker.engine import rng
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.harm import harms_from

#: A PC with Survive 2 and Move 1, Armor 1 and Courage 2.
KIT = combatant("Kit", skills=KIT_SKILLS, stress=10, armor=1, courage=2, zone="A")

#: C28's character: max Stress 10, Armor 2; a high harm capacity keeps Defeat out of the Harm counts.
VERA = combatant("Vera", stress=10, armor=2, harm_capacity=10, zone="A")

#: A minor NPC with no skills (Survive 0, Move 0) and no resistance.
THUG = combatant("Thug", npc_type="minor", stress=12, harm_capacity=10, zone="B")

#: A notable NPC with Armor 3, Move 2 and Survive 3.
BOSS = combatant(
    "Boss", npc_type="notable", skills={"move": 2, "survive": 3}, stress=12, armor=3, harm_capacity=10, zone="B"
)

#: C36's target: Armor 3 and a standing Cover of 2[CD] rolled on every physical hit.
WALL = combatant(
    "Wall", npc_type="notable", stress=12, armor=3, cover=2, morale=1, courage=1, harm_capacity=10, zone="B"
)


def encounter(*combatants: str, profile: str = "srd") -> Session:
    return session_from(header("Damage", profile=profile) + zones("A", "B") + "".join(combatants))


@dataclass
class _Probe:
    """A stand-in for the state's seed and draw counter (tracker.engine.rng.Seeded)."""

    seed: int
    draws: int
    secret: str | None = None
    branch: int = 0


def draws_for(seed: int, faces: Sequence[int], sides: int = 6) -> int:
    """The draw counter at which the seeded generator rolls exactly `faces` next."""
    for start in range(200_000):
        probe = _Probe(seed, start)
        if all(rng.roll(probe, sides) == face for face in faces):
            return start
    raise AssertionError(f"no draw counter rolls {faces}")


def force(s: Session, *faces: int) -> None:
    """Make the next Challenge Dice the engine rolls show `faces` (the seed and counter drive every die)."""
    d20_state(s).draws = draws_for(d20_state(s).seed, faces)
    check = _Probe(d20_state(s).seed, d20_state(s).draws)
    assert dice.roll_challenge(check, len(faces)).faces == tuple(faces)


def stress(s: Session, name: str, track: str = "stress") -> int:
    return int(d20_state(s).fighters[name].stress[track])


def harms(s: Session, name: str) -> dict[str, int]:
    return dict(d20_state(s).fighters[name].harms)


def conditions(s: Session, name: str) -> dict[str, int | bool]:
    return dict(d20_state(s).fighters[name].conditions)


def started(*combatants: str, first: str = "Kit", profile: str = "srd") -> Session:
    """An encounter in round 1 with `first`'s turn open."""
    s = encounter(*combatants, profile=profile)
    return run(s, "start", f"pick {first}")


# --- docs/rules/2d20-combat.md#s3-9 resistance ------------------------------------------------------------------------


def test_s3_9_armor_is_subtracted_from_physical_damage() -> None:
    """docs/rules/2d20-combat.md#s3-9: stress = damage − Armor (persistent resistance)."""
    s = started(KIT, BOSS)
    run(s, "damage Boss 5")
    assert stress(s, "Boss") == 2
    assert harms(s, "Boss") == {}


def test_s3_9_c36_piercing_and_rolled_cover_option() -> None:
    """docs/rules/2d20-combat.md#s3-9, C36: 8 damage, Piercing 2, 1 Effect vs Armor 3 + Cover 2[CD] rolling 1 and 2 →
    resistance 4."""
    s = started(KIT, BOSS)
    force(s, 1, 2)
    run(s, "damage Boss 8 icons=1 piercing=2 cover=2")
    assert stress(s, "Boss") == 4
    assert harms(s, "Boss") == {}
    assert "resistance armor 3 cover 2[CD]: 1, 2 → 3, 0 Effects Piercing −2 = 4" in d20_state(s).log[-1].text


def test_s3_9_c36_cover_from_the_combatant_field() -> None:
    """docs/rules/2d20-combat.md#s3-9, C36: without `cover=`, the combatant's own `cover` dice are rolled on every
    physical hit."""
    s = started(KIT, WALL)
    force(s, 1, 2)
    run(s, "damage Wall 8 icons=1 piercing=2")
    assert stress(s, "Wall") == 4
    assert harms(s, "Wall") == {}


def test_s3_9_cover_option_overrides_the_field() -> None:
    """docs/rules/2d20-combat.md#s3-9: `cover=0` rolls no conditional dice even for a combatant with standing Cover."""
    s = started(KIT, WALL)
    draws = d20_state(s).draws
    run(s, "damage Wall 5 cover=0")
    assert stress(s, "Wall") == 2
    assert d20_state(s).draws == draws


def test_s3_9_c36_reaching_max_gives_the_harm() -> None:
    """docs/rules/2d20-combat.md#s3-9, C36: the 4 stress is Harm-free "unless max is reached"
    (docs/rules/2d20-harm.md#s3-10-1)."""
    s = started(KIT, WALL)
    run(s, "damage Wall 11 cover=0")  # 8 stress: 8/12, 1 Harm (≥5)
    assert harms(s, "Wall") == {"wound": 1}
    force(s, 1, 2)
    run(s, "damage Wall 8 icons=1 piercing=2")  # 4 stress: 12/12, max reached
    assert stress(s, "Wall") == 12
    assert harms(s, "Wall") == {"wound": 2}


@pytest.mark.parametrize(("vigour", "expected_harms"), [(13, 1), (6, 2)])
def test_s3_9_c36_infinity_penetration(vigour: int, expected_harms: int) -> None:
    """C36 (Infinity): Penetration (1 Momentum) ignores 2 more Soak → soak 2, 6 stress: 1 Harm with ≥7 Vigour
    left, 2 Harms with exactly 6 left (the track empties too). Penetration is a Momentum spend, not a damage
    option, so it is entered here as 2 more Piercing on the one Effect (piercing=4)."""
    target = BOSS.replace("stress = 12", f"stress = {{ vigour = {vigour}, resolve = 8 }}")
    s = started(KIT.replace("stress = 10", "stress = { vigour = 10, resolve = 8 }"), target, profile="infinity")
    force(s, 1, 2)
    run(s, "damage Boss 8 icons=1 piercing=4 cover=2")
    boss = d20_state(s).fighters["Boss"]
    assert boss.stress["vigour"] == 6
    assert boss.harms == {"wound": expected_harms}


def test_s3_9_soak_adds_a_fixed_resistance() -> None:
    """docs/rules/2d20-combat.md#s3-9: `soak=V` is a fixed conditional value (no dice) added to the persistent
    resistance."""
    s = started(KIT, BOSS)
    draws = d20_state(s).draws
    run(s, "damage Boss 8 soak=2")
    assert stress(s, "Boss") == 3
    assert d20_state(s).draws == draws


def test_s3_9_piercing_counts_per_effect() -> None:
    """docs/rules/2d20-combat.md#s3-8 Piercing X: ignore X Resistance **per** Effect; 0 Effects ignore nothing."""
    s = started(KIT, BOSS)
    run(s, "damage Boss 4 icons=0 piercing=2")
    assert stress(s, "Boss") == 1
    run(s, "damage Boss 4 icons=1 piercing=1")
    assert stress(s, "Boss") == 1 + 2
    run(s, "damage Boss 4 icons=2 piercing=1")
    assert stress(s, "Boss") == 3 + 3


def test_s3_9_piercing_never_makes_resistance_negative() -> None:
    """docs/rules/2d20-combat.md#s3-9: Piercing ignores Resistance; it never adds damage (resistance floors at 0)."""
    s = started(KIT, BOSS)
    run(s, "damage Boss 2 icons=3 piercing=5")
    assert stress(s, "Boss") == 2


def test_s3_9_mental_uses_courage_and_morale_not_armor() -> None:
    """docs/rules/2d20-combat.md#s3-9: mental damage is resisted by Courage (persistent) + Morale (conditional), not
    Armor/Cover."""
    s = started(KIT, WALL)
    force(s, 2)  # Wall's Morale 1[CD] rolls a 2
    run(s, "damage Wall 6 mental")
    assert stress(s, "Wall") == 6 - 1 - 2
    s2 = started(KIT, WALL)
    run(s2, "damage Kit 6 mental")
    assert stress(s2, "Kit") == 4  # Courage 2, Armor 1 ignored


def test_s3_9_b41_no_stress_means_no_effect_at_all() -> None:
    """docs/rules/2d20-combat.md#s3-9, B41: stress ≤ 0 after resistance → no stress, no Harm, and none of the damage
    effects."""
    s = started(KIT, BOSS)
    threat = d20_state(s).threat
    run(s, "damage Boss 3 icons=4 stun knockdown drain snare persistent=2 perilous intense area from=Kit")
    boss = d20_state(s).fighters["Boss"]
    assert stress(s, "Boss") == 0
    assert harms(s, "Boss") == {}
    assert boss.conditions == {}
    assert boss.persistent == []
    assert boss.fatigue == 0
    assert d20_state(s).threat == threat
    assert "no further effect" in d20_state(s).log[-1].text


def test_s3_9_b41_infinity_incendiary_needs_stress_too() -> None:
    """docs/rules/2d20-combat.md#s3-9, B41 (all profiles): a soaked Incendiary hit sets nothing on fire."""
    s = started(
        KIT.replace("stress = 10", "stress = { vigour = 10, resolve = 8 }"),
        BOSS.replace("stress = 12", "stress = { vigour = 12, resolve = 8 }"),
        profile="infinity",
    )
    run(s, "damage Boss 3 icons=2 incendiary=2")
    assert conditions(s, "Boss") == {}
    assert d20_state(s).fighters["Boss"].burning_rounds == 0


# --- docs/rules/2d20-combat.md#s3-8 Vicious (B13) ---------------------------------------------------------------------


def test_s3_8_b13_vicious_x_adds_x_per_effect_before_resistance() -> None:
    """docs/rules/2d20-combat.md#s3-8, B13: Vicious X adds X per Effect to the damage total, **before** resistance.

    2 damage + Vicious 2 × 1 Effect = 4 against Armor 3 → 1 stress (after resistance it would be none).
    """
    s = started(KIT, BOSS)
    run(s, "damage Boss 2 icons=1 vicious=2")
    assert stress(s, "Boss") == 1


def test_s3_8_b13_bare_vicious_means_one() -> None:
    """docs/rules/2d20-combat.md#s3-8, B13: a bare `vicious` is Vicious 1: +1 per Effect."""
    s = started(KIT, BOSS)
    run(s, "damage Boss 3 icons=2 vicious")
    assert stress(s, "Boss") == 2
    run(s, "damage Boss 3 icons=0 vicious")
    assert stress(s, "Boss") == 2


# --- docs/rules/2d20-harm.md#s3-10-1 Harm threshold (C28) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "hit", "maximum", "expected"),
    [
        (0, 5, 10, 1),  # C28: 5 stress → 1 Harm
        (6, 5, 10, 2),  # C28: ≥5 and max reached → 2
        (6, 4, 10, 1),  # C28: max reached with fewer than 5 → 1
        (0, 4, 10, 0),  # neither
        (0, 12, 10, 2),  # ≥5 and max reached in one hit
        (10, 1, 10, 1),  # already full: any stress → 1
        (10, 4, 10, 1),
        (10, 5, 10, 2),  # already full and ≥5 → 2
        (3, 0, 10, 0),  # no stress, no Harm
    ],
)
def test_s3_10_1_harms_from_threshold_rule(before: int, hit: int, maximum: int, expected: int) -> None:
    """docs/rules/2d20-harm.md#s3-10-1 (SRD threshold rule, B2) and C28, as the pure function the engine uses."""
    assert harms_from(before, hit, maximum) == expected


def test_s3_10_1_b2_literal_screen_reading_is_one_per_five() -> None:
    """docs/rules/2d20-harm.md#s3-10-1, B2: the optional `harm_per_5_stress` reading gives 1 Harm per 5 stress (+1 on
    reaching max)."""
    assert harms_from(0, 10, 20, per_5=True) == 2
    assert harms_from(0, 14, 20, per_5=True) == 2
    assert harms_from(16, 4, 20, per_5=True) == 1
    assert harms_from(0, 4, 20, per_5=True) == 0


def test_s3_10_1_c28_five_stress_one_harm() -> None:
    """C28 (1): max Stress 10, Stress 0, 7 damage vs Armor 2 → 5 stress (5/10) and 1 Harm."""
    s = started(KIT, VERA)
    run(s, "damage Vera 7")
    assert stress(s, "Vera") == 5
    assert harms(s, "Vera") == {"wound": 1}


def test_s3_10_1_c28_five_stress_reaching_max_two_harms() -> None:
    """C28 (2): Stress 6/10, 7 damage vs Armor 2 → 10/10, ≥5 and max reached → 2 Harms."""
    s = started(KIT, VERA)
    run(s, "damage Vera 6", "damage Vera 4")  # 4 + 2 stress: 6/10, no Harm
    assert (stress(s, "Vera"), harms(s, "Vera")) == (6, {})
    run(s, "damage Vera 7")
    assert stress(s, "Vera") == 10
    assert harms(s, "Vera") == {"wound": 2}


def test_s3_10_1_c28_reaching_max_with_less_than_five_one_harm() -> None:
    """C28 (3): Stress 6/10, 6 damage vs Armor 2 → 4 stress reaches max: 1 Harm."""
    s = started(KIT, VERA)
    run(s, "damage Vera 6", "damage Vera 4", "damage Vera 6")
    assert stress(s, "Vera") == 10
    assert harms(s, "Vera") == {"wound": 1}


def test_s3_10_1_stress_is_capped_at_max() -> None:
    """docs/rules/2d20-harm.md#s3-10-1: stress above max is discarded; the track holds at most its maximum."""
    s = started(KIT, THUG)
    run(s, "damage Thug 30")
    assert stress(s, "Thug") == 12
    assert state_json(s)["combatants"][1]["stress"] == {"stress": 12}


def test_s3_10_1_already_full_track() -> None:
    """docs/rules/2d20-harm.md#s3-10-1: on an already full track any stress gives 1 Harm, 5+ gives 2."""
    s = started(KIT, VERA)
    run(s, "damage Vera 12")  # 10 stress: 2 Harms
    assert harms(s, "Vera") == {"wound": 2}
    run(s, "damage Vera 3")  # 1 stress on a full track
    assert harms(s, "Vera") == {"wound": 3}
    run(s, "damage Vera 7")  # 5 stress on a full track
    assert harms(s, "Vera") == {"wound": 5}
    assert stress(s, "Vera") == 10


def test_s3_10_1_intense_adds_one_harm() -> None:
    """docs/rules/2d20-combat.md#s3-8 Intense / docs/rules/2d20-harm.md#s3-10-1: +1 Harm if ≥1 Effect **and** ≥1
    Harm."""
    s = started(KIT, VERA)
    run(s, "damage Vera 7 icons=1 intense")
    assert harms(s, "Vera") == {"wound": 2}


def test_s3_10_1_intense_needs_an_effect_and_a_harm() -> None:
    """docs/rules/2d20-combat.md#s3-8 Intense: no Effect rolled → no extra Harm; no Harm → nothing to add to."""
    s = started(KIT, VERA)
    run(s, "damage Vera 7 icons=0 intense")
    assert harms(s, "Vera") == {"wound": 1}
    s2 = started(KIT, VERA)
    run(s2, "damage Vera 5 icons=2 intense")  # 3 stress, no Harm
    assert harms(s2, "Vera") == {}


def test_s3_10_1_mental_damage_gives_trauma() -> None:
    """docs/rules/2d20.md#s3-0 Harm names: SRD mental damage gives a Trauma on the same single track."""
    s = started(KIT, VERA)
    run(s, "damage Kit 9 mental")  # Courage 2 → 7 stress
    assert stress(s, "Kit") == 7
    assert harms(s, "Kit") == {"trauma": 1}


# --- docs/rules/2d20-combat.md#s3-8 Stun (B20) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "icons", "stunned"), [("Thug", 0, False), ("Thug", 1, True), ("Boss", 2, False), ("Boss", 3, True)]
)
def test_s3_8_stun_needs_effects_at_least_survive(target: str, icons: int, stunned: bool) -> None:
    """docs/rules/2d20-combat.md#s3-8 Stun: only if Effects ≥ max(1, the target's Survive) (Thug Survive 0, Boss Survive
    3)."""
    s = started(KIT, THUG, BOSS)
    run(s, f"damage {target} 5 icons={icons} stun vicious=1")
    assert bool(conditions(s, target).get("stunned")) is stunned


def test_s3_8_b20_stunned_target_loses_its_next_turn_only() -> None:
    """docs/rules/2d20-combat.md#s3-8 Stun, docs/rules/2d20-lifecycle.md#s3-13 turn_start 3, B20: no actions on the
    target's next turn; spent at its end."""
    s = started(KIT, THUG)
    run(s, "damage Thug 3 icons=1 stun")
    assert conditions(s, "Thug") == {"stunned": True}
    assert state_json(s)["combatants"][1]["conditions"] == {"stunned": True}
    run(s, "next", "pick Thug")
    for action in ("attack", "movement", "pass"):
        with pytest.raises(Refusal, match="Stunned"):
            run(s, f"spend Thug {action}")
    run(s, "next")
    assert "stunned" not in conditions(s, "Thug")
    run(s, "pick Kit", "next", "pick Thug", "spend Thug attack")
    assert d20_state(s).fighters["Thug"].majors == 1


def test_s3_8_stun_does_not_stack() -> None:
    """docs/rules/2d20-combat.md#s3-8 Stun: does not stack: a second Stun before the turn still costs one turn only."""
    s = started(KIT, THUG)
    run(s, "damage Thug 2 icons=1 stun", "damage Thug 2 icons=2 stun")
    assert conditions(s, "Thug") == {"stunned": True}
    assert "does not stack" in d20_state(s).log[-1].text
    run(s, "next", "pick Thug", "next", "pick Kit", "next", "pick Thug", "spend Thug attack")


def test_s3_8_b20_stun_during_own_turn_costs_the_next_turn() -> None:
    """docs/rules/decisions.md#b20: a Stun inflicted during the target's own turn means its next turn after the current
    one."""
    s = started(KIT, THUG)
    run(s, "next", "pick Thug", "damage Thug 2 icons=1 stun")
    run(s, "spend Thug attack")  # the current turn goes on
    run(s, "next")
    assert conditions(s, "Thug").get("stunned") is True


# --- docs/rules/2d20-combat.md#s3-8 Knockdown, Drain, Snare, Perilous, Area -------------------------------------------


@pytest.mark.parametrize(
    ("target", "icons", "prone"), [("Thug", 1, True), ("Thug", 0, False), ("Boss", 1, False), ("Boss", 2, True)]
)
def test_s3_8_knockdown_needs_effects_at_least_move(target: str, icons: int, prone: bool) -> None:
    """docs/rules/2d20-combat.md#s3-8 Knockdown: Prone if Effects ≥ max(1, the target's Move skill) (Thug Move 0, Boss
    Move 2)."""
    s = started(KIT, THUG, BOSS)
    run(s, f"damage {target} 5 icons={icons} knockdown vicious=1")
    assert bool(conditions(s, target).get("prone")) is prone


def test_s3_8_drain_adds_fatigue_per_effect() -> None:
    """docs/rules/2d20-combat.md#s3-8 Drain, docs/rules/2d20-harm.md#s3-10-3: +1 Fatigue per Effect; Fatigue lowers max
    stress."""
    s = started(KIT, THUG)
    run(s, "damage Thug 3 icons=2 drain")
    assert d20_state(s).fighters["Thug"].fatigue == 2
    assert d20(s).tracks("Thug") == {"stress": 10}
    assert state_json(s)["combatants"][1]["stress_max"] == {"stress": 10}


def test_s3_8_drain_past_zero_max_stress_knocks_out_in_one_hit() -> None:
    """docs/rules/2d20-combat.md#s3-8 Drain [004:L1776] with docs/rules/2d20-harm.md#s3-10-3 [004:L1896]: a Drain hit
    with 4 Effects on a max Stress of 3: 3 Fatigue bring it to 0 and the 4th is further Fatigue, so the target falls
    unconscious at once."""
    s = started(KIT, combatant("Rat", npc_type="minor", stress=3, harm_capacity=10, zone="B"))
    run(s, "damage Rat 1 icons=4 drain")
    rat = d20_state(s).fighters["Rat"]
    assert d20(s).tracks("Rat") == {"stress": 0}
    assert rat.unconscious and not rat.dead


def test_s3_8_snare_records_the_break_free_difficulty() -> None:
    """docs/rules/2d20-combat.md#s3-8 Snare: ≥1 Effect snares; breaking free is a test at Difficulty = Effects."""
    s = started(KIT, THUG)
    run(s, "damage Thug 3 icons=0 snare")
    assert "snared" not in conditions(s, "Thug")
    run(s, "damage Thug 3 icons=2 snare")
    assert conditions(s, "Thug")["snared"] == 2


@pytest.mark.parametrize(
    ("line", "delta"),
    [
        ("damage Thug 5 icons=2 perilous from=Kit", 2),  # a PC's weapon: +1 Threat per Effect
        ("damage Thug 5 icons=2 perilous", 2),  # no attacker named: the PC case
        ("damage Kit 5 icons=2 perilous from=Thug", -2),  # an NPC's weapon: −1 Threat per Effect
        ("damage Kit 5 icons=0 perilous from=Thug", 0),  # no Effect, no effect
    ],
)
def test_s3_8_perilous_changes_threat_by_attacker_side(line: str, delta: int) -> None:
    """docs/rules/2d20-combat.md#s3-8 Perilous: +1 Threat per Effect; from an NPC −1 Threat per Effect."""
    s = started(KIT, THUG)
    threat = d20_state(s).threat
    run(s, line)
    assert d20_state(s).threat == threat + delta


def test_s3_8_perilous_from_an_npc_stops_at_zero_threat() -> None:
    """docs/rules/2d20-combat.md#s3-8 Perilous: from an NPC, Threat never goes below 0."""
    s = started(KIT, THUG)
    run(s, "threat -3")
    run(s, "damage Kit 5 icons=3 perilous from=Thug")
    assert d20_state(s).threat == 0


def test_s3_8_area_is_reported_and_costs_nothing() -> None:
    """docs/rules/2d20-combat.md#s3-8 Area: the other targets are resolved separately (the engine logs the reminder)."""
    s = started(KIT, THUG)
    run(s, "damage Thug 3 icons=1 area")
    assert stress(s, "Thug") == 3
    assert "Area" in d20_state(s).log[-1].text


def test_s3_8_incendiary_is_infinity_only() -> None:
    """docs/rules/2d20-combat.md#s3-8 (Infinity qualities): Incendiary sets Burning only where the profile has
    Burning."""
    s = started(KIT, THUG)
    run(s, "damage Thug 3 icons=2 incendiary=2")
    assert "burning" not in conditions(s, "Thug")


# --- docs/rules/2d20-combat.md#s3-8 Persistent X (C34, B19) -----------------------------------------------------------


def _c34() -> Session:
    """Thug (Armor 1) acts first; on Kit's turn it takes Persistent 2 with 2 Effects."""
    thug = THUG.replace("stress = 12", "stress = 12\narmor = 1")
    s = run(encounter(KIT, thug), "start", "pick Thug", "next", "pick Kit")
    assert d20_state(s).fighters["Thug"].acted
    run(s, "damage Thug 3 icons=2 persistent=2")
    assert stress(s, "Thug") == 2
    return s


def test_s3_8_c34_persistent_one_tick_per_effect_with_resistance() -> None:
    """C34, B19: 2 Effects → 2 ticks of 2[CD] at the end of the target's own turns, resistance applying,
    even though the target had already acted this round; then the effect ends."""
    s = _c34()
    assert conditions(s, "Thug") == {"persistent": 2}
    assert state_json(s)["combatants"][1]["conditions"] == {"persistent": 2}
    run(s, "next")  # Kit's turn ends: no tick for Thug
    assert stress(s, "Thug") == 2
    run(s, "pick Thug")  # round 2 opens with Thug
    force(s, 2, 1)  # 3 damage − Armor 1
    run(s, "next")
    assert stress(s, "Thug") == 2 + 2
    assert conditions(s, "Thug") == {"persistent": 1}
    run(s, "pick Kit", "next", "pick Thug")  # round 3
    force(s, 2, 6)  # 3 damage (one Effect face, which triggers nothing on a tick) − Armor 1
    run(s, "next")
    assert stress(s, "Thug") == 4 + 2
    assert "persistent" not in conditions(s, "Thug")
    assert d20_state(s).fighters["Thug"].persistent == []
    run(s, "pick Kit", "next", "pick Thug", "next")
    assert stress(s, "Thug") == 6


def test_s3_8_c34_tick_fully_soaked_does_nothing_but_counts() -> None:
    """C34, B19: a tick goes through resistance like any damage; a soaked tick still uses up its tick."""
    s = _c34()
    run(s, "next", "pick Thug")
    force(s, 3, 4)  # 0 damage
    run(s, "next")
    assert stress(s, "Thug") == 2
    assert conditions(s, "Thug") == {"persistent": 1}


def test_s3_8_c34_no_effect_no_persistent() -> None:
    """C34: with 0 Effects there is no persistent effect."""
    s = started(KIT, THUG)
    run(s, "damage Thug 3 icons=0 persistent=2")
    assert d20_state(s).fighters["Thug"].persistent == []
    assert "persistent" not in conditions(s, "Thug")


def test_s3_8_b19_instances_from_different_attacks_are_independent() -> None:
    """docs/rules/decisions.md#b19: two Persistent instances tick separately, each for its own Effects."""
    s = started(KIT, THUG)
    run(s, "damage Thug 1 icons=1 persistent=1", "damage Thug 1 icons=2 persistent=2")
    assert conditions(s, "Thug") == {"persistent": 3}
    assert [(p.x, p.ticks) for p in d20_state(s).fighters["Thug"].persistent] == [(1, 1), (2, 2)]
    run(s, "next", "pick Thug", "next")
    assert conditions(s, "Thug") == {"persistent": 1}
    assert [(p.x, p.ticks) for p in d20_state(s).fighters["Thug"].persistent] == [(2, 1)]


@pytest.mark.parametrize("mental", ["mental", "track=mental"])
def test_s3_8_b19_mental_persistent_ticks_mental(mental: str) -> None:
    """docs/rules/2d20-harm.md#s3-11-1: a Persistent instance keeps its damage type: mental ticks meet Courage, not
    Armor."""
    s = started(KIT, VERA, first="Vera")
    run(s, f"damage Kit 3 icons=1 persistent=3 {mental}")  # Courage 2 → 1 stress
    assert stress(s, "Kit") == 1
    run(s, "next", "pick Kit")
    force(s, 2, 2, 2)  # 6 mental damage − Courage 2 = 4 stress (Armor 1 would give 5 and a Harm)
    run(s, "next")
    assert stress(s, "Kit") == 5
    assert harms(s, "Kit") == {}


# --- command handling --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "damage Thug 3 bogus=1",
        "damage Thug 3 icons=1 wobbly",
        "damage Thug -2",
        "damage Thug 3 icons=-1",
        "damage Thug 3 track=firewall",
        "damage Thug 3 yield",
        "damage Thug 3 from=Nobody",
        "damage Nobody 3",
    ],
)
def test_s3_8_bad_damage_commands_are_refused_without_change(line: str) -> None:
    """docs/reference/language.md: a malformed or illegal damage command is refused and changes nothing."""
    s = started(KIT, THUG)
    before = dump(d20_state(s))
    with pytest.raises(Refusal):
        s.execute(line)
    assert dump(d20_state(s)) == before


def test_s3_9_undo_restores_rolled_resistance() -> None:
    """docs/rules/index.md#s1-3: undoing a damage command with rolled Cover gives back the stress and the dice draws."""
    s = started(KIT, WALL)
    before = dump(d20_state(s))
    run(s, "damage Wall 9 icons=1 stun")
    assert dump(d20_state(s)) != before
    run(s, "undo")
    assert dump(d20_state(s)) == before


# --- effects that do not trigger say so ----------------------------------------------------------------


def test_s3_8_stun_short_of_survive_says_it_does_not_trigger() -> None:
    """docs/rules/2d20-combat.md#s3-8 Stun (Effects ≥ max(1, Survive)): Boss has Survive 3, so 2 Effects do not stun,
    and the log says so with the numbers; with no Effect at all it says so too."""
    s = started(KIT, THUG, BOSS)
    run(s, "damage Boss 5 icons=2 stun vicious=1")
    texts = [e.text for e in d20_state(s).log]
    assert "Stun does not trigger: 2 Effects, Boss's Survive needs 3" in texts
    run(s, "damage Thug 2 stun")
    assert d20_state(s).log[-1].text == "Stun does not trigger: no Effect rolled"


def test_s3_8_knockdown_short_of_move_says_it_does_not_trigger() -> None:
    """docs/rules/2d20-combat.md#s3-8 Knockdown (Effects ≥ max(1, Move)): Boss has Move 2, so 1 Effect does not knock it
    down, and the log says so."""
    s = started(KIT, THUG, BOSS)
    run(s, "damage Boss 5 icons=1 knockdown vicious=1")
    assert "Knockdown does not trigger: 1 Effect, Boss's Move needs 2" in [e.text for e in d20_state(s).log]


def test_s3_8_persistent_without_a_value_says_it_needs_one() -> None:
    """docs/rules/2d20-combat.md#s3-8 Persistent X: `damage … persistent` without `=X` is refused saying it needs a
    value."""
    s = started(KIT, THUG)
    with pytest.raises(Refusal, match="'persistent' needs a value: persistent=X"):
        s.execute("damage Thug 5 icons=1 persistent")
