"""One writer per file (CONTRACT.md §5): the fcntl lock, its holder line, and its release on death."""

from __future__ import annotations

import io
import os
import signal
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
