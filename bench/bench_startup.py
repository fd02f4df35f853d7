"""Start-up and keypress latency measured from the outside, on a real pseudo-terminal.

Both the GM screen (`tracker run`) and a bare Textual app with the same kinds of widgets
(bench/bare_app.py) run as separate processes on their own pty, as a person would start them:

- first frame: from just before the fork+exec until the pty output shows the encounter (its name and
  its last combatant; for the bare app its title and last row), target ≤ 1.3× the bare app;
- keypress → frame at 20, 100 and 500 combatants: from writing `n` to the pty until its output shows
  the change (the GM screen's title naming whose turn it now is; the bare app's one table cell),
  target ≤ 1.0× the bare app.

The machine is noisy, so runs are interleaved (bare, tracker, tracker, bare …) and medians reported.
Run: python -m bench.bench_startup [--runs 12] [--presses 20] [--sizes 20,100,500] [--no-startup] [--family 2d20]
     [--before DIR]   (DIR: an older checkout, e.g. `git archive <commit> | tar -x -C DIR`, timed alongside)
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from bench.bench_engine import encounter_text, twod20_text

ROOT = Path(__file__).resolve().parent.parent
BARE = ROOT / "bench" / "bare_app.py"
COLUMNS, LINES = 160, 50
#: CSI/OSC/other escape sequences: stripped so a name written between style changes reads whole.
ESCAPES = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[@-Z\\-_])")


class Pty:
    """One program on its own pseudo-terminal, with the output it wrote since the last `clear`."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], cwd: Path = ROOT) -> None:
        self.started = time.perf_counter()
        pid, fd = os.forkpty()
        if pid == 0:  # the child: become the program
            try:
                os.chdir(cwd)
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


def environment(folder: Path, root: Path = ROOT) -> dict[str, str]:
    """A terminal like a person's, `root`'s tracker first on the path, and bytecode caching on (as for
    an installed user: some shells set PYTHONDONTWRITEBYTECODE, which makes every start compile the
    sources again)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {
        **env,
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "PYTHONPATH": str(root),
        "TRACKER_CONFIG_DIR": str(folder / "config"),
    }


@dataclass(frozen=True)
class Contender:
    """One program in the race: the bare app, this tracker, or an older checkout of it (``--before``)."""

    label: str
    root: Path | None  # None: the bare app
    #: False: the tracker validates the file afresh every start (``TRACKER_NO_CACHE=1``), as on a file it
    #: has never opened; True: as on a file it opened before (the first, uncounted round remembers it).
    remember: bool = True

    def argv(self, path: Path, rows: int) -> list[str]:
        if self.root is None:
            return [sys.executable, str(BARE), str(rows)]
        return [
            sys.executable,
            "-c",
            'import sys; from tracker.cli import main; sys.exit(getattr(main, "main", main)())',
            "run",
            str(path),
        ]

    def env(self, folder: Path) -> dict[str, str]:
        env = environment(folder, self.root or ROOT) | {"TRACKER_CACHE_DIR": str(folder / "cache")}
        return env | ({} if self.remember else {"TRACKER_NO_CACHE": "1"})

    def cwd(self) -> Path:
        """Started in its own checkout: `python -c` puts the working folder first on the path."""
        return self.root or ROOT

    def title(self) -> str:
        return "Bare brawl" if self.root is None else "Benchmark brawl"

    def changed(self, k: int, name: str) -> str:
        """What the screen shows after the k-th `n`: the bare app's cell, or the tracker's title."""
        return f"tick {k}" if self.root is None else f"{name}'s turn"


def first_frame(argv: list[str], markers: Sequence[str], env: dict[str, str], cwd: Path) -> float:
    """Seconds from exec to the markers on screen."""
    program = Pty(argv, env, cwd)
    try:
        return program.wait_for(markers) - program.started
    finally:
        program.close()


def startup(runs: int, folder: Path, racers: list[Contender]) -> dict[str, float]:
    """Median seconds to the first frame of each contender, started in turn (the order rotates)."""
    text = encounter_text(20)
    times: dict[str, list[float]] = {c.label: [] for c in racers}
    for i in range(runs + 1):
        path = folder / f"start{i}.toml"
        order = racers[i % len(racers) :] + racers[: i % len(racers)]
        for racer in order:
            path.write_text(text, encoding="utf-8")  # each tracker starts on the same untouched file
            seconds = first_frame(racer.argv(path, 20), (racer.title(), "Fighter 019"), racer.env(folder), racer.cwd())
            if i:  # the first round warms the disk cache and the bytecode; it is not counted
                times[racer.label].append(seconds)
    return {label: statistics.median(values) for label, values in times.items()}


def turn_order(path: Path, presses: int) -> list[str]:
    """Who acts after each of `presses` `next`s, replayed headlessly from the same file."""
    from tracker.families.session import Session
    from tracker.store import files

    session = Session(files.load(path))
    names = []
    for _ in range(presses):
        session.execute("next")
        active = session.rules.state.active
        assert active is not None, "the benchmark fight must never stop on a prompt"
        names.append(active)
    return names


class Fight(NamedTuple):
    """The fight the keypress runs play: its file's text for n combatants, the commands that start it, and
    the encounter's name (in the tracker's title once it is on screen)."""

    text: Callable[[int], str]
    opening: tuple[str, ...]
    title: str


FIGHTS = {
    "ttb": Fight(encounter_text, ("start",), "Benchmark brawl"),
    # Initiative order asks who started the conflict (docs/rules/2d20.md#s3); the first agent did.
    "2d20": Fight(twod20_text, ("start", 'pick "Agent 000"'), "Benchmark firefight"),
}


def keypress(
    n: int, presses: int, folder: Path, racers: list[Contender], fight: Fight = FIGHTS["ttb"]
) -> dict[str, float]:
    """Median seconds from `n` to the changed frame: the tracker's `next`, the bare app's one cell.

    Every contender runs at once, each on its own pty and file; the presses take turns (the order
    rotates) and each waits until the previous program is quiet again.
    """
    from tracker.families.session import Session
    from tracker.store import files, save

    start = folder / f"keys{n}.toml"
    start.write_text(fight.text(n), encoding="utf-8")
    session = Session(files.load(start))
    for line in fight.opening:
        session.execute(line)
    text = save.encounter_text(session)
    start.write_text(text, encoding="utf-8")
    expected = turn_order(start, presses) if presses else []
    programs: list[tuple[Contender, Pty]] = []
    times: dict[str, list[float]] = {c.label: [] for c in racers}
    try:
        for i, racer in enumerate(racers):
            path = folder / f"keys{n}-{i}.toml"
            path.write_text(text, encoding="utf-8")
            program = Pty(racer.argv(path, n), racer.env(folder), racer.cwd())
            programs.append((racer, program))
            program.wait_for(("Bare brawl" if racer.root is None else fight.title,))
        for _, program in programs:
            program.settle(1.0)
        for k, name in enumerate(expected, 1):
            shift = k % len(programs)
            for racer, program in programs[shift:] + programs[:shift]:
                t0 = program.press(b"n")
                times[racer.label].append(program.wait_for((racer.changed(k, name),)) - t0)
                program.settle(0.15)
    finally:
        for _, program in programs:
            program.close()
    return {label: statistics.median(values) for label, values in times.items()}


def report(what: str, medians: dict[str, float], target: str) -> None:
    bare = medians.pop("bare")
    parts = [f"{label} {t * 1000:.0f} ms ({t / bare:.2f}×)" for label, t in medians.items()]
    print(f"{what}: bare Textual app {bare * 1000:.0f} ms, " + ", ".join(parts) + f"   (target {target})", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_startup")
    parser.add_argument("--runs", type=int, default=12, help="first-frame starts of each app (median)")
    parser.add_argument("--presses", type=int, default=20, help="`n` presses per size (median)")
    parser.add_argument("--sizes", default="20,100,500", help="combatants for the keypress runs ('' for none)")
    parser.add_argument("--no-startup", action="store_true", help="only the keypress runs")
    parser.add_argument("--family", choices=sorted(FIGHTS), default="ttb", help="the rules the keypress runs play")
    parser.add_argument(
        "--before", type=Path, help="an older checkout of the project, timed in the same runs (e.g. from git archive)"
    )
    args = parser.parse_args(argv)
    racers = [Contender("bare", None), Contender("tracker", ROOT)]
    if args.before:
        racers.append(Contender("before", args.before.resolve()))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.no_startup:
            cold = [Contender(f"{r.label} on a file new to it", r.root, remember=False) for r in racers if r.root]
            medians = startup(args.runs, folder, [*racers, *cold])
            report(f"first frame on a pty, median of {args.runs}", medians, "≤ 1.3×")
        for n in [int(x) for x in args.sizes.split(",") if x]:
            medians = keypress(n, args.presses, folder, racers, FIGHTS[args.family])
            what = f"n → frame on a pty, {n} combatants ({args.family}), median of {args.presses}"
            report(what, medians, "≤ 1.0×")


if __name__ == "__main__":
    main()
