"""Drawing the map (README "The map"): every zone's name in its box, every border drawn as a line from box
to box (checked by tracing the drawn characters) or listed under the map, each side's marker before its
people, the selected combatant's range bands shaded (docs/rules/2d20-combat.md#s3-6), and a form for every panel
size."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.present.map import route as maproute
from tracker.present.map.draw import draw_map
from tracker.present.map.graph import MapDrawing, MapMark, MapNode, MapView
from tracker.present.map.text import initials, short_name, unique_initials
from tracker.present.view import Span

N, E, S, W = "N", "E", "S", "W"
BACK = {N: S, S: N, E: W, W: E}
STEP = {N: (0, -1), S: (0, 1), E: (1, 0), W: (-1, 0)}
#: Line characters and the directions they join.
LINKS = {
    "─": {E, W},
    "│": {N, S},
    "┌": {E, S},
    "┐": {W, S},
    "└": {N, E},
    "┘": {N, W},
    "┼": {N, E, S, W},
}
#: A frame's junction characters and the way their line leaves the box.
JUNCTIONS = {"┴": N, "┷": N, "┬": S, "┯": S, "┤": W, "┨": W, "├": E, "┠": E}


@dataclass(frozen=True)
class Frame:
    title: str
    x0: int
    y0: int
    x1: int
    y1: int

    def holds(self, x: int, y: int) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1


def frames(grid: list[str]) -> list[Frame]:
    """Every box in the drawing, with the title written in its top frame."""
    out = []
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            if ch not in "╭┏":
                continue
            x1 = next(i for i in range(x + 1, len(row)) if row[i] in "╮┓")
            y1 = next(j for j in range(y + 1, len(grid)) if x1 < len(grid[j]) and grid[j][x1] in "╯┛")
            title = "".join(c for c in row[x + 1 : x1] if c not in "─━┴┷┬┯").strip()
            out.append(Frame(title, x, y, x1, y1))
    return out


def at(grid: list[str], x: int, y: int) -> str:
    return grid[y][x] if 0 <= y < len(grid) and 0 <= x < len(grid[y]) else " "


def traced(drawing: MapDrawing) -> list[frozenset[str]]:
    """The boxes each drawn line joins, found by walking the characters from every junction on a frame to
    the junction at its other end (straight through a crossing). A line that ends anywhere else fails."""
    grid = drawing.plain().splitlines()[: drawing.height]
    boxes = frames(grid)
    joined = []
    for box in boxes:
        for y in range(box.y0, box.y1 + 1):
            for x in range(box.x0, box.x1 + 1):
                ch = at(grid, x, y)
                if ch not in JUNCTIONS or not (x in (box.x0, box.x1) or y in (box.y0, box.y1)):
                    continue
                d = JUNCTIONS[ch]
                cx, cy = x + STEP[d][0], y + STEP[d][1]
                for _ in range(10_000):
                    here = at(grid, cx, cy)
                    other = next((b for b in boxes if b.holds(cx, cy)), None)
                    if other is not None:
                        assert JUNCTIONS.get(here) == BACK[d], f"a line runs into {other.title} at {cx},{cy}"
                        joined.append(frozenset((box.title, other.title)))
                        break
                    assert here in LINKS and BACK[d] in LINKS[here], f"a line breaks off at {cx},{cy}"
                    if here != "┼":
                        d = next(iter(LINKS[here] - {BACK[d]}))
                    cx, cy = cx + STEP[d][0], cy + STEP[d][1]
    return joined


def zone_view(
    names: list[str],
    edges: list[tuple[str, str]],
    people: dict[str, list[MapMark]] | None = None,
    bands: dict[str, str] | None = None,
    focus: str | None = None,
    traits: dict[str, tuple[str, ...]] | None = None,
    at_cells: dict[str, tuple[int, int]] | None = None,
) -> MapView:
    people, bands, traits, at_cells = people or {}, bands or {}, traits or {}, at_cells or {}
    nodes = tuple(
        MapNode(
            n,
            n,
            traits.get(n, ()),
            tuple(people.get(n, ())),
            bands.get(n),  # type: ignore[arg-type]
            at_cells.get(n),
            focus=any(m.selected for m in people.get(n, ())),
        )
        for n in names
    )
    return MapView("zones", nodes, tuple(edges), ("players", "npcs"), focus)


def harbour() -> MapView:
    """The harbour of examples/skirmish_srd.toml with Ada Vance selected on the Pier."""
    return zone_view(
        ["Pier", "Boathouse", "Crane", "Yard", "Warehouse"],
        [("Pier", "Boathouse"), ("Pier", "Crane"), ("Boathouse", "Yard"), ("Crane", "Yard"), ("Yard", "Warehouse")],
        people={
            "Pier": [MapMark("Ada Vance", 0, selected=True)],
            "Boathouse": [MapMark("Brann Okafor", 0)],
            "Crane": [MapMark("Cultist", 1, down=True)],
            "Yard": [MapMark("Cult Enforcer", 1)],
            "Warehouse": [MapMark("Cult Priest", 1)],
        },
        bands={"Pier": "close", "Boathouse": "medium", "Crane": "medium", "Yard": "long", "Warehouse": "extreme"},
        focus="Ada Vance",
        traits={"Pier": ("Slippery",), "Boathouse": ("Cover",), "Crane": ("High ground",), "Warehouse": ("Dark",)},
    )


#: The map's room at the three screen sizes: the 80×24 side panel (full width, 10 rows), the 120×40 one
#: (44 columns, 18 rows) and the 200×60 one (half the width while the map shows).
PANELS = [(78, 10), (41, 18), (97, 44)]


@pytest.mark.parametrize(("width", "height"), PANELS)
def test_every_zone_name_and_border_is_drawn_at_each_size(width: int, height: int) -> None:
    view = harbour()
    drawing = draw_map(view, width, height)
    text = drawing.plain()
    assert all(len(line) <= width for line in text.splitlines())
    for zone in ("Pier", "Boathouse", "Crane", "Yard", "Warehouse"):
        assert zone in text
    assert drawing.unrouted == ()
    assert sorted(map(sorted, traced(drawing))) == sorted(sorted(e) for e in view.edges for _ in (0, 1))


@pytest.mark.parametrize(("width", "height"), PANELS)
def test_the_map_fits_the_panel_height_when_it_can(width: int, height: int) -> None:
    """The richest form whose map and legend fit the panel: at 80×24, ten rows."""
    drawing = draw_map(harbour(), width, height)
    assert len(drawing.lines) <= height
    assert drawing.form == "names"


def test_a_small_panel_falls_back_to_initials_then_counts() -> None:
    view = harbour()
    assert draw_map(view, 32, 40).form == "initials"
    counts = draw_map(view, 22, 60)
    assert counts.form == "counts"
    text = counts.plain()
    assert "●1" in text and "▲1" in text
    assert "Traits:" in text and "[High ground]" in text  # the traits move under the map


def test_a_panel_too_narrow_for_any_drawing_gets_the_list() -> None:
    drawing = draw_map(harbour(), 12, 40)
    assert drawing.form == "list"
    text = drawing.plain()
    assert "Pier Close [Slippery] → Boathouse, Crane" in text
    assert "● Ada Vance" in text


def test_markers_tell_the_sides_apart_with_a_legend() -> None:
    names = draw_map(harbour(), 97, 44).plain()
    assert "● Ada Vance" in names and "● Brann Okafor" in names
    assert "▲ Cultist" in names and "▲ Cult Enforcer" in names and "▲ Cult Priest" in names
    assert "● players  ▲ npcs" in names
    short = draw_map(harbour(), 32, 40).plain()
    assert "●AV" in short and "▲CE" in short and "▲CP" in short


def test_a_third_side_gets_a_third_marker() -> None:
    view = zone_view(["Roof"], [], people={"Roof": [MapMark("Drone", 2)]})
    view = MapView("zones", view.nodes, (), ("players", "npcs", "robots"))
    text = draw_map(view, 60, 20).plain()
    assert "■ Drone" in text and "■ robots" in text


def test_range_bands_shade_each_zone_from_the_selected_combatant() -> None:
    """docs/rules/2d20-combat.md#s3-6: Close in the selected's zone, Medium next door, Long two away, Extreme beyond;
    the selected's zone has a heavy frame; each band shades the inside of its boxes and is written in the frame."""
    drawing = draw_map(harbour(), 97, 44)
    text = drawing.plain()
    assert "┏━ Pier " in text
    shaded: dict[str, str] = {}
    for line in drawing.lines[: drawing.height]:
        for ink in line:
            if ink.band and ink.text.strip():
                shaded[ink.text.strip()] = ink.band
    assert shaded["Ada Vance"] == "close" and shaded["Brann Okafor"] == "medium"
    assert shaded["Cult Enforcer"] == "long" and shaded["Cult Priest"] == "extreme"
    for word in ("Close", "Medium", "Long", "Extreme"):
        assert f" {word} " in text
    assert "ranges from Ada Vance" in text
    letters = draw_map(harbour(), 22, 60)  # the counts form writes each band as its letter, explained below
    assert letters.form == "counts" and "from Ada Vance:" in letters.plain()
    for sample in ("C Close", "M Medium", "L Long", "E Extreme"):
        assert sample in letters.plain()


def test_no_bands_without_a_selection() -> None:
    view = harbour()
    plain = MapView(
        "zones", tuple(MapNode(n.key, n.title, n.badges, n.marks) for n in view.nodes), view.edges, view.sides
    )
    drawing = draw_map(plain, 97, 44)
    assert not any(ink.band for line in drawing.lines for ink in line)
    assert "from " not in drawing.plain()


def test_at_lays_the_map_out_as_the_gm_placed_it() -> None:
    """A 2×2 square placed with ``at``: drawn as a square, each border a straight line."""
    names = ["NW", "NE", "SW", "SE"]
    edges = [("NW", "NE"), ("NW", "SW"), ("NE", "SE"), ("SW", "SE")]
    cells = {"NW": (0, 0), "NE": (1, 0), "SW": (0, 1), "SE": (1, 1)}
    drawing = draw_map(zone_view(names, edges, at_cells=cells), 60, 30)
    boxes = {f.title: f for f in frames(drawing.plain().splitlines())}
    assert boxes["NW"].y0 == boxes["NE"].y0 < boxes["SW"].y0 == boxes["SE"].y0
    assert boxes["NW"].x0 == boxes["SW"].x0 < boxes["NE"].x0 == boxes["SE"].x0
    assert len(traced(drawing)) == 8


def test_an_edge_that_cannot_be_drawn_is_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the route search cut to nothing, only the borders between boxes that touch across a gap are
    drawn; the others are listed under the map by zone name."""
    monkeypatch.setattr(maproute, "MAX_EXPANSIONS", 0)
    drawing = draw_map(harbour(), 97, 44)
    assert drawing.unrouted
    text = drawing.plain()
    assert "Not drawn:" in text
    for a, b in drawing.unrouted:
        assert f"{a} — {b}" in text
    drawn = {frozenset(e) for e in traced(drawing)}
    assert drawn | {frozenset(e) for e in drawing.unrouted} == {frozenset(e) for e in harbour().edges}


names_st = st.integers(min_value=1, max_value=8).map(lambda n: [f"Z{i}" for i in range(n)])


@settings(max_examples=60, deadline=None)
@given(
    names_st.flatmap(
        lambda names: st.tuples(
            st.just(names),
            st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=12),
            st.integers(20, 120),
            st.integers(6, 60),
        )
    )
)
def test_every_edge_is_drawn_box_to_box_or_listed(graph: tuple[list[str], list[tuple[str, str]], int, int]) -> None:
    """Any map, any room: each border is a line traced from one box to the other, or listed; no line joins
    boxes that share no border, and no line ends anywhere but on a box."""
    names, pairs, width, height = graph
    edges = list(dict.fromkeys((min(a, b), max(a, b)) for a, b in pairs if a != b))
    view = zone_view(names, edges, people={n: [MapMark(f"M{n}", i % 2)] for i, n in enumerate(names)})
    drawing = draw_map(view, width, height)
    if drawing.form == "list":
        for n in names:
            assert n in drawing.plain()
        return
    assert all(len(line) <= width for line in drawing.plain().splitlines()[: drawing.height])
    lines = traced(drawing)
    drawn = {e for e in edges if frozenset(e) in lines}
    assert len(lines) == 2 * len(drawn)  # each line traced once from either end, nothing else
    assert {frozenset(e) for e in lines} <= {frozenset(e) for e in edges}
    assert drawn | set(drawing.unrouted) == set(edges)
    assert {f.title for f in frames(drawing.plain().splitlines()[: drawing.height])} == set(names)


def test_engagement_nodes_with_notes_and_the_walk_line() -> None:
    """The engagement map: a line per engaged character ("● Sofia Ramos 1y"), the lines between, and the
    family's notes under it."""
    nodes = tuple(
        MapNode(n, mark=MapMark(n, side, selected=n == "Sofia Ramos"), note=note)
        for n, side, note in (
            ("Sofia Ramos", 0, "1y"),
            ("Guild Thug 1", 1, "1y"),
            ("Guild Thug 2", 1, "0y"),
        )
    )
    notes = (Span("If Sofia Ramos walks: ", "bold"), Span("disengaging strikes from Guild Thug 1\n"))
    view = MapView(
        "engagements",
        nodes,
        (("Sofia Ramos", "Guild Thug 1"), ("Sofia Ramos", "Guild Thug 2")),
        ("players", "fatemaster"),
        "Sofia Ramos",
        notes,
    )
    for width, height in [(78, 6), (41, 18), (97, 44)]:
        text = draw_map(view, width, height).plain()
        assert "● Sofia Ramos 1y" in text and "▲ Guild Thug 1 1y" in text and "▲ Guild Thug 2 0y" in text
        assert "If Sofia Ramos walks: disengaging strikes from Guild Thug 1" in " ".join(text.split())
    assert draw_map(view, 78, 6).form == "flat"
    assert draw_map(view, 97, 44).form == "boxed"


def test_an_empty_map_says_so() -> None:
    view = MapView("engagements", (), (), ("players",), empty="Nobody is engaged in melee.")
    assert draw_map(view, 40, 10).plain() == "Nobody is engaged in melee."


def test_short_names_keep_the_number_that_tells_two_apart() -> None:
    assert short_name("Guild Thug 12", 9) == "Guild… 12"
    assert short_name("Guild Thug", 7) == "Guild …"
    assert initials("Ada Vance") == "AV" and initials("Guild Thug 2") == "GT2" and initials("Cultist") == "Cu"
    assert unique_initials(["Guard", "Gunner", "Ada Vance"]) == {"Guard": "Gua", "Gunner": "Gun", "Ada Vance": "AV"}


def test_a_large_map_routes_every_link() -> None:
    """Ten zones in a chain with 500 combatants (the engine benchmark's fight) draw at each panel size with
    every link routed (how fast: `bench/bench_mapdraw.py`, not a timed test on a shared machine)."""
    names = [f"Zone {i}" for i in range(10)]
    people = {n: [MapMark(f"Agent {k:03}", k % 2) for k in range(i, 500, 10)] for i, n in enumerate(names)}
    view = zone_view(names, list(itertools.pairwise(names)), people=people)
    for width, height in PANELS:
        drawing = draw_map(view, width, height)
        assert drawing.unrouted == ()


def test_a_map_of_more_zones_than_a_terminal_can_draw_is_a_list() -> None:
    names = [f"Z{i}" for i in range(61)]
    drawing = draw_map(zone_view(names, list(itertools.pairwise(names))), 200, 60)
    assert drawing.form == "list" and "Z0 → Z1" in drawing.plain()
