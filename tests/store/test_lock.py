"""One writer per file (docs/guide/shared-box.md): the fcntl lock, its holder line, and its release on death."""

from __future__ import annotations

import io
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tracker.cli import main as cli
from tracker.store.lock import FileHeld, WriterLock

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "duel.toml"


def copy(tmp_path: Path) -> Path:
    target = tmp_path / "duel.toml"
    target.write_bytes(EXAMPLE.read_bytes())
    return target


def test_second_writer_is_told_who_holds_the_file(tmp_path: Path) -> None:
    path = copy(tmp_path)
    with WriterLock(path), pytest.raises(FileHeld) as info:
        WriterLock(path).acquire()
    message = str(info.value)
    assert str(os.getpid()) in message and "since" in message


def test_lock_is_released_when_the_holder_is_killed(tmp_path: Path) -> None:
    """A killed GM never leaves a stale lock: the OS drops an fcntl lock with its process."""
    path = copy(tmp_path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from tracker.store.lock import WriterLock; "
            f"WriterLock(Path({str(path)!r})).acquire(); print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(FileHeld):
        WriterLock(path).acquire()
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    time.sleep(0.05)
    lock = WriterLock(path)
    lock.acquire()
    lock.release()


def test_exec_save_is_refused_on_a_held_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy(tmp_path)
    before = path.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.StringIO("start\n"))
    with WriterLock(path):
        code = cli.main(["exec", str(path), "--save"])
    assert code == 1
    assert "not saved" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_run_on_a_held_file_offers_the_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a terminal to ask on, `tracker run` names the holder and the view command, and exits 1."""
    path = copy(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with WriterLock(path):
        code = cli.main(["run", str(path)])
    err = capsys.readouterr().err
    assert code == 1
    assert "is being run by" in err and f"tracker view {path}" in err


def test_the_sidecar_is_its_owners_only(tmp_path: Path) -> None:
    """It says who holds the file, and nothing another account needs: 0600, whatever the umask."""
    path = copy(tmp_path)
    old = os.umask(0o002)
    try:
        with WriterLock(path):
            sidecar = WriterLock.sidecar(path)
            assert stat.S_IMODE(os.lstat(sidecar).st_mode) == 0o600
            assert str(os.getpid()) in sidecar.read_text(encoding="utf-8")
    finally:
        os.umask(old)


def test_a_sidecar_an_older_version_left_readable_is_narrowed(tmp_path: Path) -> None:
    path = copy(tmp_path)
    sidecar = WriterLock.sidecar(path)
    sidecar.write_text("someone long gone", encoding="utf-8")
    sidecar.chmod(0o664)
    with WriterLock(path):
        assert stat.S_IMODE(os.lstat(sidecar).st_mode) == 0o600


def test_a_link_planted_at_the_sidecar_is_refused_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched", encoding="utf-8")
    sidecar = WriterLock.sidecar(path)
    sidecar.symlink_to(victim)
    with pytest.raises(OSError, match="is a symbolic link, not followed"):
        WriterLock(path).acquire()
    before = path.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.StringIO("start\n"))
    assert cli.main(["exec", str(path), "--save"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert (
        line == f"tracker: not saved: cannot take the lock {sidecar}: it is a symbolic link, not followed (remove it)"
    )
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(["run", str(path)]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line == f"tracker: cannot take the lock {sidecar}: it is a symbolic link, not followed (remove it)"
    assert victim.read_text(encoding="utf-8") == "untouched"
    assert path.read_bytes() == before
    assert sidecar.is_symlink()


def test_something_not_a_file_at_the_sidecar_is_refused(tmp_path: Path) -> None:
    path = copy(tmp_path)
    WriterLock.sidecar(path).mkdir()
    with pytest.raises(OSError, match="cannot take the lock"):
        WriterLock(path).acquire()
