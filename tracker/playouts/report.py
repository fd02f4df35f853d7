"""The fight's odds from live rules, in one call: the runs played, summed up, the typical run told
(docs/reference/cli.md ``tracker odds FILE --fight``, ``tracker check FILE --rate``)."""

from __future__ import annotations

import os
from typing import NamedTuple

from tracker.engine.errors import Refusal
from tracker.families.rules import FamilyRules
from tracker.families.seam import RuleFamily
from tracker.families.values import JSONObject
from tracker.playouts import fleet, runs, tally

#: The runs a fight's odds play unless told otherwise.
RUNS = 2500
#: The rounds a run may play before it is called undecided.
ROUNDS = 12


class FightOdds(NamedTuple):
    start: runs.Start
    summed: tally.Tally
    story: list[str]

    def json(self) -> JSONObject:
        return tally.as_json(self.start, self.summed, self.story)

    def lines(self, title: str) -> list[str]:
        return tally.as_text(title, self.start, self.summed, self.story)

    def rating(self) -> str:
        return tally.rating(self.summed, self.start.sides[0] if self.start.sides else "players")


def fresh_seed() -> int:
    """A seed for runs nobody asked to reproduce (the JSON says which, so they can be)."""
    return int.from_bytes(os.urandom(4), "big") >> 1


def fight_odds(
    family: RuleFamily,
    rules: FamilyRules,
    count: int = RUNS,
    seed: int | None = None,
    cap: int = ROUNDS,
    workers: int | None = None,
) -> FightOdds:
    """`count` runs of the rest of the fight in `rules` (left as they are), at most `cap` rounds each."""
    if count < 1:
        raise Refusal(f"--runs must be 1 or more, not {count}")
    if cap < 1:
        raise Refusal(f"--rounds must be 1 or more, not {cap}")
    start = runs.start_of(family, rules, cap, fresh_seed() if seed is None else seed)
    if not start.names:
        raise Refusal("nobody is in the fight")
    outcomes = fleet.outcomes(start, count, workers)
    summed = tally.tally(start, outcomes)
    story: list[str] = []
    chosen = tally.typical(start, outcomes, summed)
    end = runs.play(family, start, chosen, story)
    story.append(ending(start, end))
    return FightOdds(start, summed, story)


def ending(start: runs.Start, end: runs.Outcome) -> str:
    """The typical run's last line: who won, when."""
    rounds = f"{end.rounds} round{'s' if end.rounds != 1 else ''}"
    if end.winner:
        return f"the {end.winner} win after {rounds}"
    return f"undecided after {rounds}" + (f": {end.stuck}" if end.stuck else "")


def screen_line(start: runs.Start, budget: float = 1.5, most: int = 1000) -> str:
    """The GM screen's line (`tally.screen_line`) from runs played in this process, as many as `budget` seconds
    allow (at least 10, at most `most`): the screen's worker process calls it for the newest state."""
    import time

    from tracker.families.registry import family_named

    family = family_named(start.system)
    done: list[runs.Outcome] = []
    until = time.perf_counter() + budget
    while len(done) < most and (len(done) < 10 or time.perf_counter() < until):
        done.append(runs.play(family, start, len(done)))
    return tally.screen_line(start, tally.tally(start, done))
