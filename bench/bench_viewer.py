"""Shared-table benchmark: a write → each live viewer's repaint, measured from the outside.

Each viewer is a real ``tracker view FILE`` process in its own pseudo-terminal (120×40, xterm-256color), as
at the table. The writer plays the duel one command at a time and saves each state the way the tracker
does (a temporary file, fsync, then an atomic rename over the encounter); the clock starts just before
that rename. A viewer's latency is the time until its terminal receives the repaint that shows the new
turn: the output is read as it comes, escape sequences are stripped, and the repaint is the first chunk
after which the new turn's "Round N · NAME" is on the wire (the title line and the order panel both say it).

1 and 5 viewers are measured in the same run, rounds alternating, and with ``--before DIR`` the viewers
of another checkout (``git archive <commit> | tar -x -C DIR``) alternate with this one's, so "before"
and "after" share the machine's load. Also printed: an idle viewer's CPU over ``--idle`` seconds (target
~0 %: no busy polling).

Run: python -m bench.bench_viewer [--before DIR] [--rounds N] [--writes N] [--idle SECONDS]
"""

from __future__ import annotations

import argparse
import codecs
import fcntl
import os
import platform
import re
import selectors
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass, field
from pathlib import Path

from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text, load_session

ROOT = Path(__file__).resolve().parent.parent
COLUMNS, LINES = 120, 40
#: How long a viewer may take before its repaint counts as lost (it is reported, never hidden).
TIMEOUT = 5.0
#: Between two writes: a GM's commands are seconds apart; this keeps each repaint its own.
GAP = 0.15
#: Escape sequences (CSI, OSC, two-character ones): stripped before looking for the turn's text.
_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\-_])")


@dataclass
class Viewer:
    """One ``tracker view`` in a pseudo-terminal, and what its terminal received since the last write."""

    proc: subprocess.Popen[bytes]
    master: int
    decoder: codecs.IncrementalDecoder = field(default_factory=lambda: codecs.getincrementaldecoder("utf-8")("replace"))
    seen: str = ""

    def take(self, data: bytes) -> None:
        self.seen += self.decoder.decode(data)

    def shows(self, marker: str) -> bool:
        return marker in _ESCAPE.sub("", self.seen)


def spawn(source: Path, path: Path, config: Path) -> Viewer:
    """`tracker view path` from the checkout `source`, on a new pseudo-terminal of COLUMNS × LINES."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
    env = {
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},  # as bench_startup: cached
        "PYTHONPATH": str(source),
        "TRACKER_CONFIG_DIR": str(config),
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "tracker", "view", str(path)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=source,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    os.set_blocking(master, False)
    return Viewer(proc, master)


def drain(viewers: list[Viewer], until: float, want: str | None = None) -> dict[int, float]:
    """Read every terminal until each shows `want` or `until` passes (None: until then); when each showed it."""
    sel = selectors.DefaultSelector()
    for v in viewers:
        sel.register(v.master, selectors.EVENT_READ, v)
    when: dict[int, float] = {}
    try:
        while len(when) < len(viewers):
            left = until - time.perf_counter()
            if left <= 0:
                break
            for key, _ in sel.select(left):
                v = key.data
                try:
                    data = os.read(v.master, 1 << 16)
                except (BlockingIOError, OSError):
                    continue
                stamp = time.perf_counter()
                v.take(data)
                if want is not None and id(v) not in when and v.shows(want):
                    when[id(v)] = stamp
    finally:
        sel.close()
    return when


def publish(path: Path, text: str) -> float:
    """Save as `files.write_text` does (temporary file, fsync, rename); the time just before the rename."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))
        handle.flush()
        os.fsync(handle.fileno())
    stamp = time.perf_counter()
    os.replace(tmp, path)
    return stamp


def marker(session: Session) -> str:
    """What the repaint of this state shows and the one before did not: the new turn."""
    st = session.state
    return f"Round {st.round} · {st.active}"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(source: Path, viewers: int, folder: Path, writes: int, idle: float = 0.0) -> tuple[list[float], int]:
    """Latencies (seconds) of `writes` writes seen by `viewers` viewers of `source`, and how many were lost."""
    path = folder / "duel.toml"
    shutil.copy(ROOT / "examples" / "duel.toml", path)
    session = load_session(path, seed=7)
    session.execute("initiative Sofia 9")
    session.execute("start")
    files.write_text(path, encounter_text(session))
    procs = [spawn(source, path, folder / "config") for _ in range(viewers)]
    try:
        first = marker(session)
        ready = drain(procs, time.perf_counter() + 60, first)
        if len(ready) < viewers:
            raise SystemExit(f"viewers of {source} did not start: {procs[0].seen[-500:]!r}")
        drain(procs, time.perf_counter() + 1.0)  # let start-up work settle
        if idle:
            before = [cpu_seconds(v.proc.pid) for v in procs]
            drain(procs, time.perf_counter() + idle)
            used = max(cpu_seconds(v.proc.pid) - b for v, b in zip(procs, before, strict=True))
            print(f"  idle viewer CPU over {idle:.0f} s: {100 * used / idle:.2f} % ({used:.2f} s of CPU)")
        latencies: list[float] = []
        lost = 0
        for _ in range(writes):
            session.execute("next")
            want = marker(session)
            for v in procs:
                v.seen = ""
            written = publish(path, encounter_text(session))
            shown = drain(procs, written + TIMEOUT, want)
            latencies += [stamp - written for stamp in shown.values()]
            lost += viewers - len(shown)
            drain(procs, time.perf_counter() + GAP)
        return latencies, lost
    finally:
        for v in procs:
            v.proc.kill()
            v.proc.wait()
            os.close(v.master)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def machine() -> str:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor() or "?",
    )
    load = os.getloadavg()[0]
    system = f"{platform.system()} {platform.release()}"
    return f"{os.cpu_count()} × {model}, {system}, Python {platform.python_version()}, load {load:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="an older checkout whose viewers are measured alongside")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--writes", type=int, default=20, help="writes per round and setting (default 20)")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle CPU measured (0: skip)")
    args = parser.parse_args()
    sources = {"after": ROOT}
    if args.before is not None:
        sources = {"before": args.before.resolve(), **sources}
    results: dict[tuple[str, int], list[float]] = {(s, n): [] for s in sources for n in (1, 5)}
    lost: dict[tuple[str, int], int] = dict.fromkeys(results, 0)
    print(f"write → repaint on each viewer's terminal; {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for n in (1, 5):
                for name, source in sources.items():
                    folder = Path(tmp) / f"{name}{n}-{r}"
                    folder.mkdir()
                    idle = args.idle if r == 0 and n == 1 else 0.0
                    if idle:
                        print(f"{name}:")
                    got, missed = run(source, n, folder, args.writes, idle)
                    results[(name, n)] += got
                    lost[(name, n)] += missed
    print(f"\n{'':8} {'1 viewer: median':>17} {'p95':>8}   {'5 viewers: median':>18} {'p95':>8}   (ms; target ≤ 100)")
    for name in sources:
        cells = []
        for n in (1, 5):
            xs = results[(name, n)]
            cells.append(f"{statistics.median(xs) * 1000:17.1f} {p95(xs) * 1000:8.1f}" if xs else f"{'-':>17} {'-':>8}")
        missing = sum(lost[(name, n)] for n in (1, 5))
        note = f"   ({missing} repaints not seen within {TIMEOUT:.0f} s)" if missing else ""
        print(f"{name:8} {cells[0]}   {cells[1]:>27}{note}")
    samples = {n: len(results[(next(iter(sources)), n)]) for n in (1, 5)}
    print(f"samples per row: {samples[1]} (1 viewer), {samples[5]} (5 viewers)")


if __name__ == "__main__":
    main()
