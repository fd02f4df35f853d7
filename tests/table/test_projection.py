"""A projection's line: the same JSON whichever way it is written, and read back as it was sent."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from tests.families.test_seating import SEATS
from tests.table.fakes import copy_example
from tracker.store.opening import load_session
from tracker.table import wire
from tracker.table.projection import decode, encode, encode_view, project


def test_a_line_with_the_view_written_once_is_the_line_written_whole(tmp_path: Path) -> None:
    session = load_session(str(copy_example(tmp_path, "duel.toml")))
    session.execute("start")
    seated = (str(session.state.active),)
    projection = project(session, "alice", seated, 3, None)
    assert projection.own and projection.actions and projection.map is not None  # records, tuples, named tuples
    whole = encode(projection)
    shared = encode(projection, encode_view(projection.view))
    as_before = json.dumps({"projection": asdict(projection)}, ensure_ascii=False)  # what `asdict` made of it
    assert json.loads(whole) == json.loads(shared) == json.loads(as_before)
    kind, body = wire.read(shared)
    assert kind == "projection" and decode(body) == projection


def test_a_seats_question_offers_the_trackers_draw_first_and_says_which_answers_ask_the_gm() -> None:
    """docs/guide/seating.md: a seat answers its own duel with the tracker's ``flip`` (key 1); ``pass`` and ``fail``,
    results typed from the table, are still offered, last, saying they go to the GM."""
    from tests.conftest import run
    from tests.families.test_seating import ttb

    session = run(ttb(), "start", "damage Sofia 5 no-armor", "answer flip")
    question = project(session, "alice", ("Sofia Ramos",), 3, "Sofia Ramos").question
    assert question is not None
    assert question.options == ("flip", "pass (asks the GM)", "fail (asks the GM)")
    assert question.answers == ("answer flip", "answer pass", "answer fail")
    trusting = run(ttb("\n[settings]\nseats_enter_results = true\n" + SEATS), "start", "damage Sofia 5 no-armor")
    run(trusting, "answer flip")
    kept = project(trusting, "alice", ("Sofia Ramos",), 3, "Sofia Ramos").question
    assert kept is not None and "pass" in kept.options  # a trusting table's order, as the rules give it
