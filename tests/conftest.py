"""Shared helpers: build a session from TOML text, drive it with GM command lines."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import pytest

from tracker.rules.errors import Refusal
from tracker.rules.session import Session
from tracker.store.files import parse_text
from tracker.store.save import encounter_text

HEADER = """
[encounter]
name = "Test"
system = "ttb"
seed = 1
"""


def session_from(toml: str, seed: int | None = 1, settings: str = "") -> Session:
    """A session from combatant TOML (the [encounter] header is added unless given)."""
    text = textwrap.dedent(toml)
    if "[encounter]" not in text:
        text = HEADER + (f"\n[settings]\n{textwrap.dedent(settings)}\n" if settings else "") + text
    return Session(parse_text(text, "<test>"), seed=seed)


def run(session: Session, *lines: str) -> Session:
    """Apply each line; a refusal fails the test with the line that was refused."""
    for line in lines:
        session.execute(line)
    return session


@pytest.fixture
def make() -> Callable[..., Session]:
    return session_from


def reloaded(session: Session) -> Session:
    """The session as a restart would see it: the text the app saves (`encounter_text`, the same call
    `TrackerApp.submit` and `tracker exec --save` make) parsed back the way `files.load` parses it."""
    return Session(parse_text(encounter_text(session), "x"))


def assert_same_course(a: Session, b: Session, line: str) -> None:
    """Apply `line` to both: the same acceptance or refusal, and the same state and history after."""
    outcomes = []
    for s in (a, b):
        try:
            s.execute(line)
            outcomes.append("ok")
        except Refusal as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1], line
    assert b.state.model_dump() == a.state.model_dump(), line
    assert b.history.model_dump() == a.history.model_dump(), line
