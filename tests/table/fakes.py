"""A GM process without a screen, and seat rules of the simplest kind, for driving the table's socket."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import pinned
from tracker.engine.errors import Refusal
from tracker.families.seating import Verdict
from tracker.families.session import Session
from tracker.store import files
from tracker.store.opening import load_session
from tracker.table.client import TableClient
from tracker.table.projection import Projection
from tracker.table.server import TableServer

EXAMPLES = Path(__file__).parents[2] / "examples"


class Host:
    """The GM's app as the table sees it: a session, its revision, and `submit` (applied, saved)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.session: Session = load_session(str(path))
        self.revision = 0
        self.lines: list[str] = []
        self.changes = 0

    def submit(self, line: str) -> str | None:
        if line.startswith("#"):  # the fake seat rules' request: kept, not run
            self.lines.append(line)
            return None
        try:
            self.session.execute(line)
        except Refusal as exc:
            return str(exc)
        from tracker.store.save import encounter_text

        files.write_text(self.path, encounter_text(self.session))
        self.lines.append(line)
        self.revision += 1
        return None

    def table_changed(self) -> None:
        self.changes += 1


class Seats:
    """Each account plays what `seats` says; a seat may act for its own characters only, on their turn."""

    def __init__(self, seats: dict[str, tuple[str, ...]]) -> None:
        self.seats = seats

    def seats_of(self, session: Session) -> dict[str, tuple[str, ...]]:
        return self.seats

    def judge(self, session: Session, account: str, as_name: str | None, line: str) -> Verdict:
        mine = self.seats.get(account, ())
        if line == "next":
            if session.state.active in mine:
                return Verdict("apply", "next")
            return Verdict("refuse", "", "it is not your turn")
        return Verdict("request", f"# {account}: {line}")

    def question_for(self, session: Session, characters: tuple[str, ...]) -> str | None:
        prompt = session.state.prompt
        return prompt.who if prompt is not None and prompt.who in characters else None


def copy_example(tmp: Path, name: str) -> Path:
    target = tmp / name
    files.write_text(target, pinned((EXAMPLES / name).read_text()))
    return target


@asynccontextmanager
async def table(
    path: Path, seats: dict[str, tuple[str, ...]], seating: Any = None
) -> AsyncIterator[tuple[Host, TableServer]]:
    """A GM process without a screen at `path`'s table, seated by `seats` (the simple `Seats`), or by
    `seating` when given, open until the block ends."""
    host = Host(path)
    server = TableServer(path, host, seating or Seats(seats))
    problem = await server.open()
    assert problem is None, problem
    try:
        yield host, server
    finally:
        await server.close()


@asynccontextmanager
async def seated_table(folder: Path, example: str, character: str) -> AsyncIterator[tuple[Host, TableServer]]:
    """`example` copied into `folder` with this account seated as `character`, at a table the families' own
    seat rules run (`RulesSeating`)."""
    from tracker.table.seats import RulesSeating

    path = folder / example
    files.write_text(path, pinned((EXAMPLES / example).read_text()) + f'\n[seats]\n{me()} = "{character}"\n')
    async with table(path, {}, RulesSeating()) as opened:
        yield opened


async def player_and_viewer(path: Path) -> tuple[Watcher, Watcher]:
    """This account's `tracker play` and `tracker view --player` ends, each shown its first projection."""
    player = await Watcher(path, mode="play").start()
    viewer = await Watcher(path).start()
    await player.next()
    await viewer.next()
    return player, viewer


class Watcher:
    """A client that keeps what it is shown and said."""

    def __init__(self, path: Path, mode: str = "view", as_name: str | None = None) -> None:
        self.shown: list[Projection] = []
        self.said: list[str] = []
        self.arrived = asyncio.Event()
        self.client = TableClient(path, mode=mode, as_name=as_name, shown=self._shown, said=self.said.append)
        self.task: asyncio.Task[None] | None = None

    def _shown(self, projection: Projection) -> None:
        self.shown.append(projection)
        self.arrived.set()

    async def start(self) -> Watcher:
        self.task = asyncio.create_task(self.client.run())
        return self

    async def next(self, timeout: float = 3.0) -> Projection:
        await asyncio.wait_for(self.arrived.wait(), timeout)
        self.arrived.clear()
        return self.shown[-1]

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


def me() -> str:
    import pwd

    return pwd.getpwuid(os.geteuid()).pw_name


def on_loop(test: Callable[..., Coroutine[Any, Any, None]]) -> Any:
    """An async test on anyio's pytest plugin (the suite's loop), ended after 20 seconds: a server test that
    waits for a line that never comes fails instead of hanging the run."""

    @functools.wraps(test)
    async def run(*args: Any, **kwargs: Any) -> None:
        with anyio.fail_after(20):
            await test(*args, **kwargs)

    return pytest.mark.anyio(run)
