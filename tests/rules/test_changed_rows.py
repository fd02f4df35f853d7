"""Only what changed is built again after a command (keypress → frame at 500 combatants), and
what is kept is exactly what building it all again gives.

`record.fingerprint` tells which combatants changed; the save (`record.SavedMembers`) dumps again only
those, and the order table (`view.RowKeeper`) builds again only their rows. These tests hold both to the
full rebuild after every command of the demo scripts, drawn in any order with undo and redo between.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.engine.errors import Refusal
from tracker.engine.records import record
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.ttb.present.presenter import TTBPresenter
from tracker.families.ttb.records.state import Critical, Fighter
from tracker.families.twod20.present.presenter import TwoD20Presenter
from tracker.present import view
from tracker.store import save

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCRIPTED = sorted(p for p in EXAMPLES.rglob("*.toml") if "[[demo]]" in p.read_text(encoding="utf-8"))


def rebuilt_order(session: Session) -> view.OrderView:
    """The order as a new keeper builds it: every row from scratch."""
    shown = session.presenter
    shown.__dict__.pop("kept_rows", None)  # the cached_property's value: a fresh RowKeeper next time
    return shown.order()


@pytest.mark.parametrize("example", SCRIPTED, ids=lambda p: p.name)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_kept_rows_and_saved_fighters_are_what_a_full_rebuild_gives(example: Path, data: st.DataObject) -> None:
    session = save.load_session(example, seed=5)
    steps = [step.do for step in session.setup.demo]
    lines = data.draw(st.lists(st.sampled_from([*steps, "undo", "redo", "next"]), min_size=1, max_size=40))
    keeper = record.SavedMembers()
    session.presenter.order()
    for line in lines:
        try:
            session.execute(line)
        except Refusal:
            continue
        kept = session.presenter.order()
        state = session.state
        saved = record.saved_form(state, {"fighters": keeper})
        assert saved == dump(state, mode="json", exclude_none=True, exclude_defaults=True), line
        assert list(saved) == list(dump(state, mode="json", exclude_none=True, exclude_defaults=True))
        assert kept == rebuilt_order(session), line


def fighter(**changes: object) -> Fighter:
    return Fighter(wounds=6, **changes)  # type: ignore[arg-type]


def test_a_fingerprint_tells_a_flag_from_a_count() -> None:
    """``True == 1`` in Python, but the file writes ``true`` and ``1``: a condition going from one to the
    other is a change (decision in `tracker.store.toml_cache`)."""
    flag, count = fighter(conditions={"dazed": True}), fighter(conditions={"dazed": 1})
    assert flag == count  # what `==` would have missed
    assert record.fingerprint(flag) != record.fingerprint(count)
    keeper = record.SavedMembers()
    assert keeper.dump({"A": flag})["A"]["conditions"] == {"dazed": True}
    assert keeper.dump({"A": count})["A"]["conditions"] == {"dazed": 1}


def test_a_changed_fighter_is_dumped_again_an_unchanged_one_is_handed_back() -> None:
    keeper = record.SavedMembers()
    a, b = fighter(), fighter()
    first = keeper.dump({"A": a, "B": b})
    a.wounds = 3
    second = keeper.dump({"A": a, "B": b})
    assert second["A"]["wounds"] == 3 and first["A"]["wounds"] == 6
    assert second["B"] is first["B"]
    b.hand.append("9R")  # a change inside a list field, made in place
    assert keeper.dump({"A": a, "B": b})["B"]["hand"] == ["9R"]


def test_a_fighter_holding_records_is_fingerprinted_through_them() -> None:
    """marshal cannot write a nested record (a TTB critical, a 2d20 Persistent instance): the fingerprint
    writes each as its class and values, so a change inside it is still a change."""
    hurt = fighter(criticals=[Critical(severity="weak", location="arm", card="3C", negative_wounds=1, round=1)])
    mark = record.fingerprint(hurt)
    assert mark is not None
    keeper = record.SavedMembers()
    first = keeper.dump({"A": hurt})
    assert keeper.dump({"A": hurt})["A"] is first["A"]  # unchanged: handed back
    hurt.criticals[0].negative_wounds = 2
    assert record.fingerprint(hurt) != mark
    assert keeper.dump({"A": hurt})["A"]["criticals"][0]["negative_wounds"] == 2
    assert first["A"]["criticals"][0]["negative_wounds"] == 1


def test_a_fighter_holding_what_marshal_cannot_write_is_never_taken_as_unchanged() -> None:
    odd = fighter(conditions={"dazed": True})
    odd.conditions["dazed"] = object()  # type: ignore[assignment]  # not plain data, not a record
    assert record.fingerprint(odd) is None
    assert view.RowKeeper.key(odd, True) is None


def test_a_row_is_kept_only_for_the_same_record_and_the_same_context() -> None:
    keeper = view.RowKeeper()
    a = fighter()
    key = keeper.key(a, True)
    row = keeper.row("A", ("▶", "A"), False, (), key)
    assert keeper.unchanged("A", keeper.key(a, True)) is row
    assert keeper.unchanged("A", keeper.key(a, False)) is None  # the context changed (no longer its turn)
    a.ap = 1
    assert keeper.unchanged("A", keeper.key(a, True)) is None  # the record changed


def duo() -> Session:
    from tests.conftest import session_from

    return session_from("""
        [encounter]
        name = "Rows"
        system = "ttb"
        seed = 4

        [[combatants]]
        name = "Hero"
        side = "players"
        rank_value = 5
        initiative = 2
        wounds = 10

        [[combatants]]
        name = "Other"
        side = "rivals"
        rank_value = 5
        initiative = 0
        wounds = 10
    """)


def test_a_row_follows_what_it_shows_beside_its_record() -> None:
    """What the row shows beyond the combatant's record is in its key: an effect on it, whose turn it is,
    having left. Each is changed here alone (no record changes with it) and the row follows."""
    from tracker.families.ttb.effects import resolve_contest

    s = duo()
    s.execute("start")
    shown = s.presenter
    assert isinstance(shown, TTBPresenter)
    eng = shown.rules
    shown.order()
    resolve_contest(eng, "impose", "Hero", "Other", True, 0)  # an effect on Other; Other's record stays
    assert shown.order() == rebuilt_order(s)
    assert "imposed" in " ".join(t.full for t in next(r for r in shown.order().rows if r.name == "Other").conditions)
    eng.st.active = "Other" if eng.st.active == "Hero" else "Hero"
    assert shown.order() == rebuilt_order(s)
    eng.st.left.append("Other")
    assert shown.order() == rebuilt_order(s)


def test_a_2d20_row_follows_whose_turn_it_is_and_who_left() -> None:
    s = save.load_session(EXAMPLES / "skirmish_srd.toml", seed=2)
    s.execute("start")
    shown = s.presenter
    assert isinstance(shown, TwoD20Presenter)
    eng = shown.rules
    first, second = eng.combatant_names()[:2]
    shown.order()
    eng.st.active = second if eng.st.active == first else first
    assert shown.order() == rebuilt_order(s)
    eng.st.left.append(first)
    assert shown.order() == rebuilt_order(s)


def test_records_nested_deeper_are_fingerprinted_through_them() -> None:
    """A record inside a record inside a list: `fingerprint` writes it whole, so a change deep inside it is
    a change, and equal contents give equal fingerprints (whether made fast or by the deep walk)."""
    from tracker.engine.records.model import Strict

    @dataclass(kw_only=True)
    class Inner(Strict):
        value: int

    @dataclass(kw_only=True)
    class Middle(Strict):
        inner: Inner
        tags: list[str] = field(default_factory=list)

    @dataclass(kw_only=True)
    class Outer(Strict):
        middles: list[Middle] = field(default_factory=list)
        flat: list[Inner] = field(default_factory=list)

    one = Outer(middles=[Middle(inner=Inner(value=1))], flat=[Inner(value=2)])
    same = Outer(middles=[Middle(inner=Inner(value=1))], flat=[Inner(value=2)])
    first = record.fingerprint(one)
    assert first is not None and first == record.fingerprint(same) == record.fingerprint(one)
    one.middles[0].inner.value = 3
    assert record.fingerprint(one) != first
    one.middles[0].inner.value = 1
    assert record.fingerprint(one) == first
    one.flat[0].value = True  # a flag is not a count, one level down too
    assert record.fingerprint(one) != first


def test_a_member_of_another_class_with_the_same_values_is_dumped_anew() -> None:
    """The fingerprint names the record's class: the same values under other fields are other data."""
    from tracker.engine.records.model import Strict

    @dataclass(kw_only=True)
    class Left(Strict):
        a: int = 1

    @dataclass(kw_only=True)
    class Right(Strict):
        b: int = 1

    keeper = record.SavedMembers()
    assert keeper.dump({"X": Left()}) == {"X": {}}  # defaults are left out: both dump empty
    assert record.fingerprint(Left()) != record.fingerprint(Right())
    assert keeper.dump({"X": Left(a=2)}) == {"X": {"a": 2}}
    assert keeper.dump({"X": Right(b=2)}) == {"X": {"b": 2}}
