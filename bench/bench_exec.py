"""`tracker exec` with one command, process start to exit (issue 2 target: ≤ 250 ms median).

Run: python -m bench.bench_exec
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 20
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "duel.toml"


def main() -> None:
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "tracker", "exec", str(EXAMPLE), "--json"],
            input="start\n",
            capture_output=True,
            text=True,
            check=False,
        )
        times.append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise SystemExit(f"tracker exec failed: {done.stderr}")
    bare = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - t0)
    print(
        f"tracker exec (1 command), {RUNS} runs: median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms   (target ≤ 250 ms)"
    )
    print(f"bare python start for comparison: median {statistics.median(bare) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
