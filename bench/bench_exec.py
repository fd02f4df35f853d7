"""`tracker exec` with one command on the duel, process start to exit: target ≤ 1.3× the floor of any pydantic
program (python's start plus `import pydantic`), on a file read before.

Beside it, in the same interleaved runs: bare python, `import pydantic` (the floor) and
pydantic with one model built (the floor for anything that validates a file with pydantic: the first
model class loads most of pydantic), and optionally an older checkout (``--before DIR``).
Bytecode caching is on for every run, as for an installed user (some shells set PYTHONDONTWRITEBYTECODE).

Run: python -m bench.bench_exec [--runs 20] [--before DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "duel.toml"
# `tracker.cli` was a module with `main` before it became a package with a `main` module: both are run.
EXEC = 'import sys; from tracker.cli import main; sys.exit(getattr(main, "main", main)())'
ONE_MODEL = "from pydantic import BaseModel\nclass One(BaseModel):\n    x: int\n"


def run(argv: list[str], root: Path, stdin: str = "", remember: bool = True) -> float:
    """Wall seconds of one process; it must succeed. `remember` False: the file is validated afresh
    (``TRACKER_NO_CACHE=1``), as the first time the tracker opens it."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TRACKER_NO_CACHE")}
    env["PYTHONPATH"] = str(root)
    if not remember:
        env["TRACKER_NO_CACHE"] = "1"
    t0 = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=False, env=env, cwd=root)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{argv} failed: {done.stderr}")
    return seconds


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_exec")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--before", type=Path, help="an older checkout, timed in the same runs")
    args = parser.parse_args(argv)
    py = sys.executable
    cases: dict[str, tuple[list[str], Path, str] | tuple[list[str], Path, str, bool]] = {
        "python": ([py, "-c", "pass"], ROOT, ""),
        "import pydantic": ([py, "-c", "import pydantic"], ROOT, ""),
        "pydantic + one model": ([py, "-c", ONE_MODEL], ROOT, ""),
        "tracker exec": ([py, "-c", EXEC, "exec", str(EXAMPLE)], ROOT, "start\n"),
        "exec, file new to it": ([py, "-c", EXEC, "exec", str(EXAMPLE)], ROOT, "start\n", False),
    }
    if args.before:
        cases["before: tracker exec"] = ([py, "-c", EXEC, "exec", str(EXAMPLE)], args.before.resolve(), "start\n")
    times: dict[str, list[float]] = {name: [] for name in cases}
    for i in range(args.runs + 1):
        names = list(cases)
        names = names[i % len(names) :] + names[: i % len(names)]
        for name in names:
            seconds = run(*cases[name])
            if i:  # the first round fills the bytecode cache; it is not counted
                times[name].append(seconds)
    floor = statistics.median(times["import pydantic"])
    print(f"median wall time of {args.runs} interleaved runs (target: tracker exec ≤ 1.3× import pydantic)")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:22} {median * 1000:4.0f} ms  {median / floor:5.2f}×   (min {min(values) * 1000:.0f})")


if __name__ == "__main__":
    main()
