"""How long the map takes to draw a large fight: ten zones in a chain with 500 combatants, at the three panel
sizes the screens give it (80×24 side panel, 120×40, 200×60), median ms of several draws each.

The screen redraws the map on every command while its tab shows, so this is a keypress's share.

Run: python -m bench.bench_mapdraw [--runs 10]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from tracker.present.map.draw import draw_map
from tracker.present.map.graph import MapMark, MapNode, MapView

#: The map's room at the three screen sizes (the map panel's columns and rows).
PANELS = [(78, 10), (41, 18), (97, 44)]


def big_fight() -> MapView:
    """Ten zones in a chain, 500 combatants spread over them, two sides."""
    names = [f"Zone {i}" for i in range(10)]
    nodes = tuple(
        MapNode(n, n, (), tuple(MapMark(f"Agent {k:03}", k % 2) for k in range(i, 500, 10)), None, None)
        for i, n in enumerate(names)
    )
    return MapView("zones", nodes, tuple(itertools.pairwise(names)), ("players", "npcs"), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    view = big_fight()
    for width, height in PANELS:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            draw_map(view, width, height)
            times.append((time.perf_counter() - start) * 1000)
        print(f"map {width}×{height}, 500 combatants: {statistics.median(times):.1f} ms (median of {runs})")


if __name__ == "__main__":
    main()
