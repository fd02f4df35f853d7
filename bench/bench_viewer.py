"""Shared-table benchmarks (issue 5).

- write → viewer frame latency (median, p95) with 1 and with 5 headless viewer processes (target 100 ms);
- an idle viewer's CPU over `IDLE_SECONDS` (target ~0 %: no busy polling).

GM command → durable → screen latency is `bench_ui` (its `next` timing includes the durable save).
Run: python -m bench.bench_viewer [idle-seconds]
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tracker.store import files
from tracker.store.save import encounter_text, load_session

ROOT = Path(__file__).resolve().parent.parent
WRITES = 30


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(viewers: int, folder: Path, idle_seconds: float = 0.0) -> None:
    path = folder / f"fight{viewers}.toml"
    shutil.copy(ROOT / "examples" / "duel.toml", path)
    session = load_session(path)
    session.execute("initiative Sofia 9")
    files.write_text(path, encounter_text(session))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRACKER_CONFIG_DIR": str(folder / "config")}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "bench.viewer_probe", str(path)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        for _ in range(viewers)
    ]
    try:
        for p in procs:
            assert p.stdout is not None
            while p.stdout.readline().strip() != "ready":
                pass
        time.sleep(1.0)
        if idle_seconds:
            before = [cpu_seconds(p.pid) for p in procs]
            time.sleep(idle_seconds)
            used = [cpu_seconds(p.pid) - b for p, b in zip(procs, before, strict=True)]
            print(
                f"idle viewer CPU over {idle_seconds:.0f} s: {100 * max(used) / idle_seconds:.2f} % "
                f"({max(used):.2f} s of CPU)"
            )
        latencies: list[float] = []
        lines = ["start"] + ["next"] * (WRITES - 1)
        for line in lines:
            session.execute(line)
            text = encounter_text(session)
            written = time.time()
            files.write_text(path, text)
            want = len(session.history.commands)
            for p in procs:
                assert p.stdout is not None
                while True:
                    n, stamp = p.stdout.readline().split()
                    if int(n) >= want:
                        latencies.append(float(stamp) - written)
                        break
            time.sleep(0.05)
        latencies.sort()
        print(
            f"write → viewer frame, {viewers} viewer(s), {len(latencies)} samples: median "
            f"{statistics.median(latencies) * 1000:.1f} ms, p95 {latencies[int(len(latencies) * 0.95)] * 1000:.1f} ms"
            " (target ≤ 100 ms)"
        )
    finally:
        for p in procs:
            p.kill()
            p.wait()


def main() -> None:
    idle = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
    with tempfile.TemporaryDirectory() as tmp:
        run(1, Path(tmp), idle_seconds=idle)
        run(5, Path(tmp))


if __name__ == "__main__":
    main()
