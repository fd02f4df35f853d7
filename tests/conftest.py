"""Shared helpers: build a session from TOML text, drive it with GM command lines."""

from __future__ import annotations

import os
import tempfile
import textwrap
from collections.abc import Callable
from typing import TypeVar

import pytest

from tracker.engine.errors import Refusal
from tracker.engine.records.model import Prompt
from tracker.engine.records.record import dump
from tracker.engine.state import LiveState
from tracker.families.seam import FamilyEngine
from tracker.families.session import Session
from tracker.families.ttb.present.views import TTBEncounter
from tracker.families.ttb.records.state import TTBState
from tracker.families.twod20.present.views import TwoD20Encounter
from tracker.families.twod20.records.state import TwoD20State
from tracker.store.files import parse_text
from tracker.store.save import encounter_text

#: The tracker remembers validated files in the user's cache folder (tracker.store.validated); the suite, and
#: every tracker process it starts, keeps its own instead of writing into the home of whoever runs it.
os.environ.setdefault("TRACKER_CACHE_DIR", tempfile.mkdtemp(prefix="tracker-test-cache-"))

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
    assert dump(b.state) == dump(a.state), line
    assert dump(b.history) == dump(a.history), line


# --- typed access to one family's engine, for tests that check its rules from the inside ----------
EngineT = TypeVar("EngineT", bound=FamilyEngine)


def engine_as(s: Session, kind: type[EngineT]) -> EngineT:
    """The session's engine as `kind` (the seam types it as any family's); fails if it is another."""
    eng = s.engine
    assert isinstance(eng, kind), f"not a {kind.__name__}: {type(eng).__name__}"
    return eng


def ttb(s: Session) -> TTBEncounter:
    return engine_as(s, TTBEncounter)


def ttb_state(s: Session) -> TTBState:
    return ttb(s).st


def d20(s: Session) -> TwoD20Encounter:
    return engine_as(s, TwoD20Encounter)


def d20_state(s: Session) -> TwoD20State:
    return d20(s).st


def pending(st: LiveState[object]) -> Prompt:
    """The prompt that waits (the test expects one; a missing prompt fails here with a clear message)."""
    assert st.prompt is not None, "no prompt is pending"
    return st.prompt
