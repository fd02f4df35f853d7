"""docs/guide/shared-box.md with the write overlapped: the durable write runs on a thread while the GM
screen works out the new view, but no frame is painted until the file is on disk, and a failed write
never reaches the screen."""

from __future__ import annotations

import errno
import threading
import time
from pathlib import Path

import pytest
from textual.screen import Screen

from tests.ui.conftest import make_app
from tests.ui.test_viewer import screen_text
from tracker.store import files


@pytest.mark.anyio
async def test_no_frame_is_painted_while_the_write_is_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, "duel.toml")
    writes: list[tuple[float, float, str]] = []
    frames: list[float] = []
    write_text = files.write_text

    def slow(target: Path, text: str) -> None:
        start = time.monotonic()
        assert threading.current_thread() is not threading.main_thread()
        time.sleep(0.2)  # a slow disk: the screen must wait for it
        write_text(target, text)
        writes.append((start, time.monotonic(), text))

    refresh = Screen._compositor_refresh

    def painted(self: Screen[object]) -> None:
        frames.append(time.monotonic())
        refresh(self)

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        monkeypatch.setattr(files, "write_text", slow)
        monkeypatch.setattr(Screen, "_compositor_refresh", painted)
        await pilot.press("n")
        await pilot.pause()
        assert app.session.state.round == 1
        assert "Round 1" in screen_text(app)

    [(start, end, text)] = writes
    assert not [t for t in frames if start <= t <= end], "a frame was painted before the file was on disk"
    assert [t for t in frames if t > end], "the new state was never painted"
    assert app.path.read_text(encoding="utf-8") == text


@pytest.mark.anyio
async def test_a_failed_write_is_never_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The panels are given the last durable state again before the next frame: the screen still shows
    the fight not started, and the file is untouched."""
    app = make_app(tmp_path, "duel.toml")
    before = app.path.read_bytes()

    def full(target: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        shown = screen_text(app)
        monkeypatch.setattr(files, "write_text", full)
        await pilot.press("n")
        await pilot.pause()
        assert app.session.state.round == 0
        assert "Round 1" not in screen_text(app)
        assert "not started" in shown.lower() and "not started" in screen_text(app).lower()

    assert app.path.read_bytes() == before


@pytest.mark.anyio
async def test_an_unexpected_failure_of_the_write_is_raised_not_swallowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an OSError is a refusal the GM reads; anything else is a bug, raised in the app's thread
    (after the session went back to the last durable state)."""
    app = make_app(tmp_path, "duel.toml")

    def broken(target: Path, text: str) -> None:
        raise RuntimeError("a bug in the writer")

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        monkeypatch.setattr(files, "write_text", broken)
        with pytest.raises(RuntimeError, match="a bug in the writer"):
            app.submit("start")
        assert app.session.state.round == 0
