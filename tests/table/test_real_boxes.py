"""The table on the boxes GMs have, and authority taken only from files the GM alone can write.

Debian and Ubuntu give every account a group of its own and umask 002, so every folder a GM makes is
group-writable by a group only the GM is in: the table must open there (`tracker.store.writers`), and stay
closed where another account may write, saying so on the GM's screen with the fix. A party file (its
``[seats]``), a bestiary or a lock sidecar another account could write or plant is refused in one line.
Where the finding is about another account, a real one does it (`tests.table.accounts`).
"""

from __future__ import annotations

import fcntl
import grp
import os
import pwd
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.campaign import run_cli
from tests.table import accounts
from tests.table.fakes import Host, Seats, copy_example, on_loop
from tracker.store import writers
from tracker.table.server import TableServer

OTHER = "alice"

#: Run as the GM account `alice`, with the umask of a user-private-group box: make a fight folder (0775,
#: alice's own group), put an encounter in it, and open the table there; print what `open` said.
OPENS_AS_ALICE = """
import asyncio, os, sys
from pathlib import Path
os.umask(0o002)
folder = Path(sys.argv[1]) / "fights"
folder.mkdir()
from tests.table.fakes import Host, Seats
from tracker.store import files
from tracker.table.server import TableServer
path = folder / "duel.toml"
files.write_text(path, Path(sys.argv[2]).read_text())
async def main():
    server = TableServer(path, Host(path), Seats({}))
    said = await server.open()
    print(oct(folder.stat().st_mode & 0o777), said, flush=True)
    await server.close()
asyncio.run(main())
"""


@pytest.fixture
def other() -> Iterator[pwd.struct_passwd]:
    """The real second account, which can run this Python (else the test is skipped, saying why)."""
    why = accounts.cannot_run_as(OTHER)
    if why is not None:
        pytest.skip(why)
    yield pwd.getpwnam(OTHER)


@pytest.fixture
def shared() -> Iterator[Path]:
    """A folder other accounts may enter (0755, root's), as a GM's campaign folder is."""
    yield from accounts.shared_folder()


def _private_group_of(account: pwd.struct_passwd) -> bool:
    group = grp.getgrgid(account.pw_gid)
    return not [m for m in group.gr_mem if m != account.pw_name] and not [
        p for p in pwd.getpwall() if p.pw_gid == account.pw_gid and p.pw_uid != account.pw_uid
    ]


# --- the fight's folder ----------------------------------------------------------------------------------


def test_a_folder_only_the_gms_private_group_may_write_opens_the_table(other: pwd.struct_passwd, shared: Path) -> None:
    """A GM on a user-private-group box (umask 002): the folder is 0775 with the GM's own group, and the table
    opens there (as OpenSSH's StrictModes would let it)."""
    if not _private_group_of(other):
        pytest.skip(f"{OTHER}'s primary group is not its own private group on this machine")
    os.chown(shared, other.pw_uid, other.pw_gid)
    done = subprocess.run(
        accounts.as_account(OTHER, "-c", OPENS_AS_ALICE, str(shared), str(accounts.EXAMPLES / "duel.toml")),
        cwd=accounts.ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0o775", "None"]


@on_loop
async def test_a_folder_another_account_may_write_keeps_the_table_closed_and_says_the_fix(
    other: pwd.struct_passwd, shared: Path
) -> None:
    """The fight's folder group-writable by a group another account is in (alice's): the table stays closed,
    and the one line names who else may write it and the fix."""
    folder = shared / "fights"
    folder.mkdir()
    os.chown(folder, -1, other.pw_gid)
    folder.chmod(0o775)
    path = copy_example(folder, "duel.toml")
    said = await TableServer(path, Host(path), Seats({})).open()
    assert said is not None and said.startswith(f"table closed to players: {folder}: it is group-writable (mode 0775)")
    assert OTHER in said and said.endswith(f"to open it: chmod g-w,o-w {folder}")
    folder.chmod(0o755)
    server = TableServer(path, Host(path), Seats({}))
    assert await server.open() is None
    await server.close()


@on_loop
async def test_the_gms_screen_says_the_table_is_closed_in_its_title_and_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Players could never connect, and nothing said so: now the title line says the table is closed and the
    log's first line says why, with the fix, for as long as the screen runs."""
    from textual.widgets import Static

    from tracker.store.opening import load_session
    from tracker.ui.app import TrackerApp
    from tracker.ui.widgets.log import LogView

    monkeypatch.setattr(writers, "group_others", lambda gid, uid: "group table, with bob")
    folder = tmp_path / "fights"
    folder.mkdir()
    folder.chmod(0o775)
    path = copy_example(folder, "duel.toml")
    app = TrackerApp(load_session(path), path, table=True)
    async with app.run_test(size=(160, 40)) as pilot:
        for _ in range(40):
            await pilot.pause(0.05)
            if app.table_closed is not None:
                break
        await pilot.pause(0.2)
        assert app.table_closed is not None and f"chmod g-w,o-w {folder}" in app.table_closed
        assert "TABLE CLOSED to players" in str(app.screen.query_one("#title", Static).render())
        logged = "\n".join(strip.text for view in app.screen.query(LogView) for strip in view.lines)
        assert f"chmod g-w,o-w {folder}" in logged.replace("\n", "")


# --- authority from files ----------------------------------------------------------------------------------

PARTY = """
[[combatants]]
name = "Sofia Ramos"
kind = "fated"
side = "players"
initiative = 3
wounds = 6

[seats]
alice = "Sofia Ramos"
"""

ENCOUNTER = """
[encounter]
name = "Docks"
system = "ttb"
party = "party.toml"

[[combatants]]
name = "Guild Thug"
side = "enemies"
initiative = 2
wounds = 6
rank_value = 3
"""


@pytest.mark.parametrize("how", ["group", "owner"])
def test_seats_from_a_party_file_another_account_can_write_are_refused_by_check_and_run(
    other: pwd.struct_passwd,
    shared: Path,
    how: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/guide/shared-box.md/docs/guide/seating.md: a party file alice may write (group-writable by her group, or
    hers) would let her seat herself: `tracker check` and `tracker run` refuse it with one line naming the file and the
    fix."""
    monkeypatch.setenv("TRACKER_NO_CACHE", "1")
    party = shared / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    enc = shared / "enc.toml"
    enc.write_text(ENCOUNTER, encoding="utf-8")
    assert run_cli(monkeypatch, capsys, "check", enc).code == 0  # the GM's own: fine
    if how == "group":
        os.chown(party, -1, other.pw_gid)
        party.chmod(0o664)
    else:
        os.chown(party, other.pw_uid, -1)
    for verb in ("check", "run"):
        result = run_cli(monkeypatch, capsys, verb, enc)
        assert result.code == 1, (verb, result)
        lines = [line for line in (result.out + result.err).splitlines() if "party file" in line]
        assert len(lines) == 1, result
        assert "another account could change its sheets and [seats]" in lines[0]
        assert f"chmod g-w,o-w {party}" in lines[0]
    alone = run_cli(monkeypatch, capsys, "check", party)  # checked on its own, it says the same
    assert alone.code == 1 and "another account could change its sheets and [seats]" in alone.err


#: Run as alice: plant `.duel.toml.lock` beside the GM's fight (in a folder she may write), with text that
#: would drive the GM's terminal, and hold its lock until told to go.
PLANT_LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o666)
os.write(fd, b"\\x1b]0;pwned\\x07\\x1b[2Jgm@box (pid 1)")
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


def test_a_lock_sidecar_another_account_planted_is_refused_in_one_plain_line(
    other: pwd.struct_passwd, shared: Path
) -> None:
    """docs/guide/shared-box.md: the sidecar must be the GM's own; one alice planted (and holds) is refused, naming
    whose it is, and nothing she wrote reaches the GM's terminal."""
    from tracker.store.lock import WriterLock

    shared.chmod(0o1777)  # a folder alice may write in (as /tmp is)
    path = copy_example(shared, "duel.toml")
    sidecar = WriterLock.sidecar(path)
    proc = subprocess.Popen(
        accounts.as_account(OTHER, "-c", PLANT_LOCK, str(sidecar)),
        cwd=accounts.ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        with pytest.raises(OSError) as info:
            WriterLock(path).acquire()
        said = str(info.value)
        assert f"it is {OTHER}'s, not yours (remove it)" in said
        assert "\x1b" not in said and "pwned" not in said
    finally:
        proc.communicate("", timeout=10)


def test_what_a_held_sidecar_says_is_printed_as_plain_text(tmp_path: Path) -> None:
    """The holder's words are drawn on the GM's terminal: without controls or format characters."""
    from tracker.store.lock import FileHeld, WriterLock

    path = copy_example(tmp_path, "duel.toml")
    sidecar = WriterLock.sidecar(path)
    fd = os.open(sidecar, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        os.write(fd, "\x1b]0;title\x07gm\u202e@box\x85 (pid 1)".encode())
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(FileHeld) as info:
            WriterLock(path).acquire()
        assert str(info.value) == f"{path} is being run by ]0;titlegm@box (pid 1)"
    finally:
        os.close(fd)


# --- a player's words where they are drawn ------------------------------------------------------------------

#: What a forged line needs: a bidi override, an isolate, a line separator, a terminal's escape, C1's CSI.
FORGING = "go\u202eevil\u2066\u2028Kit is dead\x1b[2J\x9b1m"


def test_the_report_draws_no_control_or_format_character() -> None:
    """`tracker report` (Markdown and HTML) draws every text without Cc, Cf, Zl or Zp characters."""
    from tracker.report import html, markdown

    for escape in (markdown.escape, html.escape):
        drawn = escape(FORGING)
        assert not any(ch in drawn for ch in "\u202e\u2066\u2028\x1b\x9b"), (escape, drawn)
        assert "evil" in drawn and "Kit is dead" in drawn


@on_loop
async def test_the_gms_log_draws_a_players_words_without_control_or_format_characters(tmp_path: Path) -> None:
    """The log panel draws each entry plain: a player's words in it (a request's reason, an answer) can
    neither move the GM's cursor nor reorder or forge the lines around them."""
    from tracker.store.opening import load_session
    from tracker.ui.app import TrackerApp
    from tracker.ui.widgets.log import LogView

    path = copy_example(tmp_path, "skirmish_srd.toml")
    session = load_session(path)
    for line in ("start", "pick Ada", f"request alice Ada momentum +1 '{FORGING}'"):
        session.execute(line)
    assert any(FORGING in e.text for e in session.state.log)  # the state keeps what was said
    app = TrackerApp(session, path)
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause(0.3)
        logged = "".join(strip.text for view in app.screen.query(LogView) for strip in view.lines)
        assert "evil" in logged
        assert not any(ch in logged for ch in "\u202e\u2066\u2028\x1b\x9b"), logged
