"""What every snapshot test shares: a private config folder, and an app on an encounter played forward."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text
from tracker.ui.app import TrackerApp

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SnapCompare = Callable[..., bool]


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the user's theme choice out of the pictures."""
    monkeypatch.setenv("TRACKER_CONFIG_DIR", str(tmp_path / "config"))


def play_app(
    target: Path, text: str, commands: list[str], *, read_only: bool = False, player: bool = False
) -> TrackerApp:
    """The app on `text` saved to `target` after `commands`, through the app's own save path; an example is
    dealt the cards of its `demo_seed` (the examples keep no seed of their own: the pictures pin one)."""
    target.write_text(text, encoding="utf-8")
    setup = files.load(target)
    session = Session(setup, seed=setup.encounter.demo_seed)
    for line in commands:
        session.execute(line)
    files.write_text(target, encounter_text(session))
    return TrackerApp(session, target, read_only=read_only, player=player)
