"""What a browser tab of `tracker serve` shows when its screen cannot be the one asked for:
the file run elsewhere (say who, offer the read-only view), a file that cannot be opened (say why),
and a viewer on a file that exists but cannot be read (never "waiting for it to appear")."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from tests.conftest import pinned
from tests.ui.conftest import EXAMPLES
from tests.ui.test_viewer import until, waiting_text
from tracker.ui.app import TrackerApp
from tracker.ui.problem import ProblemApp
from tracker.ui.screens.main import TrackerScreen
from tracker.ui.screens.modals import HeldScreen
from tracker.ui.screens.waiting import WaitingScreen

HELD = "duel.toml is being run by gm@table (pid 4242) since 20:15:00"


def held_text(app: TrackerApp) -> str:
    return str(app.screen.query_one("#held", Static).content)


@pytest.mark.anyio
async def test_held_file_says_who_runs_it_and_follows_read_only_on_yes(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = TrackerApp.viewer(path, held=HELD)

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HeldScreen)
        assert held_text(app) == f"{HELD}\n\nOpen the read-only view instead? [Y/n]"
        await pilot.press("y")
        assert isinstance(app.screen, TrackerScreen) and app.screen.read_only
        assert app.submit("next") == "this is a read-only view"


@pytest.mark.anyio
async def test_held_file_quits_on_no(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = TrackerApp.viewer(path, held=HELD)

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.anyio
async def test_problem_app_shows_every_line_and_what_to_do() -> None:
    lines = ["fight.toml:3:1: unknown key 'mood'", "fight.toml:9:5: wounds: a whole number"]
    app = ProblemApp(lines)

    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.pause()
        text = str(app.screen.query_one("#problem", Static).content)
        assert text.splitlines()[:2] == lines
        assert "reload the page" in text
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.anyio
async def test_viewer_on_a_file_that_cannot_be_read_says_so(tmp_path: Path) -> None:
    """Not UTF-8, or a folder: the file exists, so the viewer never says it waits for it to appear
    (and never crashes: a non-UTF-8 file used to end `tracker view` with a traceback)."""
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe[encounter]\n")
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    for path, said in ((binary, "not UTF-8 text"), (folder, "is a folder, not a file")):
        app = TrackerApp.viewer(path)

        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, WaitingScreen)
            text = waiting_text(app)
            assert f"{path}:1:1: {said}" in text and "appear" not in text


@pytest.mark.anyio
async def test_viewer_keeps_the_last_good_state_when_the_file_stops_being_text(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = TrackerApp.viewer(path)

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        path.write_bytes(b"\xff\xfe garbage")
        assert await until(lambda: any("not UTF-8 text" in n.message for n in app._notifications), pilot)
        assert app.session.setup.encounter.name == "Duel on the Burning Pier"
