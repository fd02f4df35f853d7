"""docs/rules/ttb-turns.md#s2-5: actions that act on someone are legal only when there is someone to act on.

Order needs a subordinate the character may Order who has yet to act; Reduce Burning needs someone
Burning; Doctor needs someone Bleeding Out (docs/rules/ttb-turns.md#s2-5's Doctor row: success removes Bleeding Out,
nothing else). The `s` picker greys them with the reason, and `spend` refuses them with the same one.
"""

from __future__ import annotations

import pytest

from tests.conftest import run, session_from, ttb
from tests.rules.ttb.test_actions import ORDER, duo
from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.families.ttb import actions


def reason(s: Session, who: str, key: str) -> str | None:
    return {c.key: c.reason for c in ttb(s).actions_for(who)}[key]


def test_order_is_legal_only_with_a_subordinate_to_order() -> None:
    """docs/rules/ttb-turns.md#s2-5 Order (docs/rules/decisions.md#a18): Boss may Order Goon (its own, not yet acted);
    Sofia has nobody."""
    s = session_from(ORDER.format(goon_init=0))
    run(s, "initiative Sofia 5", "start")
    assert s.state.active == "Boss"
    assert reason(s, "Boss", "order") is None
    assert actions.orderable(ttb(s), "Boss") == ["Goon"]
    run(s, "next")
    assert s.state.active == "Sofia"
    why = reason(s, "Sofia", "order")
    assert why is not None and "no subordinate" in why
    with pytest.raises(Refusal, match="no subordinate"):
        s.execute("spend Sofia order Goon")


def test_order_is_illegal_once_the_subordinate_has_acted() -> None:
    """docs/rules/ttb-turns.md#s2-5 Order (docs/rules/decisions.md#a18): an acted subordinate cannot be Ordered, so
    Order is greyed."""
    s = session_from(ORDER.format(goon_init=9))
    run(s, "initiative Sofia 5", "start", "next")
    assert s.state.active == "Boss"
    why = reason(s, "Boss", "order")
    assert why is not None and "no subordinate" in why


def test_reduce_burning_needs_someone_burning() -> None:
    """docs/rules/ttb-turns.md#s2-5 Reduce Burning: greyed while nobody burns, legal once someone does."""
    s = duo()
    run(s, "start")
    why = reason(s, "Hero", "reduce_burning")
    assert why is not None and "nobody is Burning" in why and "has no one to treat" in why
    run(s, "add Other burning 2")
    assert reason(s, "Hero", "reduce_burning") is None
    run(s, "spend Hero reduce-burning Other")


def test_doctor_needs_someone_bleeding_out_not_just_wounds() -> None:
    """docs/rules/ttb-turns.md#s2-5 Doctor (Bleeding Out): TN 15, success removes Bleeding Out — wounds alone give
    Doctor nothing to treat, so it is greyed; Bleeding Out anywhere (oneself included) makes it legal."""
    s = duo()
    run(s, "start", "damage Other 3")
    why = reason(s, "Hero", "doctor")
    assert why is not None and "nobody is Bleeding Out" in why
    run(s, "add Hero bleeding_out 2")
    assert reason(s, "Hero", "doctor") is None


def test_picker_lists_legal_first() -> None:
    """docs/rules/ttb-turns.md#s2-5 and UX.md journey 1: the picker's list is the legal actions, then the illegal
    ones."""
    s = duo()
    run(s, "start")
    legal = [c.reason is None for c in ttb(s).actions_for("Hero")]
    assert legal == sorted(legal, reverse=True)
