"""A projection's line: the same JSON whichever way it is written, and read back as it was sent."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

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
