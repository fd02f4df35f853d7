"""UI test helpers: an app on a temporary copy of an encounter, with a private config folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tracker.store.files import load
from tracker.store.save import load_session
from tracker.ui.app import TrackerApp

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep the user's real config (theme choice, user themes) out of the tests."""
    folder = tmp_path / "config"
    monkeypatch.setenv("TRACKER_CONFIG_DIR", str(folder))
    return folder


def make_app(tmp_path: Path, example: str) -> TrackerApp:
    """The GM screen on a copy, opened the way `tracker run` opens it (saves keep the file's setup text), dealt
    the cards of the example's `demo_seed` (the examples keep no seed of their own: the tests pin one)."""
    target = tmp_path / example
    shutil.copy(EXAMPLES / example, target)
    return TrackerApp(load_session(target, seed=load(target).encounter.demo_seed), target)
