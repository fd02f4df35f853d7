"""Challenges [004:L679-743]: Key Tests toward a goal (basic, linear, gated, group), Contests against rivals with
Priority, and time pressure (intervals, Momentum and Threat to take them off, a limit that runs out or moves).
Driven through the command language; the test's faces are typed so each outcome is known."""

from __future__ import annotations

from typing import Any

from tests.conftest import d20_state, pending, refused, run, session_from
from tests.rules.twod20.scenes import combatant, header, zones
from tracker.families.session import Session
from tracker.families.snapshot import state_json

KIT = combatant(
    "Kit",
    side="players",
    attributes={"agility": 10, "coordination": 10, "reason": 11, "insight": 9, "will": 8, "brawn": 8},
    skills={"fight": 2, "tech": 3, "move": 1},
    stress=10,
    zone="Vault",
)
ADA = combatant(
    "Ada",
    side="players",
    attributes={"agility": 9, "coordination": 9, "reason": 10, "insight": 10, "will": 9, "brawn": 8},
    skills={"tech": 2},
    stress=10,
    zone="Vault",
)
THUG = combatant("Thug", side="enemies", npc_type="minor", attributes={"agility": 9}, stress=5, zone="Vault")
#: Two faces that pass a D2 test at TN 13-14 (two successes), two that fail it, and one with a Complication.
PASS, FAIL, PASS_COMPLICATED = "2,3", "19,18", "2,3,20"


def scene(momentum: int = 4, threat: int = 4) -> Session:
    text = header("Heist", momentum=momentum, threat=threat) + zones("Vault") + KIT + ADA + THUG
    return run(session_from(text), "start", "pick Kit")


def challenge(s: Session) -> dict[str, Any]:
    found = state_json(s)["challenges"]
    assert isinstance(found, list) and found
    entry = found[0]
    assert isinstance(entry, dict)
    return entry


BREAK_IN = "keytests 'Break in' 'Pick the lock:agility+tech/2' 'Bypass the alarm:reason+tech/2'"


def test_004_l687_a_challenge_is_complete_once_every_key_test_is_done() -> None:
    """[004:L687]: two or more Key Tests; once all are completed successfully the Challenge is complete; they
    may be attempted in any order [004:L689]."""
    s = scene()
    run(s, BREAK_IN, "keytest 'Break in' Bypass Kit")
    p = pending(d20_state(s))
    assert p.kind == "keytest_roll" and p.data["difficulty"] == 2 and p.data["key"] == "Bypass the alarm"
    run(s, f"answer {PASS}")
    assert challenge(s)["state"] == "open"
    assert [k["done"] for k in challenge(s)["keys"]] == [False, True]
    run(s, "keytest 'Break in' Pick Ada", f"answer {FAIL}")
    assert challenge(s)["keys"][0]["done"] is False
    run(s, "keytest 'Break in' Pick Ada", f"answer {PASS}")
    assert challenge(s)["state"] == "complete"
    assert any("the Challenge 'Break in' is complete" in e.text for e in s.state.log)


def test_004_l695_a_linear_challenges_key_tests_come_in_their_order() -> None:
    """[004:L695]: each Key Test must be completed before the next can be attempted."""
    s = scene()
    run(s, BREAK_IN + " linear")
    refused(s, "keytest 'Break in' Bypass Kit", "'Pick the lock' comes first")
    run(s, "keytest 'Break in' Pick Kit", f"answer {PASS}", "keytest 'Break in' Bypass Kit")
    assert pending(d20_state(s)).data["key"] == "Bypass the alarm"


def test_004_l697_a_gated_key_test_opens_after_others_and_its_goal_completes_the_challenge() -> None:
    """[004:L697]: some Key Tests only once others are done; the GM names the victory condition (a single Key
    Test): reaching it completes the Challenge whatever else is left."""
    s = scene()
    run(s, BREAK_IN + " 'Open the vault:reason+tech/2' 'Blast the door:brawn+tech/3' goal='Open the vault'")
    run(s, "gate 'Break in' 'Open the vault' after='Pick the lock,Bypass the alarm'")
    refused(s, "keytest 'Break in' Open Kit", "opens once Pick the lock, Bypass the alarm done")
    run(s, "keytest 'Break in' Pick Kit", f"answer {PASS}", "keytest 'Break in' Bypass Ada", f"answer {PASS}")
    run(s, "keytest 'Break in' Open Kit", f"answer {PASS}")
    assert challenge(s)["state"] == "complete"
    assert challenge(s)["keys"][3]["done"] is False


def test_004_l703_in_a_group_challenge_each_further_test_is_one_difficulty_harder_cumulative() -> None:
    """[004:L703]: any other Skill Tests a character attempts during a Group Challenge are +1 Difficulty, and
    the increase is cumulative."""
    s = scene()
    run(s, BREAK_IN + " group", "keytest 'Break in' Pick Kit")
    assert pending(d20_state(s)).data["difficulty"] == 2
    run(s, f"answer {FAIL}", "keytest 'Break in' Pick Kit")
    assert pending(d20_state(s)).data["difficulty"] == 3
    assert "Group Challenge" in pending(d20_state(s)).question
    run(s, f"answer {FAIL}", "keytest 'Break in' Pick Kit")
    assert pending(d20_state(s)).data["difficulty"] == 4
    run(s, f"answer {FAIL}", "keytest 'Break in' Pick Ada")
    assert pending(d20_state(s)).data["difficulty"] == 2  # Ada's first


def test_004_l721_each_test_takes_two_intervals_and_one_more_per_complication() -> None:
    """[004:L721]: a test takes two intervals, succeed or fail; a Complication adds one; 2 Momentum after a
    success takes one off (``hurry``), 2 Threat after a failure (``cut``), never below one interval."""
    s = scene(momentum=4, threat=4)
    run(s, BREAK_IN + " limit=8 interval='15 minutes'")
    run(s, "keytest 'Break in' Pick Kit", f"answer roll+1 {PASS_COMPLICATED}".replace("roll+1 ", ""))
    assert challenge(s)["used"] == 3  # 2 + 1 Complication
    momentum = d20_state(s).momentum
    run(s, "hurry 'Break in'")
    assert challenge(s)["used"] == 2 and d20_state(s).momentum == momentum - 2
    refused(s, "hurry 'Break in' 2", "it takes at least 1")
    refused(s, "cut 'Break in'", "for a last test that failed")
    threat = d20_state(s).threat
    run(s, "keytest 'Break in' Bypass Ada", f"answer {FAIL}", "cut 'Break in'")
    assert challenge(s)["used"] == 3 and d20_state(s).threat == threat + 2


def test_004_l727_when_the_time_runs_out_the_challenge_fails_and_its_consequence_happens() -> None:
    """[004:L727]: a total time to complete the Challenge in, and a consequence for failing to do so."""
    s = scene()
    run(s, BREAK_IN + " limit=4 consequence='the guards arrive'")
    run(s, "keytest 'Break in' Pick Kit", f"answer {PASS}", "keytest 'Break in' Bypass Ada", f"answer {FAIL}")
    assert challenge(s)["state"] == "failed"
    assert any("time runs out on 'Break in': the guards arrive" in e.text for e in s.state.log)
    refused(s, "keytest 'Break in' Bypass Ada", "is failed already")


def test_004_l737_a_limit_that_can_be_put_off_moves_and_may_run_out_sooner() -> None:
    """[004:L737-741]: delaying adds intervals to the remaining time; a Complication may take one off."""
    s = scene()
    run(s, BREAK_IN + " limit=4", "keytest 'Break in' Pick Kit", f"answer {PASS}")
    run(s, "delay 'Break in' +2")
    assert challenge(s)["limit"] == 6
    run(s, "delay 'Break in' -4")
    assert challenge(s)["state"] == "failed"
    refused(s, "delay 'Break in' +1", "is failed already")


def test_004_l711_a_contest_alternates_from_the_side_with_priority_and_the_first_to_its_goal_wins() -> None:
    """[004:L711]: the GM gives one side Priority (the players unless 2 Threat is spent); each side attempts one
    test, Priority first, then again; a side without Priority that succeeded may take it for 2 Momentum."""
    s = scene(momentum=4, threat=4)
    run(s, BREAK_IN + " rivals=2 priority=rivals")
    assert d20_state(s).threat == 2 and challenge(s)["priority"] == "rivals"
    refused(s, "keytest 'Break in' Pick Kit", "the rivals test next")
    run(s, "rival 'Break in' fail", "keytest 'Break in' Pick Kit", f"answer {PASS}")
    momentum = d20_state(s).momentum
    run(s, "seize 'Break in'")
    assert challenge(s)["priority"] == "players" and d20_state(s).momentum == momentum - 2
    refused(s, "rival 'Break in' pass", "the players test next")
    run(s, "keytest 'Break in' Bypass Ada", f"answer {FAIL}", "rival 'Break in' pass")
    run(s, "keytest 'Break in' Bypass Ada", f"answer {FAIL}", "rival 'Break in' pass")
    assert challenge(s)["state"] == "lost" and challenge(s)["rivals_done"] == 2


def test_004_l711_the_rivals_priority_costs_the_gm_two_threat() -> None:
    s = scene(threat=1)
    refused(s, BREAK_IN + " rivals=2 priority=rivals", "costs the GM 2 Threat")


def test_bad_challenges_are_refused_in_one_line_with_nothing_changed() -> None:
    s = scene()
    refused(s, "keytests 'Break in' 'Pick the lock:agility+tech'", "usage: keytests 'NAME' 'KEY:ATTR+SKILL[/D]' …")
    refused(s, "keytests 'Break in' 'Pick the lock' 'Bypass:reason+tech'", "'NAME:ATTRIBUTE+SKILL[/D]'")
    refused(s, "keytests 'Break in' 'A:agility+tech/9' 'B:reason+tech'", "Difficulty")
    refused(s, "keytest 'Nothing' Pick Kit", "no Challenge named 'Nothing'")
    run(s, BREAK_IN)
    refused(s, "keytest 'Break in' Pick Nobody", "no combatant named 'Nobody'")
    refused(s, "keytest 'Break in' Sing Kit", "no Key Test")
    refused(s, "hurry 'Break in'", "under no time pressure")
    refused(s, "rival 'Break in' pass", "has no rivals")
    refused(s, BREAK_IN, "already a Challenge 'Break in'")


def test_a_key_test_is_undone_like_any_command_and_shown_to_the_gm_and_the_players() -> None:
    s = scene()
    run(s, BREAK_IN + " limit=6", "keytest 'Break in' Pick Kit", f"answer {PASS}")
    assert challenge(s)["keys"][0]["done"] is True and challenge(s)["used"] == 2
    run(s, "undo")
    assert challenge(s)["keys"][0]["done"] is False and challenge(s)["used"] == 0
    run(s, "redo")
    shown = "".join(span.text for span in s.presenter.resources())
    assert "Break in: 1/2 Key Tests (Pick the lock ✓, Bypass the alarm), 2/6 intervals used" in shown
    assert any(n.startswith("Challenge Break in: 1/2 Key Tests") for n in s.presenter.player_view().notes)
