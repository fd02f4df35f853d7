"""Start-up and keypress latency measured from the outside, on a real pseudo-terminal (issue 12).

Both the GM screen (`tracker run`) and a bare Textual app with the same kinds of widgets
(bench/bare_app.py) run as separate processes on their own pty, as a person would start them:

- first frame: from just before the fork+exec until the pty output shows the encounter (its name and
  its last combatant; for the bare app its title and last row), target ≤ 1.3× the bare app;
- keypress → frame at 20, 100 and 500 combatants: from writing `n` to the pty until its output shows
  the change (the GM screen's title naming whose turn it now is; the bare app's one table cell),
  target ≤ 1.0× the bare app.

The machine is noisy, so runs are interleaved (bare, tracker, tracker, bare …) and medians reported.
Run: python -m bench.bench_startup [--runs 12] [--presses 20] [--sizes 20,100,500] [--no-startup]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import re
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Sequence
from pathlib import Path

from bench.bench_engine import encounter_text

ROOT = Path(__file__).resolve().parent.parent
BARE = ROOT / "bench" / "bare_app.py"
COLUMNS, LINES = 160, 50
#: CSI/OSC/other escape sequences: stripped so a name written between style changes reads whole.
ESCAPES = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[@-Z\\-_])")


class Pty:
    """One program on its own pseudo-terminal, with the output it wrote since the last `clear`."""

    def __init__(self, argv: Sequence[str], env: dict[str, str]) -> None:
        self.started = time.perf_counter()
        pid, fd = os.forkpty()
        if pid == 0:  # the child: become the program
            try:
                os.execve(argv[0], list(argv), env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        self.raw = bytearray()

    def clear(self) -> None:
        self.raw.clear()

    def read(self, timeout: float) -> bool:
        """Read what is there within `timeout`; False when nothing came (or the program is gone)."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:
            return False
        self.raw += chunk
        return bool(chunk)

    def text(self) -> str:
        return ESCAPES.sub(b"", bytes(self.raw)).decode("utf-8", "replace")

    def wait_for(self, markers: Sequence[str], timeout: float = 30.0) -> float:
        """perf_counter time at which every marker has shown in the output since the last `clear`."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if self.read(0.5) and all(m in self.text() for m in markers):
                return time.perf_counter()
        raise SystemExit(f"timed out waiting for {markers!r}; the screen said: {self.text()[-800:]!r}")

    def settle(self, quiet: float = 0.3, limit: float = 10.0) -> None:
        """Drain the output until the program has been quiet for `quiet` seconds."""
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline and self.read(quiet):
            pass
        self.clear()

    def press(self, key: bytes) -> float:
        self.clear()
        t0 = time.perf_counter()
        os.write(self.fd, key)
        return t0

    def close(self) -> None:
        """Ctrl+Q (Textual's quit), then a kill if it lingers; reap the child either way."""
        with contextlib.suppress(OSError):
            os.write(self.fd, b"\x11")
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline:
            self.read(0.05)
            done, _ = os.waitpid(self.pid, os.WNOHANG)
            if done:
                break
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def environment(folder: Path) -> dict[str, str]:
    """A terminal like a person's, and bytecode caching on (as for an installed user: some shells set
    PYTHONDONTWRITEBYTECODE, which would make every start compile the sources again)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {
        **env,
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "PYTHONPATH": str(ROOT),
        "TRACKER_CONFIG_DIR": str(folder / "config"),
    }


def tracker_argv(path: Path) -> list[str]:
    return [sys.executable, "-m", "tracker", "run", str(path)]


def bare_argv(rows: int) -> list[str]:
    return [sys.executable, str(BARE), str(rows)]


def first_frame(argv: list[str], markers: Sequence[str], env: dict[str, str]) -> float:
    """Seconds from exec to the markers on screen."""
    program = Pty(argv, env)
    try:
        return program.wait_for(markers) - program.started
    finally:
        program.close()


def startup(runs: int, folder: Path) -> tuple[float, float]:
    env = environment(folder)
    text = encounter_text(20)
    tracker_markers = ("Benchmark brawl", "Fighter 019")
    bare_markers = ("Bare brawl", "Fighter 019")
    ours: list[float] = []
    bare: list[float] = []
    for i in range(runs + 1):
        path = folder / f"start{i}.toml"
        path.write_text(text, encoding="utf-8")
        order = [("bare", bare_argv(20), bare_markers), ("tracker", tracker_argv(path), tracker_markers)]
        for name, argv, markers in order if i % 2 == 0 else reversed(order):
            seconds = first_frame(argv, markers, env)
            if i:  # the first round warms the disk cache and the bytecode; it is not counted
                (ours if name == "tracker" else bare).append(seconds)
    return statistics.median(ours), statistics.median(bare)


def turn_order(path: Path, presses: int) -> list[str]:
    """Who acts after each of `presses` `next`s, replayed headlessly from the same file."""
    from tracker.rules.session import Session
    from tracker.store import files

    session = Session(files.load(path))
    names = []
    for _ in range(presses):
        session.execute("next")
        active = session.engine.state.active
        assert active is not None, "the benchmark fight must never stop on a prompt"
        names.append(active)
    return names


def keypress(n: int, presses: int, folder: Path) -> tuple[float, float]:
    """Median seconds from `n` to the changed frame: the tracker's `next` and the bare app's cell."""
    from tracker.rules.session import Session
    from tracker.store import files, save

    env = environment(folder)
    path = folder / f"keys{n}.toml"
    path.write_text(encounter_text(n), encoding="utf-8")
    session = Session(files.load(path))
    session.execute("start")
    files.write_text(path, save.encounter_text(session))
    expected = turn_order(path, presses)
    tracker = Pty(tracker_argv(path), env)
    bare = Pty(bare_argv(n), env)
    ours: list[float] = []
    theirs: list[float] = []
    try:
        tracker.wait_for(("Benchmark brawl",))
        bare.wait_for(("Bare brawl",))
        tracker.settle(1.0)
        bare.settle(1.0)
        for k, name in enumerate(expected, 1):
            for program in (tracker, bare) if k % 2 else (bare, tracker):
                if program is tracker:
                    t0 = tracker.press(b"n")
                    ours.append(tracker.wait_for((f"{name}'s turn",)) - t0)
                else:
                    t0 = bare.press(b"n")
                    theirs.append(bare.wait_for((f"tick {k}",)) - t0)
                program.settle(0.15)
    finally:
        tracker.close()
        bare.close()
    return statistics.median(ours), statistics.median(theirs)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_startup")
    parser.add_argument("--runs", type=int, default=12, help="first-frame starts of each app (median)")
    parser.add_argument("--presses", type=int, default=20, help="`n` presses per size (median)")
    parser.add_argument("--sizes", default="20,100,500", help="combatants for the keypress runs ('' for none)")
    parser.add_argument("--no-startup", action="store_true", help="only the keypress runs")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.no_startup:
            o, b = startup(args.runs, folder)
            print(
                f"first frame on a pty, median of {args.runs}: tracker {o * 1000:.0f} ms, "
                f"bare Textual app {b * 1000:.0f} ms, ratio {o / b:.2f}× (target ≤ 1.3×)",
                flush=True,
            )
        for n in [int(x) for x in args.sizes.split(",") if x]:
            o, b = keypress(n, args.presses, folder)
            print(
                f"n → frame on a pty, {n} combatants, median of {args.presses}: tracker {o * 1000:.0f} ms, "
                f"bare app one cell {b * 1000:.0f} ms, ratio {o / b:.2f}× (target ≤ 1.0×)",
                flush=True,
            )


if __name__ == "__main__":
    main()
