"""A real `tracker serve` with websocket clients standing in for browser tabs.

The server runs as a subprocess on a free port (`--port 0`, read back from its one line); each tab
is an aiohttp websocket, and what its tracker process draws is read back as text.
"""

from __future__ import annotations

import asyncio
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web as aioweb

from tracker.store.lock import WriterLock
from tracker.web import server as web
from tracker.web.tabs import TabLimits

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "duel.toml"

#: Generous bound for a tab's process to draw its first screen on a slow machine.
DRAW_SECONDS = 20.0


@dataclass
class Served:
    process: subprocess.Popen[str]
    line: str
    #: The server's address (scheme, host, port), without the page's path and token.
    url: str
    #: The token in the printed URL, which every request needs.
    token: str

    @property
    def page_url(self) -> str:
        """The URL the server printed: its page, with the token."""
        return f"{self.url}/?token={self.token}"

    @property
    def websocket_url(self) -> str:
        return "ws" + self.url.removeprefix("http") + f"/ws?token={self.token}&width=200&height=40"


@contextmanager
def serve(path: Path, *options: str, config: Path) -> Iterator[Served]:
    """`tracker serve PATH OPTIONS --port 0`, until the block ends; a server still running then (a test
    that failed) gets SIGTERM, and SIGKILL for its whole process group if that is not enough, so no
    tab's process outlives the test."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tracker", "serve", str(path), *options, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TRACKER_CONFIG_DIR": str(config)},
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], DRAW_SECONDS)
        line = process.stdout.readline() if ready else ""
        found = re.search(r" on (http://\S+)/\?token=([\w-]+)", line)
        assert found, f"no serving line: {line!r}"
        yield Served(process, line, found.group(1), found.group(2))
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def visible(chunks: list[bytes]) -> str:
    """What a terminal shows, roughly: escape sequences, box and block characters gone, spaces collapsed."""
    text = b"".join(chunks).decode("utf-8", "replace")
    text = re.sub(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)", " ", text)  # OSC
    text = re.sub(r"\x1b\[[0-?]*[ -/]*[@-~]", " ", text)  # CSI
    text = re.sub(r"[\u2500-\u259f]", " ", text)
    return " ".join(text.split())


async def shown(tab: aiohttp.ClientWebSocketResponse, *wanted: str) -> str:
    """Read the tab until everything `wanted` has been drawn."""
    chunks: list[bytes] = []
    deadline = time.monotonic() + DRAW_SECONDS
    while not all(w in visible(chunks) for w in wanted):
        left = deadline - time.monotonic()
        assert left > 0, f"never shown: {wanted}; shown: {visible(chunks)[-400:]}"
        message = await tab.receive(timeout=left)
        if message.type == aiohttp.WSMsgType.BINARY:
            chunks.append(message.data)
        elif message.type != aiohttp.WSMsgType.TEXT:
            raise AssertionError(f"tab closed before showing {wanted}: {visible(chunks)[-400:]}")
    return visible(chunks)


async def closed(tab: aiohttp.ClientWebSocketResponse, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            message = await tab.receive(timeout=deadline - time.monotonic())
        except TimeoutError:
            return False
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            return True
    return False


def test_a_write_server_with_tabs_open(tmp_path: Path) -> None:
    """One `--write` server, three tabs, then SIGTERM with them connected.

    - the page asks nothing of another host (the font was fonts.googleapis.com): its addresses are all
      relative;
    - the first tab is the GM view; the second says who runs the file and offers the read-only view
      (it used to stay blank); a tab opened after the file broke shows the problem (it used to hang);
    - SIGTERM ends it all within a second or so (it took ≈ 21 s) and the writer lock is free after;
    - the console got the one serving line, no request log.
    """
    path = tmp_path / "duel.toml"
    shutil.copy(EXAMPLE, path)

    async def drive(server: Served) -> float:
        async with aiohttp.ClientSession() as http:
            async with http.get(server.page_url) as response:
                page = await response.text()
            addresses = set(re.findall(r"\b(?:https?|wss?)://[^\s\"'<>)]+", page))
            assert not addresses, addresses  # every address relative to the page's tokened base
            assert 'src="static/js/textual.js"' in page and f'<base href="s/{server.token}/" />' in page
            assert "googleapis" not in page and "//fonts." not in page

            gm = await http.ws_connect(server.websocket_url)
            await shown(gm, "Duel on the Burning Pier", "press n to start")
            second = await http.ws_connect(server.websocket_url)
            await shown(second, f"{path} is being run by", "Open the read-only view instead? [Y/n]")
            path.write_text(path.read_text(encoding="utf-8") + "\n[broken\n", encoding="utf-8")
            third = await http.ws_connect(server.websocket_url)
            await shown(third, f"{path}:", "TOML syntax", "reload the page")

            started = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            while server.process.poll() is None and time.monotonic() - started < 30:
                await asyncio.sleep(0.01)
            elapsed = time.monotonic() - started
            assert await closed(gm, 2.0) and await closed(second, 2.0)
            return elapsed

    with serve(path, "--write", config=tmp_path / "config") as server:
        elapsed = asyncio.run(drive(server))
        out, err = server.process.communicate(timeout=5)
    assert server.process.returncode == 0
    assert elapsed < 2.0, f"shutdown took {elapsed:.2f} s"
    with WriterLock(path):  # the GM tab's process let go of the file
        pass
    assert server.line.startswith(f"serving the GM view (it writes the file) of {path} on http://127.0.0.1:")
    assert "GET /" not in out and "INFO" not in out and "Traceback" not in out + err


def test_verbose_logs_every_request(tmp_path: Path) -> None:
    async def fetch(url: str) -> None:
        async with aiohttp.ClientSession() as http, http.get(url) as response:
            assert response.status == 200

    with serve(EXAMPLE, "--verbose", config=tmp_path / "config") as server:
        asyncio.run(fetch(server.page_url))
        server.process.send_signal(signal.SIGTERM)
        out, _ = server.process.communicate(timeout=10)
    assert '"GET / HTTP/1.1" 200' in out


async def table_server(
    command: str, guarded: bool = False, limits: TabLimits | None = None
) -> tuple[web.TableServer, aioweb.AppRunner]:
    """A TableServer running in this test's event loop, for what needs no tracker process; `guarded`: behind
    its token, as `tracker serve` runs it (else textual-serve's own application, without the token);
    `limits`: its caps on open tabs (else the defaults)."""
    sock = web.listening_socket("127.0.0.1", 0)
    server = web.TableServer(command, sock, url=web.public_url("127.0.0.1", sock), title="test", limits=limits)
    runner = aioweb.AppRunner(await (server.application() if guarded else server._make_app()))
    await runner.setup()
    await aioweb.SockSite(runner, sock).start()
    return server, runner


@pytest.mark.anyio
async def test_a_tab_whose_process_never_starts_is_closed() -> None:
    """textual-serve closed a tab only when its app said goodbye: a process that failed before
    starting left the page on its loading card forever."""

    server, runner = await table_server("exec false")
    try:
        async with aiohttp.ClientSession() as http:
            tab = await http.ws_connect(server.public_url.replace("http", "ws") + "/ws")
            assert await closed(tab, 5.0)
    finally:
        await runner.cleanup()


@pytest.mark.anyio
async def test_shutdown_kills_a_process_that_does_not_quit() -> None:
    """A tab's process that ignores the request to quit is killed after QUIT_GRACE, so shutdown
    never waits on it (and a `--write` tab's lock goes with it)."""

    server, runner = await table_server("exec sleep 30")
    async with aiohttp.ClientSession() as http:
        tab = await http.ws_connect(server.public_url.replace("http", "ws") + "/ws")
        while not server.sessions:
            await asyncio.sleep(0.01)
        (session,) = server.sessions
        started = time.monotonic()
        await runner.cleanup()
        elapsed = time.monotonic() - started
        assert session._process is not None and session._process.returncode == -signal.SIGKILL
        assert elapsed < web.QUIT_GRACE + 1.0, f"shutdown took {elapsed:.2f} s"
        assert await closed(tab, 2.0)
