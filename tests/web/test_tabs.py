"""`tracker serve` keeps at most `--max-tabs` browser tabs open, `--max-tabs-per-client` of them one
client's (`tracker.web.tabs`).

Every tab is a tracker process on the GM's machine (30 tabs took 1.4 GB): the tab past a cap is refused,
its page answered with a small HTML page that says which cap and what to do (503 when the table is full,
429 when the client has its share), its websocket refused before any process starts, and the slot comes
back once a closed tab's process has ended. The servers here run in the test's event loop with
`exec sleep 30` as each tab's process (`tests.cli.test_serve_live.table_server`); one test runs the real
command line, and one a second real account (root and `runuser` needed, else it skips).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from tests.cli.test_serve_live import EXAMPLE, ROOT, serve, shown, table_server
from tests.table.accounts import cannot_run_as
from tracker.web import server as web
from tracker.web import tabs

#: Generous bound for a closed tab's process to end and its slot to come back.
SECONDS = 10.0


def tab_url(server: web.TableServer) -> str:
    return "ws" + server.public_url.removeprefix("http") + f"{server.prefix}/ws?width=80&height=24"


async def opened(http: aiohttp.ClientSession, server: web.TableServer) -> aiohttp.ClientWebSocketResponse:
    """A tab's websocket, once its process runs (the server counts it)."""
    before = len(server.sessions)
    tab = await http.ws_connect(tab_url(server))
    deadline = time.monotonic() + SECONDS
    while len(server.sessions) <= before:
        assert time.monotonic() < deadline, "the tab's process never started"
        await asyncio.sleep(0.01)
    return tab


async def refused_tab(http: aiohttp.ClientSession, server: web.TableServer, status: int, *said: str) -> None:
    """The page and the websocket both refused with `status`; the page (HTML) says `said`."""
    async with http.get(server.page_url) as response:
        page = await response.text()
    assert response.status == status
    assert response.content_type == "text/html"
    assert all(words in page for words in said), page
    assert "Close one of the open tabs of this table, then reload this page." in page
    with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
        await http.ws_connect(tab_url(server))
    assert refusal.value.status == status
    async with http.get(server.public_url + f"{server.prefix}/ws") as response:  # what a plain GET of it reads
        assert response.status == status and "<h1>" in await response.text()


async def gets_in_again(http: aiohttp.ClientSession, server: web.TableServer) -> aiohttp.ClientWebSocketResponse:
    """The page answers 200 again once a slot is back (within SECONDS), and a tab opens."""
    deadline = time.monotonic() + SECONDS
    while True:
        async with http.get(server.page_url) as response:
            if response.status == 200:
                break
        assert time.monotonic() < deadline, "the closed tab's slot never came back"
        await asyncio.sleep(0.05)
    return await opened(http, server)


@pytest.mark.anyio
async def test_the_tab_past_the_server_cap_is_refused_until_one_closes() -> None:
    """`--max-tabs` 2: two tabs open; the third gets the 503 page naming the cap and the option, and its
    websocket starts no process; once a tab closes (its process ended) a new one gets in."""

    limits = tabs.TabLimits(per_server=2, per_client=5)
    server, runner = await table_server(guarded=True, command="exec sleep 30", limits=limits)
    try:
        async with aiohttp.ClientSession() as http:
            first = await opened(http, server)
            second = await opened(http, server)  # kept: a dropped client websocket closes
            await refused_tab(http, server, 503, "the table is full", "already has 2 browser tabs", "--max-tabs")
            assert len(server.sessions) == 2
            await first.close()
            third = await gets_in_again(http, server)
            assert len(server.sessions) == 2 and limits.open.total() == 2
            assert not second.closed and not third.closed
    finally:
        await runner.cleanup()
    assert limits.open.total() == 0  # the shutdown gave every slot back


@pytest.mark.anyio
async def test_the_tab_past_a_clients_cap_is_refused_until_one_of_its_own_closes() -> None:
    """`--max-tabs-per-client` 1 of 8: this account's second tab gets the 429 page naming the option,
    while the server has room; closing its first tab lets it in again."""

    limits = tabs.TabLimits(per_server=8, per_client=1)
    server, runner = await table_server(guarded=True, command="exec sleep 30", limits=limits)
    try:
        async with aiohttp.ClientSession() as http:
            first = await opened(http, server)
            said = ("too many tabs", "You already have 1 browser tab open", "--max-tabs-per-client")
            await refused_tab(http, server, 429, *said)
            assert limits.open == {f"uid {os.getuid()}": 1}
            await first.close()
            again = await gets_in_again(http, server)
            assert not again.closed
    finally:
        await runner.cleanup()


def test_a_loopback_client_is_its_account() -> None:
    """Over loopback every account connects from 127.0.0.1 (the GM too): the client is the account the
    kernel's socket table names for the connection's other end, in IPv4 and IPv6 alike."""
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        try:
            listener = socket.socket(family)
            listener.bind((host, 0))
        except OSError:
            continue  # no IPv6 loopback here
        with listener:
            listener.listen()
            with socket.create_connection(listener.getsockname()[:2]):
                accepted, peer = listener.accept()
                with accepted:
                    assert tabs.socket_owner(peer[:2], accepted.getsockname()[:2]) == os.getuid(), host
    assert tabs.socket_owner(("127.0.0.1", 1), ("127.0.0.1", 2)) is None  # no such connection


def python_for(account: str) -> str | None:
    """A Python `account` can start (this one, else the system's; the client needs the standard library
    only), or None."""
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        return None
    for python in (sys.executable, "/usr/bin/python3"):
        done = subprocess.run(["runuser", "-u", account, "--", python, "-c", "pass"], capture_output=True, timeout=60)
        if done.returncode == 0:
            return python
    return None


@pytest.mark.anyio
async def test_another_account_is_another_client() -> None:
    """A real second account (alice) is a client of its own: with this account at its cap of 1, alice's
    request for the page is answered 200 while this account's is the 429 page."""
    why = cannot_run_as("alice")  # makes the account when it can
    python = python_for("alice")
    if python is None:
        pytest.skip(why or "alice can start no Python here")
    script = (
        "import sys, urllib.request\n"
        "try:\n"
        "    print(urllib.request.urlopen(sys.argv[1], timeout=20).status)\n"
        "except urllib.error.HTTPError as refusal:\n"
        "    print(refusal.code)\n"
    )

    limits = tabs.TabLimits(per_server=8, per_client=1)
    server, runner = await table_server(guarded=True, command="exec sleep 30", limits=limits)
    try:
        async with aiohttp.ClientSession() as http:
            mine = await opened(http, server)
            await refused_tab(http, server, 429, "too many tabs")
            theirs = await asyncio.create_subprocess_exec(
                "runuser", "-u", "alice", "--", python, "-c", script, server.page_url, stdout=subprocess.PIPE
            )
            out, _ = await asyncio.wait_for(theirs.communicate(), SECONDS * 3)
            assert out == b"200\n"
            assert not mine.closed
    finally:
        await runner.cleanup()


def test_a_loopback_client_of_another_account_is_named_by_its_uid() -> None:
    """The kernel's socket table names alice as the owner of her end of a loopback connection."""
    why = cannot_run_as("alice")
    python = python_for("alice")
    if python is None:
        pytest.skip(why or "alice can start no Python here")
    import pwd

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        script = f"import socket, time; s = socket.create_connection(('127.0.0.1', {port})); s.recv(1)"
        theirs = subprocess.Popen(["runuser", "-u", "alice", "--", python, "-c", script])
        try:
            listener.settimeout(SECONDS * 3)
            accepted, peer = listener.accept()
            with accepted:
                owner = tabs.socket_owner(peer[:2], accepted.getsockname()[:2])
                accepted.sendall(b"x")
        finally:
            theirs.wait(timeout=SECONDS)
    assert owner == pwd.getpwnam("alice").pw_uid


def test_tracker_serve_max_tabs(tmp_path: Path) -> None:
    """The command line: `--max-tabs 1` keeps one tab of the real tracker; the second is the 503 page.
    A count below 1 is refused before anything is served."""

    async def drive(url: str, token: str) -> None:
        async with aiohttp.ClientSession() as http:
            tab = await http.ws_connect("ws" + url.removeprefix("http") + f"/s/{token}/ws?width=120&height=30")
            await shown(tab, "Duel on the Burning Pier")
            async with http.get(f"{url}/?token={token}") as response:
                assert response.status == 503
                assert "(tracker serve --max-tabs)" in await response.text()
            await tab.close()

    with serve(EXAMPLE, "--max-tabs", "1", config=tmp_path / "config") as server:
        asyncio.run(drive(server.url, server.token))

    done = subprocess.run(
        [sys.executable, "-m", "tracker", "serve", str(EXAMPLE), "--max-tabs-per-client", "0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "argument --max-tabs-per-client: '0' is not a number of tabs: give a whole number from 1 up" in done.stderr
