"""Text for the map's small rooms: names cut or shortened to initials and leading words, and lines of `Ink`
measured, cut and wrapped."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tracker.present.map.graph import Ink, InkLine, MapMark, Tone


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


def short_name(name: str, width: int) -> str:
    """`name` in `width` characters, keeping a trailing number whole ("Guild Th… 2"): the number is what
    tells two of a kind apart."""
    if len(name) <= width:
        return name
    head, _, number = name.rpartition(" ")
    if head and number.isdigit() and width - len(number) - 1 >= 3:
        return cut(head, width - len(number) - 1) + " " + number
    return cut(name, width)


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
        lines.append(list(cut_inks(item, width)))
        used = min(size, width)
    return [tuple(line) for line in lines]


def cut_inks(item: Sequence[Ink], width: int) -> list[Ink]:
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
