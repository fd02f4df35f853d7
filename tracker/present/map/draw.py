"""Drawing a `MapView` into lines of `Ink` for the room a panel has: boxes, lines between them, a legend.

The map is laid out on a grid of cells (`tracker.present.map.layout`), then drawn into a character grid:
each node a box (a zone's name in its top border, its traits as badges, who stands there, its range band
in the bottom border) or, for the engagement map, one line per combatant. Every column of cells is as
wide as its widest box and every row as tall as its tallest, and the gaps between them are as wide as
the lines routed through them need. Lines are routed orthogonally in the gaps by a small A* search over
the character grid (`tracker.present.map.route`), so lines come out straight where they can and bend once
where they must; an edge no line can join is listed under the map ("Not drawn: Pier — Warehouse").

The drawing comes in forms, richest first (names and traits in full; initials; counts per side with the
traits listed under the map), each tried with the layers as columns and as rows and the map's parts
stacked or side by side. The first that fits the width and height is drawn; when none fits the height,
the shortest that fits the width; when none fits the width, the map is written as a list.

This module chooses; what a box says in each form is `tracker.present.map.boxes`, the sizes and the drawing
of one layout in one form `tracker.present.map.plan`, the legend, notes and list form
`tracker.present.map.legend`, and the cutting and wrapping of text `tracker.present.map.text`.
"""

from __future__ import annotations

from tracker.present.map.boxes import ENGAGEMENT_FORMS, ZONE_FORMS
from tracker.present.map.graph import Ink, InkLine, MapDrawing, MapView
from tracker.present.map.layout import Cell, place
from tracker.present.map.legend import as_list, legend, note_lines, unrouted_lines
from tracker.present.map.plan import Drawn, Plan, plan, render
from tracker.present.map.text import leading_words, unique_initials

#: A map of more zones than this is written as a list: no terminal draws it readably, and the layout and
#: routing would make every redraw slow.
MAX_DRAWN = 60
#: How many folds of a long chain are tried.
MAX_FOLDS = 8


def layouts(view: MapView) -> list[dict[str, Cell]]:
    """The layouts to try: the GM's (any node placed), else layers as columns and as rows, the map's
    parts stacked and side by side, then long parts folded to snake down a narrow panel (duplicates
    dropped)."""
    names = [n.key for n in view.nodes]
    fixed = {n.key: n.at for n in view.nodes if n.at is not None}
    if fixed:
        return [place(names, view.edges, fixed)]
    out: list[dict[str, Cell]] = []
    tries = [(turned, chained, 0) for turned in (False, True) for chained in (False, True)]
    deepest = max(c for c, _ in place(names, view.edges, {}).values()) + 1
    folds = range(deepest - 1, 1, -1)
    step = max(1, len(folds) // MAX_FOLDS)  # a long chain tries a few folds, not every one
    tries += [(False, False, fold) for fold in folds[::step]]
    for turned, chained, fold in tries:
        cells = place(names, view.edges, {}, turned=turned, chained=chained, fold=fold)
        if cells not in out:
            out.append(cells)
    return out


def draw_map(view: MapView, width: int, height: int) -> MapDrawing:
    """`view` drawn for a panel `width` columns wide and `height` rows tall (see the module docstring).

    Of the layouts the richest form fits in both, the least tangled is drawn (fewest edges left out,
    then crossings, bends and length of line). When no form fits the height, the shortest drawing that
    fits the width (the richest form of that height, the least tangled layout); else the list.
    """
    width = max(1, width)
    notes = note_lines(view, width)
    if not view.nodes:
        lines: list[InkLine] = [(Ink(view.empty, "italic"),)] if view.empty else []
        return MapDrawing(tuple(lines + notes), "empty")
    if len(view.nodes) > MAX_DRAWN:
        return MapDrawing(tuple(as_list(view, width) + notes + legend(view, None, width)), "list")
    short = unique_initials(m.name for n in view.nodes for m in n.marks)
    short |= leading_words(n.key for n in view.nodes if n.mark is not None)
    forms = ZONE_FORMS if view.kind == "zones" else ENGAGEMENT_FORMS
    cells_tried = layouts(view)
    too_tall: list[tuple[int, int, Plan]] = []
    for rank, form in enumerate(forms):
        fits = []
        for cells in cells_tried:
            p = plan(view, form, cells, short)
            if p.width > width:
                continue
            total = p.height + len(legend(view, p, width)) + len(notes)
            if total <= height:
                fits.append(p)
            else:
                too_tall.append((total, rank, p))
        if fits:
            return _finish(view, min((render(view, p) for p in fits), key=lambda d: d.cost), width)
    if not too_tall:
        listed = as_list(view, width)
        return MapDrawing(tuple(listed + notes + legend(view, None, width)), "list")
    total, rank = min((t, r) for t, r, _ in too_tall)
    plans = [p for t, r, p in too_tall if (t, r) == (total, rank)]
    return _finish(view, min((render(view, p) for p in plans), key=lambda d: d.cost), width)


def _finish(view: MapView, drawn: Drawn, width: int) -> MapDrawing:
    """The drawing, then the edges it left out, the family's notes (what the GM asks of the map: the
    disengaging strikes of a walk), and the legend last: on a short panel the legend is what scrolls."""
    titles = {n.key: n.title or n.key for n in view.nodes}
    tail = unrouted_lines(drawn.missed, titles, width) + note_lines(view, width) + legend(view, drawn.plan, width)
    return MapDrawing(tuple(drawn.lines + tail), drawn.plan.form.name, tuple(drawn.missed), len(drawn.lines))
