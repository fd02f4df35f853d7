"""The table when a connection misbehaves: each fault costs only the connection that makes it.

A player's program may die mid-line, flood, stop reading, open with something other than a hello, or see the
GM's process go away and come back; and another account may put a socket of its own where the table's goes.
The GM's process never applies half a command, never waits on one connection, and a player's program never
takes a socket the GM does not run for the GM's table.
"""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import pinned
from tests.table import accounts
from tests.table.fakes import Host, Seats, Watcher, copy_example, me, on_loop, seated_table, table
from tracker.table import server as table_server
from tracker.table import wire
from tracker.table.address import table_path
from tracker.table.projection import Projection
from tracker.table.server import MAX_WAITING_REQUESTS, TableServer

#: A player's program that says hello, reads its projection, writes a whole command but its newline, and is
#: killed (SIGKILL: no goodbye, no flush of anything else).
KILLED_MID_LINE = """
import os, signal, socket, sys
sock = socket.socket(socket.AF_UNIX)
sock.connect(sys.argv[1])
sock.sendall(b'{"hello": {"mode": "play"}}\\n')
f = sock.makefile("rb")
f.readline()
sock.sendall(b'{"command": {"id": 1, "line": "next", "seen": 1}}')
os.kill(os.getpid(), signal.SIGKILL)
"""


async def _raw(path: Path, hello: bytes) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_unix_connection(str(table_path(path)), limit=wire.MAX_PROJECTION)
    writer.write(hello)
    await writer.drain()
    return reader, writer


async def _until(condition: object, timeout: float = 3.0) -> None:
    """Wait until `condition()` holds (the server's bookkeeping runs on the same loop, a moment later)."""
    assert callable(condition)
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


@on_loop
async def test_a_client_killed_mid_command_has_none_of_it_applied(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, server):
        host.submit("start")
        assert host.session.state.active == "Sofia Ramos" and host.revision == 1
        proc = await asyncio.create_subprocess_exec(sys.executable, "-c", KILLED_MID_LINE, str(table_path(path)))
        assert await asyncio.wait_for(proc.wait(), 15) == -signal.SIGKILL
        await _until(lambda: server.seats == [])
        assert host.lines == ["start"] and host.session.state.active == "Sofia Ramos"


@on_loop
async def test_a_flooding_client_is_refused_past_the_rate_and_no_one_else_is(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel.toml")
    host = Host(path)
    server = TableServer(path, host, Seats({me(): ("Sofia Ramos",)}), clock=lambda: 100.0)  # all in one second
    assert await server.open() is None
    try:
        flood = await Watcher(path, mode="play").start()
        calm = await Watcher(path, mode="play").start()
        await flood.next()
        await calm.next()
        replies = [await flood.client.send(f"damage Guild {n}") for n in range(table_server.MAX_RATE + 5)]
        assert all("requested" in reply for reply in replies[: table_server.MAX_RATE])
        assert all(
            reply.get("refused") == "too many commands at once; wait a moment"
            for reply in replies[table_server.MAX_RATE :]
        )
        assert len(host.lines) == table_server.MAX_RATE
        assert "requested" in await calm.client.send("damage Guild 1")  # its own rate, untouched
        assert len(server.seats) == 2  # refused, not dropped
        await flood.stop()
        await calm.stop()
    finally:
        await server.close()


@on_loop
async def test_a_client_that_never_reads_is_dropped_and_the_others_keep_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_server, "MAX_BACKLOG", 16 * 1024)
    path = copy_example(tmp_path, "brawl.toml")
    async with table(path, {}) as (host, server):
        good = await Watcher(path).start()
        await good.next()
        deaf = socket.socket(socket.AF_UNIX)  # a plain socket no loop reads for it: it never reads again
        deaf.connect(str(table_path(path)))
        deaf.sendall(b'{"hello": {"mode": "view"}}\n')
        await _until(lambda: len(server.seats) == 2)
        host.submit("start")
        sent = 0
        while len(server.seats) == 2 and sent < 5000:
            host.revision += 1  # each revision is sent once: a new one each time
            server.publish()
            sent += 1
            await asyncio.sleep(0.001 if sent % 10 else 0.01)  # the reading viewer has time to read
        assert len(server.seats) == 1, f"still connected after {sent} projections"
        assert not any("fell too far behind" in line for line in good.said)  # the reader is the one kept
        await asyncio.sleep(0.05)
        with pytest.raises((BrokenPipeError, ConnectionResetError)):  # cut, not left holding its backlog
            deaf.send(b"\n")
        server.publish()
        assert (await good.next()).view.round == 1
        await _until(lambda: good.shown[-1].view.round == 1)
        deaf.close()
        await good.stop()


@on_loop
async def test_a_first_message_that_is_not_a_hello_is_refused_and_nothing_runs(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, server):
        host.submit("start")
        forged = json.dumps({"command": {"id": 1, "line": "next", "seen": 1}}).encode() + b"\n"
        for first in (forged, b"next\n", b'{"hello": 1, "command": 2}\n'):
            reader, writer = await _raw(path, first)
            said = await asyncio.wait_for(reader.read(), 3)
            kind, body = wire.read(said.splitlines()[0])
            assert kind == "bye", said
            assert body in ("the first message is a hello", "not a JSON line", "a message is an object with one key")
            writer.close()
        assert host.lines == ["start"] and server.seats == []


@on_loop
async def test_after_the_gm_restarts_a_player_is_sent_the_new_state_and_can_act_on_it(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel.toml")
    watcher = await Watcher(path, mode="play").start()
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, _server):
        assert (await watcher.next()).view.round == 0
        host.submit("start")  # saved; the GM's process dies before it publishes
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, _server):
        again = await watcher.next()
        assert again.view.round == 1 and again.acting == "Sofia Ramos" and again.revision == 0
        assert await watcher.client.send("next") == {"id": 1, "ok": True}
        assert host.lines == ["next"]
    await watcher.stop()


#: Another account's socket where the table's goes: it accepts, sends a projection of its own making, and
#: prints what the player's program sent it.
PLANTED = """
import os, socket, sys
sock = socket.socket(socket.AF_UNIX)
sock.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o666)
sock.listen(1)
print("listening", flush=True)
conn, _ = sock.accept()
conn.settimeout(1.0)
try:
    conn.sendall(sys.argv[2].encode() + b"\\n")
    got = conn.recv(65536)
except OSError:  # the player's program hung up at once
    got = b""
print(repr(got), flush=True)
"""


@on_loop
async def test_a_socket_another_account_planted_is_not_believed(tmp_path: Path) -> None:
    why = accounts.cannot_run_as("alice")
    if why is not None:
        pytest.skip(why)
    for folder in accounts.shared_folder():
        folder.chmod(0o1777)  # a folder alice may write in (as /tmp is): where the GM would not open a table
        path = folder / "duel.toml"
        path.write_text(pinned((accounts.EXAMPLES / "duel.toml").read_text()))
        from tracker.table.projection import encode, project

        fake = encode(project(Host(path).session, "alice", (), 99, None)).decode().strip()  # a well-formed forgery
        proc = await asyncio.create_subprocess_exec(
            *accounts.as_account("alice", "-c", PLANTED, str(table_path(path)), fake),
            cwd=accounts.ROOT,
            stdout=subprocess.PIPE,
        )
        assert proc.stdout is not None
        assert await asyncio.wait_for(proc.stdout.readline(), 15) == b"listening\n"
        shown: list[Projection] = []
        said: list[str] = []
        from tracker.table.client import TableClient

        client = TableClient(path, mode="play", as_name=None, shown=shown.append, said=said.append)
        task = asyncio.create_task(client.run())
        got = await asyncio.wait_for(proc.stdout.readline(), 15)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await proc.wait()
        assert got == b"b''\n"  # not even a hello went to it
        assert shown == []
        assert any("is not the GM's table (it is run by alice)" in line for line in said), said


@on_loop
async def test_a_player_who_waits_long_for_the_gm_still_connects_when_the_fight_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tracker.table import client

    monkeypatch.setattr(client, "ABSENT_WAIT", 0.05)  # many looks with no socket, as minutes of waiting make
    path = copy_example(tmp_path, "brawl.toml")
    watcher = await Watcher(path).start()
    await asyncio.sleep(0.5)
    assert watcher.task is not None and not watcher.task.done()
    async with table(path, {}):
        assert (await watcher.next()).view.name == "Ambush at the Docks"
    await asyncio.sleep(0.5)
    async with table(path, {}):
        await watcher.next()
    await watcher.stop()


@on_loop
async def test_one_account_cannot_fill_the_table_with_connections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every account can reach the socket: one that opens screen after screen is refused past its share,
    told why, and the GM's process writes to no more of them."""
    monkeypatch.setattr(table_server, "MAX_PER_ACCOUNT", 3)
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {}) as (_host, server):
        watchers = [await Watcher(path).start() for _ in range(3)]
        for watcher in watchers:
            await watcher.next()
        extra = await Watcher(path).start()
        await _until(lambda: any("screens at this table already" in said for said in extra.said))
        assert len(server.seats) == 3 and not extra.shown
        for watcher in [*watchers, extra]:
            await watcher.stop()


@on_loop
async def test_a_connection_that_never_says_hello_is_closed_and_counted_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection counts against its account from the accept: silent ones cannot exhaust the GM's files."""
    monkeypatch.setattr(table_server, "HELLO_WAIT", 0.3)
    monkeypatch.setattr(table_server, "MAX_PER_ACCOUNT", 2)
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {}) as (_host, server):
        silent = [await asyncio.open_unix_connection(str(table_path(path))) for _ in range(2)]
        third_reader, _ = await asyncio.open_unix_connection(str(table_path(path)))
        assert b"screens at this table already" in await asyncio.wait_for(third_reader.read(), 3)
        for reader, _writer in silent:
            assert b"no hello within" in await asyncio.wait_for(reader.read(), 3)
        assert server.seats == [] and sum(server._open.values()) == 0


@on_loop
async def test_a_refusal_never_names_a_gm_only_combatant(tmp_path: Path) -> None:
    """The rules' own refusals may name whoever is involved; a seat is told "someone" for a GM-only one."""
    async with seated_table(tmp_path, "brawl.toml", "Sofia Ramos") as (host, _server):
        path = host.path
        host.submit("start")
        player = await Watcher(path, mode="play").start()
        await player.next()
        for line in ("spend Rotten walk", "spend R walk", "answer x", "spend zzz walk"):
            reply = await player.client.send(line)
            assert "refused" in reply and "Rotten Belle" not in reply["refused"], (line, reply)
        assert (await player.client.send("spend Rotten walk"))["refused"] == "no combatant named 'Rotten'"
        # The tie between the Cutthroat and the GM-only Rotten Belle is the GM's question, said with "someone".
        assert "Dockside Cutthroat, someone" in (await player.client.send("answer x"))["refused"]
        await player.stop()


@on_loop
async def test_a_seat_keeps_a_few_requests_waiting_and_a_resend_is_not_applied_twice(tmp_path: Path) -> None:
    async with seated_table(tmp_path, "duel.toml", "Sofia Ramos") as (host, _server):
        path = host.path
        host.submit("start")
        player = await Watcher(path, mode="play").start()
        await player.next()
        # Two walks sent on the same screen (the second a resend after a slow answer): one is applied.
        screen = player.client.projection
        first = await player.client.send("spend Sofia walk")
        player.client.projection = screen  # the resend left before the new screen came
        second = await player.client.send("spend Sofia walk")
        assert first.get("ok") is True and "before your last command took effect" in second["refused"]
        assert host.lines.count("by " + me() + " spend Sofia walk") == 1
        player.client.projection = player.shown[-1]  # the screen as it is now
        for n in range(MAX_WAITING_REQUESTS):
            assert "requested" in await player.client.send(f"heal Sofia {n + 1}")
            await player.next()
        reply = await player.client.send("heal Sofia 9")
        assert "wait for the GM already" in reply["refused"]
        assert len(host.session.state.requests) == MAX_WAITING_REQUESTS
        await player.stop()
