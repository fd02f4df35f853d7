"""The party's chance to win, round by round: the fight's odds as they stood before the fight, at the start of
each round played so far, and now (docs/reference/cli.md "tracker odds … --by-round").

The history is replayed once; at each of those moments the live state is taken as it is (`runs.start_of`) and
played a few hundred times by the family's policy, like the odds of the live state. A turning point of the
fight is where the line jumps. Each point's runs are keyed by ``--seed`` and the point, so a seed gives the
same line, and nothing of the file's own future is read (`tracker.playouts.runs`).
"""

from __future__ import annotations

from typing import NamedTuple

from tracker.families.session import Session
from tracker.playouts import fleet, runs, tally

#: Runs played for each point: a line to read the trend from, not the figures of `tracker odds --fight`.
RUNS_EACH = 200


class Point(NamedTuple):
    """One moment of the fight: "before", "R1", … or "now", and the first side's chance to win then."""

    label: str
    round: int
    chance: float


def by_round(
    session: Session, runs_each: int = RUNS_EACH, seed: int = 1, cap: int = 12, workers: int | None = None
) -> list[Point]:
    """The first side's chance to win before the fight, at the start of each round, and in the live state."""
    return points(moments(session, cap, seed), runs_each, seed, workers)


def moments(session: Session, cap: int = 12, seed: int = 1) -> list[tuple[str, runs.Start]]:
    """The fight as it stood before it, at each round's start and now (when commands came after the last round
    began): what `points` plays from. Cheap enough for the GM's process (one replay, one pickle a round); the
    runs go to a worker."""
    family = session.family
    found: list[tuple[str, runs.Start]] = []
    seen_round, last_at = -1, -1
    for at, rules in enumerate(session.replaying()):
        now = rules.state.round
        if now != seen_round:
            seen_round = now
            label = "before" if now == 0 else f"R{now}"
            if not any(name == label for name, _ in found):
                found.append((label, runs.start_of(family, rules, cap, seed)))
                last_at = at
    if last_at < len(session.history.commands):  # commands since the last round began: the live state too
        found.append(("now", runs.start_of(family, session.rules, cap, seed)))
    return found


def points(
    moments: list[tuple[str, runs.Start]], runs_each: int = RUNS_EACH, seed: int = 1, workers: int | None = None
) -> list[Point]:
    """Each moment's chance for the first side, from `runs_each` runs keyed by `seed` and the moment."""
    found = []
    for n, (label, start) in enumerate(moments):
        if not start.names:
            continue
        keyed = start._replace(seed=seed * 1000 + n)
        summed = tally.tally(keyed, fleet.outcomes(keyed, runs_each, workers))
        found.append(Point(label, start.round, summed.sides.get(start.sides[0], 0.0)))
    return found


def sparkline(points: list[Point]) -> str:
    """``▃▄▆█`` with the figures: ``before 62 % · R1 55 % · R2 71 % · now 90 %``."""
    bars = "▁▂▃▄▅▆▇█"
    line = "".join(bars[min(len(bars) - 1, int(p.chance * len(bars)))] for p in points)
    return line + "  " + " · ".join(f"{p.label} {round(100 * p.chance)} %" for p in points)
