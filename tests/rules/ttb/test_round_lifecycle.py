"""The TTB round lifecycle: docs/rules/ttb-lifecycle.md#s2-11 (turn_start, round_end with Reactivate, surprise) and undo
of commands that stop on prompts (decisions A12, A19, A24)."""

from __future__ import annotations

import pytest

from tests.conftest import pending, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant, duo
from tracker.engine.errors import Refusal
from tracker.engine.records import record
from tracker.families.session import Session


def prompt_of(s: Session) -> tuple[str, str | None] | None:
    p = ttb_state(s).prompt
    return (p.kind, p.who) if p else None


# --- docs/rules/ttb-turns.md#s2-3 item 4 / docs/rules/ttb-lifecycle.md#s2-11 turn_start: surprise ---------------------


def test_C8_surprise_makes_the_first_turn_slow() -> None:
    """docs/rules/checks.md#c8 / docs/rules/ttb-turns.md#s2-3 item 4: a surprised character's first turn has 1 General
    AP (2 − 1) and 1 Combat AP; Slow ends at that turn's end; the second turn has 2 General and 1 Combat AP."""
    s = duo(first={"surprised": True})
    run(s, "start")
    a = ttb_state(s).fighters["A"]
    assert ttb_state(s).active == "A"
    assert a.conditions == {"slow": True}
    assert (a.ap, a.combat_ap) == (1, 1)
    run(s, "next")
    assert a.conditions == {}
    run(s, "next")
    assert ttb_state(s).active == "A" and ttb_state(s).round == 2
    assert (a.ap, a.combat_ap) == (2, 1)
    assert a.conditions == {}


def test_C7_surprise_slow_cancels_a_fast_gained_before_the_first_turn() -> None:
    """docs/rules/checks.md#c7 / docs/rules/decisions.md#a12: surprised and Fast before its first turn: Slow is applied
    at turn start, cancels with Fast, both are removed, and it has 2 General AP (not 3, not 1) and 1 Combat AP."""
    s = duo(first={"surprised": True})
    run(s, "add A fast", "start")
    a = ttb_state(s).fighters["A"]
    assert ttb_state(s).active == "A"
    assert a.conditions == {}
    assert (a.ap, a.combat_ap) == (2, 1)


def test_surprise_applies_on_the_first_turn_only_even_if_late() -> None:
    """docs/rules/ttb-turns.md#s2-3 item 4 / docs/rules/ttb-lifecycle.md#s2-11 encounter_start: the flag is set for the
    first turn, whenever it is."""
    s = duo(second={"surprised": True})
    run(s, "start")
    assert ttb_state(s).fighters["B"].conditions == {}  # not yet: Slow comes at its turn_start
    run(s, "next")
    b = ttb_state(s).fighters["B"]
    assert (b.ap, b.combat_ap) == (1, 1)


def test_combat_ap_setting() -> None:
    """docs/rules/ttb-turns.md#s2-4 / docs/rules/decisions.md#a4: setting combat_ap = 0 gives no Combat AP per turn."""
    s = duo(settings="combat_ap = 0")
    run(s, "start")
    a = ttb_state(s).fighters["A"]
    assert (a.ap, a.combat_ap) == (2, 0)


# --- docs/rules/ttb-conditions.md#s2-7-2 Reactivate at round_end, decisions A19, A24 ----------------------------------


def test_reactivate_offered_at_round_end_and_declined() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Reactivate / docs/rules/ttb-lifecycle.md#s2-11 round_end: the offer comes
    after every turn of the round; declining removes Reactivate and the next round begins."""
    s = duo(first={"conditions": {"reactivate": True}})
    run(s, "start", "next")
    assert ttb_state(s).prompt is None  # A's own turn end makes no offer
    run(s, "next")
    assert prompt_of(s) == ("reactivate", "A")
    assert ttb_state(s).prompt is not None and pending(ttb_state(s)).options == ["yes", "no"]
    run(s, "answer no")
    st = ttb_state(s)
    assert st.fighters["A"].conditions == {}
    assert st.round == 2 and st.active == "A"


def test_reactivate_answer_must_be_yes_or_no() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Reactivate / CONTRACT docs/rules/2d20.md#s3: the offer takes yes or no; the
    prompt stays otherwise."""
    s = duo(first={"conditions": {"reactivate": True}})
    run(s, "start", "next", "next")
    with pytest.raises(Refusal):
        s.execute("answer 5R")
    assert prompt_of(s) == ("reactivate", "A")


def test_reactivate_extra_turn_is_a_full_turn() -> None:
    """docs/rules/decisions.md#a19: the extra turn generates AP and runs start effects (Defensive ends) and end
    effects (Burning, Bleeding Out); Reactivate is gone afterwards."""
    s = duo(first={"conditions": {"reactivate": True}})
    run(s, "start", "add A defensive 1", "next", "next", "answer yes")
    st = ttb_state(s)
    a = st.fighters["A"]
    assert st.active == "A" and st.extra_turn and st.round == 1
    assert (a.ap, a.combat_ap) == (2, 1)
    assert a.conditions == {}  # Defensive ended at this turn's start; Reactivate consumed
    run(s, "spend A walk", "add A burning 2", "add A bleeding_out 1", "next")
    assert a.wounds == 4
    assert a.conditions == {"bleeding_out": 2}
    assert st.round == 2 and st.active == "A" and not st.extra_turn


def test_reactivate_offers_follow_initiative_order() -> None:
    """docs/rules/ttb-turns.md#s2-3 item 8 / docs/rules/ttb-lifecycle.md#s2-11 round_end: several holders are offered in
    initiative order (B is listed first in the file but has the higher initiative)."""
    s = session_from(
        combatant("Low", initiative=0, conditions={"reactivate": True})
        + combatant("High", initiative=20, conditions={"reactivate": True})
    )
    run(s, "start", "next", "next")
    assert prompt_of(s) == ("reactivate", "High")
    run(s, "answer yes")
    assert ttb_state(s).active == "High"
    run(s, "next")
    assert prompt_of(s) == ("reactivate", "Low")
    run(s, "answer yes", "next")
    assert ttb_state(s).round == 2 and ttb_state(s).prompt is None


def test_reactivate_gained_during_the_extra_turn_waits_for_the_next_round_end() -> None:
    """docs/rules/decisions.md#a24 / docs/rules/ttb-lifecycle.md#s2-11 round_end: the holder list is built once; a
    Reactivate gained during its own extra turn is kept and offered only at the next round's end (at most one extra turn
    a round)."""
    s = duo(first={"conditions": {"reactivate": True}})
    run(s, "start", "next", "next", "answer yes", "add A reactivate", "next")
    st = ttb_state(s)
    assert st.prompt is None
    assert st.round == 2 and st.active == "A"
    assert st.fighters["A"].conditions == {"reactivate": True}
    run(s, "next", "next")
    assert prompt_of(s) == ("reactivate", "A")


def test_reactivate_gained_by_a_non_holder_during_round_end_waits() -> None:
    """docs/rules/decisions.md#a24: a condition gained during the round-end phase waits for the next round end."""
    s = duo(first={"conditions": {"reactivate": True}})
    run(s, "start", "next", "next", "answer yes", "add B reactivate", "next")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).round == 2
    assert ttb_state(s).fighters["B"].conditions == {"reactivate": True}


def test_reactivate_holder_paralyzed_before_its_offer_is_skipped() -> None:
    """docs/rules/ttb-lifecycle.md#s2-11 round_end / C12: a holder whose Reactivate was cancelled by Paralyzed (here
    during the first holder's extra turn) gets no offer."""
    s = duo(first={"conditions": {"reactivate": True}}, second={"conditions": {"reactivate": True}})
    run(s, "start", "next", "next", "answer yes", "add B paralyzed")
    assert ttb_state(s).fighters["B"].conditions == {}
    run(s, "next")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).round == 2


def test_reactivate_holder_dead_before_its_offer_is_skipped() -> None:
    """docs/rules/ttb-lifecycle.md#s2-11 round_end: a holder that died before its offer is skipped."""
    s = duo(first={"conditions": {"reactivate": True}}, second={"conditions": {"reactivate": True}})
    run(s, "start", "next", "next", "answer yes", "add B bleeding_out 10")
    assert ttb_state(s).fighters["B"].dead
    run(s, "next")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).round == 2 and ttb_state(s).order == ["A"]


def test_paralyzed_mid_extra_turn_ends_it_and_the_round_end_resumes() -> None:
    """docs/rules/ttb-turns.md#s2-4 / C10 / docs/rules/ttb-lifecycle.md#s2-11 round_end: Paralyzed during a Reactivate
    turn ends that turn at once; the remaining offers follow."""
    s = duo(first={"conditions": {"reactivate": True}}, second={"conditions": {"reactivate": True}})
    run(s, "start", "next", "next", "answer yes", "add A paralyzed")
    assert prompt_of(s) == ("reactivate", "B")
    assert ttb_state(s).fighters["A"].conditions == {}  # expired at that turn end (gained before it)


# --- docs/rules/ttb-conditions.md#s2-7-2 Dead: out of the order -------------------------------------------------------


def test_dead_combatant_takes_no_more_turns() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Dead: removed from initiative; its turns are skipped in later rounds."""
    s = duo()
    run(s, "start", "add B bleeding_out 10")
    assert ttb_state(s).order == ["A"]
    run(s, "next")
    assert ttb_state(s).round == 2 and ttb_state(s).active == "A"


def test_dying_on_its_own_turn_ends_that_turn() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Dead: a character that dies during its own turn stops acting; the next
    starts."""
    s = duo()
    run(s, "start", "add A bleeding_out 10")
    st = ttb_state(s)
    assert st.fighters["A"].dead
    assert st.active == "B"


# --- undo across prompts (CONTRACT §3 undo) ---------------------------------------------------------


def dump(s: Session) -> dict[str, object]:
    data: dict[str, object] = record.dump(ttb_state(s))
    return data


@pytest.mark.parametrize("line", ["damage B 9", "damage B 2/3/5 card=RJ", "next", "add A paralyzed"])
def test_undo_restores_the_exact_previous_state(line: str) -> None:
    """CONTRACT §3 undo over docs/rules/ttb-damage.md#s2-8-2 (critical prompt), docs/rules/ttb-conditions.md#s2-7-2
    Suffocating (duel prompt) and docs/rules/ttb-lifecycle.md#s2-11 turn_end: undoing the command restores the exact
    state; redo gives the same result
    again."""
    s = duo(first={"conditions": {"suffocating": 2, "burning": 1}})
    run(s, "start")
    before = dump(s)
    run(s, line)
    after = dump(s)
    assert after != before
    run(s, "undo")
    assert dump(s) == before
    run(s, "redo")
    assert dump(s) == after


def test_undo_an_answer_restores_the_pending_prompt() -> None:
    """CONTRACT §3 undo / docs/rules/ttb-damage.md#s2-8-2: undoing `answer` brings back the prompt and the state it
    had."""
    s = duo()
    run(s, "start", "damage B 9")
    assert prompt_of(s) == ("critical", "B")
    before = dump(s)
    run(s, "answer flip")  # a tracker flip: the replay reproduces the same card
    after = dump(s)
    assert ttb_state(s).fighters["B"].unconscious
    run(s, "undo")
    assert dump(s) == before
    assert prompt_of(s) == ("critical", "B")
    run(s, "redo")
    assert dump(s) == after


def test_undo_a_reactivate_answer_and_a_fated_check() -> None:
    """CONTRACT §3 undo / docs/rules/ttb-lifecycle.md#s2-11 round_end, docs/rules/ttb-damage.md#s2-8-2: undo steps back
    one command at a time through a Reactivate offer and a Fated unconsciousness check."""
    s = session_from(
        combatant("F", kind="fated", initiative=20, hand=["5R"], wounds=2, skills={"toughness": 2})
        + combatant("E", conditions={"reactivate": True})
    )
    run(s, "start", "next", "next")
    assert prompt_of(s) == ("reactivate", "E")
    states = [dump(s)]
    for line in ("answer yes", "damage F 3", "answer 5T", "answer flip"):
        run(s, line)
        states.append(dump(s))
    assert states[2]["prompt"] is not None
    for expected in reversed(states[:-1]):
        run(s, "undo")
        assert dump(s) == expected
