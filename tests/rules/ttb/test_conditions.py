"""Gaining and losing Through the Breach conditions: docs/rules/ttb-conditions.md#s2-7-1 and the on-gain rules of
docs/rules/ttb-conditions.md#s2-7-2.

Timed effects (turn-end ticks, expiries) are in test_end_of_turn.py; round-end Reactivate offers and
surprise are in test_round_lifecycle.py.
"""

from __future__ import annotations

import pytest

from tests.conftest import pending, run, ttb_state
from tests.rules.ttb.fighters import duo
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session


def conds(s: Session, name: str) -> dict[str, int | bool]:
    return dict(ttb_state(s).fighters[name].conditions)


# --- docs/rules/ttb-conditions.md#s2-7-1 stacking ---------------------------------------------------------------------


def test_C6_valued_condition_stacks_into_one() -> None:
    """docs/rules/checks.md#c6 / docs/rules/ttb-conditions.md#s2-7-1: Poison +1 then Poison +2 gives one Poison +3."""
    s = duo()
    run(s, "add A poison 1", "add A poison 2")
    assert conds(s, "A") == {"poison": 3}


def test_C6_non_valued_condition_does_not_stack() -> None:
    """docs/rules/checks.md#c6 / docs/rules/ttb-conditions.md#s2-7-1: Dazed gained twice is still one Dazed (stored
    once, not counted)."""
    s = duo()
    run(s, "add A dazed", "add A dazed")
    assert conds(s, "A") == {"dazed": True}
    assert any("already has Dazed" in line.text for line in ttb_state(s).log)


def test_valued_condition_without_a_number_gains_one() -> None:
    """docs/rules/ttb-conditions.md#s2-7-1 / CONTRACT docs/rules/2d20.md#s3 `add`: a valued condition gains +1 by
    default and sums."""
    s = duo()
    run(s, "add A burning", "add A burning", "add A burning 3")
    assert conds(s, "A") == {"burning": 5}


def test_non_valued_condition_with_a_number_is_refused() -> None:
    """docs/rules/ttb-conditions.md#s2-7-1: non-valued conditions carry no value; `add A dazed 2` is refused, nothing
    changes."""
    s = duo()
    before = dump(ttb_state(s))
    with pytest.raises(Refusal):
        s.execute("add A dazed 2")
    assert dump(ttb_state(s)) == before


def test_valued_condition_lowered_and_ended_at_zero() -> None:
    """docs/rules/ttb-conditions.md#s2-7-1: a valued condition ends when its value reaches 0 and never goes below 0."""
    s = duo()
    run(s, "add A burning 3", "remove A burning 1")
    assert conds(s, "A") == {"burning": 2}
    run(s, "remove A burning 5")
    assert conds(s, "A") == {}
    run(s, "add A poison 2", "remove A poison")
    assert conds(s, "A") == {}


def test_removing_an_absent_condition_is_refused() -> None:
    """docs/rules/ttb-conditions.md#s2-7-1: there is nothing to lower; the command is refused."""
    s = duo()
    with pytest.raises(Refusal):
        s.execute("remove A burning")


# --- docs/rules/ttb-conditions.md#s2-7-1 Living-only, decision A29 ----------------------------------------------------


@pytest.mark.parametrize("condition", ["bleeding_out 3", "suffocating 1", "intoxicated"])
def test_living_only_condition_refused_on_non_living(condition: str) -> None:
    """docs/rules/ttb-conditions.md#s2-7-1 / docs/rules/decisions.md#a29: Bleeding Out, Suffocating and Intoxicated are
    refused when living=false."""
    s = duo(first={"living": False})
    before = dump(ttb_state(s))
    with pytest.raises(Refusal, match="Living"):
        s.execute(f"add A {condition}")
    assert dump(ttb_state(s)) == before
    assert conds(s, "A") == {}


def test_C2_non_living_bleeding_out_stored_nowhere_and_nothing_at_turn_end() -> None:
    """docs/rules/checks.md#c2 (first part): Bleeding Out +3 on a non-Living character is not stored and its
    turn end does nothing."""
    s = duo(first={"living": False})
    run(s, "start")
    with pytest.raises(Refusal):
        s.execute("add A bleeding_out 3")
    run(s, "next")
    a = ttb_state(s).fighters["A"]
    assert a.conditions == {}
    assert a.wounds == 6 and not a.dead
    assert not any("Bleeding Out" in line.text for line in ttb_state(s).log)


def test_poison_on_non_living_warns_and_applies_by_default() -> None:
    """docs/rules/ttb-conditions.md#s2-7-1 / docs/rules/decisions.md#a29: Poison "generally" affects Living only: warn
    and apply (default)."""
    s = duo(first={"living": False})
    run(s, "add A poison 2")
    assert conds(s, "A") == {"poison": 2}
    assert any("warning" in line.text and "Poison" in line.text for line in ttb_state(s).log)


def test_poison_on_non_living_blocked_by_setting() -> None:
    """docs/rules/decisions.md#a29: with poison_non_living = "block" the GM's table refuses Poison on non-Living."""
    s = duo(first={"living": False}, settings='poison_non_living = "block"')
    with pytest.raises(Refusal):
        s.execute("add A poison 2")
    assert conds(s, "A") == {}
    run(s, "add B poison 2")  # a Living character is still poisoned
    assert conds(s, "B") == {"poison": 2}


# --- docs/rules/ttb-conditions.md#s2-7-1 cancelling pairs, decision A12 -----------------------------------------------


@pytest.mark.parametrize(
    ("held", "gained"), [("fast", "slow"), ("slow", "fast"), ("paralyzed", "reactivate"), ("reactivate", "paralyzed")]
)
def test_cancelling_pair_removes_both(held: str, gained: str) -> None:
    """docs/rules/ttb-conditions.md#s2-7-1 / docs/rules/decisions.md#a12: gaining one of Fast/Slow or
    Paralyzed/Reactivate while holding the other removes both, and the new one is not added."""
    s = duo()
    run(s, f"add B {held}", f"add B {gained}")
    assert conds(s, "B") == {}
    assert any("cancels" in line.text for line in ttb_state(s).log)


def test_fast_cancelling_slow_mid_turn_does_not_adjust_ap() -> None:
    """docs/rules/ttb-conditions.md#s2-7-1 / docs/rules/decisions.md#a12: on a cancel neither condition's immediate
    effect applies and AP already generated stay as they are."""
    s = duo(first={"conditions": {"slow": True}})
    run(s, "start")
    assert ttb_state(s).active == "A"
    assert ttb_state(s).fighters["A"].ap == 1  # Slow: 2 − 1
    run(s, "add A fast")
    a = ttb_state(s).fighters["A"]
    assert a.conditions == {}
    assert a.ap == 1  # no +1 from Fast: it was cancelled, and Slow's −1 is not refunded


def test_C12_paralyzed_and_reactivate_cancel() -> None:
    """docs/rules/checks.md#c12 / docs/rules/decisions.md#a12: Reactivate + Paralyzed gained → both removed, no extra
    turn at round end, and the next turn generates the normal 2 General and 1 Combat AP."""
    s = duo(second={"conditions": {"reactivate": True}})
    run(s, "start")
    assert ttb_state(s).active == "A"
    run(s, "add B paralyzed")
    assert conds(s, "B") == {}
    run(s, "next")  # B's turn: normal AP, not Paralyzed
    st = ttb_state(s)
    assert st.active == "B"
    assert (st.fighters["B"].ap, st.fighters["B"].combat_ap) == (2, 1)
    run(s, "next")  # round end: no Reactivate offer
    assert st.prompt is None
    assert st.round == 2 and st.active == "A"


# --- Intoxicated twice, C23 ------------------------------------------------------------------------


def test_C23_intoxicated_twice_gives_poison() -> None:
    """docs/rules/checks.md#c23 / docs/rules/ttb-conditions.md#s2-7-2 Intoxicated: gaining it again gives Poison +1
    instead and Intoxicated stays as it was; a third time gives Poison +2 in total."""
    s = duo()
    run(s, "add A intoxicated")
    assert conds(s, "A") == {"intoxicated": True}
    run(s, "add A intoxicated")
    assert conds(s, "A") == {"intoxicated": True, "poison": 1}
    run(s, "add A intoxicated")
    assert conds(s, "A") == {"intoxicated": True, "poison": 2}


def test_C23_intoxicated_refused_for_non_living() -> None:
    """docs/rules/checks.md#c23: for a non-Living character Intoxicated is refused."""
    s = duo(first={"living": False})
    with pytest.raises(Refusal):
        s.execute("add A intoxicated")
    assert conds(s, "A") == {}


# --- Bleeding Out death on gain ---------------------------------------------------------------------


def test_bleeding_out_raised_to_ten_by_add_kills() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Bleeding Out: the death check runs whenever the value is raised by any
    source, not only at turn end; the dead leave the initiative order."""
    s = duo()
    run(s, "start", "add B bleeding_out 9")
    assert not ttb_state(s).fighters["B"].dead
    run(s, "add B bleeding_out 1")
    b = ttb_state(s).fighters["B"]
    assert b.conditions["bleeding_out"] == 10
    assert b.dead
    assert "B" not in ttb_state(s).order


def test_bleeding_out_ten_at_once_kills_even_ignoring_criticals() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Bleeding Out / docs/rules/decisions.md#a35: an FM that ignores critical
    effects still dies at +10."""
    s = duo(second={"rank_value": 14, "ignores_critical_effects": True})
    run(s, "add B bleeding_out 10")
    assert ttb_state(s).fighters["B"].dead


def test_dead_combatant_takes_no_more_conditions() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Dead: a dead character is out of the fight; `add` on it is refused."""
    s = duo()
    run(s, "add B bleeding_out 10")
    with pytest.raises(Refusal, match="dead"):
        s.execute("add B burning 1")


# --- Mid-turn gains: Fast, Slow, Paralyzed (docs/rules/ttb-turns.md#s2-4, docs/rules/ttb-conditions.md#s2-7-2) --------


def test_fast_gained_mid_turn_gives_one_general_ap_at_once() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Fast / docs/rules/ttb-turns.md#s2-4: gained mid-turn, +1 General AP at once;
    Combat AP unchanged."""
    s = duo()
    run(s, "start", "add A fast")
    a = ttb_state(s).fighters["A"]
    assert (a.ap, a.combat_ap) == (3, 1)


def test_slow_gained_mid_turn_takes_one_general_ap_if_any() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Slow / docs/rules/ttb-turns.md#s2-4: gained mid-turn, −1 General AP at once
    if any remains; Combat AP is untouched."""
    s = duo()
    run(s, "start", "add A slow")
    a = ttb_state(s).fighters["A"]
    assert (a.ap, a.combat_ap) == (1, 1)
    run(s, "remove A slow", "spend A walk", "add A slow")
    assert (a.ap, a.combat_ap) == (0, 1)  # nothing left to lose, never negative


def test_fast_gained_outside_own_turn_changes_no_ap_now() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Fast: the +1 General AP at once applies only to the owner's own open turn."""
    s = duo()
    run(s, "start", "add B fast")
    assert ttb_state(s).fighters["B"].ap == 0
    run(s, "next")
    assert ttb_state(s).active == "B"
    assert ttb_state(s).fighters["B"].ap == 3


def test_C10_paralyzed_mid_turn_ends_the_turn_at_once() -> None:
    """docs/rules/checks.md#c10 / docs/rules/ttb-turns.md#s2-4 / docs/rules/ttb-conditions.md#s2-7-2 Paralyzed: after
    spending 1 of 2 General AP, Paralyzed ends the turn at once, unspent AP of both kinds are lost, turn_end runs
    (Burning ticks) and Paralyzed is removed at that turn_end because it was gained before turn_end began."""
    s = duo(first={"conditions": {"burning": 1}})
    run(s, "start", "spend A walk")
    a = ttb_state(s).fighters["A"]
    assert (a.ap, a.combat_ap) == (1, 1)
    run(s, "add A paralyzed")
    st = ttb_state(s)
    assert st.active == "B"  # the next turn started with no `next`
    assert (a.ap, a.combat_ap) == (0, 0)
    assert a.acted
    assert a.wounds == 5  # Burning +1 ticked in A's turn_end
    assert a.conditions == {}  # Burning ended, Paralyzed expired
    assert any("Paralyzed" in line.text and "turn ends at once" in line.text for line in st.log)


def test_paralyzed_gained_on_another_turn_blocks_the_next_own_turn() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Paralyzed / docs/rules/decisions.md#a11: gained outside its own turn, it
    lasts to the end of the owner's next turn: that turn has 0 General and 0 Combat AP and no actions."""
    s = duo()
    run(s, "start", "add B paralyzed", "next")
    st = ttb_state(s)
    b = st.fighters["B"]
    assert st.active == "B"
    assert (b.ap, b.combat_ap) == (0, 0)
    with pytest.raises(Refusal, match="Paralyzed"):
        s.execute("spend B walk")
    run(s, "next")  # B's turn end: Paralyzed ends
    assert "paralyzed" not in b.conditions
    assert st.active == "A" and st.round == 2
    run(s, "next")
    assert (b.ap, b.combat_ap) == (2, 1)


# --- Doctor, C2 -------------------------------------------------------------------------------------


def test_C2_doctor_on_an_ally_is_tn_15_and_removes_bleeding_out_entirely() -> None:
    """docs/rules/checks.md#c2 / docs/rules/ttb-turns.md#s2-5 Doctor: 2 General AP, TN 15 on another; success removes
    Bleeding Out entirely (not −1)."""
    s = duo(second={"conditions": {"bleeding_out": 4}})
    run(s, "start", "spend A doctor B")
    st = ttb_state(s)
    assert st.fighters["A"].ap == 0
    assert st.prompt is not None and st.prompt.kind == "doctor"
    assert st.prompt.data["tn"] == 15
    run(s, "answer pass")
    assert "bleeding_out" not in st.fighters["B"].conditions


def test_C2_doctor_failure_leaves_bleeding_out() -> None:
    """docs/rules/checks.md#c2 / docs/rules/ttb-turns.md#s2-5 Doctor: a failed Doctor duel leaves Bleeding Out as it
    was."""
    s = duo(second={"conditions": {"bleeding_out": 4}})
    run(s, "start", "spend A doctor B", "answer fail")
    assert ttb_state(s).fighters["B"].conditions == {"bleeding_out": 4}


def test_C2_doctor_on_oneself_is_tn_20() -> None:
    """docs/rules/checks.md#c2 / docs/rules/ttb-turns.md#s2-5 Doctor: treating oneself is TN 20."""
    s = duo(first={"conditions": {"bleeding_out": 4}})
    run(s, "start", "spend A doctor")
    assert ttb_state(s).prompt is not None
    assert pending(ttb_state(s)).data["tn"] == 20
    run(s, "answer pass")
    assert "bleeding_out" not in ttb_state(s).fighters["A"].conditions
