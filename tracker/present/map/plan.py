"""One way to draw the map and the drawing it makes: each node's cell, the column widths, row heights and
the gaps the lines between them need (`plan`); the boxes drawn and the lines routed (`render`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tracker.present.map.boxes import Form, contents, frame_texts, natural_width
from tracker.present.map.graph import InkLine, MapView
from tracker.present.map.layout import Cell
from tracker.present.map.route import Box, Canvas
from tracker.present.map.text import ink_len


@dataclass
class Plan:
    """One way to draw the map: the form, each node's cell, and the sizes that follow."""

    form: Form
    cells: dict[str, Cell]
    col_x: list[int]
    col_w: list[int]
    row_y: list[int]
    row_h: list[int]
    width: int
    height: int
    lines: dict[str, list[InkLine]]
    widths: dict[str, int]
    #: Some box writes its range band as a letter (the legend then says what the letters stand for).
    letters: bool = False


def _lanes(
    cells: dict[str, Cell], edges: Sequence[tuple[str, str]], cols: int, rows: int
) -> tuple[list[int], list[int]]:
    """How many lines each gap must carry beside straight ones: column gaps (after each column) and row
    gaps (after each row), counted from where the edge's two ends sit."""
    col_lanes, row_lanes = [0] * cols, [0] * rows
    for a, b in edges:
        (ca, ra), (cb, rb) = cells[a], cells[b]
        if (ra == rb and abs(ca - cb) == 1) or (ca == cb and abs(ra - rb) == 1):
            continue
        if abs(ca - cb) == 1:
            col_lanes[min(ca, cb)] += 1
        elif ca == cb:
            col_lanes[ca] += 1
        elif ra == rb:
            row_lanes[ra] += 1
        else:
            col_lanes[min(ca, cb)] += 1
            row_lanes[min(ra, rb)] += 1
    return col_lanes, row_lanes


def plan(view: MapView, form: Form, cells: dict[str, Cell], short: dict[str, str]) -> Plan:
    """Sizes for drawing `view` in `form` with the nodes at `cells`."""
    nodes = {n.key: n for n in view.nodes}
    cols = max(c for c, _ in cells.values()) + 1
    rows = max(r for _, r in cells.values()) + 1
    widths = {k: natural_width(nodes[k], form, short) for k in cells}
    col_w = [0] * cols
    for k, (c, _) in cells.items():
        col_w[c] = max(col_w[c], widths[k])
    lines: dict[str, list[InkLine]] = {}
    row_h = [1] * rows
    for k, (c, r) in cells.items():
        if form.boxed:
            inner = col_w[c] - 2 - 2 * form.pad
            lines[k] = contents(nodes[k], form, inner, short)
            row_h[r] = max(row_h[r], 2 + max(1, len(lines[k])))
        else:
            lines[k] = contents(nodes[k], form, widths[k] - 2, short)
            widths[k] = ink_len(lines[k][0]) + 2
    col_lanes, row_lanes = _lanes(cells, [e for e in view.edges if e[0] in cells and e[1] in cells], cols, rows)
    col_x, x = [], 0
    for c in range(cols):
        col_x.append(x)
        # Between columns a lane has a stroke either side; past the last one it needs only the one before.
        least = 3 if form.boxed else 1  # a line between frames needs a stroke; a line of text has its end cells
        gap = max(least, 2 * col_lanes[c] + 1) if c < cols - 1 else 2 * col_lanes[c]
        x += col_w[c] + gap
    row_y, y = [], 0
    for r in range(rows):
        row_y.append(y)
        gap = max(1, 2 * row_lanes[r] + 1) if r < rows - 1 else 2 * row_lanes[r]
        y += row_h[r] + gap
    letters = form.boxed and any(
        len(frame_texts(nodes[k], form, col_w[c])[1]) == 1 for k, (c, _) in cells.items() if nodes[k].band
    )
    return Plan(form, cells, col_x, col_w, row_y, row_h, x, y, lines, widths, letters)


@dataclass
class Drawn:
    """A plan drawn: its lines, the edges no line could join, and how tangled it came out."""

    plan: Plan
    lines: list[InkLine]
    missed: list[tuple[str, str]]
    #: Lower is better: a missed edge outweighs everything, then crossings, bends and length.
    cost: int


def render(view: MapView, p: Plan) -> Drawn:
    """Draw the plan: its boxes, then its lines shortest first; the edges no line could join."""
    nodes = {n.key: n for n in view.nodes}
    canvas = Canvas(p.width, p.height)
    boxes: dict[str, Box] = {}
    for key, (c, r) in p.cells.items():
        node = nodes[key]
        w = p.col_w[c] if p.form.boxed else p.widths[key]
        h = p.row_h[r] if p.form.boxed else 1
        title, foot = frame_texts(node, p.form, w) if p.form.boxed else ("", "")
        box = Box(key, p.col_x[c], p.row_y[r], w, h, p.form.boxed, node.focus, title, foot, p.lines[key])
        box.pad, box.band = p.form.pad, node.band
        canvas.draw_box(box)
        boxes[key] = box
    edges = [e for e in view.edges if e[0] in boxes and e[1] in boxes and e[0] != e[1]]

    def length(e: tuple[str, str]) -> int:
        (ca, ra), (cb, rb) = p.cells[e[0]], p.cells[e[1]]
        return abs(ca - cb) + abs(ra - rb)

    missed = []
    forking = view.kind == "engagements"
    for edge in sorted(edges, key=length):
        path = canvas.route(boxes[edge[0]], boxes[edge[1]], forking)
        if path is None:
            missed.append(edge)
        else:
            canvas.lay(edge, path)
    bends, crossings, cells = canvas.tangle()
    cost = 1000 * len(missed) + 10 * crossings + 6 * bends + cells // 3
    return Drawn(p, canvas.lines(), [e for e in edges if e in missed], cost)
