"""The live part's text written piece by piece (`tracker.store.toml_cache`) is tomli_w's text, byte for byte.

A save after each command rewrites only the pieces of ``[state]`` and ``[history]`` that changed (for the
keypress → frame time). The file must never depend on what was saved before: after any sequence of commands
(the demo scripts' steps in random order, with undo and redo) and for any sequence of documents, the text
is what a full ``tomli_w.dumps`` of the same document writes.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.registry import BUILT_IN
from tracker.families.session import Session
from tracker.store import files, save
from tracker.store.toml_cache import LiveWriter

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Every example with a demo script (both families, a party and a bestiary among them).
SCRIPTED = sorted(p for p in EXAMPLES.rglob("*.toml") if "[[demo]]" in p.read_text(encoding="utf-8"))


def full_text(session: Session) -> str:
    """What a save wrote before the cache: the setup part, then tomli_w's text of the whole live part."""
    return save._setup_of(session).text + tomli_w.dumps(save.live_document(session))


def test_every_built_in_family_has_a_scripted_example() -> None:
    systems = {files.load(p).encounter.system for p in SCRIPTED}
    assert systems == set(BUILT_IN)


@pytest.mark.parametrize("example", SCRIPTED, ids=lambda p: p.name)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_saves_after_demo_steps_in_any_order_are_tomli_w_text(example: Path, data: st.DataObject) -> None:
    """The demo's own steps, drawn in any order with undo and redo between them: after each accepted
    command the cached text is the full serialisation's, and the file reads back to the same state."""
    session = save.load_session(example, seed=3)
    steps = [step.do for step in session.setup.demo]
    lines = data.draw(st.lists(st.sampled_from([*steps, "undo", "redo", "next"]), min_size=1, max_size=40))
    assert save.encounter_text(session) == full_text(session)
    for line in lines:
        try:
            session.execute(line)
        except Refusal:
            continue
        text = save.encounter_text(session)
        assert text == full_text(session), line
    reread = save.session_from_text(save.encounter_text(session), str(example))
    assert dump(reread.state) == dump(session.state)


@pytest.mark.parametrize("example", SCRIPTED, ids=lambda p: p.name)
def test_the_whole_demo_script_saves_tomli_w_text(example: Path) -> None:
    """Each script played in order (as `tracker demo` plays it), then undone step by step to the start."""
    session = save.load_session(example, seed=3)
    for step in session.setup.demo:
        try:
            session.execute(step.do)
        except Refusal:
            continue
        assert save.encounter_text(session) == full_text(session), step.do
    while session.history.commands:
        session.execute("undo")
        assert save.encounter_text(session) == full_text(session)


# --- the writer on its own: any documents, one after another -----------------------------------------

#: A few keys, so that successive documents share paths (kept pieces are reused, changed ones rewritten);
#: some need quotes in TOML (spaces, dots, quotes, non-ASCII, empty).
KEYS = st.sampled_from(["a", "b", "log", "Fighter 1", "Fighter 2", "x.y", 'say "hi"', "ünï", ""])
SCALARS = st.one_of(
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.0, 1.0, -2.5, 1e300]),
    st.text(max_size=6),
    st.sampled_from(["", "tab\there", "line\nbreak", 'quote"s', "back\\slash", "\x7f", "ünï"]),
    st.dates(min_value=datetime.date(2000, 1, 1), max_value=datetime.date(2001, 1, 1)),
)


def tables(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(KEYS, children, max_size=4)


VALUES = st.recursive(
    st.one_of(SCALARS, st.lists(st.text(max_size=4), max_size=4)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        tables(inner),
        # Arrays of tables: short ones tomli_w writes inline, long ones as [[tables]].
        st.lists(tables(inner), min_size=1, max_size=3),
        st.lists(st.dictionaries(KEYS, st.text(min_size=30, max_size=40), min_size=3, max_size=3), min_size=1),
    ),
    max_leaves=12,
)
#: Documents shaped like the live part: tables at the top, collections of tables below them.
DOCUMENTS = tables(st.one_of(tables(VALUES), tables(tables(VALUES))))


@settings(max_examples=150, deadline=None)
@given(st.lists(DOCUMENTS, min_size=1, max_size=6))
def test_any_documents_in_a_row_are_written_as_tomli_w_writes_them(documents: list[dict[str, Any]]) -> None:
    writer = LiveWriter()
    for document in documents:
        assert writer.dumps(document) == tomli_w.dumps(document)


def test_a_value_that_keeps_its_number_but_changes_type_is_written_again() -> None:
    """``1 == True == 1.0`` in Python, not in TOML: the pieces are compared with their types."""
    writer = LiveWriter()
    for value in (True, 1, 1.0, 1, True):
        document = {"state": {"round": value, "fighters": {"Sofia": {"dazed": value}}}}
        assert writer.dumps(document) == tomli_w.dumps(document)


def test_a_table_whose_keys_change_order_is_written_again() -> None:
    writer = LiveWriter()
    for conditions in ({"dazed": True, "crazy": 2}, {"crazy": 2, "dazed": True}):
        document = {"state": {"n": 1, "fighters": {"Sofia": {"conditions": conditions}}}}
        assert writer.dumps(document) == tomli_w.dumps(document)


def test_an_array_of_tables_that_grows_past_one_line_becomes_tables_and_back() -> None:
    """tomli_w writes an array of tables inline while each fits a line, else as ``[[…]]``."""
    writer = LiveWriter()
    short = [{"kind": "impose", "owner": "A", "target": "B"}]
    long = [{"kind": "impose", "owner": "A" * 60, "target": "B" * 40}]
    for effects in (short, long, short, [], long):
        document = {"state": {"round": 1, "effects": effects}, "history": {"commands": ["next"]}}
        assert writer.dumps(document) == tomli_w.dumps(document)


def test_only_the_changed_members_are_written_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A `next` at 500 combatants rewrites two of them, not all (the point of the cache)."""
    fighters = {f"Fighter {i:03d}": {"wounds": 6, "conditions": {"dazed": True}} for i in range(500)}
    writer = LiveWriter()
    writer.dumps({"state": {"round": 1, "fighters": fighters}})
    written: list[Any] = []
    dumps = tomli_w.dumps

    def counted(doc: dict[str, Any]) -> str:
        written.append(doc)
        return dumps(doc)

    monkeypatch.setattr(tomli_w, "dumps", counted)
    changed = {**fighters, "Fighter 007": {"wounds": 5, "conditions": {"dazed": True}}}
    document = {"state": {"round": 2, "fighters": changed}}
    assert writer.dumps(document) == dumps(document)
    members = [doc for doc in written if "fighters" in doc.get("state", {})]
    assert [list(doc["state"]["fighters"]) for doc in members] == [["Fighter 007"]]


def test_a_log_line_costs_one_string() -> None:
    """An array of strings is put together from each string's kept text: a new line is one new string."""
    writer = LiveWriter()
    log = [f"1|Fighter {i:03d}|Fighter {i:03d}'s turn" for i in range(200)]
    writer.dumps({"state": {"log": log}})
    kept = writer._strings[("state", "log")]
    moved = [*log[1:], "2||Round 2 begins"]
    document = {"state": {"log": moved}}
    assert writer.dumps(document) == tomli_w.dumps(document)
    again = writer._strings[("state", "log")]
    assert [s for s in moved if again[s] is not kept.get(s)] == ["2||Round 2 begins"]
