"""Extended tasks and consequences [004:L2039-2084], the ticking clock [004:L2041-2047] and the Overcome
[004:L1470]; the pools carried between scenes (Momentum lost, Threat kept, the profile's ``stress_recovery``
[002:L113]). Driven through the command language; every refusal changes nothing."""

from __future__ import annotations

from typing import Any

from tests.conftest import d20_state, d20_view, pending, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tests.rules.twod20.test_traits import scene
from tracker.families.session import Session
from tracker.families.snapshot import state_json

BOMB = "task 'Defuse the bomb' stress=8 breakthroughs=2 resistance=1 clock=4 test=reason+tech difficulty=2"


def task(s: Session, n: int = 0) -> dict[str, Any]:
    return dict(state_json(s)["tasks"][n])


def logged(s: Session, text: str) -> bool:
    return any(text in e.text for e in d20_state(s).log)


def test_004_l2052_a_task_in_the_json_as_docs_reference_names_it() -> None:
    """[004:L2052-2058]: Stress, Resistance, Breakthroughs needed, a clock; JSON ``tasks``."""
    s = run(scene(), BOMB)
    assert state_json(s)["tasks"] == [
        {
            "name": "Defuse the bomb",
            "kind": "task",
            "stress": 0,
            "stress_max": 8,
            "breakthroughs": 0,
            "needed": 2,
            "resistance": 1,
            "clock": 4,
            "rounds_left": 4,
            "state": "open",
        }
    ]


def test_004_l2056_damage_on_a_task_less_resistance_harms_are_breakthroughs() -> None:
    """[004:L2056-2058]: damage less Resistance is Stress; 5+ in one roll or reaching the maximum is a Harm,
    here a Breakthrough [004:L1842-1844]; at the number needed the task is overcome."""
    s = run(scene(), BOMB, "damage Defuse 4")
    assert (task(s)["stress"], task(s)["breakthroughs"]) == (3, 0)
    run(s, "damage 'Defuse the bomb' 6")  # 5 Stress: a Breakthrough by the threshold, and the maximum reached
    assert (task(s)["stress"], task(s)["breakthroughs"], task(s)["state"]) == (8, 2, "overcome")
    assert logged(s, "Defuse the bomb is overcome")
    refused(s, "damage Defuse 3", "overcome already")


def test_004_l2056_damage_effects_on_a_task() -> None:
    """A tool's edge gives damage effects [004:L2056]: Piercing ignores Resistance, Vicious adds, Intense +1 Harm."""
    s = run(scene(), "task Lock stress=20 breakthroughs=5 resistance=3", "damage Lock 3 icons=1 piercing=3")
    assert task(s)["stress"] == 3
    run(s, "damage Lock 3 icons=2 vicious=1")  # 3 + 2 − 3 = 2
    assert task(s)["stress"] == 5
    run(s, "damage Lock 8 icons=1 intense")  # 5 Stress: 1 Harm, +1 Intense
    assert task(s)["breakthroughs"] == 2
    refused(s, "damage Lock 3 track=mental", "a problem's damage takes")


def test_004_l2072_a_consequence_is_disastrous_at_its_setbacks_and_its_stress_recovers_not_its_setbacks() -> None:
    """[004:L2072-2084]: Harms are Setbacks; Stress may be recovered, Setbacks cannot; at K it is disastrous."""
    s = run(scene(), "consequence 'Guards alerted' stress=6 setbacks=2", "damage Guards 5")
    assert (task(s)["kind"], task(s)["stress"], task(s)["breakthroughs"]) == ("consequence", 5, 1)
    run(s, "heal Guards 4")
    assert (task(s)["stress"], task(s)["breakthroughs"]) == (1, 1)
    run(s, "damage Guards 5")
    assert (task(s)["breakthroughs"], task(s)["state"]) == (2, "failed")
    assert logged(s, "Guards alerted is disastrous")


def test_004_l2047_the_clock_counts_down_at_each_rounds_end_then_the_task_fails() -> None:
    """[004:L2041-2047]: a ticking clock of rounds; when it runs out the task has failed."""
    s = run(scene(), "task Bomb stress=8 breakthroughs=2 clock=2")
    run(s, "next", "pick Thug", "next")  # round 1 ends
    assert (task(s)["rounds_left"], task(s)["state"]) == (1, "open")
    run(s, "pick Kit", "next", "pick Thug", "next")  # round 2 ends
    assert (task(s)["rounds_left"], task(s)["state"]) == (0, "failed")
    assert logged(s, "Bomb: the clock has run out (end of the round): the task has failed")


def test_004_l2047_threat_spent_takes_a_round_off_the_clock() -> None:
    """[004:L2047]: the rounds left can be reduced by spending Threat (at least 5); ``free`` for an event."""
    s = run(scene(), "task Bomb stress=8 breakthroughs=2 clock=3", "tick Bomb")
    assert (task(s)["rounds_left"], state_json(s)["pools"]["threat"]) == (2, 1)
    refused(s, "tick Bomb", "costs 5 Threat; the pool holds 1")
    run(s, "tick Bomb free", "tick Bomb free")
    assert task(s)["state"] == "failed"
    run(s, "task Lock stress=3 breakthroughs=1")
    refused(s, "tick Lock free", "has no clock")


def test_004_l1470_overcome_rolls_the_tasks_test_and_damages_it_on_a_success() -> None:
    """[004:L1470, L2056]: the Overcome is the task's test (Reason + Tech at its Difficulty); a success rolls
    2[CD] + [CD] per rank of the skill (here 2 + 3), less Resistance, on the task."""
    s = run(scene(), BOMB, "overcome Kit Defuse")
    p = pending(d20_state(s))
    assert "Reason 10 + Tech 3 = TN 13, Difficulty 2 (task 2)" in p.question
    run(s, "answer 5,6 cd=1,2,5,6,3")  # 2 successes: pass; 1+2+1+1+0 = 5, less Resistance 1 = 4
    assert (task(s)["stress"], task(s)["breakthroughs"]) == (4, 0)
    assert logged(s, "Kit rolls 2+3[CD] on Defuse the bomb")
    assert d20_state(s).fighters["Kit"].majors == 1  # a Major Action


def test_004_l1470_a_failed_overcome_does_nothing_to_the_task_and_the_attack_flow_takes_a_task() -> None:
    """``attack NAME TASK`` is the Overcome: the attack flow with the task as its target."""
    s = run(scene(), BOMB, "attack Kit 'Defuse the bomb'", "answer 15,19")
    assert task(s)["stress"] == 0
    assert logged(s, "Kit makes no headway on Defuse the bomb")


def test_004_l1470_overcome_with_no_task_named_asks_which_open_task_with_each_chance() -> None:
    """[004:L1470]: ``overcome NAME`` takes the Overcome and asks which open task (each with its chance), as
    the attack flow asks at whom; the answer asks that task's test. A task with no test and a consequence
    are not offered; with none left it is refused with nothing taken."""
    s = run(scene(), BOMB, "task 'Crack the safe' stress=6 breakthroughs=1 test=reason+tech")
    run(s, "task 'Noise' stress=4 breakthroughs=1")
    run(s, "consequence 'Alarm' stress=6 setbacks=2")
    run(s, "overcome Kit")
    p = pending(d20_state(s))
    assert p.kind == "overcome_task" and p.options == ["Defuse the bomb", "Crack the safe"]
    labels = p.data["labels"]
    assert isinstance(labels, list) and labels[0].startswith("Defuse the bomb · ") and labels[0].endswith("% a success")
    assert d20_state(s).fighters["Kit"].majors == 1
    refused(s, "answer Noise", "")
    run(s, "answer Defuse")
    p = pending(d20_state(s))
    assert p.kind == "overcome_roll" and "Reason 10 + Tech 3 = TN 13, Difficulty 2 (task 2)" in p.question
    run(s, "answer 5,6 cd=1,2,5,6,3")
    assert (task(s)["stress"], task(s)["breakthroughs"]) == (4, 0)
    quiet = run(scene(), "task 'Noise' stress=4 breakthroughs=1")
    refused(quiet, "overcome Kit", "Kit has no open task to overcome")
    assert d20_state(quiet).fighters["Kit"].majors == 0


def test_004_l2060_a_trait_eases_the_overcome() -> None:
    """Easier from Here [004:L2060]: a trait (here on the scene) lowers the Overcome's Difficulty by its text."""
    s = run(scene(), BOMB, "trait scene 'Easier from here' difficulty=-1", "overcome Kit Defuse")
    assert "Difficulty 1 (task 2; Easier from here -1)" in pending(d20_state(s)).question


def test_undo_takes_back_a_tasks_damage_and_its_tick() -> None:
    s = run(scene(), BOMB, "damage Defuse 6", "tick Defuse")
    run(s, "undo", "undo")
    assert (task(s)["stress"], task(s)["rounds_left"]) == (0, 4)


def test_bad_tasks_are_refused_with_nothing_changed() -> None:
    """A task with no Stress, a clock with no size, a consequence with a clock, a task with a combatant's name,
    an Overcome of a task with no test: one line each, nothing changed."""
    s = scene()
    refused(s, "task Bomb breakthroughs=2", "a task needs its Stress")
    refused(s, "task Bomb stress=8", "a task needs its Breakthroughs")
    refused(s, "task Bomb stress=8 breakthroughs=2 clock", "a clock needs its size in rounds")
    refused(s, "task Bomb stress=8 breakthroughs=2 clock=0", "at least 1")
    refused(s, "consequence Alarm stress=5 setbacks=2 clock=3", "unknown consequence option 'clock'")
    refused(s, "task Kit stress=5 breakthroughs=1", "a combatant's or a zone's name")
    run(s, "task Bomb stress=8 breakthroughs=2")
    refused(s, "overcome Kit Bomb", "names no test")
    refused(s, "tick Nothing", "no task named 'Nothing'")


def test_004_l2062_naming_a_task_again_changes_its_figures() -> None:
    """Removed a Hindrance: the problem's Resistance is reduced by 2 [004:L2062]."""
    s = run(scene(), BOMB, "task 'Defuse the bomb' resistance=0")
    assert task(s)["resistance"] == 0


def test_the_resources_panel_lists_the_tasks() -> None:
    s = run(scene(), BOMB)
    shown = "".join(span.text for span in d20_view(s).resources())
    assert "Defuse the bomb: Stress 0/8, 0/2 Breakthroughs, Resistance 1, clock 4/4 rounds" in shown


# --- the pools carried between scenes -----------------------------------------------------------------------


def test_004_threat_is_kept_momentum_lost_at_the_end_of_the_scene() -> None:
    """[004:L538]: at the end of each scene one Momentum is lost; Threat is kept into the next scene."""
    s = run(scene(), "momentum +3", "end")
    pools = state_json(s)["pools"]
    assert (pools["momentum"], pools["threat"]) == (4, 6)
    run(s, "start")
    assert state_json(s)["pools"]["threat"] == 6


def test_002_l113_secret_war_stress_is_recovered_when_the_next_scene_begins() -> None:
    """[002:L113]: unless defeated, a hero recovers all stress at the beginning of a new scene (profile
    ``stress_recovery = "scene_start"``); the SRD's ``scene_end`` clears it at ``end``."""
    people = combatant("Kit", side="players", stress=10, zone="A") + combatant(
        "Thug", side="enemies", npc_type="minor", stress=10, zone="A"
    )
    s = run(session_from(header(profile="secret-war") + zones("A") + people), "start", "pick Kit", "damage Kit 3")
    run(s, "end")
    assert d20_state(s).fighters["Kit"].stress["stress"] == 3
    run(s, "start")
    assert d20_state(s).fighters["Kit"].stress["stress"] == 0
    assert logged(s, "Kit recovers all stress as the scene begins")
    srd = run(scene(), "damage Kit 3", "end")
    assert d20_state(srd).fighters["Kit"].stress["stress"] == 0


def test_a_word_naming_a_combatant_and_a_task_is_the_combatants_unless_the_whole_name_is_typed() -> None:
    """docs/reference/language.md: ``damage Ki 3`` beside Kit and a task "Kit's snare" hits Kit."""
    s = run(scene(), "task 'Kit snare' stress=8 breakthroughs=2", "damage Ki 3")
    assert (d20_state(s).fighters["Kit"].stress["stress"], task(s)["stress"]) == (3, 0)
    run(s, "damage 'kit snare' 3")
    assert task(s)["stress"] == 3
    refused(s, "heal 'Kit snare' 1 track=stress", "a problem has one Stress")
