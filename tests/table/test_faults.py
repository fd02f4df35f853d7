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
async def test_a_flooding_account_is_refused_past_the_rate_on_all_its_connections(tmp_path: Path) -> None:
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
        # The rate is the account's: its second connection is no second allowance.
        assert (await calm.client.send("damage Guild 1")).get("refused") == "too many commands at once; wait a moment"
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
        hidden = (await player.client.send("spend Rotten walk"))["refused"]
        stranger = (await player.client.send("spend Zachary walk"))["refused"]
        assert hidden.startswith("no combatant named 'Rotten'") and hidden == stranger.replace("Zachary", "Rotten")
        # The tie between the Cutthroat and the GM-only Rotten Belle is the GM's question: not quoted at all
        # (even with "someone" for her, its shape would tell that someone hidden is tied with the Cutthroat).
        assert (await player.client.send("answer x"))["refused"] == "the question is the GM's to answer"
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


@on_loop
async def test_an_accounts_commands_in_one_turn_are_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each applied command is saved and replayed by every undo: one account may not fill the GM's history in a
    turn (920 junk commands were), whatever number of connections it uses; a new turn gives a new allowance."""
    monkeypatch.setattr(table_server, "MAX_PER_TURN", 4)
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, server):
        host.submit("start")
        one = await Watcher(path, mode="play").start()
        two = await Watcher(path, mode="play").start()
        await one.next()
        await two.next()
        for n in range(2):
            assert "requested" in await one.client.send(f"damage Guild {n}")
            assert "requested" in await two.client.send(f"heal Guild {n}")
        refused = await two.client.send("damage Guild 9")
        assert refused.get("refused") == "4 of your commands this turn already; ask at the table"
        assert len(host.lines) == 5
        host.submit("next")  # the GM moves the fight on: a new turn
        server.publish()
        await one.next()
        assert "requested" in await one.client.send("damage Guild 9")
        await one.stop()
        await two.stop()


@on_loop
async def test_a_storm_of_reconnects_is_refused_before_it_costs_the_gm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each connection is greeted with a projection and changes the GM's title: one account reconnecting in a
    loop is refused past `MAX_ARRIVALS` a window, told why, before its hello is read."""
    monkeypatch.setattr(table_server, "MAX_ARRIVALS", 3)
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {}) as (_host, server):
        for _ in range(3):
            reader, writer = await _raw(path, b'{"hello": {"mode": "view"}}\n')
            assert b"projection" in await asyncio.wait_for(reader.readline(), 3)
            writer.close()
        reader, writer = await _raw(path, b"")  # refused at the accept: no hello is read
        said = await asyncio.wait_for(reader.read(), 3)
        assert b"connected 3 times in 10 seconds; wait a moment" in said
        writer.close()
        await _until(lambda: server.seats == [])


def test_deeply_nested_json_is_a_refused_line_not_a_crash() -> None:
    """``[[[[…]]]]`` within the line limit goes deeper than the JSON parser's stack: it is one more line that is
    not a message, never a RecursionError out of `wire.read`."""
    with pytest.raises(wire.WireError, match="nested too deep"):
        wire.read(b"[" * 10_000 + b"]" * 10_000 + b"\n")
    with pytest.raises(wire.WireError):
        wire.read(b'{"command": ' + b"{" * 5_000 + b"\n")


@on_loop
async def test_deeply_nested_json_closes_only_that_connection(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (_host, server):
        good = await Watcher(path).start()
        await good.next()
        reader, writer = await _raw(path, b'{"hello": {"mode": "play"}}\n')
        await reader.readline()
        writer.write(b"[" * 8000 + b"]" * 8000 + b"\n")
        said = await asyncio.wait_for(reader.read(), 3)
        assert b"nested too deep" in said
        assert len(server.seats) == 1
        await good.stop()


@on_loop
async def test_a_command_arriving_while_the_gm_quits_prints_no_traceback(tmp_path: Path) -> None:
    """The GM quits while a player's command is on its way: whatever fails in the GM's ending app (its saver
    shut down) ends that connection quietly, never as a traceback asyncio prints over the GM's terminal; and
    once the table is closed (`close_now`) nothing more is run."""
    path = copy_example(tmp_path, "duel.toml")
    host = Host(path)
    host.submit("start")
    server = TableServer(path, host, Seats({me(): ("Sofia Ramos",)}))
    assert await server.open() is None

    def ending(line: str) -> str | None:  # as the app's saver, shut down under a command
        raise RuntimeError("cannot schedule new futures after interpreter shutdown")

    host.submit = ending  # type: ignore[method-assign]
    mine, theirs = socket.socketpair(socket.AF_UNIX)
    reader, writer = await asyncio.open_unix_connection(sock=mine)
    serving = asyncio.create_task(server._connected(reader, writer))
    command = {"id": 1, "line": "next", "seen": host.revision, "table": server.run_id}
    theirs.sendall(b'{"hello": {"mode": "play"}}\n' + wire.message("command", command))
    await asyncio.wait_for(serving, 5)  # ended without raising: nothing for asyncio to print
    assert server.seats == []
    server.close_now()
    assert server.closing and not table_path(path).exists()
    theirs.close()
    await server.close()
