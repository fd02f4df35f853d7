"""Screen benchmarks, measured in-process with Textual's own refresh callbacks.

- start to first full frame, beside a bare Textual app with the same kinds of widgets (target ≤ 1.3×);
- `next` (keypress action → command → durable save → repainted frame) at 20, 100 and 500 combatants
  (targets ≤ 16, 16, 33 ms median);
- resident memory with 500 combatants (target ≤ 80 MiB).

Run: python -m bench.bench_ui
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, Input, RichLog, Static, TabbedContent, TabPane

from bench.bench_engine import encounter_text
from tracker.store import files, save
from tracker.ui.app import TrackerApp

os.environ.setdefault("TRACKER_CONFIG_DIR", tempfile.mkdtemp(prefix="tracker-bench-config-"))


class BareApp(App[None]):
    """The same kinds of widgets with nothing behind them."""

    def compose(self) -> ComposeResult:
        yield Static("title")
        with Horizontal():
            table: DataTable[Any] = DataTable()
            yield table
            with TabbedContent():
                for name in ("Turn", "Conditions", "Melee", "Deck", "Log"):
                    with TabPane(name):
                        yield Static(name)
        yield RichLog()
        yield Static("prompt")
        yield Input()
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for col in ("▶", "Name", "Init", "Rank", "Status", "Wounds", "AP", "Conditions"):
            table.add_column(col)
        for i in range(10):
            table.add_row("", f"Fighter {i}", "10", "Minion", "● ok", "6/6", "", "")


def finish(done: asyncio.Future[float]) -> None:
    """Called by Textual after the next refresh: the frame is painted."""
    if not done.done():
        done.set_result(time.perf_counter())


async def first_frame(make: Any) -> float:
    """Seconds from constructing the app to its first full frame."""
    done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
    t0 = time.perf_counter()
    app = make()
    async with app.run_test(size=(120, 40)) as pilot:
        app.screen.call_after_refresh(lambda: finish(done))
        await pilot.pause()
        t1 = await done
    return t1 - t0


def brawl_app(folder: Path) -> TrackerApp:
    target = folder / "brawl.toml"
    target.write_text((Path(__file__).resolve().parent.parent / "examples" / "brawl.toml").read_text())
    return TrackerApp(save.load_session(target), target)


async def next_latency(n: int, folder: Path, presses: int = 40) -> tuple[float, float, float]:
    """Median and p95 seconds from the `next` key action to the repainted frame."""
    target = folder / f"bench{n}.toml"
    target.write_text(encounter_text(n))
    session = save.load_session(target)
    session.execute("start")
    files.write_text(target, save.encounter_text(session))
    app = TrackerApp(session, target)
    times = []
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = app.screen
        for _ in range(presses):
            done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
            t0 = time.perf_counter()
            screen.action_next_turn()  # type: ignore[attr-defined]
            screen.call_after_refresh(lambda d=done: finish(d))
            times.append(await done - t0)
        rss = rss_mib()
    return statistics.median(times), sorted(times)[int(len(times) * 0.95)], rss


def rss_mib() -> float:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def main_async() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bare = [await first_frame(BareApp) for _ in range(5)]
        ours = [await first_frame(lambda: brawl_app(folder)) for _ in range(5)]
        b, o = statistics.median(bare), statistics.median(ours)
        print(
            f"first full frame: tracker {o * 1000:.0f} ms, bare app {b * 1000:.0f} ms, ratio {o / b:.2f}× "
            "(target ≤ 1.3×)"
        )
        for n, target in ((20, 16), (100, 16), (500, 33)):
            median, p95, rss = await next_latency(n, folder)
            print(
                f"next → repainted frame, {n} combatants: median {median * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms "
                f"(target ≤ {target} ms); resident memory {rss:.0f} MiB"
            )
    print("(resident memory target at 500 combatants: ≤ 80 MiB)")


if __name__ == "__main__":
    asyncio.run(main_async())
