"""A player's end of the table: connect to the GM's process, keep connected, hand projections over.

`TableClient.run` never ends on its own while the app runs: with no GM process it waits (watching the
folder for the socket, so it connects the moment the GM opens the fight), and when the GM quits or is
killed it says so and waits again. It believes a socket only when the kernel says the process behind it
runs as the account that owns the encounter file: a socket someone else left there is not the GM.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from tracker.engine.errors import Invalid
from tracker.store.owner import account_name
from tracker.table import wire
from tracker.table.address import owner_of, peer_uid, table_path
from tracker.table.projection import Projection, decode

#: Seconds between tries while the socket is there but does not answer (a GM just starting).
RETRY = 0.25
#: Seconds between looks while there is no socket (the folder's watch wakes it sooner when one comes).
ABSENT_WAIT = 5.0
#: Seconds to wait for a reply to a command before saying the GM did not answer.
REPLY_WAIT = 10.0


class Refused(Exception):
    """The GM's process refused this connection outright (no seat, a name not seated): the reason."""


class TableClient:
    """Connects `encounter`'s table as `mode` ("view" or "play", `as_name` picking a seated character)."""

    def __init__(
        self,
        encounter: Path,
        *,
        mode: str,
        as_name: str | None,
        shown: Callable[[Projection], None],
        said: Callable[[str], None],
    ) -> None:
        self.encounter = encounter
        self.path = table_path(encounter)
        self.mode = mode
        self.as_name = as_name
        self.shown = shown
        self.said = said
        self.projection: Projection | None = None
        self.story = False
        self._writer: asyncio.StreamWriter | None = None
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._next = 0

    def waiting_text(self) -> str:
        return f"waiting for the GM to open {self.encounter}"

    async def run(self) -> None:
        """Connect, follow, reconnect, until cancelled; `Refused` when the GM refuses this seat.

        Between tries it waits for the socket's folder to change (the GM opening the fight), or a moment
        when the socket is there but did not answer (a GM just starting, a socket a killed GM left)."""
        from tracker.store.watch import changes

        changed = asyncio.Event()
        watched = True

        async def watch() -> None:
            nonlocal watched
            try:
                async for _ in changes(self.path):
                    changed.set()
            except OSError:  # a folder opened to players with o+x alone cannot be watched (listing it is refused)
                watched = False
                changed.set()  # the wait under way was counting on the watch: look again now

        watching = asyncio.create_task(watch())
        self.said(self.waiting_text())
        try:
            while True:
                changed.clear()
                why = await self._session()
                if why is not None:
                    self.said(why)
                # Unwatched, the socket is looked for every RETRY seconds.
                wait = RETRY if self.path.exists() or not watched else ABSENT_WAIT
                await _within(changed.wait(), wait)
        finally:
            watching.cancel()

    async def _session(self) -> str | None:
        """One connection, from connecting to its end: why it ended or could not start (None: there is no
        table yet, which the screen already says)."""
        try:
            reader, writer = await asyncio.open_unix_connection(str(self.path), limit=wire.MAX_PROJECTION)
        except (FileNotFoundError, ConnectionRefusedError):
            return None
        except PermissionError:
            return (
                f"cannot reach the table of {self.encounter}: permission denied (the GM lets players into the "
                f"folder with chmod o+x {self.encounter.parent})"
            )
        except OSError as exc:
            return f"cannot reach the table of {self.encounter}: {exc.strerror or exc}; waiting"
        try:
            gm = owner_of(self.encounter)
            sock: socket.socket = writer.get_extra_info("socket")
            if gm is None or peer_uid(sock) != gm:
                return f"{self.path} is not the GM's table (it is run by {account_name(peer_uid(sock))}); waiting"
            hello = {"mode": self.mode, "as": self.as_name, "story": self.story}
            writer.write(wire.message("hello", hello))
            self._writer = writer
            return await self._follow(reader)
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            return f"the GM closed {self.encounter}; {self.waiting_text()}"
        finally:
            self._writer = None
            for future in self._replies.values():
                if not future.done():
                    future.set_result({"refused": "the GM's process went away before answering; send it again"})
            self._replies.clear()
            with contextlib.suppress(Exception):
                writer.close()

    async def _follow(self, reader: asyncio.StreamReader) -> str:
        while True:
            line = await reader.readline()
            if not line.endswith(b"\n"):
                return f"the GM closed {self.encounter}; {self.waiting_text()}"
            try:
                kind, body = wire.read(line)
            except wire.WireError:
                continue
            if kind == "projection":
                try:
                    self.projection = decode(body)
                except Invalid:
                    continue
                self.shown(self.projection)
            elif kind == "reply" and isinstance(body, dict):
                future = self._replies.pop(body.get("id", -1), None)
                if future is not None and not future.done():
                    future.set_result(body)
            elif kind == "bye":
                why = str(body)
                if self.projection is None and self.mode == "play":
                    raise Refused(why)
                return f"{why}; {self.waiting_text()}"

    async def send(self, line: str) -> dict[str, Any]:
        """Send one command; the GM's reply (``ok``, ``requested`` or ``refused`` with why)."""
        writer = self._writer
        if writer is None or self.projection is None:
            return {"refused": "not connected to the GM's process yet"}
        self._next += 1
        ident = self._next
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[ident] = future
        seen = {"id": ident, "line": line, "seen": self.projection.revision, "table": self.projection.table}
        writer.write(wire.message("command", seen))
        await asyncio.wait({future}, timeout=REPLY_WAIT)
        if not future.done():
            self._replies.pop(ident, None)
            future.cancel()
            return {"refused": "the GM's process did not answer; look at the screen and send it again"}
        return future.result()

    def want_story(self, wanted: bool) -> None:
        """Ask for the players' story with each projection (while its screen is open), or stop."""
        self.story = wanted
        if self._writer is not None:
            self._writer.write(wire.message("story", wanted))


async def _within(waited: Coroutine[Any, Any, object], seconds: float) -> None:
    """Wait for `waited` at most `seconds`. `asyncio.wait`, not `wait_for`: on Python 3.11 `wait_for` can
    swallow a cancellation that comes as the awaited thing finishes, and the screen could then never quit."""
    task = asyncio.ensure_future(waited)
    try:
        await asyncio.wait({task}, timeout=seconds)
    finally:
        task.cancel()
