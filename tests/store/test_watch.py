"""A viewer wakes when its file changes, and only then ("Five live viewers"): inotify on Linux, read
by the event loop itself, with watchfiles where there is no inotify."""

from __future__ import annotations

import asyncio
import os
import shutil
import struct
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from tracker.store import files, watch

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


async def watching(path: Path, script: Callable[[asyncio.Queue[None]], Awaitable[None]]) -> None:
    """Run `script` while a task puts one item in its queue for each change `watch.changes` reports."""
    seen: asyncio.Queue[None] = asyncio.Queue()

    async def follow() -> None:
        async for _ in watch.changes(path):
            seen.put_nowait(None)

    task = asyncio.create_task(follow())
    await asyncio.sleep(0.2)  # the watch is in place
    try:
        await script(seen)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def changed(seen: asyncio.Queue[None], within: float = 3.0) -> bool:
    try:
        await asyncio.wait_for(seen.get(), within)
    except TimeoutError:
        return False
    return True


async def quiet(seen: asyncio.Queue[None], during: float = 0.3) -> bool:
    await asyncio.sleep(during)
    return seen.empty()


@pytest.mark.anyio
@linux
async def test_every_way_the_file_changes_wakes_the_viewer_and_nothing_else_does(tmp_path: Path) -> None:
    path = tmp_path / "fight.toml"
    path.write_text("[encounter]\n", encoding="utf-8")
    assert watch.inotify_folder(tmp_path) is not None

    async def script(seen: asyncio.Queue[None]) -> None:
        assert await quiet(seen)
        files.write_text(path, "[encounter]\nname = 'a'\n")  # the tracker's save: a rename onto the name
        assert await changed(seen)
        await asyncio.sleep(0.1)
        while not seen.empty():
            seen.get_nowait()
        files.write_text(tmp_path / "other.toml", "x = 1\n")  # another file of the folder
        (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
        assert await quiet(seen)
        with open(path, "a", encoding="utf-8") as handle:  # written in place: seen when closed
            handle.write("# more\n")
        assert await changed(seen)
        await asyncio.sleep(0.1)
        while not seen.empty():
            seen.get_nowait()
        os.chmod(path, 0o600)
        assert await changed(seen)
        path.unlink()
        assert await changed(seen)

    await watching(path, script)


@pytest.mark.anyio
@linux
async def test_a_burst_of_saves_while_the_viewer_works_is_one_wake(tmp_path: Path) -> None:
    """Saves that come while the viewer repaints are read once, after it: the latest text is what counts."""
    path = tmp_path / "fight.toml"
    path.write_text("[encounter]\n", encoding="utf-8")

    changes = watch.changes(path)
    first = asyncio.ensure_future(anext(changes))
    await asyncio.sleep(0.2)
    files.write_text(path, "[encounter]\nname = 'a'\n")
    await asyncio.wait_for(first, 3)
    for n in range(5):  # the viewer is busy: nothing reads the watch meanwhile
        files.write_text(path, f"[encounter]\nname = '{n}'\n")
    await asyncio.sleep(0.2)
    await asyncio.wait_for(anext(changes), 3)  # one wake for the five saves
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(anext(changes), 0.3)


@pytest.mark.anyio
async def test_a_folder_that_is_not_there_is_waited_for(tmp_path: Path) -> None:
    """A viewer started before the table's folder is made, or whose folder is removed and made again:
    no error, and the file is seen once it is there."""
    folder = tmp_path / "table"
    path = folder / "fight.toml"

    async def script(seen: asyncio.Queue[None]) -> None:
        assert await quiet(seen)
        folder.mkdir()
        assert await changed(seen)
        files.write_text(path, "[encounter]\n")
        assert await changed(seen)
        shutil.rmtree(folder)
        assert await changed(seen)
        await asyncio.sleep(0.2)
        while not seen.empty():
            seen.get_nowait()
        folder.mkdir()
        files.write_text(path, "[encounter]\nname = 'again'\n")
        assert await changed(seen)

    await watching(path, script)


@pytest.mark.anyio
async def test_without_inotify_watchfiles_watches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another system, or a network folder (WATCHFILES_FORCE_POLLING): watchfiles, polling, as before."""
    monkeypatch.setenv("WATCHFILES_FORCE_POLLING", "1")
    assert watch.inotify_folder(tmp_path) is None
    path = tmp_path / "fight.toml"
    path.write_text("[encounter]\n", encoding="utf-8")

    async def script(seen: asyncio.Queue[None]) -> None:
        # The poller's first look at the folder is its baseline, whenever its thread gets to it: save again
        # until a save comes after it.
        for n in range(10):
            files.write_text(path, f"[encounter]\nname = '{n}'\n")
            if await changed(seen, within=1.0):
                return
        pytest.fail("watchfiles never reported a save")

    await watching(path, script)


def test_inotify_events_are_read_with_their_names() -> None:
    """``struct inotify_event``: the name is padded with NUL bytes to an aligned length (none for the folder)."""
    raw = struct.pack("iIII", 1, watch.IN_MOVED_TO, 7, 16) + b"fight.toml".ljust(16, b"\0")
    raw += struct.pack("iIII", 1, watch.IN_IGNORED, 0, 0)
    assert watch.events(raw) == [(watch.IN_MOVED_TO, b"fight.toml"), (watch.IN_IGNORED, b"")]
