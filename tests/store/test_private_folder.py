"""A cache folder is used only when it and the folders above it are the user's alone (docs/guide/shared-box.md).

Another account that can write in a folder on the way to the cache can rename what is below and put its own
in its place. The walk (`tracker.store.private_folder`): the folder itself is the user's and no one else can
write it; each folder above is the user's or root's, not group- or world-writable (a sticky one, as /tmp, is
fine), up to the first the user owns and no one else can write; links are judged by where they lead. A
refused folder keeps no cache, and the process says so once, in one line.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.campaign import run_cli
from tracker.engine.records import record
from tracker.store import files, validated, writers
from tracker.store.owner import account_name
from tracker.store.private_folder import UnsafeFolder, private_folder

#: The group test itself, asked afresh (not its per-process memo), before `shared_groups` stands in for it.
_uncached_group_others = writers.group_others.__wrapped__


@pytest.fixture(autouse=True)
def shared_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every group here has another member (as a campaign's group would): a group-writable folder is another
    account's to write. The owner's private group is `test_a_folder_writable_only_by_its_owners_private_group…`."""
    monkeypatch.setattr(writers, "group_others", lambda gid, uid: "group table, with bob")


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """A folder of the user's that no one else can write: where each walk below stops at the latest."""
    folder = tmp_path / "home"
    folder.mkdir(mode=0o700)
    return folder


@pytest.fixture
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As at a process's start: nothing said yet, no memo installed."""
    monkeypatch.setattr(validated, "_said", False)
    monkeypatch.delenv("TRACKER_NO_CACHE", raising=False)
    try:
        yield
    finally:
        record.use_memo(None)


def refusal(folder: Path) -> str:
    with pytest.raises(UnsafeFolder) as info:
        private_folder(folder)
    return str(info.value)


def test_a_safe_folder_is_made_private_at_every_level(base: Path) -> None:
    """A user-private group's umask (002) must not leave the levels made group-writable, refused next time."""
    old = os.umask(0o002)
    try:
        assert private_folder(base / "a" / "b" / "cache") == (base / "a" / "b" / "cache").resolve()
    finally:
        os.umask(old)
    for level in (base / "a", base / "a" / "b", base / "a" / "b" / "cache"):
        assert level.stat().st_mode & 0o777 == 0o700, level


@pytest.mark.parametrize(
    ("bits", "said"),
    [(0o770, "group-writable (mode 0770) by group table, with bob"), (0o703, "world-writable (mode 0703)")],
)
def test_the_folder_itself_writable_by_others_is_refused(base: Path, bits: int, said: str) -> None:
    folder = base / "cache"
    folder.mkdir()
    folder.chmod(bits)
    assert refusal(folder) == f"it is {said}"


def test_a_group_writable_folder_above_is_refused(base: Path) -> None:
    above = base / "shared"
    above.mkdir()
    above.chmod(0o775)
    assert refusal(above / "cache") == f"{above} is group-writable (mode 0775) by group table, with bob"


def test_a_world_writable_folder_above_is_refused(base: Path) -> None:
    above = base / "open"
    above.mkdir()
    above.chmod(0o777)
    assert refusal(above / "cache") == f"{above} is world-writable (mode 0777)"


def test_a_sticky_world_writable_folder_above_is_fine(base: Path) -> None:
    """As /tmp: there only an entry's owner may rename or remove it."""
    above = base / "tmp"
    above.mkdir()
    above.chmod(0o1777)
    assert private_folder(above / "cache") == (above / "cache").resolve()


def test_the_walk_stops_at_the_first_folder_only_the_user_can_write(base: Path) -> None:
    """What is above that folder is the user's own business: a group-writable folder there is not looked at."""
    loose = base / "loose"
    loose.mkdir()
    loose.chmod(0o775)
    mine = loose / "mine"
    mine.mkdir(mode=0o700)
    assert private_folder(mine / "cache") == (mine / "cache").resolve()
    assert private_folder(mine / "a" / "cache") == (mine / "a" / "cache").resolve()


def test_a_folder_another_account_owns_is_refused(base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen from another account (the effective one, which owns what the process makes)."""
    folder = base / "cache"
    folder.mkdir(mode=0o700)
    owner = account_name(folder.stat().st_uid)
    monkeypatch.setattr(os, "geteuid", lambda: folder.stat().st_uid + 4242)
    assert refusal(folder) == f"it is owned by {owner}"


def test_a_folder_above_a_real_second_account_owns_is_refused(base: Path, second_account: str) -> None:
    theirs = base / "theirs"
    theirs.mkdir(mode=0o755)
    mine = theirs / "cache"
    mine.mkdir(mode=0o700)
    uid = pwd.getpwnam(second_account).pw_uid
    os.chown(theirs, uid, -1)
    assert refusal(mine) == f"{theirs} is owned by {second_account}"
    os.chown(mine, uid, -1)
    assert refusal(mine) == f"it is owned by {second_account}"


def test_a_link_is_judged_by_where_it_leads(base: Path) -> None:
    """``~/.cache`` linked to a larger disk is fine when the folder it leads to is the user's alone."""
    real = base / "disk" / "cache"
    real.mkdir(parents=True, mode=0o700)
    (base / "disk").chmod(0o700)
    link = base / "link"
    link.symlink_to(real)
    assert private_folder(link) == real.resolve()
    assert private_folder(link / "tracker") == (real / "tracker").resolve()
    (base / "disk").chmod(0o777)
    assert refusal(link) == f"{(base / 'disk').resolve()} is world-writable (mode 0777)"


def test_a_link_met_on_the_walk_is_refused_not_followed(base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A link swapped in after the path was resolved is seen as a link (`os.lstat`), never followed."""
    real = base / "real"
    real.mkdir(mode=0o700)
    link = base / "swapped"
    link.symlink_to(real)
    monkeypatch.setattr(os.path, "realpath", lambda p: os.path.abspath(p))
    assert refusal(link) == "it is a symbolic link"
    assert refusal(link / "cache") == f"{link} is a symbolic link"


def test_a_file_where_the_folder_goes_is_refused(base: Path) -> None:
    (base / "cache").write_text("", encoding="utf-8")
    with pytest.raises(OSError):
        private_folder(base / "cache" / "validated")
    assert refusal(base / "cache") == "it is not a folder"


# --- the memo and the one line -----------------------------------------------------------------------------


@pytest.mark.usefixtures("fresh_process")
def test_a_refused_cache_keeps_no_memo_and_says_so_once(
    base: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    above = base / "shared"
    above.mkdir()
    above.chmod(0o775)
    monkeypatch.setenv("TRACKER_CACHE_DIR", str(above / "cache"))
    validated.remember_validations()
    validated.remember_validations(write=False)  # a viewer asks again: nothing more is said
    assert record._memo is None
    assert capsys.readouterr().err.splitlines() == [
        f"tracker: not keeping a cache in {above / 'cache'}: {above} is group-writable (mode 0775) by group table, "
        "with bob; "
        "set TRACKER_CACHE_DIR to a folder only you can write"
    ]


@pytest.mark.usefixtures("fresh_process")
def test_a_safe_cache_is_used_by_its_real_path_silently(
    base: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = base / "real"
    real.mkdir(mode=0o700)
    (base / "link").symlink_to(real)
    monkeypatch.setenv("TRACKER_CACHE_DIR", str(base / "link" / "validated"))
    validated.remember_validations()
    assert isinstance(record._memo, validated.FolderMemo)
    assert record._memo.folder == (real / "validated").resolve()
    assert capsys.readouterr().err == ""


@pytest.mark.usefixtures("fresh_process")
def test_a_cache_that_cannot_be_made_is_passed_over_silently(
    base: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A read-only home is no one's fault: the cache is only a cache."""
    (base / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("TRACKER_CACHE_DIR", str(base / "file" / "cache"))
    validated.remember_validations()
    assert record._memo is None
    assert capsys.readouterr().err == ""


@pytest.mark.usefixtures("fresh_process")
def test_a_command_says_it_in_one_line_before_its_own_output(
    base: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    above = base / "open"
    above.mkdir()
    above.chmod(0o777)
    monkeypatch.setenv("TRACKER_CACHE_DIR", str(above / "cache"))
    path = base / "duel.toml"
    path.write_bytes((Path(__file__).resolve().parents[2] / "examples" / "duel.toml").read_bytes())
    result = run_cli(monkeypatch, capsys, "check", path)
    assert result.code == 0
    (line,) = result.err.splitlines()
    assert line.startswith(f"tracker: not keeping a cache in {above / 'cache'}: {above} is world-writable")


@pytest.mark.usefixtures("fresh_process")
def test_the_cache_and_its_entries_are_the_users_alone(
    base: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An entry holds a validated encounter, secrets and all: 0600 in a 0700 folder, whatever the umask."""
    monkeypatch.setenv("TRACKER_CACHE_DIR", str(base / "cache" / "validated"))
    old = os.umask(0o002)
    try:
        validated.remember_validations()
        path = base / "duel.toml"
        path.write_bytes((Path(__file__).resolve().parents[2] / "examples" / "duel.toml").read_bytes())
        files.load(path)
    finally:
        os.umask(old)
    entries = list((base / "cache" / "validated").glob("*.json"))
    assert entries
    assert {e.stat().st_mode & 0o777 for e in entries} == {0o600}
    assert (base / "cache").stat().st_mode & 0o777 == 0o700
    assert capsys.readouterr().err == ""


# --- user private groups (Debian, Ubuntu: umask 002) --------------------------------------------------------


class _Group:
    def __init__(self, name: str, members: list[str]) -> None:
        self.gr_name, self.gr_mem = name, members


class _Account:
    def __init__(self, name: str, uid: int, gid: int) -> None:
        self.pw_name, self.pw_uid, self.pw_gid = name, uid, gid


@pytest.mark.parametrize(
    ("members", "primary_of", "said"),
    [
        ([], [], None),
        (["gm"], [], None),
        (["gm", "bob"], [], "group gm, with bob"),
        ([], ["alice"], "group gm, with alice"),
    ],
)
def test_a_group_is_the_owners_own_only_with_no_other_member_and_no_other_primary(
    monkeypatch: pytest.MonkeyPatch, members: list[str], primary_of: list[str], said: str | None
) -> None:
    """As OpenSSH's StrictModes: a group write bit is the owner's when the group is the owner's private group,
    no member but the owner (``gr_mem``) and no other account's primary group (``pw_gid``)."""
    import grp

    accounts = [_Account("gm", 1000, 1000)] + [_Account(n, 1001 + k, 1000) for k, n in enumerate(primary_of)]
    monkeypatch.setattr(grp, "getgrgid", lambda gid: _Group("gm", members))
    monkeypatch.setattr(pwd, "getpwall", lambda: accounts)
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: next(a for a in accounts if a.pw_uid == uid))
    assert _uncached_group_others(1000, 1000) == said


def test_a_folder_writable_only_by_its_owners_private_group_is_the_owners(
    base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A GM's folder made under umask 002 (mode 0775) with the GM's own private group is the GM's alone."""
    monkeypatch.setattr(writers, "group_others", lambda gid, uid: None)
    folder = base / "fights"
    folder.mkdir()
    folder.chmod(0o775)
    assert private_folder(folder) == folder.resolve()
    folder.chmod(0o777)
    assert refusal(folder) == "it is world-writable (mode 0777)"


def test_this_boxs_own_private_group_is_trusted_and_a_shared_one_is_not(base: Path) -> None:
    """The real group database: the process's own group counts when nobody else is in it; a group another
    account has as its primary group (daemon's, say) never does."""
    import grp

    own = os.getegid()
    me = account_name(os.geteuid())
    alone = not [m for m in grp.getgrgid(own).gr_mem if m != me] and not [
        p for p in pwd.getpwall() if p.pw_gid == own and p.pw_uid != os.geteuid()
    ]
    assert (_uncached_group_others(own, os.geteuid()) is None) == alone
    other = next((p for p in pwd.getpwall() if p.pw_uid != os.geteuid() and p.pw_gid != own), None)
    if other is None:
        pytest.skip("no other account with a group of its own on this machine")
    said = _uncached_group_others(other.pw_gid, os.geteuid())
    assert said is not None and other.pw_name in said
