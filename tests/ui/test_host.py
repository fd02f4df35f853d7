"""The screens speak to the app through `tracker.ui.host.Host`, never through its module: the app must be one."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import make_app
from tracker.ui.host import Host


def test_the_app_is_the_host_its_screens_speak_to(tmp_path: Path) -> None:
    host: Host = make_app(tmp_path, "duel.toml")  # mypy checks the app against the protocol here
    assert host.revision == 0
    assert host.session.state.round == 0
