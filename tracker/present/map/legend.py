"""What is written around and instead of the drawing: the legend, the family's notes, the edges no line
could join, and the map as a list when no drawing fits."""

from __future__ import annotations

from collections.abc import Sequence

from tracker.present.map.boxes import BAND_LETTERS, BAND_WORDS, Form, badge_tokens, combatant_line, mark_tokens
from tracker.present.map.graph import BANDS, Ink, InkLine, MapView, side_mark, side_tone
from tracker.present.map.plan import Plan
from tracker.present.map.text import ink_len, wrap_items


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
            head += combatant_line(node, 999)
        else:
            head.append(Ink(node.title, "focus" if node.focus else "title"))
        if node.band:
            head.append(Ink(f" {BAND_WORDS[node.band]}", band=node.band))
        if node.badges:
            head.append(Ink(" " + " ".join(badge_tokens(node)), "badge"))
        near = [nodes[k].title or k for k in links[node.key]]
        head.append(Ink(f" → {', '.join(near) or '—'}"))
        out.append(tuple(head))
        tokens = mark_tokens(node, Form("list"), {})
        if tokens:
            out += wrap_items([[Ink("  ")], *tokens], width, " ")
    return out
