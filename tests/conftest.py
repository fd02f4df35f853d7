"""Shared helpers: build a session from TOML text, drive it with GM command lines."""

from __future__ import annotations

import os
import re
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from tests.account_lock import using_accounts
from tests.cli.campaign import Result, run_cli
from tracker.engine.errors import Refusal
from tracker.engine.records.model import Prompt
from tracker.engine.records.record import dump
from tracker.engine.state import LiveState
from tracker.families.presenter import FamilyPresenter
from tracker.families.rules import FamilyRules
from tracker.families.session import Session
from tracker.families.ttb.present.presenter import TTBPresenter
from tracker.families.ttb.records.state import TTBState
from tracker.families.ttb.rules import TTBRules
from tracker.families.twod20.present.presenter import TwoD20Presenter
from tracker.families.twod20.records.state import TwoD20State
from tracker.families.twod20.rules import TwoD20Rules
from tracker.store.files import parse_text
from tracker.store.save import encounter_text

#: The tracker remembers validated files in the user's cache folder (tracker.store.validated); the suite, and
#: every tracker process it starts, keeps its own instead of writing into the home of whoever runs it.
os.environ.setdefault("TRACKER_CACHE_DIR", tempfile.mkdtemp(prefix="tracker-test-cache-"))
# No fight-odds worker behind every screen a test opens (tests/odds turn it on where they test it).
os.environ.setdefault("TRACKER_NO_FIGHT_ODDS", "1")

#: Files the suite writes are its owner's only, as a GM's encounters are (docs/guide/shared-box.md): a file
#: other accounts can read makes `tracker check` and `tracker run` say so (docs/guide/shared-box.md), which the tests
#: of that notice ask for by setting such a mode themselves.
os.umask(0o077)

HEADER = """
[encounter]
name = "Test"
system = "ttb"
seed = 1
"""


def pinned(text: str) -> str:
    """An example's text with its ``demo_seed`` as the file's ``seed``: the examples name no seed (a fight from
    one draws from the GM's secret, docs/guide/shared-box.md), and a test that plays one pins the cards it answers."""
    return re.sub(r"^demo_seed = (\d+).*$", r"seed = \1", text, count=1, flags=re.M)


def example_session(path: Path) -> Session:
    """A fight from the example at `path`, dealt the cards of its ``demo_seed`` (see `pinned`)."""
    setup = parse_text(pinned(path.read_text(encoding="utf-8")), str(path))
    return Session(setup)


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


# --- typed access to one family's rules and presentation, for tests that check them from the inside ----------
RulesT = TypeVar("RulesT", bound=FamilyRules)
PresenterT = TypeVar("PresenterT", bound=FamilyPresenter[FamilyRules])


def rules_as(s: Session, kind: type[RulesT]) -> RulesT:
    """The session's rules as `kind` (the seam types them as any family's); fails if they are another's."""
    rules = s.rules
    assert isinstance(rules, kind), f"not a {kind.__name__}: {type(rules).__name__}"
    return rules


def presenter_as(s: Session, kind: type[PresenterT]) -> PresenterT:
    """The session's presentation as `kind`; fails if it is another family's."""
    shown = s.presenter
    assert isinstance(shown, kind), f"not a {kind.__name__}: {type(shown).__name__}"
    return shown


def ttb(s: Session) -> TTBRules:
    return rules_as(s, TTBRules)


def ttb_view(s: Session) -> TTBPresenter:
    return presenter_as(s, TTBPresenter)


def ttb_state(s: Session) -> TTBState:
    return ttb(s).st


def d20(s: Session) -> TwoD20Rules:
    return rules_as(s, TwoD20Rules)


def d20_view(s: Session) -> TwoD20Presenter:
    return presenter_as(s, TwoD20Presenter)


def d20_state(s: Session) -> TwoD20State:
    return d20(s).st


def pending(st: LiveState[object]) -> Prompt:
    """The prompt that waits (the test expects one; a missing prompt fails here with a clear message)."""
    assert st.prompt is not None, "no prompt is pending"
    return st.prompt


#: The command line run in-process (see `tests.cli.campaign.run_cli`).
Tracker = Callable[..., Result]


@pytest.fixture
def tracker(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Tracker:
    """`tracker("check", path)`, `tracker("exec", path, "--json", stdin="start")`: one run, its exit and output."""

    def run(*args: str | Path, stdin: str = "") -> Result:
        return run_cli(monkeypatch, capsys, *args, stdin=stdin)

    return run


def _uses_real_accounts(item: pytest.Item) -> bool:
    """Whether a test adds, uses or removes a real second OS account (`tests.table.accounts`, the store's
    ``second_account``): those share one worker, so two workers never make and remove the same account."""
    if "second_account" in getattr(item, "fixturenames", ()):
        return True
    module = getattr(item, "module", None)
    return module is not None and any(
        getattr(value, "__name__", "") == "tests.table.accounts"
        or getattr(value, "__module__", "") == "tests.table.accounts"
        for value in vars(module).values()
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _uses_real_accounts(item):
            item.add_marker(pytest.mark.xdist_group("accounts"))


@pytest.fixture(autouse=True)
def _account_lock(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tests on real accounts hold the machine-wide account lock (`tests.account_lock`) while they run."""
    if _uses_real_accounts(request.node):
        with using_accounts():
            yield
    else:
        yield


def refused(s: Session, line: str, match: str = "") -> Refusal:
    """A refused command: one line that holds `match`, and neither the state nor the history changed
    (docs/reference/language.md: bad input is refused before anything happens)."""
    before, history = dump(s.state), dump(s.history)
    with pytest.raises(Refusal) as info:
        s.execute(line)
    message = str(info.value)
    assert match in message, f"{match!r} not in {message!r}"
    assert "\n" not in message
    assert dump(s.state) == before
    assert dump(s.history) == history
    return info.value


def refused_like(s: Session, line: str, pattern: str) -> Refusal:
    """`refused`, its message matched by a regular expression."""
    error = refused(s, line)
    assert re.search(pattern, str(error)), f"{pattern!r} does not match {str(error)!r}"
    return error
