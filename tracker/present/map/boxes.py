"""What a node's box says in each form of the drawing: the forms, richest first; who stands in a zone, its
traits and range band; an engagement node's one line; and how wide each box would like to be."""

from __future__ import annotations

from dataclasses import dataclass

from tracker.present.map.graph import Band, Ink, InkLine, MapNode, side_mark, side_tone
from tracker.present.map.text import cut, cut_inks, ink_len, mark_tone, short_name, wrap_items

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


def badge_tokens(node: MapNode) -> list[str]:
    return [f"[{b}]" for b in node.badges]


def mark_tokens(node: MapNode, form: Form, short: dict[str, str]) -> list[list[Ink]]:
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


def combatant_line(node: MapNode, width: int, label: str | None = None) -> list[Ink]:
    """An engagement node's one line in at most `width` characters: marker, name (`label`: a shorter one;
    cut first), melee range."""
    mark = node.mark
    assert mark is not None
    note = f" {node.note}" if node.note else ""
    name = short_name(label or mark.name, max(3, width - 2 - len(note)))
    line = [Ink(side_mark(mark.side), side_tone(mark.side)), Ink(f" {name}", mark_tone(mark)), Ink(note, "dim")]
    return cut_inks(line, width)


def _label(node: MapNode, form: Form, short: dict[str, str]) -> str | None:
    """An engagement node's name as `form` writes it: whole, or its shortest unique leading words."""
    return short.get(node.key) if node.mark is not None and form.marks == "initials" else None


def natural_width(node: MapNode, form: Form, short: dict[str, str]) -> int:
    """How wide the node's box would like to be in `form` (frame and padding included), up to the cap."""
    frame = 2  # a frame, or a port cell at either end of a line
    if node.mark is not None:
        wanted = ink_len(combatant_line(node, 999, _label(node, form, short))) + frame + 2 * form.pad
        return min(form.cap, wanted)
    # The title, after the corner (and a stroke), and room after it for lines to join the top frame.
    title = len(node.title) + (7 if form.pad else 3)
    lines = [0]
    if form.badges == "wrap":
        lines.append(len(" ".join(badge_tokens(node))))
    tokens = mark_tokens(node, form, short)
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
        return [tuple(combatant_line(node, inner, _label(node, form, short)))]
    out: list[InkLine] = []
    if form.badges == "wrap" and node.badges:
        # A badge wider than the box breaks between its words rather than losing its end.
        words = [[w] for t in badge_tokens(node) for w in ([t] if len(t) <= inner else t.split())]
        out += wrap_items([[Ink(w, "badge") for w in word] for word in words], inner, " ")
    tokens = mark_tokens(node, form, short)
    if form.marks == "names":
        out += [tuple(cut_inks(t, inner)) for t in tokens]
    elif tokens:
        out += wrap_items(tokens, inner, " ")
    return out


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
