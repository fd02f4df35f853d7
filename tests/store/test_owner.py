"""Only an encounter's owner runs it, saves it or sees all of it (docs/guide/shared-box.md, `tracker.store.owner`).

Another account (a player, a second GM) is refused `tracker run`, `tracker exec --save`, `tracker carry` and
`tracker view` without ``--player`` in one line that says whose file it is, with exit 1 and before any screen
starts; `tracker view --player` and a file that does not exist yet (the view waits for it) are left alone.
In-process, another account is this one with a different effective uid; as root, a real second account runs
the commands too.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.cli.campaign import Result, ttb_campaign
from tests.conftest import Tracker
from tests.store.conftest import as_account
from tracker.store.owner import account_name, owned_by_other

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fight(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    path.write_bytes((ROOT / "examples" / "duel.toml").read_bytes())
    path.chmod(0o600)
    return path


@pytest.fixture
def screens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The screens started (none really is): what a refusal must come before."""
    from tracker.ui.app import TrackerApp

    started: list[str] = []
    monkeypatch.setattr(TrackerApp, "run", lambda self, *a, **k: started.append(type(self).__name__))
    return started


@pytest.fixture
def someone_else(monkeypatch: pytest.MonkeyPatch, fight: Path) -> str:
    """This process seen as another account; the owner's name as the refusals say it."""
    owner = account_name(fight.stat().st_uid)
    monkeypatch.setattr(os, "geteuid", lambda: fight.stat().st_uid + 4242)
    monkeypatch.setenv("TRACKER_NO_CACHE", "1")  # that account's cache is not the point here
    return owner


def one_line(result: Result) -> str:
    assert result.code == 1, (result.out, result.err)
    assert "Traceback" not in result.err
    (line,) = result.err.splitlines()
    return line


def test_owned_by_other_names_the_owner_of_another_accounts_file(fight: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert owned_by_other(fight) is None
    assert owned_by_other(fight.parent / "missing.toml") is None
    link = fight.parent / "link.toml"
    link.symlink_to(fight)
    monkeypatch.setattr(os, "geteuid", lambda: fight.stat().st_uid + 4242)
    assert owned_by_other(fight) == account_name(fight.stat().st_uid)
    assert owned_by_other(link) == account_name(fight.stat().st_uid)  # the file a save would replace


def test_an_account_without_a_name_is_named_by_its_number() -> None:
    unknown = 2**31 - 7
    assert account_name(unknown) == str(unknown)


def test_view_without_player_is_refused_naming_player(
    tracker: Tracker, fight: Path, someone_else: str, screens: list[str]
) -> None:
    line = one_line(tracker("view", fight))
    assert line == (
        f"tracker: {fight} is {someone_else}'s: only its owner sees all of it; "
        f"another account follows it as the players see it: tracker view {fight} --player"
    )
    assert screens == []


def test_view_with_player_and_a_file_not_there_yet_are_not_refused(
    tracker: Tracker, fight: Path, someone_else: str, screens: list[str]
) -> None:
    assert tracker("view", fight, "--player").code == 0
    assert tracker("view", fight.parent / "later.toml").code == 0  # waits for the file, as before
    assert len(screens) == 2


def test_run_is_refused_saying_whose_file_it_is(
    tracker: Tracker, fight: Path, someone_else: str, screens: list[str]
) -> None:
    line = one_line(tracker("run", fight))
    assert line == (
        f"tracker: {fight} is {someone_else}'s: only its owner runs it; "
        f"to follow it as the players see it: tracker view {fight} --player"
    )
    assert screens == []
    assert not (fight.parent / f".{fight.name}.lock").exists()


def test_exec_save_is_refused_and_the_file_is_left_as_it_was(tracker: Tracker, fight: Path, someone_else: str) -> None:
    before = fight.read_bytes()
    line = one_line(tracker("exec", fight, "--save", stdin="start\n"))
    assert line == f"tracker: not saved: {fight} is {someone_else}'s: only its owner saves it"
    assert fight.read_bytes() == before
    assert tracker("exec", fight, stdin="start\n").code == 0  # reading it is the kernel's business, not refused


def test_carry_into_another_accounts_party_file_is_refused(
    tracker: Tracker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    enc = ttb_campaign(tmp_path)
    opening = "initiative sofia 13\ninitiative ash 12\nstart\nanswer 'Guild Thug 1'\nanswer 'Guild Thug 2'\n"
    assert tracker("exec", enc, "--save", stdin=opening + "damage sofia 4\n").code == 0
    party = tmp_path / "party.toml"
    before = party.read_bytes()
    owner = account_name(party.stat().st_uid)
    monkeypatch.setattr(os, "geteuid", lambda: party.stat().st_uid + 4242)
    monkeypatch.setenv("TRACKER_NO_CACHE", "1")
    line = one_line(tracker("carry", enc))
    assert line == f"tracker: not carried: {party} is {owner}'s: only its owner writes it"
    assert party.read_bytes() == before


# --- a real second account ----------------------------------------------------------------------------


def _as_other(account: str, folder: Path, *args: str | Path) -> tuple[int, list[str]]:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(folder), "TRACKER_NO_CACHE": "1", "LANG": "C.UTF-8"}
    done = as_account(account, sys.executable, "-m", "tracker", *args, env=env)
    unreachable = "Permission denied" in done.stderr and "tracker:" not in done.stderr
    if "No module named tracker" in done.stderr or unreachable:
        pytest.skip(f"{account} cannot run this checkout's tracker: {done.stderr.strip()[-200:]}")
    assert "Traceback" not in done.stderr
    return done.returncode, done.stderr.splitlines()


def test_a_real_second_account_is_refused_in_one_line(second_account: str, reachable_folder: Path) -> None:
    path = reachable_folder / "duel.toml"
    path.write_bytes((ROOT / "examples" / "duel.toml").read_bytes())
    path.chmod(0o600)
    me = account_name(os.geteuid())
    assert _as_other(second_account, reachable_folder, "view", path) == (
        1,
        [
            f"tracker: {path} is {me}'s: only its owner sees all of it; "
            f"another account follows it as the players see it: tracker view {path} --player"
        ],
    )
    code, lines = _as_other(second_account, reachable_folder, "run", path)
    assert (code, len(lines)) == (1, 1) and lines[0].startswith(f"tracker: {path} is {me}'s: only its owner runs it")
    code, lines = _as_other(second_account, reachable_folder, "exec", path, "--save")
    assert (code, lines) == (1, [f"tracker: not saved: {path} is {me}'s: only its owner saves it"])
    code, lines = _as_other(second_account, reachable_folder, "exec", path)
    assert (code, lines) == (1, [f"{path}:1:1: cannot read: it is {me}'s, readable by its owner only"])
    assert sorted(p.name for p in reachable_folder.iterdir()) == ["duel.toml"]  # no lock, no temporary
