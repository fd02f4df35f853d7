"""The `tracker` fixture: the command line run in-process (see `tests.cli.campaign.run_cli`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.campaign import Result, run_cli

Tracker = Callable[..., Result]


@pytest.fixture
def tracker(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Tracker:
    """`tracker("check", path)`, `tracker("exec", path, "--json", stdin="start")`: one run, its exit and output."""

    def run(*args: str | Path, stdin: str = "") -> Result:
        return run_cli(monkeypatch, capsys, *args, stdin=stdin)

    return run
