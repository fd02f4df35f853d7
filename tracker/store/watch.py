"""Waiting for an encounter file to change (`tracker view`): inotify on Linux, watchfiles elsewhere.

A save replaces the file atomically (`files.write_text` renames a temporary file over it), so it is the
file's folder that is watched, for the file's name: a rename onto it, a writer closing it, its creation,
removal or a change of its permissions.

watchfiles (Rust notify) collects events in steps: its loop sleeps ``step`` milliseconds and hands the
changes over once a step passes with no new one, so a save reached a viewer one to two steps late (20 to
40 ms at ``step=20``), and an idle viewer still woke every step. On Linux the folder's inotify descriptor
is read by the viewer's own event loop instead (`asyncio` ``add_reader``): it wakes on the rename itself,
and never while nothing changes (README "Speed"). Where inotify cannot be had (another system, no watch
left, or ``WATCHFILES_FORCE_POLLING`` set for a network folder that sends no events), watchfiles, as before.

A writer that writes the file in place is seen when it closes it, never half-way through its write.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import struct
import sys
from collections.abc import AsyncIterator
from pathlib import Path

IN_ATTRIB = 0x004
IN_CLOSE_WRITE = 0x008
IN_MOVED_FROM = 0x040
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000

#: What is asked of the folder: everything that can change what the file's name reads.
WATCHED = IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
#: Events that concern the folder itself, or lost events: the file may have changed.
ANY_NAME = IN_DELETE_SELF | IN_MOVE_SELF | IN_Q_OVERFLOW

#: Seconds between looks for a folder that is not there.
FOLDER_WAIT = 0.5
#: ``struct inotify_event`` without its name: wd, mask, cookie, len.
_EVENT = struct.Struct("iIII")


def inotify_folder(folder: Path) -> int | None:
    """A non-blocking inotify descriptor watching `folder`, or None where there is none to be had."""
    if not sys.platform.startswith("linux") or os.environ.get("WATCHFILES_FORCE_POLLING"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        init, add = libc.inotify_init1, libc.inotify_add_watch
    except (OSError, AttributeError):
        return None
    init.argtypes, init.restype = [ctypes.c_int], ctypes.c_int
    add.argtypes, add.restype = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32], ctypes.c_int
    fd = int(init(os.O_NONBLOCK | os.O_CLOEXEC))
    if fd < 0:
        return None
    if add(fd, os.fsencode(folder), WATCHED | ANY_NAME) < 0:
        os.close(fd)
        return None
    return fd


def events(data: bytes) -> list[tuple[int, bytes]]:
    """The (mask, name) of each inotify event in `data` (a name is empty for the folder itself)."""
    found = []
    at = 0
    while at + _EVENT.size <= len(data):
        _wd, mask, _cookie, size = _EVENT.unpack_from(data, at)
        at += _EVENT.size
        found.append((mask, data[at : at + size].rstrip(b"\0")))
        at += size
    return found


async def changes(path: Path) -> AsyncIterator[None]:
    """Yields each time `path` may have changed; changes that come while the caller works are one yield.

    A folder that is not there (yet, or any more: it was removed) is waited for, looking every
    `FOLDER_WAIT` seconds, and its arrival is a change too: a viewer may be started before the table's
    folder is made."""
    folder = path.resolve().parent
    appeared = False
    while True:
        while not folder.is_dir():
            appeared = True
            await asyncio.sleep(FOLDER_WAIT)
        fd = inotify_folder(folder)
        if fd is None and not folder.is_dir():
            continue  # gone again already
        if appeared:
            appeared = False
            yield  # the folder came, the file perhaps with it; what comes next, the watch (in place) sees
        if fd is None:
            async for _ in _polled(folder, path.name):
                yield
            return
        async for _ in _notified(fd, os.fsencode(path.name)):
            yield


async def _notified(fd: int, name: bytes) -> AsyncIterator[None]:
    """The inotify descriptor `fd`'s changes to `name`, read by the running event loop; ends with the watch."""
    changed = asyncio.Event()
    ended = False

    def readable() -> None:
        nonlocal ended
        try:
            data = os.read(fd, 64 * 1024)
        except BlockingIOError:
            return
        for mask, who in events(data):
            if mask & IN_IGNORED:
                ended = True
            if who == name or mask & (ANY_NAME | IN_IGNORED):
                changed.set()

    loop = asyncio.get_running_loop()
    loop.add_reader(fd, readable)
    try:
        while True:
            await changed.wait()
            changed.clear()
            yield
            if ended:
                return
    finally:
        loop.remove_reader(fd)
        os.close(fd)


async def _polled(folder: Path, name: str) -> AsyncIterator[None]:
    """watchfiles' view of the folder, for `name` only (where there is no inotify)."""
    from watchfiles import awatch

    async for found in awatch(
        folder, debounce=20, step=20, recursive=False, watch_filter=lambda _change, p: Path(p).name == name
    ):
        if found:
            yield
