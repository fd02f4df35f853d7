"""The runs summed up (docs/reference/cli.md ``tracker odds FILE --fight``): each side's chance to win, the
undecided, each combatant's chance to fall and to die, the rounds, the 95 % half-width, the typical run.

The half-width is the normal approximation's, 1.96 · √(p(1−p)/n), for the first side's win chance (the side of
the file's first combatant still in the fight). The typical run is the one whose winner is the likeliest, whose
length is nearest the median and whose fallen are nearest each one's chance to fall (the first such run).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from tracker.families.values import JSONObject, JSONValue
from tracker.playouts.runs import Outcome, Start

#: The normal distribution's two-sided 95 % quantile.
Z95 = 1.96


class Tally(NamedTuple):
    runs: int
    #: Each side's chance to win, in the file's order, then "undecided".
    sides: dict[str, float]
    ci95: float
    #: name → (chance to fall, chance to die).
    fates: dict[str, tuple[float, float]]
    median: int
    p90: int
    #: Why no run could be decided, when none was ("" otherwise).
    reason: str


def tally(start: Start, outcomes: Sequence[Outcome]) -> Tally:
    n = len(outcomes)
    order = list(dict.fromkeys(start.sides))
    wins = Counter(o.winner for o in outcomes)
    sides = {side: wins[side] / n for side in order}
    sides["undecided"] = wins[""] / n
    first = sides[order[0]] if order else 0.0
    ci95 = Z95 * math.sqrt(first * (1 - first) / n)
    fell, died = Counter[int](), Counter[int]()
    for o in outcomes:
        fell.update(o.fell)
        died.update(o.died)
    fates = {name: (fell[i] / n, died[i] / n) for i, name in enumerate(start.names)}
    lengths = sorted(o.rounds for o in outcomes)
    median = lengths[(n - 1) // 2]
    p90 = lengths[max(0, math.ceil(0.9 * n) - 1)]
    reason = ""
    if wins[""] == n:
        stuck = next((o.stuck for o in outcomes if o.stuck), "")
        # Who stood through every run says why no side won (a construct that ignores critical effects
        # never falls to damage [000:L419]), when some did fall.
        why = ""
        if not any(o.fell for o in outcomes):
            why = "; nobody fell"
        else:
            stood = [
                f"{', '.join(names[:2])}{' …' if len(names) > 2 else ''} ({side})"
                for side in order
                if (names := [n for i, n in enumerate(start.names) if start.sides[i] == side and not fell[i]])
            ]
            why = f"; never fell: {', '.join(stood)}" if stood else ""
        reason = stuck or f"no side won in {start.cap} rounds in any run{why}"
    return Tally(n, sides, ci95, fates, median, p90, reason)


def typical(start: Start, outcomes: Sequence[Outcome], summed: Tally) -> int:
    """The run closest to the typical one: the likeliest winner, then the length and the fallen nearest the
    median and each one's chance (the first of equals)."""
    likeliest = max(summed.sides, key=lambda side: summed.sides[side])
    winner = "" if likeliest == "undecided" else likeliest
    chances = [summed.fates[name][0] for name in start.names]

    def distance(run: int) -> tuple[bool, float]:
        o = outcomes[run]
        fallen = set(o.fell)
        spread = sum(abs((i in fallen) - p) for i, p in enumerate(chances))
        return o.winner != winner, abs(o.rounds - summed.median) / max(1, summed.median) + spread

    return min(range(len(outcomes)), key=distance)


def as_json(start: Start, summed: Tally, story: Sequence[str]) -> JSONObject:
    """The JSON docs/reference/cli.md shows for ``--json``."""
    combatants: dict[str, JSONValue] = {
        name: {"falls": round(falls, 4), "dies": round(dies, 4)} for name, (falls, dies) in summed.fates.items()
    }
    out: JSONObject = {
        "runs": summed.runs,
        "seed": start.seed,
        "rounds_cap": start.cap,
        "sides": {side: round(chance, 4) for side, chance in summed.sides.items()},
        "ci95": round(summed.ci95, 4),
        "combatants": combatants,
        "rounds": {"median": summed.median, "p90": summed.p90},
        "typical": list(story),
    }
    if summed.reason:
        out["reason"] = summed.reason
    return out


def percent(chance: float) -> str:
    """A chance as the table reads it: whole per cent, "<1 %" / ">99 %" near the ends."""
    if 0 < chance < 0.005:
        return "<1 %"
    if 0.995 < chance < 1:
        return ">99 %"
    return f"{round(100 * chance)} %"


def as_text(title: str, start: Start, summed: Tally, story: Sequence[str]) -> list[str]:
    """The figures as lines for the terminal."""
    sides = [f"{side} {'win ' if side != 'undecided' else ''}{percent(p)}" for side, p in summed.sides.items()]
    lines = [
        f"{title}: {summed.runs} runs (seed {start.seed}), at most {start.cap} rounds",
        "  " + " · ".join(sides) + f"  (± {100 * summed.ci95:.1f} points for {next(iter(summed.sides))})",
    ]
    if summed.reason:
        lines.append(f"  undecided {percent(summed.sides['undecided'])}: {summed.reason}")
    lines.append(f"  rounds: median {summed.median}, 9 runs in 10 within {summed.p90}")
    width = max((len(n) for n in summed.fates), default=0)
    for name, (falls, dies) in summed.fates.items():
        lines.append(f"  {name:<{width}}  falls {percent(falls):>5}  dies {percent(dies):>5}")
    if story:
        lines.append("a typical run:")
        lines += [f"  {line}" for line in story]
    return lines


def rating(summed: Tally, first: str) -> str:
    """One line for encounter building: how deadly the fight is for `first` (the party's side)."""
    if summed.reason:  # no run ended: a percentage would read as a verdict ("the party wins 0 %")
        return f"undecided: {summed.reason}"
    wins = summed.sides.get(first, 0.0)
    word = "deadly" if wins < 0.5 else "hard" if wins < 0.75 else "fair" if wins < 0.95 else "easy"
    who = "the party" if first == "players" else f"the {first}"
    return f"{word}: {who} wins {percent(wins)}"


def how_often(chance: float) -> str:
    """How often one falls, in words a GM reads at a glance: " in 1 of 4" below an even chance, " in 7 of 10"
    above it ("1 of 1" would read as certain when it is 98 %), " nearly always" when tenths round to all,
    and "" (it falls) when it does in every run."""
    if chance >= 1:
        return ""
    if chance < 0.5:
        return f" in 1 of {round(1 / chance)}"
    tenths = round(10 * chance)
    return " nearly always" if tenths == 10 else f" in {tenths} of 10"


def screen_line(start: Start, summed: Tally) -> str:
    """The line the GM's screen shows: "the party wins 71 % · Sofia falls in 1 of 4 · about 4 rounds"; before
    ``start`` the rating leads ("deadly: the party wins 38 %")."""
    first = start.sides[0] if start.sides else "players"
    if summed.reason:
        return f"fight odds undecided: {summed.reason}"
    parts = [rating(summed, first) if start.round == 0 else rating(summed, first).partition(": ")[2]]
    ours = [(summed.fates[n][0], n) for n, side in zip(start.names, start.sides, strict=True) if side == first]
    falls, name = max(ours, default=(0.0, ""))
    parts += [f"{name.split()[0]} falls{how_often(falls)}"] if falls >= 0.05 else []
    if summed.reason:
        parts.append("undecided")
    elif summed.median:
        parts.append(f"about {summed.median} round{'s' if summed.median != 1 else ''}")
    return " · ".join(parts)
