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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tracker.present.map.graph import (
    BANDS,
    Band,
    Ink,
    InkLine,
    MapDrawing,
    MapMark,
    MapNode,
    MapView,
    Tone,
    side_mark,
    side_tone,
)
from tracker.present.map.layout import Cell, place
from tracker.present.map.route import Box, Canvas

#: A map of more zones than this is written as a list: no terminal draws it readably, and the layout and
#: routing would make every redraw slow.
MAX_DRAWN = 60
#: How many folds of a long chain are tried.
MAX_FOLDS = 8

BAND_WORDS: dict[Band, str] = {"close": "Close", "medium": "Medium", "long": "Long", "extreme": "Extreme"}
BAND_LETTERS: dict[Band, str] = {"close": "C", "medium": "M", "long": "L", "extreme": "E"}


@dataclass(frozen=True)
class Form:
    """How much a drawing says: boxes or lines, who stands where by name, initials or count, the traits
    in the boxes or under the map, and how wide a box may grow."""

    name: str
    boxed: bool = True
    #: "names", "initials" (a combatant node: its shortest unique leading words) or "counts" per side.
    marks: str = "names"
    badges: str = "wrap"
    #: The widest a box may be, frame included.
    cap: int = 26
    #: Spaces inside the frame on either side.
    pad: int = 1


ZONE_FORMS = (
    Form("names", cap=28),
    Form("names", cap=20),
    Form("initials", marks="initials", cap=20),
    Form("initials", marks="initials", cap=14, pad=0),
    Form("counts", marks="counts", badges="legend", cap=16, pad=0),
    Form("counts", marks="counts", badges="legend", cap=9, pad=0),
)
ENGAGEMENT_FORMS = (
    Form("boxed", cap=34),
    Form("flat", boxed=False, cap=34, pad=0),
    Form("short", boxed=False, marks="initials", cap=24, pad=0),
)


# --- text helpers -------------------------------------------------------------------------------------


def cut(text: str, width: int) -> str:
    """`text` in at most `width` characters, an ellipsis marking a cut."""
    if width <= 0:
        return ""
    return text if len(text) <= width else text[: width - 1] + "…"


def initials(name: str) -> str:
    """A combatant's initials for a small box: "Ada Vance" → "AV", "Guild Thug 2" → "GT2", "Cultist" → "Cu"."""
    words = name.split()
    if len(words) == 1:
        return name[:2]
    return "".join(w if w.isdigit() else w[0] for w in words)


def unique_initials(names: Iterable[str]) -> dict[str, str]:
    """Initials for each name, longer where two would be the same ("Guard", "Gunner" → "Gua", "Gun")."""
    names = list(dict.fromkeys(names))
    out = {n: initials(n) for n in names}
    for size in range(2, 12):
        groups: dict[str, list[str]] = {}
        for n in names:
            groups.setdefault(out[n], []).append(n)
        clashes = [g for g in groups.values() if len(g) > 1]
        if not clashes:
            break
        for group in clashes:
            for n in group:
                first, *rest = n.split()
                out[n] = first[:size] + "".join(w if w.isdigit() else w[0] for w in rest)
    return out


def leading_words(names: Iterable[str]) -> dict[str, str]:
    """Each name's fewest leading words that no other name starts with: "Sofia Ramos" → "Sofia", but
    "Guild Thug" and "Guild Lieutenant" stay whole, and "Guild Thug 1" keeps its number."""
    names = list(dict.fromkeys(names))
    out = {}
    for name in names:
        words = name.split()
        for k in range(1, len(words) + 1):
            head = " ".join(words[:k])
            if not any(o != name and (o == head or o.startswith(head + " ")) for o in names):
                break
        out[name] = " ".join(words[:k]) if words else name
    return out


def ink_len(line: Sequence[Ink]) -> int:
    """How many characters the inks take."""
    return sum(len(i.text) for i in line)


def wrap_items(items: Sequence[Sequence[Ink]], width: int, gap: str = "  ") -> list[InkLine]:
    """Whole items packed into lines of `width` (an item too wide alone is cut)."""
    lines: list[list[Ink]] = []
    used = 0
    for item in items:
        size = ink_len(item)
        if lines and used + len(gap) + size <= width:
            lines[-1].append(Ink(gap))
            lines[-1].extend(item)
            used += len(gap) + size
            continue
        lines.append(list(_cut_inks(item, width)))
        used = min(size, width)
    return [tuple(line) for line in lines]


def _cut_inks(item: Sequence[Ink], width: int) -> list[Ink]:
    """The inks of `item` in at most `width` characters, an ellipsis marking a cut."""
    if ink_len(item) <= width:
        return list(item)
    out: list[Ink] = []
    left = width
    for ink in item:
        if left <= 0:
            break
        if len(ink.text) >= left:
            out.append(Ink(ink.text[: left - 1] + "…", ink.tone, ink.band))
            break
        out.append(ink)
        left -= len(ink.text)
    return out


def mark_tone(mark: MapMark) -> Tone:
    """The selected combatant highlighted, the ones out of the fight dim."""
    return "selected" if mark.selected else "down" if mark.down else ""


# --- node contents ------------------------------------------------------------------------------------


def _badge_tokens(node: MapNode) -> list[str]:
    return [f"[{b}]" for b in node.badges]


def _mark_tokens(node: MapNode, form: Form, short: dict[str, str]) -> list[list[Ink]]:
    """Who stands in a zone, as tokens: "● Ada Vance", "●AV", or "●2" per side."""
    if form.marks == "counts":
        counts: dict[int, int] = {}
        for m in node.marks:
            counts[m.side] = counts.get(m.side, 0) + 1
        selected = {m.side for m in node.marks if m.selected}
        return [
            [Ink(side_mark(side), side_tone(side)), Ink(str(n), "selected" if side in selected else "")]
            for side, n in sorted(counts.items())
        ]
    tokens = []
    for m in node.marks:
        label = m.name if form.marks == "names" else short[m.name]
        gap = " " if form.marks == "names" else ""
        tokens.append([Ink(side_mark(m.side), side_tone(m.side)), Ink(gap + label, mark_tone(m))])
    return tokens


def short_name(name: str, width: int) -> str:
    """`name` in `width` characters, keeping a trailing number whole ("Guild Th… 2"): the number is what
    tells two of a kind apart."""
    if len(name) <= width:
        return name
    head, _, number = name.rpartition(" ")
    if head and number.isdigit() and width - len(number) - 1 >= 3:
        return cut(head, width - len(number) - 1) + " " + number
    return cut(name, width)


def _combatant_line(node: MapNode, width: int, label: str | None = None) -> list[Ink]:
    """An engagement node's one line in at most `width` characters: marker, name (`label`: a shorter one;
    cut first), melee range."""
    mark = node.mark
    assert mark is not None
    note = f" {node.note}" if node.note else ""
    name = short_name(label or mark.name, max(3, width - 2 - len(note)))
    line = [Ink(side_mark(mark.side), side_tone(mark.side)), Ink(f" {name}", mark_tone(mark)), Ink(note, "dim")]
    return _cut_inks(line, width)


def _label(node: MapNode, form: Form, short: dict[str, str]) -> str | None:
    """An engagement node's name as `form` writes it: whole, or its shortest unique leading words."""
    return short.get(node.key) if node.mark is not None and form.marks == "initials" else None


def natural_width(node: MapNode, form: Form, short: dict[str, str]) -> int:
    """How wide the node's box would like to be in `form` (frame and padding included), up to the cap."""
    frame = 2  # a frame, or a port cell at either end of a line
    if node.mark is not None:
        wanted = ink_len(_combatant_line(node, 999, _label(node, form, short))) + frame + 2 * form.pad
        return min(form.cap, wanted)
    # The title, after the corner (and a stroke), and room after it for lines to join the top frame.
    title = len(node.title) + (7 if form.pad else 3)
    lines = [0]
    if form.badges == "wrap":
        lines.append(len(" ".join(_badge_tokens(node))))
    tokens = _mark_tokens(node, form, short)
    if form.marks == "names":
        lines.extend(ink_len(t) for t in tokens)
    else:
        lines.append(sum(ink_len(t) for t in tokens) + max(0, len(tokens) - 1))
    content = max(lines) + 2 + 2 * form.pad
    # The band in the bottom frame: a word (" Medium " after a stroke) where the form has room for words.
    foot = len(BAND_WORDS[node.band]) + 6 if node.band and form.pad else 0
    return max(5, min(form.cap, max(title, content, foot)))


def contents(node: MapNode, form: Form, inner: int, short: dict[str, str]) -> list[InkLine]:
    """The lines inside a box `inner` characters wide (or the one line of an unboxed node)."""
    if node.mark is not None:
        return [tuple(_combatant_line(node, inner, _label(node, form, short)))]
    out: list[InkLine] = []
    if form.badges == "wrap" and node.badges:
        # A badge wider than the box breaks between its words rather than losing its end.
        words = [[w] for t in _badge_tokens(node) for w in ([t] if len(t) <= inner else t.split())]
        out += wrap_items([[Ink(w, "badge") for w in word] for word in words], inner, " ")
    tokens = _mark_tokens(node, form, short)
    if form.marks == "names":
        out += [tuple(_cut_inks(t, inner)) for t in tokens]
    elif tokens:
        out += wrap_items(tokens, inner, " ")
    return out


# --- the plan: cells, column widths, row heights, gaps ------------------------------------------------


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


def frame_texts(node: MapNode, form: Form, width: int) -> tuple[str, str]:
    """The title for a box's top frame and the range band for its bottom frame, cut to its `width`."""
    title = ""
    if node.title:
        room = width - (5 if form.pad else 2)
        title = f" {cut(node.title, room)} " if form.pad else cut(node.title, room)
    foot = ""
    if node.band is not None:
        word = BAND_WORDS[node.band]
        foot = f" {word} " if form.pad and width - 4 >= len(word) + 2 else BAND_LETTERS[node.band]
    return title, foot


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


# --- legend, notes, the list form -----------------------------------------------------------------------


def legend(view: MapView, p: Plan | None, width: int) -> list[InkLine]:
    """The markers of the sides on the map, what dim means, whose ranges the bands are (and, where a box
    writes its band as a letter, the letters with their shading), and the traits when the boxes leave
    them out."""
    items: list[list[Ink]] = []
    marks = [m for n in view.nodes for m in ((n.mark,) if n.mark else n.marks)]
    for side in sorted({m.side for m in marks}):
        items.append([Ink(side_mark(side), side_tone(side)), Ink(f" {view.sides[side]}")])
    if any(m.down for m in marks):
        items.append([Ink("dim", "down"), Ink(": out of the fight")])
    if view.focus and any(n.band for n in view.nodes):
        if p is not None and not p.letters:
            items.append([Ink(f"ranges from {view.focus}", "bold")])
        else:
            label = Ink(f"from {view.focus}:", "bold")
            samples = [Ink(f"{BAND_LETTERS[b]} {BAND_WORDS[b]}", band=b) for b in BANDS]
            whole = [label, *(ink for sample in samples for ink in (Ink(" "), sample))]
            items += [whole] if ink_len(whole) <= width else [[label], *([s] for s in samples)]
    out = wrap_items(items, width)
    if p is not None and p.form.badges == "legend":
        traits = [
            [Ink(f"{n.title} ", "bold"), Ink(" ".join(f"[{b}]" for b in n.badges), "badge")]
            for n in view.nodes
            if n.badges
        ]
        if traits:
            out += wrap_items([[Ink("Traits:")], *traits], width)
    return out


def note_lines(view: MapView, width: int) -> list[InkLine]:
    """The family's notes under the map (a Block of spans) as ink lines, wrapped at word breaks."""
    lines: list[list[Ink]] = [[]]
    for span in view.notes:
        for n, part in enumerate(span.text.split("\n")):
            if n:
                lines.append([])
            if part:
                lines[-1].append(Ink(part, span.emphasis))
    if not lines[-1]:
        lines.pop()
    out: list[InkLine] = []
    for line in lines:
        words = [[Ink(word, ink.tone)] for ink in line for word in ink.text.split()]
        out += wrap_items(words, width, " ") if words else [()]
    return out


def unrouted_lines(missed: Sequence[tuple[str, str]], titles: dict[str, str], width: int) -> list[InkLine]:
    """The edges no line could join, by name: "Not drawn: Pier — Warehouse · Yard — Roof"."""
    items = [[Ink(f"{titles[a]} — {titles[b]}")] for a, b in missed]
    if not items:
        return []
    items[0] = [Ink("Not drawn: ", "bold"), *items[0]]
    return wrap_items(items, width, " · ")


def as_list(view: MapView, width: int) -> list[InkLine]:
    """The map written out when no drawing fits: each node, its links, who stands there."""
    nodes = {n.key: n for n in view.nodes}
    links: dict[str, list[str]] = {n.key: [] for n in view.nodes}
    for a, b in view.edges:
        if a in links and b in links:
            links[a].append(b)
            links[b].append(a)
    out: list[InkLine] = []
    for node in view.nodes:
        head: list[Ink] = []
        if node.mark is not None:
            head += _combatant_line(node, 999)
        else:
            head.append(Ink(node.title, "focus" if node.focus else "title"))
        if node.band:
            head.append(Ink(f" {BAND_WORDS[node.band]}", band=node.band))
        if node.badges:
            head.append(Ink(" " + " ".join(_badge_tokens(node)), "badge"))
        near = [nodes[k].title or k for k in links[node.key]]
        head.append(Ink(f" → {', '.join(near) or '—'}"))
        out.append(tuple(head))
        tokens = _mark_tokens(node, Form("list"), {})
        if tokens:
            out += wrap_items([[Ink("  ")], *tokens], width, " ")
    return out


# --- choosing and drawing -------------------------------------------------------------------------------


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
