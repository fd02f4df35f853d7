"""docs/rules/2d20-harm.md#s3-10 (Harm kinds, Defeated, Dying, death, voluntary Defeat, treatment, Fatigue, recovery)
and the docs/rules/2d20.md#s3-0 profile parameters behind them (Harm names, defeat/death capacity). Scenario check C30;
decisions B3, B21, B32, B42.
"""

from __future__ import annotations

import pytest

from tests.conftest import d20, d20_state, run, session_from
from tests.rules.twod20.scenes import KIT_SKILLS, combatant, header, zones
from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.families.snapshot import state_json


def scene(profile: str) -> str:
    """The encounter in two zones, A and B."""
    return header("Harm", seed=3, profile=profile) + zones("A", "B")


def kit(harms: str = "", extra: str = "") -> str:
    """A PC with Stress 10, Armor 1, Courage 2 (3 Fortune unless `extra` says otherwise)."""
    lines = f"{f'harms = {{ {harms} }}' if harms else ''}\n{extra}"
    return combatant("Kit", extra=lines, skills=KIT_SKILLS, stress=10, armor=1, courage=2, zone="A")


ADA = combatant("Ada", stress=10, zone="A")

THUG = combatant("Thug", npc_type="minor", stress=12, zone="B")


def ana_table(extra: str = "") -> str:
    """Infinity: three tracks, each with its own soak (Armour, Morale/Courage, BTS)."""
    return combatant(
        "Ana", extra=extra, stress={"vigour": 12, "resolve": 10, "firewall": 8}, armor=1, courage=2, bts=3, zone="A"
    )


def trooper_table(extra: str = "") -> str:
    return combatant("Trooper", extra=extra, npc_type="minor", stress={"vigour": 8, "resolve": 6}, zone="B")


def srd(*combatants: str) -> Session:
    """An SRD encounter with Kit's turn open."""
    return run(session_from(scene("srd") + "".join(combatants)), "start", "pick Kit")


def infinity(ana: str = "", trooper: str = "") -> Session:
    """An Infinity encounter with Ana's turn open."""
    text = scene("infinity") + ana_table(ana) + trooper_table(trooper)
    return run(session_from(text), "start", "pick Ana")


def entry(s: Session, name: str) -> dict[str, object]:
    """The combatant's docs/reference/json-state.md JSON entry."""
    found = [c for c in state_json(s)["combatants"] if c["name"] == name]
    assert len(found) == 1
    return dict(found[0])


# --- docs/rules/2d20.md#s3-0 / docs/rules/2d20-harm.md#s3-10-1 Harm kinds per profile ---------------------------------


def test_s3_10_srd_physical_wound_mental_trauma() -> None:
    """docs/rules/2d20.md#s3-0 Harm names (SRD): physical damage gives Wounds, `mental` gives Traumas, on one track."""
    s = srd(kit(), THUG)
    run(s, "damage Kit 6")  # 5 stress
    run(s, "damage Kit 7 mental")  # Courage 2 → 5 stress, max reached: 2 Traumas
    assert d20_state(s).fighters["Kit"].harms == {"wound": 1, "trauma": 2}
    assert entry(s, "Kit")["harms"] == {"wound": 1, "trauma": 2}
    assert entry(s, "Kit")["stress"] == {"stress": 10}


@pytest.mark.parametrize(
    ("option", "track", "kind", "soak"),
    [
        ("", "vigour", "wound", 1),
        ("track=vigour", "vigour", "wound", 1),
        ("mental", "resolve", "metanoia", 2),
        ("track=resolve", "resolve", "metanoia", 2),
        ("track=firewall", "firewall", "breach", 3),
        ("track=digital", "firewall", "breach", 3),
    ],
)
def test_s3_10_infinity_track_harm_and_soak(option: str, track: str, kind: str, soak: int) -> None:
    """docs/rules/2d20.md#s3-0 and docs/rules/2d20-combat.md#s3-9 (Infinity): Vigour → Wound (Armour), Resolve →
    Metanoia (Morale/Courage), Firewall → Breach (BTS); each track is evaluated separately."""
    s = infinity()
    run(s, f"damage Ana {5 + soak} {option}")
    ana = d20_state(s).fighters["Ana"]
    assert ana.stress[track] == 5
    assert sum(ana.stress.values()) == 5
    assert ana.harms == {kind: 1}


def test_s3_10_b32_infinity_json_keeps_stress_taken_per_track() -> None:
    """docs/rules/decisions.md#b32, docs/reference/json-state.md: the state keeps stress taken per track; the maximum
    per track beside it."""
    s = infinity()
    run(s, "damage Ana 4", "damage Ana 5 track=resolve")
    e = entry(s, "Ana")
    assert e["stress"] == {"vigour": 3, "resolve": 3, "firewall": 0}
    assert e["stress_max"] == {"vigour": 12, "resolve": 10, "firewall": 8}
    assert "Vigour 9/12 left" in d20_state(s).log[-2].text


def test_s3_10_b3_infinity_three_mixed_harms_do_not_defeat() -> None:
    """docs/rules/decisions.md#b3: Infinity has no "3 Harms of any kind" rule."""
    s = infinity()
    run(s, "damage Ana 6", "damage Ana 7 track=resolve", "damage Ana 8 track=firewall")
    ana = d20_state(s).fighters["Ana"]
    assert sum(ana.harms.values()) == 3
    assert not ana.defeated
    assert entry(s, "Ana")["status"] == "ok"


def test_s3_10_2_b3_infinity_five_wounds_kill() -> None:
    """docs/rules/2d20-harm.md#s3-10-2, B3: in Infinity, 5 Wounds kill."""
    s = infinity(ana="harms = { wound = 4 }")
    run(s, "damage Ana 6")
    assert d20_state(s).fighters["Ana"].dead
    assert entry(s, "Ana")["status"] == "dead"
    with pytest.raises(Refusal, match="dead"):
        run(s, "damage Ana 3")


def test_s3_10_2_b3_infinity_five_breaches_destroy_the_system_not_the_character() -> None:
    """docs/rules/2d20-harm.md#s3-10-2, B3: 5 Breaches destroy a quantronic system; the character lives."""
    s = infinity(ana="harms = { breach = 4 }")
    run(s, "damage Ana 8 track=firewall")
    assert d20_state(s).fighters["Ana"].harms == {"breach": 5}
    assert not d20_state(s).fighters["Ana"].dead
    assert "system is destroyed" in d20_state(s).log[-1].text


def test_s3_10_2_per_combatant_harm_capacity_in_infinity() -> None:
    """docs/rules/2d20.md#s3-1/docs/rules/decisions.md#b3: a combatant's `harm_capacity` defeats it even where the
    profile has no such rule."""
    s = infinity(trooper="harm_capacity = 2")
    run(s, "damage Trooper 5")
    assert not d20_state(s).fighters["Trooper"].defeated
    run(s, "damage Trooper 5 mental")
    trooper = d20_state(s).fighters["Trooper"]
    assert trooper.defeated
    assert trooper.conditions.get("prone") is True
    assert not trooper.dying  # 1 Wound, 1 Metanoia


def test_s3_10_2_per_combatant_harm_capacity_in_srd() -> None:
    """docs/rules/2d20.md#s3-1: a minor NPC with `harm_capacity = 1` is Defeated by its first Harm; its next Wound
    kills."""
    s = srd(kit(), THUG.replace("stress = 12", "stress = 12\nharm_capacity = 1"))
    run(s, "damage Thug 5")
    assert d20_state(s).fighters["Thug"].defeated
    run(s, "damage Thug 5")
    assert d20_state(s).fighters["Thug"].dead


# --- docs/rules/2d20-harm.md#s3-10-2 Defeated, Dying, death (C30) -----------------------------------------------------


def test_s3_10_2_c30_third_harm_defeats_prone_and_dying() -> None:
    """C30: 1 Wound + 1 Trauma, a 3rd Harm (a Wound) → Defeated, Prone, Dying (Wounds 2 > Traumas 1)."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 6")
    kit_ = d20_state(s).fighters["Kit"]
    assert kit_.harms == {"wound": 2, "trauma": 1}
    assert kit_.defeated and kit_.dying
    assert kit_.conditions.get("prone") is True
    assert entry(s, "Kit")["status"] == "dying"


def test_s3_10_2_c30_defeated_takes_one_free_action_per_turn() -> None:
    """C30, docs/rules/2d20-harm.md#s3-10-2: a Defeated character may take only one Free Action per turn."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 6")
    for action in ("attack", "movement", "stand"):
        with pytest.raises(Refusal, match="Defeated"):
            run(s, f"spend Kit {action}")
    run(s, "spend Kit speak")
    with pytest.raises(Refusal, match="one Free Action"):
        run(s, "spend Kit shift")


def test_s3_10_2_three_mixed_harms_defeat_without_dying() -> None:
    """docs/rules/2d20-harm.md#s3-10-2: 3 Harms of any mix defeat; with Wounds ≤ Traumas the character is not Dying."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 7 mental")
    kit_ = d20_state(s).fighters["Kit"]
    assert kit_.defeated and not kit_.dying
    assert entry(s, "Kit")["status"] == "defeated"


def test_s3_10_2_c30_dying_dies_at_scene_end() -> None:
    """C30, docs/rules/2d20-lifecycle.md#s3-13 scene_end: the Dying who were not stabilized die at the end of the
    scene."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 6", "end")
    assert d20_state(s).fighters["Kit"].dead
    assert entry(s, "Kit")["status"] == "dead"


def test_s3_10_2_c30_stabilized_survives_still_defeated() -> None:
    """C30: stabilized (medical attention succeeded), it is alive at the scene end but still Defeated."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 6", "stabilize Kit")
    kit_ = d20_state(s).fighters["Kit"]
    assert kit_.stabilized and not kit_.dying and kit_.defeated
    run(s, "end")
    assert not d20_state(s).fighters["Kit"].dead
    assert d20_state(s).fighters["Kit"].defeated
    assert entry(s, "Kit")["status"] == "defeated"


def test_s3_10_2_stabilize_needs_dying() -> None:
    """docs/rules/2d20-harm.md#s3-10-2: only the Dying can be stabilized."""
    s = srd(kit(), THUG)
    with pytest.raises(Refusal, match="not Dying"):
        run(s, "stabilize Kit")


def test_s3_10_2_c30_another_wound_while_defeated_kills() -> None:
    """C30: another Wound while Defeated → death at once (stabilized or not)."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 6", "stabilize Kit", "damage Kit 6")
    assert d20_state(s).fighters["Kit"].dead
    assert entry(s, "Kit")["status"] == "dead"


def test_s3_10_2_trauma_while_defeated_is_a_mental_break() -> None:
    """docs/rules/2d20-harm.md#s3-10-2: another Trauma while Defeated → a mental break (not death)."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 6", "damage Kit 7 mental")
    kit_ = d20_state(s).fighters["Kit"]
    assert kit_.broken
    assert not kit_.dead


@pytest.mark.parametrize("leave", ["spend Kit undefeated", "revive Kit"])
def test_s3_10_2_b42_leaving_defeated_ends_dying_and_next_harm_defeats_again(leave: str) -> None:
    """C30, B42: 1 Fortune (Undefeated) or a revive leaves Defeated and ends Dying; the next Harm of any kind
    defeats again, and Dying again when Wounds > Traumas."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 6", leave)
    kit_ = d20_state(s).fighters["Kit"]
    assert not kit_.defeated and not kit_.dying
    assert kit_.fortune == (2 if "spend" in leave else 3)
    assert entry(s, "Kit")["status"] == "ok"
    run(s, "heal Kit 10", "damage Kit 4 mental")  # 2 stress: no Harm, still up
    assert not d20_state(s).fighters["Kit"].defeated
    run(s, "damage Kit 6")  # 5 stress: a Wound
    kit_ = d20_state(s).fighters["Kit"]
    assert kit_.harms == {"wound": 3, "trauma": 1}
    assert kit_.defeated and kit_.dying


def test_s3_10_2_b42_revived_then_trauma_defeats_without_dying() -> None:
    """B42: after leaving Defeated, a Trauma defeats again; Wounds 2 = Traumas 2, so not Dying."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 6", "revive Kit", "heal Kit 10", "damage Kit 7 mental")
    kit_ = d20_state(s).fighters["Kit"]
    assert kit_.defeated and not kit_.dying


def test_s3_10_2_b42_stabilized_then_revived_then_dying_again_needs_new_attention() -> None:
    """B42, C30: a stabilized character that leaves Defeated and is defeated again with Wounds > Traumas is Dying
    again, and dies at the scene end unless stabilized again."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 6", "stabilize Kit", "spend Kit undefeated", "heal Kit 10", "damage Kit 6")
    kit_ = d20_state(s).fighters["Kit"]
    assert kit_.defeated and kit_.dying and not kit_.stabilized
    run(s, "end")
    assert d20_state(s).fighters["Kit"].dead


def test_s3_10_2_undefeated_and_revive_refusals() -> None:
    """docs/rules/2d20.md#s3-3 Undefeated (1 Fortune) and docs/rules/2d20-harm.md#s3-10-2 revive: only for the Defeated,
    and Fortune must be there."""
    s = srd(kit(extra="fortune = 0"), THUG)
    with pytest.raises(Refusal, match="not Defeated"):
        run(s, "spend Kit undefeated")
    with pytest.raises(Refusal, match="not Defeated"):
        run(s, "revive Kit")
    run(s, "damage Kit 12", "damage Kit 2")  # 2 Harms, then 1 more on the full track: the 3rd defeats
    assert d20_state(s).fighters["Kit"].defeated and not d20_state(s).fighters["Kit"].dead
    with pytest.raises(Refusal, match="Fortune"):
        run(s, "spend Kit undefeated")


# --- docs/rules/2d20-harm.md#s3-10-2 voluntary Defeat -----------------------------------------------------------------


def test_s3_10_2_voluntary_defeat_one_harm_fortune_not_dying() -> None:
    """docs/rules/2d20-harm.md#s3-10-2 Voluntary Defeat: a PC suffering Harms may yield: only 1 Harm, +1 Fortune,
    Defeated, Prone, not Dying."""
    s = srd(kit(), THUG)
    run(s, "damage Kit 12 yield")  # 10 stress, max reached: 2 Harms, reduced to 1
    kit_ = d20_state(s).fighters["Kit"]
    assert kit_.harms == {"wound": 1}
    assert kit_.fortune == 4
    assert kit_.defeated and not kit_.dying
    assert kit_.conditions.get("prone") is True
    assert entry(s, "Kit")["status"] == "defeated"


def test_s3_10_2_voluntary_defeat_blocks_revival_this_scene() -> None:
    """docs/rules/2d20-harm.md#s3-10-2: after yielding, neither an ally nor Fortune revives the PC during this scene."""
    s = srd(kit(), THUG)
    run(s, "damage Kit 12 yield")
    with pytest.raises(Refusal, match="yielded"):
        run(s, "revive Kit")
    with pytest.raises(Refusal, match="yielded"):
        run(s, "spend Kit undefeated")
    run(s, "end", "start", "pick Kit", "revive Kit")
    assert not d20_state(s).fighters["Kit"].defeated


def test_s3_10_2_yield_without_harm_does_nothing() -> None:
    """docs/rules/2d20-harm.md#s3-10-2: voluntary Defeat is taken "when suffering Harm(s)"; a Harm-free hit is just
    stress."""
    s = srd(kit(), THUG)
    run(s, "damage Kit 3 yield")
    kit_ = d20_state(s).fighters["Kit"]
    assert not kit_.defeated
    assert kit_.fortune == 3
    assert kit_.stress == {"stress": 2}


def test_s3_10_2_npc_may_not_yield() -> None:
    """docs/rules/2d20-harm.md#s3-10-2: voluntary Defeat is a PC's choice."""
    s = srd(kit(), THUG)
    with pytest.raises(Refusal, match="player characters"):
        run(s, "damage Thug 6 yield")


# --- docs/rules/2d20-harm.md#s3-10-4 treatment (B42) ------------------------------------------------------------------


def test_s3_10_4_treated_harms_still_count_toward_defeat_and_dying() -> None:
    """docs/rules/2d20-harm.md#s3-10-4, B42: treated Harms impose no penalty but still count toward 3 Harms and Wounds >
    Traumas."""
    s = srd(kit("wound = 2"), THUG)
    run(s, "treat Kit wound 2")
    assert d20_state(s).fighters["Kit"].treated == {"wound": 2}
    assert entry(s, "Kit")["treated"] == {"wound": 2}
    run(s, "damage Kit 7 mental")  # a Trauma: the 3rd Harm
    kit_ = d20_state(s).fighters["Kit"]
    assert kit_.defeated and kit_.dying
    assert kit_.treated == {"wound": 2}  # a Trauma does not un-treat Wounds


def test_s3_10_4_new_wound_untreats_wounds() -> None:
    """docs/rules/2d20-harm.md#s3-10-4: a new Wound un-treats all treated Wounds."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "treat Kit wound", "treat Kit trauma 1")
    assert d20_state(s).fighters["Kit"].treated == {"wound": 1, "trauma": 1}
    run(s, "damage Kit 6")
    assert d20_state(s).fighters["Kit"].treated == {"trauma": 1}


def test_s3_10_4_cannot_treat_more_than_untreated() -> None:
    """docs/rules/2d20-harm.md#s3-10-4: treatment marks existing untreated Harms only."""
    s = srd(kit("wound = 1"), THUG)
    with pytest.raises(Refusal, match="untreated"):
        run(s, "treat Kit wound 2")
    run(s, "treat Kit wound")
    with pytest.raises(Refusal, match="untreated"):
        run(s, "treat Kit wound")


# --- docs/rules/2d20-harm.md#s3-10-3 Fatigue (B21) --------------------------------------------------------------------


def test_s3_10_3_b21_fatigue_lowers_max_and_caps_stress_without_harm() -> None:
    """docs/rules/2d20-harm.md#s3-10-3, B21: −1 max Stress per Fatigue; current stress capped at the new max; no
    Harm."""
    s = srd(kit(), THUG)
    run(s, "damage Kit 9")  # 8 stress, 1 Wound
    run(s, "add Kit fatigue 4")
    kit_ = d20_state(s).fighters["Kit"]
    assert kit_.fatigue == 4
    assert d20(s).tracks("Kit") == {"stress": 6}
    assert kit_.stress == {"stress": 6}
    assert kit_.harms == {"wound": 1}
    assert entry(s, "Kit")["stress_max"] == {"stress": 6}


def test_s3_10_3_fatigue_lowers_the_threshold_for_reaching_max() -> None:
    """docs/rules/2d20-harm.md#s3-10-1 with docs/rules/2d20-harm.md#s3-10-3: "max" is the max after Fatigue, so a
    Fatigued track fills sooner."""
    s = srd(kit(extra="fatigue = 6"), THUG)
    run(s, "damage Kit 5")  # 4 stress reaches max 4
    assert d20_state(s).fighters["Kit"].harms == {"wound": 1}


def test_s3_10_3_fatigue_at_zero_max_unconscious_then_death() -> None:
    """docs/rules/2d20-harm.md#s3-10-3: at max Stress 0 further Fatigue → Unconscious; more Fatigue while so → death."""
    s = srd(kit(), ADA, THUG)
    run(s, "add Ada fatigue 10")
    assert d20(s).tracks("Ada") == {"stress": 0}
    assert not d20_state(s).fighters["Ada"].unconscious
    run(s, "add Ada fatigue")
    assert d20_state(s).fighters["Ada"].unconscious
    assert entry(s, "Ada")["status"] == "unconscious"
    assert not d20_state(s).fighters["Ada"].harms
    run(s, "add Ada fatigue")
    assert d20_state(s).fighters["Ada"].dead


def test_s3_10_3_fatigue_past_zero_in_one_blow_knocks_out_at_once() -> None:
    """docs/rules/2d20-harm.md#s3-10-3 [004:L1896]: 4 Fatigue on a max Stress of 3 lower it to 0 and the 4th point is
    "further Fatigue": the character falls unconscious at once (not on the next point); the next kills."""
    s = srd(kit(), combatant("Ada", stress=3, zone="A"), THUG)
    run(s, "add Ada fatigue 4")
    ada = d20_state(s).fighters["Ada"]
    assert d20(s).tracks("Ada") == {"stress": 0}
    assert ada.unconscious and not ada.dead
    assert ada.fatigue == 3
    assert entry(s, "Ada")["status"] == "unconscious"
    assert any("1 Fatigue past a max Stress of 0" in e.text for e in d20_state(s).log)
    run(s, "add Ada fatigue")
    assert d20_state(s).fighters["Ada"].dead


def test_s3_10_3_fatigue_exactly_to_zero_does_not_knock_out() -> None:
    """docs/rules/2d20-harm.md#s3-10-3 [004:L1896]: Fatigue that brings max Stress exactly to 0 is not yet "further"."""
    s = srd(kit(), combatant("Ada", stress=3, zone="A"), THUG)
    run(s, "add Ada fatigue 3")
    assert d20(s).tracks("Ada") == {"stress": 0}
    assert not d20_state(s).fighters["Ada"].unconscious


def test_s3_10_3_removing_fatigue_restores_max() -> None:
    """docs/rules/2d20-harm.md#s3-10-3: removing Fatigue raises max Stress again (stress stays where it was)."""
    s = srd(kit(extra="fatigue = 3"), THUG)
    run(s, "damage Kit 5", "remove Kit fatigue 2")
    assert d20(s).tracks("Kit") == {"stress": 9}
    assert d20_state(s).fighters["Kit"].stress == {"stress": 4}
    run(s, "remove Kit fatigue")
    assert d20_state(s).fighters["Kit"].fatigue == 0
    with pytest.raises(Refusal, match="no Fatigue"):
        run(s, "remove Kit fatigue")


# --- docs/rules/2d20-harm.md#s3-10-4 recovery -------------------------------------------------------------------------


def test_s3_10_4_heal_removes_stress_not_harm() -> None:
    """docs/rules/2d20-harm.md#s3-10-4: Aid/Recover remove stress (never below 0); Harms stay."""
    s = srd(kit(), THUG)
    run(s, "damage Kit 7", "heal Kit 3")
    assert d20_state(s).fighters["Kit"].stress == {"stress": 3}
    assert d20_state(s).fighters["Kit"].harms == {"wound": 1}
    run(s, "heal Kit 9")
    assert d20_state(s).fighters["Kit"].stress == {"stress": 0}


def test_s3_10_4_heal_by_track_in_infinity() -> None:
    """docs/rules/2d20-harm.md#s3-10-4 (Infinity Recover/Treat): stress is removed from the named track only."""
    s = infinity()
    run(s, "damage Ana 5", "damage Ana 6 track=resolve", "heal Ana 2 track=resolve")
    assert d20_state(s).fighters["Ana"].stress == {"vigour": 4, "resolve": 2, "firewall": 0}
    with pytest.raises(Refusal, match=r"no track of Ana's named 'morale' \(known: vigour, resolve, firewall"):
        run(s, "heal Ana 1 track=morale")


def test_s3_10_4_scene_end_removes_all_stress_not_harms() -> None:
    """docs/rules/2d20-harm.md#s3-10-4, docs/rules/2d20-lifecycle.md#s3-13 scene_end (SRD): all Stress is removed at the
    end of the scene; Harms remain."""
    s = srd(kit(), THUG)
    run(s, "damage Kit 7", "damage Thug 4", "end")
    assert d20_state(s).fighters["Kit"].stress == {"stress": 0}
    assert d20_state(s).fighters["Thug"].stress == {"stress": 0}
    assert d20_state(s).fighters["Kit"].harms == {"wound": 1}


def test_s3_10_2_harms_past_the_defeating_one_are_suffered_while_defeated() -> None:
    """docs/rules/2d20-harm.md#s3-10-2: one hit that deals the 3rd and 4th Wound defeats with the 3rd; the 4th is a
    Wound while Defeated, so the character dies."""
    s = srd(kit("wound = 1, trauma = 1"), THUG)
    run(s, "damage Kit 12")  # 11 stress: ≥5 and the track fills: 2 Wounds at once
    assert d20_state(s).fighters["Kit"].dead
    assert d20_state(s).fighters["Kit"].harms["wound"] == 3
