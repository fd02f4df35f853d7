"""What the GM's screen works out without Textual: which classes its size earns, and which turn the state is in
(a new turn moves the selection to whoever acts)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.geometry import Size

from tracker.engine.log import LogEntry

#: Textual's breakpoints: (threshold in cells, class name).
Breakpoints = list[tuple[int, str]]


def breakpoint_classes(size: Size, horizontal: Breakpoints, vertical: Breakpoints) -> list[str]:
    """The classes Textual's breakpoints give a screen of `size` (the largest threshold reached on each axis)."""
    classes = []
    for dimension, breakpoints in ((size.width, horizontal), (size.height, vertical)):
        reached = [(at, name) for at, name in breakpoints if dimension >= at]
        if reached:
            classes.append(max(reached)[1])
    return classes


def turn_mark(round_no: int, active: str | None, log: Sequence[LogEntry], logged: int) -> tuple[int, str | None, int]:
    """Which turn the state is in: the round, who acts, and the number (counting every entry ever written) of
    the log entry that opened the turn, the first of the last run of entries written while `active` acted.

    Every turn start writes an entry under its actor, and nothing between two turns is written under one (the
    end of a round, the Reactivate offer, a hand-over question have no actor), so the same combatant acting
    again at once still starts a new run: a new mark.
    """
    start = len(log)
    while start > 0 and log[start - 1].actor == active:
        start -= 1
    return (round_no, active, logged - len(log) + start)


def same_turn(before: tuple[int, str | None, int] | None, now: tuple[int, str | None, int], oldest: int) -> bool:
    """Whether `now` is the turn `before` was. A turn whose entries fill the whole kept log (`oldest` is the
    number of its first kept entry) has lost its opening entry, and its mark moves as entries are dropped: the
    same round and actor are then the same turn."""
    if before is None:
        return False
    return before == now or (before[:2] == now[:2] and now[2] == oldest)
