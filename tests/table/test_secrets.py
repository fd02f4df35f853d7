"""What "the secrets stay the GM's" means on a shared machine, checked with a real second account.

A TTB fight is played (a cheat from a Control Hand, end-of-Dramatic-Time discards and refills, the GM-only
Rotten Belle in the order and the log) and saved in a folder other accounts may enter. Then alice, another
account, gets everything she can: every file in that folder she can read, and the table's socket as a
viewer (with the players' story) and as Marguerite's player. None of it may give away another Fated's hand,
the deck's order, the seed or Rotten Belle; her own seat's hand is hers to see. The GM's own file, and only
it, keeps them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.table.accounts import (
    ROOT,
    Secrets,
    as_account,
    cannot_run_as,
    card_codes,
    play_brawl,
    shared_folder,
)
from tests.table.fakes import table
from tracker.store import files
from tracker.store.opening import load_session
from tracker.table.projection import decode

PLAYER = "alice"

#: alice's reading of the folder: every regular file she can open, whole.
READ_ALL = """
import json, os, sys
seen = {}
for top, _dirs, names in os.walk(sys.argv[1]):
    for name in names:
        path = os.path.join(top, name)
        try:
            with open(path, "rb") as f:
                seen[path] = f.read().decode("utf-8", "replace")
        except OSError as exc:
            seen[path] = None
print(json.dumps(seen))
"""

#: alice's end of the table: connect as `mode` (with the story), print every line received and the first
#: projection as decoded, then stay connected until told to go (stdin closes).
CLIENT = """
import asyncio, json, sys
from dataclasses import asdict
from pathlib import Path
from tracker.table import client as table_client, wire

raw = []
read = wire.read
def keep(line):
    raw.append(line.decode("utf-8", "replace"))
    return read(line)
table_client.wire.read = keep

async def main():
    path, mode = Path(sys.argv[1]), sys.argv[2]
    came = asyncio.Event()
    said = []
    client = table_client.TableClient(path, mode=mode, as_name=None, shown=lambda p: came.set(), said=said.append)
    client.story = True
    task = asyncio.create_task(client.run())
    try:
        await asyncio.wait_for(came.wait(), 20)
    except TimeoutError:
        print(json.dumps({"said": said, "raw": raw}), flush=True)
        return
    print(json.dumps({"raw": raw, "decoded": asdict(client.projection), "said": said}, ensure_ascii=False), flush=True)
    await asyncio.to_thread(sys.stdin.read)
    task.cancel()

asyncio.run(main())
"""


@pytest.fixture(scope="module")
def played() -> Iterator[Path]:
    why = cannot_run_as(PLAYER)
    if why is not None:
        pytest.skip(why)
    for folder in shared_folder():
        yield play_brawl(folder)


def test_the_gm_keeps_every_secret_in_a_file_only_the_gm_reads(played: Path) -> None:
    secrets = Secrets.of(played)
    found = secrets.found_in(played.read_text())
    assert len(found) == 6, found  # three hands, the deck, the seed, Rotten Belle: the check sees them
    assert played.stat().st_mode & 0o777 == 0o600
    denied = subprocess.run(as_account(PLAYER, "-c", f"open({str(played)!r})"), cwd=ROOT, capture_output=True)
    assert denied.returncode != 0 and b"PermissionError" in denied.stderr


def test_no_file_another_account_can_read_gives_a_secret_away(played: Path) -> None:
    secrets = Secrets.of(played)
    seen = _read_as(PLAYER, played.parent)
    assert str(played) in seen and seen[str(played)] is None  # listed, never read
    readable = {path: text for path, text in seen.items() if text is not None}
    for path, text in readable.items():
        assert secrets.found_in(text) == [], path


def test_the_socket_sends_another_account_no_secret(played: Path) -> None:
    # Three programs started as alice on a shared machine: more time than `on_loop` gives.
    asyncio.run(asyncio.wait_for(_socket_sends_no_secret(played), 90))


async def _socket_sends_no_secret(played: Path) -> None:
    secrets = Secrets.of(played)
    async with table(played, {PLAYER: ("Marguerite Bell",)}) as (_host, server):
        # What alice can read while the table is open (the socket is not a file she can read, the lock is).
        for path, text in (await asyncio.to_thread(_read_as, PLAYER, played.parent)).items():
            assert text is None or secrets.found_in(text) == [], path

        viewer, got = await _connect_as(PLAYER, played, "view")
        try:
            assert server.connected() == [PLAYER]  # the kernel's word, not the client's
            seen = decode(got["decoded"])
            assert seen.seated == () and seen.own == ()
            assert seen.story is not None  # the story was asked for, and it came
            for line in got["raw"]:
                assert secrets.found_in(line) == [], line[:200]
        finally:
            await _leave(viewer)

        player, got = await _connect_as(PLAYER, played, "play")
        try:
            assert server.connected() == [PLAYER]
            mine = decode(got["decoded"])
            assert mine.seated == ("Marguerite Bell",)
            sheet = " ".join(span.text for span in mine.own[0].sheet)
            assert secrets.hand_lines["Marguerite Bell"] in sheet  # her own hand is hers to see
            assert sorted(card_codes(sheet)) == sorted(secrets.hands["Marguerite Bell"])
            assert secrets.found_in("".join(got["raw"])) == [
                f"Marguerite Bell's hand {secrets.hands['Marguerite Bell']}"
            ]
            secrets.allowed = {"Marguerite Bell"}
            for line in got["raw"]:
                assert secrets.found_in(line) == [], line[:200]
        finally:
            await _leave(player)


def test_the_players_report_gives_no_secret_away(played: Path) -> None:
    secrets = Secrets.of(played)
    for html in ([], ["--html"]):
        done = subprocess.run(
            [sys.executable, "-m", "tracker", "report", str(played), "--player", *html],
            capture_output=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr.decode()
        text = done.stdout.decode()
        assert "Sofia Ramos" in text
        assert secrets.found_in(text) == []


def test_the_served_player_page_gives_no_secret_away(played: Path, tmp_path: Path) -> None:
    """`tracker serve FILE --player`: what the page's websocket carries (the screen, as the browser draws it)
    holds the players' view only, however long it is watched; without the token nothing at all."""
    import aiohttp

    from tests.cli.test_serve_live import serve, shown, visible

    secrets = Secrets.of(played)

    async def watch(url: str, token: str) -> str:
        async with aiohttp.ClientSession() as http:
            async with http.get(url.split("?")[0], allow_redirects=False) as refused:
                assert refused.status == 403
            page = "ws" + url.split("?")[0].removeprefix("http").rstrip("/") + f"/ws?width=100&height=30&token={token}"
            tab = await http.ws_connect(page)
            drawn = await shown(tab, "Sofia Ramos")
            chunks: list[bytes] = []
            with contextlib.suppress(TimeoutError):
                while True:  # everything sent in the next two seconds too
                    message = await tab.receive(timeout=2.0)
                    if message.type != aiohttp.WSMsgType.BINARY:
                        break
                    chunks.append(message.data)
            await tab.close()
            return drawn + visible(chunks)

    with serve(played, "--player", config=tmp_path / "config") as server:
        text = asyncio.run(watch(server.page_url, server.token))
    assert "PLAYER VIEW" in text
    assert secrets.found_in(text) == []


def test_the_secret_the_draws_follow_stays_in_the_gms_file() -> None:
    """docs/guide/shared-box.md (the seed is a secret): a fight from a file with no seed draws from a 128-bit secret
    saved in the GM's file (0600) and nowhere else: not in any file alice can read, not on the table's socket,
    not in the players' report."""
    why = cannot_run_as(PLAYER)
    if why is not None:
        pytest.skip(why)
    for folder in shared_folder():
        path = folder / "duel.toml"
        files.write_text(path, (ROOT / "examples" / "duel.toml").read_text())
        done = subprocess.run(
            [sys.executable, "-m", "tracker", "exec", str(path), "--save"], input=b"start\nflip 3\n", timeout=120
        )
        assert done.returncode == 0
        secret = load_session(path).history.secret
        assert secret is not None and len(secret) == 32
        assert path.read_text().count(secret) == 2  # [state] and [history]
        assert path.stat().st_mode & 0o777 == 0o600
        spoken = [secret, str(int(secret, 16))]
        seen = _read_as(PLAYER, folder)
        assert seen[str(path)] is None
        assert not any(word in text for text in seen.values() if text for word in spoken)
        report = subprocess.run(
            [sys.executable, "-m", "tracker", "report", str(path), "--player"], capture_output=True, timeout=120
        )
        assert report.returncode == 0 and not any(word in report.stdout.decode() for word in spoken)
        asyncio.run(asyncio.wait_for(_socket_keeps(path, spoken), 90))


async def _socket_keeps(path: Path, spoken: list[str]) -> None:
    async with table(path, {PLAYER: ("Sofia Ramos",)}):
        for mode in ("view", "play"):
            client, got = await _connect_as(PLAYER, path, mode)
            try:
                assert got.get("decoded") is not None, got
                assert not any(word in line for line in got["raw"] for word in spoken)
            finally:
                await _leave(client)


def _read_as(account: str, folder: Path) -> dict[str, str | None]:
    done = subprocess.run(as_account(account, "-c", READ_ALL, str(folder)), cwd=ROOT, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    seen: dict[str, str | None] = json.loads(done.stdout)
    return seen


async def _connect_as(account: str, path: Path, mode: str) -> tuple[asyncio.subprocess.Process, dict[str, Any]]:
    """alice's client, connected: its process (still connected) and what it printed."""
    proc = await asyncio.create_subprocess_exec(
        *as_account(account, "-c", CLIENT, str(path), mode),
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 15)
    if not line:
        assert proc.stderr is not None
        raise AssertionError((await proc.stderr.read()).decode())
    got: dict[str, Any] = json.loads(line)
    assert "decoded" in got, got
    return proc, got


async def _leave(proc: asyncio.subprocess.Process) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    try:
        await asyncio.wait_for(proc.wait(), 5)
    except TimeoutError:
        proc.kill()
        await proc.wait()
