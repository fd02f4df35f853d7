"""Every file the tracker writes that holds a secret is its owner's only (mode 0600; docs/guide/shared-box.md).

Players log in to the machine the GM plays on, so an encounter saved group- or world-readable would show
them the Control Hands, the Fate Deck's order and the ``gm_only`` combatants. These tests check the mode
after each kind of write (a save of `tracker exec --save`, the GM screen's save, `tracker new`,
`tracker carry`, `tracker report -o`) and of the temporary file before its rename; that a file others could
read is tightened at its first save and that `tracker check` and `tracker run` say so in one line; that a
link planted where the temporary goes, or at the name a file is published under, is not followed; that a
folder where the mode cannot be set refuses the save in one line, nothing written. As root, a real second
account tries to read what each kind of write left, a killed writer's temporary file included.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.campaign import Result, run_cli, ttb_campaign
from tests.conftest import Tracker
from tests.store.conftest import as_account, unreadable_by
from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text

ENCOUNTER = """\
[encounter]
name = "Modes"
system = "ttb"
seed = 5

[[combatants]]
name = "Sofia"
kind = "fated"
initiative = 3
wounds = 8

[[combatants]]
name = "Thug"
rank_value = 5
initiative = 2
wounds = 6
gm_only = true
"""


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The usual umask of a login shell (022), under which a plain write would be world-readable."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Tracker:
    def run(*args: str | Path, stdin: str = "") -> Result:
        return run_cli(monkeypatch, capsys, *args, stdin=stdin)

    return run


def encounter(folder: Path, file_mode: int = 0o644) -> Path:
    path = folder / "fight.toml"
    path.write_text(ENCOUNTER, encoding="utf-8")
    os.chmod(path, file_mode)
    return path


# --- every kind of write ---------------------------------------------------------------------------


@pytest.mark.usefixtures("open_umask")
def test_exec_save_tightens_a_world_readable_encounter(cli: Tracker, tmp_path: Path) -> None:
    path = encounter(tmp_path, 0o644)
    result = cli("exec", path, "--save", stdin="start\n")
    assert result.code == 0, result.err
    assert mode(path) == 0o600
    assert "[state]" in path.read_text(encoding="utf-8")
    assert leftovers(tmp_path) == []


@pytest.mark.usefixtures("open_umask")
def test_every_save_stays_0600(cli: Tracker, tmp_path: Path) -> None:
    path = encounter(tmp_path, 0o600)
    for line in ("start", "next", "next"):
        assert cli("exec", path, "--save", stdin=line + "\n").code == 0
        assert mode(path) == 0o600


def test_the_temporary_is_0600_before_its_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Even a umask that would leave it world-writable: the temporary is created private, not narrowed later."""
    path = encounter(tmp_path, 0o666)
    seen: list[tuple[str, int]] = []
    real_replace = os.replace

    def spy(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        seen.append((Path(src).name, mode(Path(src))))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    old = os.umask(0)
    try:
        files.write_text(path, encounter_text(Session(files.load(path))))
    finally:
        os.umask(old)
    # The save's temporary, and any other file renamed into place meanwhile (the validation memo's entries).
    assert [name for name, _ in seen if name.startswith(".fight.toml.") and name.endswith(".tmp")]
    assert {temp_mode for _, temp_mode in seen} == {0o600}
    assert mode(path) == 0o600


def test_the_temporary_gets_the_owners_bits_back_from_a_strict_umask(tmp_path: Path) -> None:
    """A umask that takes the owner's write bit must not leave a file the GM cannot save again."""
    path = encounter(tmp_path, 0o600)
    old = os.umask(0o277)
    try:
        files.write_text(path, ENCOUNTER)
    finally:
        os.umask(old)
    assert mode(path) == 0o600


@pytest.mark.usefixtures("open_umask")
def test_tracker_new_writes_0600(cli: Tracker, tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    result = cli("new", path, "--system", "ttb")
    assert result.code == 0, result.err
    assert mode(path) == 0o600
    assert leftovers(tmp_path) == []


@pytest.mark.usefixtures("open_umask")
def test_tracker_new_of_a_campaign_writes_0600(cli: Tracker, tmp_path: Path) -> None:
    ttb_campaign(tmp_path)
    path = tmp_path / "next.toml"
    result = cli(
        "new",
        path,
        "--system",
        "ttb",
        "--party",
        tmp_path / "party.toml",
        "--bestiary",
        tmp_path / "bestiary/guild.toml",
    )
    assert result.code == 0, result.err
    assert mode(path) == 0o600


@pytest.mark.usefixtures("open_umask")
def test_tracker_carry_writes_the_party_file_0600(cli: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path)
    party = tmp_path / "party.toml"
    os.chmod(party, 0o644)
    opening = "initiative sofia 13\ninitiative ash 12\nstart\nanswer 'Guild Thug 1'\nanswer 'Guild Thug 2'\n"
    assert cli("exec", enc, "--save", stdin=opening + "damage sofia 4\n").code == 0
    assert mode(enc) == 0o600
    result = cli("carry", enc)
    assert result.code == 0, result.err
    assert "wrote" in result.out
    assert mode(party) == 0o600
    assert leftovers(tmp_path) == []


@pytest.mark.anyio
@pytest.mark.usefixtures("open_umask")
async def test_the_gm_screens_save_is_0600(tmp_path: Path) -> None:
    from tracker.ui.app import TrackerApp

    path = encounter(tmp_path, 0o644)
    app = TrackerApp(Session(files.load(path)), path)

    async with app.run_test(size=(100, 30)):
        assert app.submit("start") is None

    assert mode(path) == 0o600
    assert "[state]" in path.read_text(encoding="utf-8")


# --- saying so ----------------------------------------------------------------------------------------


def test_check_says_in_one_line_that_others_can_read_the_encounter(cli: Tracker, tmp_path: Path) -> None:
    path = encounter(tmp_path, 0o644)
    result = cli("check", path)
    assert result.code == 0
    assert result.err.splitlines() == [f"{path}: readable by other accounts (mode 0644): the next save makes it 0600"]
    assert mode(path) == 0o644  # check only reads


def test_check_is_silent_on_a_private_encounter(cli: Tracker, tmp_path: Path) -> None:
    path = encounter(tmp_path, 0o600)
    result = cli("check", path)
    assert (result.code, result.err) == (0, "")


def test_run_says_so_before_its_screen_starts_and_the_first_save_tightens(
    cli: Tracker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tracker.ui.app import TrackerApp

    path = encounter(tmp_path, 0o640)
    monkeypatch.setattr(TrackerApp, "run", lambda self, *a, **k: None)
    result = cli("run", path)
    assert result.code == 0, result.err
    assert result.err.splitlines() == [
        f"tracker: {path}: readable by other accounts (mode 0640): the next save makes it 0600"
    ]
    assert cli("exec", path, "--save", stdin="start\n").code == 0
    assert mode(path) == 0o600
    assert cli("run", path).err == ""


# --- links and refusals -------------------------------------------------------------------------------


def test_a_link_planted_where_the_temporary_goes_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = encounter(tmp_path, 0o600)
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched", encoding="utf-8")
    os.chmod(victim, 0o644)
    planted = tmp_path / ".fight.toml.planted.tmp"
    planted.symlink_to(victim)
    tags = iter(["planted", "fresh"])
    monkeypatch.setattr(files, "_temp_tag", lambda: next(tags))
    files.write_text(path, encounter_text(Session(files.load(path))))
    assert victim.read_text(encoding="utf-8") == "untouched"
    assert mode(victim) == 0o644
    assert planted.is_symlink()
    assert mode(path) == 0o600
    assert "[encounter]" in path.read_text(encoding="utf-8")


def test_a_dangling_link_planted_where_the_temporary_goes_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = encounter(tmp_path, 0o600)
    elsewhere = tmp_path / "elsewhere.toml"
    planted = tmp_path / ".fight.toml.planted.tmp"
    planted.symlink_to(elsewhere)
    monkeypatch.setattr(files, "_temp_tag", lambda: "planted")
    with pytest.raises(OSError, match="no free name"):
        files.write_text(path, ENCOUNTER + "\n# changed\n")
    assert not elsewhere.exists()
    assert path.read_text(encoding="utf-8") == ENCOUNTER


@pytest.mark.usefixtures("open_umask")
def test_a_link_planted_at_a_report_name_is_replaced_not_followed(cli: Tracker, tmp_path: Path) -> None:
    """``-o story.md`` where someone left ``story.md`` pointing at a file of the GM's: the link is replaced."""
    path = encounter(tmp_path, 0o600)
    assert cli("exec", path, "--save", stdin="start\n").code == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched", encoding="utf-8")
    os.chmod(victim, 0o644)
    out = tmp_path / "story.md"
    out.symlink_to(victim)
    assert cli("report", path, "-o", out).code == 0
    assert victim.read_text(encoding="utf-8") == "untouched"
    assert not out.is_symlink() and mode(out) == 0o600


@pytest.mark.usefixtures("open_umask")
def test_a_dangling_link_at_a_new_encounters_name_creates_nothing_where_it_points(cli: Tracker, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.toml"
    path = tmp_path / "new.toml"
    path.symlink_to(elsewhere)
    assert cli("new", path, "--system", "ttb").code == 0
    assert not elsewhere.exists()
    assert not path.is_symlink() and mode(path) == 0o600


def test_chmod_failing_refuses_the_save_in_one_line(
    cli: Tracker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = encounter(tmp_path, 0o644)

    def refuse(fd: int, file_mode: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchmod", refuse)
    result = cli("exec", path, "--save", stdin="start\n")
    assert result.code == 1
    assert "Traceback" not in result.err
    (line,) = result.err.strip().splitlines()
    assert line == (
        f"tracker: not saved: cannot make a file in {tmp_path.resolve()} readable by its owner only: "
        "Operation not permitted"
    )
    assert path.read_text(encoding="utf-8") == ENCOUNTER
    assert mode(path) == 0o644
    assert leftovers(tmp_path) == []


def test_a_file_system_that_ignores_modes_refuses_the_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mount that accepts chmod but keeps every file 0644 (some network and FAT mounts): no save there."""
    path = encounter(tmp_path, 0o600)
    monkeypatch.setattr(os, "fchmod", lambda fd, file_mode: os.chmod(fd, 0o644))
    with pytest.raises(OSError, match="readable by its owner only: the folder keeps it at mode 0644"):
        files.write_text(path, ENCOUNTER + "\n# changed\n")
    assert path.read_text(encoding="utf-8") == ENCOUNTER
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes in any folder")
def test_a_folder_the_gm_cannot_write_in_refuses_the_save_in_one_line(cli: Tracker, tmp_path: Path) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir()
    path = encounter(folder, 0o644)
    os.chmod(folder, 0o555)
    try:
        result = cli("exec", path, "--save", stdin="start\n")
    finally:
        os.chmod(folder, 0o755)
    assert result.code == 1
    (line,) = result.err.strip().splitlines()
    assert line.startswith(f"tracker: not saved: cannot write in {folder.resolve()}: ")
    assert path.read_text(encoding="utf-8") == ENCOUNTER


# --- a real second account ----------------------------------------------------------------------------


def test_another_account_cannot_read_a_saved_encounter(
    second_account: str, cli: Tracker, reachable_folder: Path
) -> None:
    path = encounter(reachable_folder, 0o644)
    seen = as_account(second_account, "cat", path)
    assert seen.returncode == 0, seen.stderr  # before the save: readable, as the notice says
    assert cli("exec", path, "--save", stdin="start\n").code == 0
    assert mode(path) == 0o600
    unreadable_by(second_account, path)


@pytest.mark.usefixtures("open_umask")
def test_another_account_cannot_read_a_new_encounter(second_account: str, cli: Tracker, reachable_folder: Path) -> None:
    path = reachable_folder / "new.toml"
    assert cli("new", path, "--system", "2d20").code == 0
    assert mode(path) == 0o600
    unreadable_by(second_account, path)


@pytest.mark.usefixtures("open_umask")
def test_another_account_cannot_read_the_party_file_carry_wrote(
    second_account: str, cli: Tracker, reachable_folder: Path
) -> None:
    """The party file holds the Control Hands a fight carries into the next one."""
    enc = ttb_campaign(reachable_folder)
    party = reachable_folder / "party.toml"
    os.chmod(party, 0o644)
    opening = "initiative sofia 13\ninitiative ash 12\nstart\nanswer 'Guild Thug 1'\nanswer 'Guild Thug 2'\n"
    assert cli("exec", enc, "--save", stdin=opening + "damage sofia 4\n").code == 0
    assert as_account(second_account, "cat", party).returncode == 0  # readable before the carry
    result = cli("carry", enc)
    assert result.code == 0, result.err
    assert mode(party) == 0o600
    unreadable_by(second_account, party)
    unreadable_by(second_account, enc)


@pytest.mark.usefixtures("open_umask")
def test_another_account_cannot_read_a_report_file(second_account: str, cli: Tracker, reachable_folder: Path) -> None:
    path = encounter(reachable_folder, 0o600)
    assert cli("exec", path, "--save", stdin="start\nnext\n").code == 0
    out = reachable_folder / "story.html"
    assert cli("report", path, "--html", "-o", out).code == 0
    assert mode(out) == 0o600
    unreadable_by(second_account, out)


#: A writer killed between writing its temporary file and renaming it over the encounter.
KILLED_WRITER = """\
import os, signal, sys
from pathlib import Path
from tracker.store import files

fd, tmp = files.private_temporary(Path(sys.argv[1]).parent, Path(sys.argv[1]).name)
os.write(fd, Path(sys.argv[1]).read_bytes() + b"# the Control Hands, half written")
os.fsync(fd)
print(tmp, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.usefixtures("open_umask")
def test_a_temporary_a_killed_writer_left_is_private_and_the_next_writer_removes_it(
    second_account: str, cli: Tracker, reachable_folder: Path
) -> None:
    path = encounter(reachable_folder, 0o600)
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(path)], capture_output=True, text=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    left = Path(killed.stdout.strip())
    assert left.parent == reachable_folder.resolve() and left.name.startswith(".fight.toml.")
    assert mode(left) == 0o600
    unreadable_by(second_account, left)
    assert cli("exec", path, "--save", stdin="start\n").code == 0  # the next writer takes the lock
    assert leftovers(reachable_folder) == []
    assert mode(path) == 0o600


@pytest.mark.usefixtures("open_umask")
def test_the_built_in_demo_starts_without_a_notice(cli: Tracker, monkeypatch: pytest.MonkeyPatch) -> None:
    """`tracker` alone runs a copy of the built-in demo: written 0600 like any save, so nothing to say."""
    from tracker.ui.app import TrackerApp

    opened: list[Path] = []
    monkeypatch.setattr(TrackerApp, "run", lambda self, *a, **k: opened.append(self.path))
    result = cli()
    assert (result.code, result.err) == (0, "")
    assert len(opened) == 1 and mode(opened[0]) == 0o600
    shutil.rmtree(opened[0].parent)


@pytest.mark.usefixtures("open_umask")
def test_a_report_written_to_a_file_is_0600(cli: Tracker, tmp_path: Path) -> None:
    """The story of a fight tells the GM's log: its file is the GM's only too."""
    path = encounter(tmp_path, 0o600)
    assert cli("exec", path, "--save", stdin="start\nnext\n").code == 0
    out = tmp_path / "story.md"
    result = cli("report", path, "--output", out)
    assert result.code == 0, result.err
    assert mode(out) == 0o600


def test_a_lock_holder_clears_only_its_own_files_temporaries(tmp_path: Path) -> None:
    """The cleanup's pattern is the encounter's name escaped (a `[` in it is no pattern) and the tag's exact
    form: `a.toml` does not take `a.toml.x.toml`'s temporaries, nor a `[` name another's."""
    mine = tmp_path / "fight[1].toml"
    other = tmp_path / "fight[1].toml.x.toml"
    stale = tmp_path / ".fight[1].toml.0123456789ab.tmp"
    theirs = tmp_path / ".fight[1].toml.x.toml.0123456789ab.tmp"
    look_alike = tmp_path / ".fight1.toml.0123456789ab.tmp"
    for path in (mine, other, stale, theirs, look_alike):
        path.write_text("x")
    assert files.remove_stale_temp_files(mine) == 1
    assert not stale.exists() and theirs.exists() and look_alike.exists()
