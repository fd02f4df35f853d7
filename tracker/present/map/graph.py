"""The battle map as a family builds it: places as nodes, what joins them as edges, who stands where.

Both families draw a small graph: the 2d20 zones (a node per zone, an edge per border, the combatants in
each zone, the selected combatant's range bands) and the Through the Breach melee engagements (a node per
engaged character with its melee range, an edge per engagement). The family fills these plain values;
`tracker.present.map.draw` lays them out and draws them into lines of `Ink` for whatever room the panel has,
and the screen only colours the inks. Nothing here knows Textual, and nothing here is imported before a
map is first shown (the screen's first frame must not pay for it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tracker.present.view import Block

#: The marker of each side, in the order `MapView.sides` lists them: a side is told by its symbol as well
#: as by its colour (a colour-blind GM, a monochrome terminal). More sides than markers reuse them.
SIDE_MARKS: tuple[str, ...] = ("●", "▲", "■", "◆", "★", "✚")

#: Range bands, nearest first (docs/rules/2d20-combat.md#s3-6): how a zone's box is shaded from the selected combatant.
Band = Literal["close", "medium", "long", "extreme"]
BANDS: tuple[Band, ...] = ("close", "medium", "long", "extreme")

#: How a run of the drawing looks: the emphases a `Span` has, and the map's own roles. The screen maps
#: each to its theme (sides by colour, bands by background).
Tone = Literal[
    "",
    "bold",
    "dim",
    "italic",
    "key",
    "frame",
    "focus",
    "title",
    "badge",
    "edge",
    "down",
    "selected",
    "side0",
    "side1",
    "side2",
    "side3",
    "side4",
    "side5",
]


def side_tone(side: int) -> Tone:
    """The tone of side number `side` (its colour on screen)."""
    tones: tuple[Tone, ...] = ("side0", "side1", "side2", "side3", "side4", "side5")
    return tones[side % len(tones)]


def side_mark(side: int) -> str:
    """The marker of side number `side`."""
    return SIDE_MARKS[side % len(SIDE_MARKS)]


@dataclass(frozen=True, slots=True)
class MapMark:
    """Someone on the map: drawn as their side's marker and their name (or initials, or a count)."""

    name: str
    #: Index into `MapView.sides`.
    side: int
    #: Out of the fight for now (defeated, unconscious): drawn dim.
    down: bool = False
    #: The selected combatant: drawn highlighted.
    selected: bool = False


@dataclass(frozen=True, slots=True)
class MapNode:
    """A place on the map (a zone), or a combatant (a node of the engagement map).

    A zone has a `title` (drawn in its box's top border), `badges` (its terrain traits), `marks` (who
    stands there) and a `band` (its range from the selected combatant). A combatant node has `mark`
    (itself) and a `note` (its melee range, "1y").
    """

    #: What edges name the node by (the zone's or the combatant's name).
    key: str
    title: str = ""
    badges: tuple[str, ...] = ()
    marks: tuple[MapMark, ...] = ()
    band: Band | None = None
    #: Where the GM placed it (``at = [col, row]``); None: laid out automatically.
    at: tuple[int, int] | None = None
    mark: MapMark | None = None
    note: str = ""
    #: Drawn with a heavy frame: the selected combatant's zone, or the selected combatant.
    focus: bool = False


@dataclass(frozen=True, slots=True)
class MapView:
    """One map as the family builds it: nodes in the file's order, edges between their keys.

    `kind` says how nodes are drawn: "zones" as boxes holding who stands there, "engagements" as one
    line per combatant (boxed when there is room). `notes` go under the map (the disengaging strikes the
    selected combatant would provoke); `empty` is said instead of a map when there are no nodes.
    """

    kind: Literal["zones", "engagements"]
    nodes: tuple[MapNode, ...]
    edges: tuple[tuple[str, str], ...]
    #: Side names, players first: `MapMark.side` indexes this (the legend names each with its marker).
    sides: tuple[str, ...]
    #: Whose range bands are shaded ("From Ada Vance:" in the legend); None: no bands.
    focus: str | None = None
    notes: Block = ()
    empty: str = ""


@dataclass(frozen=True, slots=True)
class Ink:
    """A run of the drawn map: its text, how it looks (`tone`) and the range band shading it (`band`)."""

    text: str
    tone: Tone = ""
    band: Band | None = None


#: One line of the drawn map.
InkLine = tuple[Ink, ...]


@dataclass(frozen=True, slots=True)
class MapDrawing:
    """The map drawn for a width: its lines (map, legend, notes), which form was chosen, and the edges
    that could not be drawn cleanly (listed under the map instead)."""

    lines: tuple[InkLine, ...]
    #: "names", "initials", "counts" (zones; "boxed", "flat", "short" for engagements), or "list".
    form: str
    unrouted: tuple[tuple[str, str], ...] = ()
    #: How many of `lines` are the map itself (the rest: legend, unrouted edges, notes).
    height: int = 0

    def plain(self) -> str:
        """The drawing as plain text (tests, the log of a try-out)."""
        return "\n".join("".join(ink.text for ink in line) for line in self.lines)
