"""2d20 actions out of turn: an Assist declared on the ally's turn uses up the assister's turn and rolls its d20
with the ally's test (docs/rules/2d20.md#s3-2 Assistance, docs/rules/2d20-turns.md#s3-5-1 [004:L502-506, L1457-1465]); a
readied Major Action interrupts another's turn when the GM says its trigger happened, counts against 2 Major Actions a
round and lapses per profile (docs/rules/2d20-turns.md#s3-5-1 Ready [004:L1474; 002:L89], B9, B31)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import d20_state, d20_view, pending, run, session_from
from tests.rules.twod20.scenes import refused
from tests.rules.twod20.test_attack_flow import scene as armed_scene
from tests.rules.twod20.test_turn_actions import ROUND, encounter, kit_turn
from tracker.families.session import Session
from tracker.store.files import FileInvalid, parse_text
from tracker.store.save import encounter_text


def log(s: Session) -> str:
    return "\n".join(e.text for e in d20_state(s).log)


# --- Assist [004:L1457-1465, L502-506] ---------------------------------------------------------------------


def test_004_l1461_assist_on_the_allys_turn_uses_up_the_assisters_turn() -> None:
    """[004:L1461-1465] Timing Assistance: "you can choose to assist when another character declares the task
    ... even though it isn't your turn ... assisting takes up your turn". Ada assists on Kit's turn: she has
    acted (a Major Action this round) and the hand-over no longer offers her."""
    s = run(kit_turn(), "spend Ada assist Kit 10")
    ada = d20_state(s).fighters["Ada"]
    assert ada.acted and ada.majors == 1
    assert [(h.by, h.tn, h.focus) for h in d20_state(s).fighters["Kit"].assisted_by] == [("Ada", 10, None)]
    assert "Ada's turn this round is used up [004:L1461-1465]" in log(s)
    run(s, "next")
    assert "Ada" not in pending(d20_state(s)).options
    refused(s, "pick Ada", "already acted this round")


def test_004_l1461_assist_out_of_turn_refused_once_the_assister_has_acted() -> None:
    """[004:L1461]: "you can only provide this assistance if you have not already acted this round": on Ada's
    turn, Kit (who took its turn) may not assist; nothing changes."""
    s = run(kit_turn(), "spend Kit aim", "next", "pick Thug", "next", "pick Ada")
    why = refused(s, "spend Kit assist Ada 10", "Kit has already acted this round")
    assert "[004:L1461-1465]" in str(why)


def test_004_l1461_assist_out_of_turn_names_the_acting_ally() -> None:
    """On Kit's turn Ada assists Kit, whose test is declared: no ally named, an enemy, or a stray word are
    refused with nothing changed; a Stunned Ada (her next turn has no actions [004:L1783]) cannot give it up."""
    s = kit_turn()
    refused(s, "spend Ada assist", "name the ally Ada assists")
    refused(s, "spend Ada assist Thug", "Thug is an enemy of Ada")
    refused(s, "spend Ada assist Kit 10 2 x", "not 'x'")
    run(s, "add Ada stunned")
    refused(s, "spend Ada assist Kit 10", "Ada is Stunned")


def test_004_l504_the_assisting_d20_joins_the_allys_test() -> None:
    """[004:L502-506] Assistance: the assistant rolls 1d20 at its own TN; its successes count when the leader
    scores at least one. Kit (TN 12, D2) rolls 1 and 18 (2 successes) and Ada's typed die 5 vs TN 10 adds 1:
    3 successes, a pass with 1 Momentum. The assist is used up."""
    s = run(kit_turn(), "spend Ada assist Kit 10")
    before = d20_state(s).momentum
    run(s, "roll Kit 12 2 faces=1,18,5")
    assert "Ada assists Kit: d20 5 vs TN 10 → 1 success" in log(s)
    assert "Kit tests: d20: 1, 18 vs TN 12 → 3 successes, 0 complications; D2: pass, 1 Momentum" in log(s)
    assert d20_state(s).momentum == before + 1
    assert d20_state(s).fighters["Kit"].assisted_by == []


def test_004_l504_assistance_counts_only_if_the_leader_succeeds() -> None:
    """[004:L504]: Kit's 15 and 18 vs TN 12 score nothing, so Ada's success does not count: a failure."""
    s = run(kit_turn(), "spend Ada assist Kit 10")
    run(s, "roll Kit 12 1 faces=15,18,5")
    assert "the assistance does not count [004:L504]" in log(s)
    assert "fail" in d20_state(s).log[-1].text


def test_004_l504_the_assisting_d20_is_rolled_seeded_with_its_focus() -> None:
    """Without typed faces the tracker rolls the assistant's die too (3 d20s drawn); a typed face list must
    hold the leader's dice, or the leader's and the assistants'. A Focus of 20 makes Ada's die score 2."""
    s = run(kit_turn(), "spend Ada assist Kit 10 20")
    refused(s, "roll Kit 12 2 faces=1,2,3,4", "expected 2 (or 3 with the assisting d20s) faces")
    draws = d20_state(s).draws
    run(s, "roll Kit 12 2")
    assert d20_state(s).draws == draws + 3
    assert "(focus 20) → 2 successes" in log(s)


def test_004_l1461_an_unused_assist_lapses_at_the_end_of_the_allys_turn() -> None:
    """The assist helps the test the ally declared this turn: with no test, it lapses as Kit's turn ends."""
    s = run(kit_turn(), "spend Ada assist Kit 10", "spend Kit aim", "next")
    assert d20_state(s).fighters["Kit"].assisted_by == []
    assert "Ada's assistance to Kit lapses" in log(s)


def test_004_l1459_assist_on_ones_own_turn_helps_the_allys_next_test() -> None:
    """[004:L1459] Assist as the assister's own Major Action: its d20 waits for the ally's next test."""
    s = run(kit_turn(), "spend Kit aim", "next", "pick Thug", "next", "pick Ada", "spend Ada assist Kit 10")
    assert d20_state(s).fighters["Ada"].majors == 1
    run(s, "next", "pick Boss", "next", "pick Kit", "roll Kit 12 2 faces=1,18,5")
    assert "Ada assists Kit: d20 5" in log(s)


def test_004_l1461_undo_takes_the_assist_back() -> None:
    """Undo covers the out-of-turn Assist: Ada has not acted and Kit's test has no assistant."""
    s = run(kit_turn(), "spend Ada assist Kit 10")
    s.undo()
    assert not d20_state(s).fighters["Ada"].acted
    assert d20_state(s).fighters["Kit"].assisted_by == []


# --- Ready [004:L1474], B9, B31 -------------------------------------------------------------------------------


def test_004_l1474_a_readied_action_interrupts_another_turn() -> None:
    """[004:L1474] Ready: "When this triggering event occurs, the character with the readied Major Action
    temporarily interrupts the acting character's Turn". Kit readies an Attack; on the Thug's turn the GM types
    it: taken, counted as Kit's second Major Action this round (B31), and the Ready is used."""
    s = run(kit_turn(), "spend Kit ready attack when the Thug moves")
    kit = d20_state(s).fighters["Kit"]
    assert (kit.ready, kit.ready_trigger, kit.majors) == ("attack", "when the Thug moves", 1)
    run(s, "next", "pick Thug")
    run(s, "spend Kit attack Thug")
    kit = d20_state(s).fighters["Kit"]
    assert (kit.ready, kit.majors) == (None, 2)
    assert "Kit's readied Attack interrupts Thug's turn [004:L1474]" in log(s)
    assert d20_state(s).active == "Thug"
    refused(s, "spend Kit attack Thug", "it is not Kit's turn")


def test_004_l1474_without_a_ready_no_action_out_of_turn() -> None:
    """[004:L1485]: a Major or Minor Action is taken on one's own turn; only a readied one interrupts."""
    s = run(kit_turn(), "spend Kit aim", "next", "pick Thug")
    refused(s, "spend Kit attack Thug", "it is not Kit's turn")
    s2 = run(kit_turn(), "spend Kit ready recover", "next", "pick Thug")
    refused(s2, "spend Kit attack Thug", "it is not Kit's turn")


def test_b31_a_readied_action_counts_against_two_majors_a_round() -> None:
    """B31 [004:L1452]: every Major Action, readied ones included, counts against 2 a round: Kit readies, then
    takes a second Major with Surge of Activity; the trigger is refused and nothing changes."""
    s = run(kit_turn(), "spend Kit ready attack", "spend Kit surge", "spend Kit recover", "next", "pick Thug")
    refused(s, "spend Kit attack Thug", "has taken 2 Major Actions this round")


def test_004_l1474_ready_holds_a_major_action() -> None:
    """[004:L1474]: "the Major Action to be attempted" is chosen when Ready is declared: a Minor is refused."""
    s = kit_turn()
    refused(s, "spend Kit ready aim", "Ready holds a Major Action, not Aim")
    refused(s, "spend Kit ready", "Ready holds a Major Action")


def test_004_l1474_an_untriggered_ready_is_lost_at_the_next_turn() -> None:
    """[004:L1474]: "If the triggering event does not occur before the character's next Turn, the readied
    Major Action is lost" (SRD; Infinity the same, B9)."""
    s = run(kit_turn(), "spend Kit ready attack", *ROUND)
    assert d20_state(s).fighters["Kit"].ready is None
    assert "Kit's readied Attack is lost: not triggered before its next turn" in log(s)


def test_002_l89_b9_secret_war_ready_is_lost_before_the_next_round() -> None:
    """[002:L89], B9: under the Secret War sheet a readied action is lost before the next round, not at the
    character's next turn (profile `ready_lapses`)."""
    s = run(kit_turn("secret-war"), "spend Kit ready attack", "next", "pick Thug", "next", "pick Ada")
    assert d20_state(s).fighters["Kit"].ready == "attack"
    run(s, "next", "pick Boss", "next")
    assert d20_state(s).fighters["Kit"].ready is None
    assert "not triggered before the next round [002:L89]" in log(s)


def test_004_l1474_the_attack_flow_takes_a_readied_attack() -> None:
    """[004:L1474]: the trigger typed as the attack flow (`attack Kit Thug`) on the Thug's turn runs the flow
    for Kit: its roll question comes up while the Thug's turn stays open."""
    s = run(armed_scene(), "start", "pick Kit", "spend Kit ready attack", "next", "pick Thug", "attack Kit Thug")
    assert pending(d20_state(s)).who == "Kit"
    assert d20_state(s).fighters["Kit"].majors == 2
    assert d20_state(s).active == "Thug"


def test_b9_the_table_may_switch_when_a_ready_lapses() -> None:
    """B9: the `[settings]` line `ready_lapses = "round_end"` gives an SRD table the Secret War's reading
    [002:L89]: Kit's Ready outlasts the others' turns and is lost as the round ends."""
    text = encounter().replace("[[zones]]", '[settings]\nready_lapses = "round_end"\n\n[[zones]]', 1)
    s = run(session_from(text), "start", "pick Kit", "spend Kit ready attack", "next", "pick Thug", "next")
    assert d20_state(s).fighters["Kit"].ready == "attack"
    run(s, "pick Ada", "next", "pick Boss", "next")
    assert d20_state(s).fighters["Kit"].ready is None


def test_the_turn_panel_shows_the_assist_and_the_ready() -> None:
    """The Turn panel of the acting character says whose d20 joins its next roll [004:L502-506] and which
    Major Action it holds readied [004:L1474]."""
    s = run(kit_turn(), "spend Ada assist Kit 10", "spend Kit ready attack when the Thug moves")
    text = "".join(span.text for span in d20_view(s).turn())
    assert "Assisted by Ada (TN 10): their d20s join the next roll" in text
    assert "Readied: Attack (lost if not triggered in time, trigger: when the Thug moves)" in text


def test_a_saved_assist_and_ready_survive_a_save_and_a_bad_one_is_refused_on_load() -> None:
    """The assist and the Ready live in the saved state (undo and reload replay them); a saved state naming an
    assister who is not in the encounter, or a readied action its profile lacks, is refused at its key."""
    s = run(kit_turn(), "spend Ada assist Kit 10", "spend Kit ready attack")
    saved = encounter_text(s)
    again = d20_state(Session(parse_text(saved, "x"), seed=1))
    assert again.fighters["Kit"].ready == "attack"
    assert [h.by for h in again.fighters["Kit"].assisted_by] == ["Ada"]
    with pytest.raises(FileInvalid, match=re.escape("state: fighters.Kit.assisted_by[1].by")):
        parse_text(saved.replace('by = "Ada"', 'by = "Nobody"'), "x")
    with pytest.raises(FileInvalid, match=re.escape("state: fighters.Kit.ready")):
        parse_text(saved.replace('ready = "attack"', 'ready = "sprint"'), "x")


def test_004_l504_an_assist_joins_the_attack_flows_test() -> None:
    """[004:L502-506] The attack as one flow is a test like any: Ada's Assist on Kit's turn joins Kit's attack
    roll with her own d20 (rolled by the tracker), and is used up."""
    knife = 'weapons = [{ name = "Knife", range = "reach", damage = 2 }]'
    s = run(kit_turn(kit=knife), "reach Kit Thug", "spend Ada assist Kit 10", "attack Kit Thug")
    while pending(d20_state(s)).kind in ("attack_target", "attack_weapon", "attack_reaction"):
        s.execute(f"answer '{pending(d20_state(s)).options[0]}'")
    assert pending(d20_state(s)).kind == "attack_roll"
    s.execute("answer 1,18")
    assert re.search(r"Ada assists Kit: d20 \d+ vs TN 10", log(s))
    assert d20_state(s).fighters["Kit"].assisted_by == []
