"""Ongoing Challenges [000:L407-415] (``ongoing``) and the Show action [000:L280] (``spend NAME show TARGET``)."""

from __future__ import annotations

import pytest

from tests.conftest import pending, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json


def table() -> Session:
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, skills={"athletics": 3}, hand=["4C"], height=3, melee_range=1
    )
    ash = combatant("Ash", kind="fated", initiative=10, skills={"athletics": 1}, hand=["2T"])
    thug = combatant("Thug", rank_value=5, skills={"athletics": 2}, height=2, initiative=0)
    return run(session_from(sofia + ash + thug), "initiative Sofia 9", "initiative Ash 1", "start")


def top(s: Session, *codes: str) -> None:
    deck = ttb_state(s).deck
    for code in reversed(codes):
        deck.remove(code)
        deck.append(code)


def challenge(s: Session) -> dict[str, object]:
    found = state_json(s)["challenges"]
    assert isinstance(found, list) and found
    entry = found[0]
    assert isinstance(entry, dict)
    return dict(entry)


def test_ongoing_challenge_counts_successes_and_their_margins_to_a_win() -> None:
    """[000:L411-413]: every challenge against the same TN; each Margin of Success counts as one more success."""
    s = table()
    run(s, "ongoing 'Climb the Wall' tn=8 successes=4 failures=3 skill=athletics duration='1 round'")
    assert challenge(s)["state"] == "open" and challenge(s)["needed"] == 4
    run(s, "ongoing Climb Sofia")
    p = pending(ttb_state(s))
    assert p.kind == "ongoing" and "Athletics vs TN 8" in p.question
    top(s, "12R")
    run(s, "answer flip")  # 12 + 3 = 15 vs 8: pass with 1 Margin → 2 successes
    assert challenge(s)["successes"] == 2
    run(s, "ongoing Climb Ash", "answer pass 1")
    assert challenge(s)["successes"] == 4 and challenge(s)["state"] == "succeeded"
    with pytest.raises(Refusal, match="is over"):
        s.execute("ongoing Climb Sofia")


def test_ongoing_challenge_ends_in_catastrophe_at_the_failure_margins() -> None:
    """[000:L415]: this many Margins of Failure or more ends it in a catastrophic failure; a failed challenge
    counts one, plus one per full 5 points short (docs/guide/decisions.md "Ongoing Challenges")."""
    s = table()
    run(s, "ongoing 'Hold the Door' tn=15 successes=5 failures=3")
    top(s, "1R")
    run(s, "ongoing Hold Ash athletics", "answer flip")  # 1 + 1 = 2 vs 15: 13 short → 1 + 2
    assert challenge(s)["failures"] == 3 and challenge(s)["state"] == "failed"
    assert challenge(s)["attempts"] == ["Ash: -3"]


def test_ongoing_typed_fail_counts_its_margins_and_undo_replays() -> None:
    """``fail N``: N Margins of Failure beside the failure itself; undo takes the challenge back."""
    s = table()
    run(s, "ongoing Sneak tn=10 successes=3 failures=4 skill=athletics", "ongoing Sneak Ash", "answer fail 1")
    assert challenge(s)["failures"] == 2
    run(s, "undo")  # the answer is undone: the challenge waits for it again
    assert challenge(s)["failures"] == 0 and pending(ttb_state(s)).kind == "ongoing"
    run(s, "answer pass", "ongoing Sneak end")
    assert state_json(s)["challenges"] == []


def test_ongoing_bad_input_is_refused_before_anything_changes() -> None:
    s = table()
    run(s, "ongoing Sneak tn=10 successes=3 failures=4")
    before = dump(s.state)
    for line, why in (
        ("ongoing Climb tn=10 successes=3", "missing failures="),
        ("ongoing Climb tn=0 successes=3 failures=2", "at least 1"),
        ("ongoing Sneak tn=10 successes=3 failures=2", "already"),
        ("ongoing Nothing Sofia", "no Ongoing Challenge"),
        ("ongoing Sneak Sofia", "which skill"),
        ("ongoing Sneak Nobody athletics", "Nobody"),
    ):
        with pytest.raises(Refusal, match=why):
            s.execute(line)
        assert dump(s.state) == before


def test_show_is_athletics_against_athletics_plus_rank_with_the_taller_gaining_a_plus() -> None:
    """[000:L280]: Athletics resisted by the target's Athletics (a Fatemaster's + Rank Value, [000:L418]); the
    taller character gains ⊞; success pushes 1 yard + 1 per Margin of Success."""
    s = table()
    run(s, "spend Sofia show Thug")
    p = pending(ttb_state(s))
    assert p.kind == "show" and "TN 7" in p.question and "⊞ taller" in p.question
    assert p.options == ["pass", "fail", "flip"]
    top(s, "13R", "3C")
    run(s, "answer flip")  # ⊞: 13 kept; 13 + 3 = 16 vs 7: 1 Margin
    assert any("pushed 2 yards directly away" in e.text for e in ttb_state(s).log)
    assert ttb_state(s).fighters["Sofia"].combat_ap == 0  # a Combat action (docs/rules/ttb-turns.md#s2-4)


def test_show_failure_and_a_fated_target_both_flip() -> None:
    """[000:L280] between two Fated: both flip Athletics (the lower total cheats first, [000:L418])."""
    s = table()
    run(s, "spend Sofia show Ash")
    p = pending(ttb_state(s))
    assert "flip" in p.options
    run(s, "answer fail")
    assert any("Show fails" in e.text for e in ttb_state(s).log)


def test_000_l407_an_ongoing_challenge_shows_its_progress_to_the_gm_and_the_players() -> None:
    """[000:L407-415]: the TN, the successes toward the requirement and the Margins of Failure toward the limit
    are what the table tracks; the GM's Fate Deck tab and the players' view both show them as they move."""
    s = table()
    run(s, "ongoing 'Climb the Wall' tn=8 successes=4 failures=3 skill=athletics duration='1 round'")
    shown = "Climb the Wall: 0/4 successes, 0/3 Margins of Failure (TN 8, Athletics, 1 round each)"
    assert shown in "".join(span.text for span in s.presenter.resources())
    assert s.presenter.player_view().notes == (f"Ongoing Challenge {shown}",)
    run(s, "ongoing Climb Sofia", "answer pass 1")
    assert s.presenter.player_view().notes[0].startswith("Ongoing Challenge Climb the Wall: 2/4 successes, 0/3")
