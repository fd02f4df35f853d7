"""The title line, shortened by priority so what matters mid-fight survives a narrow terminal.

Kept apart from the screen so it can be tested on its own: the round, whose turn it is and the pools
(GM pool and Momentum) stay; the family's name and then the encounter's name give way first, cut with
an ellipsis before they are dropped. A part that must not be cut mid-word (a figure: "Ash falls in 1 o…"
would mislead) is given with a third element, False, and is dropped whole instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.present.view import HeaderView

SEPARATOR = " · "
#: A part cut shorter than this is dropped instead (an ellipsis after two letters helps nobody).
SHORTEST = 8


#: A title part: its text, its priority (higher stays longer; in tens, so a part can slot between two)
#: and, optionally, whether it may be cut.
Part = tuple[str, int] | tuple[str, int, bool]


def title_parts(
    header: HeaderView,
    read_only: bool,
    at_table: tuple[str, ...] = (),
    waiting_on: str | None = None,
    table_closed: bool = False,
) -> list[Part]:
    """The title's parts in reading order, each with its priority (higher stays longer). `at_table`: who is
    connected from their own terminals; `waiting_on`: the player whose answer the question waits for;
    `table_closed`: players cannot connect (the log's first line says why, and the fix)."""
    parts: list[Part] = [("VIEW ONLY", 60)] if read_only else []
    parts += [(header.encounter, 10), (header.family, 20), (header.where, 50)]
    if header.pools:
        parts.append((header.pools, 30))
    if header.active:
        parts.append((f"{header.active}'s turn", 40))
    if waiting_on:
        parts.append((f"waiting for {waiting_on}", 40))
    if at_table:
        parts.append((f"at the table: {', '.join(at_table)}", 20))
    if table_closed:
        # Below the pools and the turn: the log's first line keeps saying it, with the fix, on any width.
        parts.append(("TABLE CLOSED to players: see the log", 20))
    return parts


def fit_title(parts: Sequence[Part], width: int) -> str:
    """Join the parts; while too long, cut then drop the lowest-priority part (drop only, for a part that
    may not be cut)."""
    texts = {i: part[0] for i, part in enumerate(parts)}
    for i in sorted(texts, key=lambda i: parts[i][1]):
        line = SEPARATOR.join(texts[k] for k in sorted(texts))
        if len(line) <= width:
            return line
        room = len(texts[i]) - (len(line) - width)
        if room >= SHORTEST and (len(parts[i]) < 3 or parts[i][-1] is True):
            texts[i] = texts[i][: room - 1] + "…"
        else:
            del texts[i]
    line = SEPARATOR.join(texts[k] for k in sorted(texts))
    return line if len(line) <= width else line[: max(0, width - 1)] + "…"
