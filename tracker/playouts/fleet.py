"""Many runs on every core (docs/reference/cli.md ``tracker odds FILE --fight``).

Run n always draws from the same key (``--seed`` and n, `runs.secret_of`), whichever process plays it, so
the figures for a given ``--seed`` are the same on one core or many: the runs are cut into consecutive
slices, the slices played by a pool of processes, and the outcomes put back in run order.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

from tracker.families.registry import family_named
from tracker.playouts.runs import Outcome, Start, played

#: Fewer runs than this are played in this process: starting workers costs more than they save.
ALONE_BELOW = 200
#: Slices per worker: small enough that a slow slice does not leave a core idle at the end.
SLICES_PER_WORKER = 4

_start: Start | None = None


def outcomes(start: Start, runs: int, workers: int | None = None) -> list[Outcome]:
    """The outcomes of runs 0 … `runs`−1, in order; `workers` processes (default: one per core)."""
    count = workers if workers is not None else (os.cpu_count() or 1)
    family = family_named(start.system)
    if count <= 1 or runs < ALONE_BELOW:
        return played(family, start, range(runs))
    size = max(1, -(-runs // (count * SLICES_PER_WORKER)))
    slices = [range(a, min(runs, a + size)) for a in range(0, runs, size)]
    with ProcessPoolExecutor(max_workers=count, initializer=_begin, initargs=(start,)) as pool:
        done = list(pool.map(_slice, slices))
    return [outcome for part in done for outcome in part]


def _begin(start: Start) -> None:
    """A worker's start: the runs' starting point, received once."""
    global _start
    _start = start


def _slice(runs: range) -> list[Outcome]:
    assert _start is not None
    return played(family_named(_start.system), _start, runs)
