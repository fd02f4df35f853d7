"""The map's grid layout (README "The map"; docs/rules/2d20-combat.md#s3-6 zones): breadth-first layers from the first
zone become columns, so adjacent zones sit in neighbouring cells; the GM's ``at = [col, row]`` is kept."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from tracker.present.map.layout import (
    Cell,
    auto_layout,
    close_up,
    components,
    crossings,
    neighbours,
    order_layers,
    place,
)


def chain(n: int) -> tuple[list[str], list[tuple[str, str]]]:
    names = [f"Z{i}" for i in range(n)]
    return names, list(itertools.pairwise(names))


#: The harbour of examples/skirmish_srd.toml: Pier joins Boathouse and Crane, both join the Yard, then the
#: Warehouse.
HARBOUR = (
    ["Pier", "Boathouse", "Crane", "Yard", "Warehouse"],
    [("Pier", "Boathouse"), ("Pier", "Crane"), ("Boathouse", "Yard"), ("Crane", "Yard"), ("Yard", "Warehouse")],
)


def test_adjacent_zones_are_in_neighbouring_columns() -> None:
    """Every border joins zones in the same or the next column: the layers are distances from the first."""
    names, edges = HARBOUR
    cells = auto_layout(names, edges)
    assert cells["Pier"] == (0, 0)
    assert cells["Boathouse"][0] == cells["Crane"][0] == 1
    assert cells["Yard"][0] == 2 and cells["Warehouse"][0] == 3
    for a, b in edges:
        assert abs(cells[a][0] - cells[b][0]) <= 1


def test_a_chain_is_a_straight_line() -> None:
    """A zone goes on the row of its neighbour when that is free: a chain is drawn as one row."""
    names, edges = chain(6)
    assert auto_layout(names, edges) == {f"Z{i}": (i, 0) for i in range(6)}


def test_turned_layout_makes_layers_rows() -> None:
    names, edges = chain(4)
    assert auto_layout(names, edges, turned=True) == {f"Z{i}": (0, i) for i in range(4)}


def test_a_long_chain_folds_back_below_itself() -> None:
    """A fold of 3: the 4th to 6th zones run right to left under the first three, the 7th turns again."""
    names, edges = chain(7)
    cells = auto_layout(names, edges, fold=3)
    assert [cells[n] for n in names] == [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1), (0, 2)]
    for a, b in edges:  # every step of the snake is still to a neighbouring cell
        (ca, ra), (cb, rb) = cells[a], cells[b]
        assert abs(ca - cb) + abs(ra - rb) == 1


def test_a_hub_sits_in_the_middle_of_its_spokes() -> None:
    names = ["Hub", "A", "B", "C", "D", "E"]
    cells = auto_layout(names, [("Hub", n) for n in names[1:]])
    assert cells["Hub"] == (0, 2)
    assert sorted(cells[n] for n in names[1:]) == [(1, r) for r in range(5)]


def test_ordering_within_a_layer_removes_a_crossing() -> None:
    """A finds X1 and X2, B finds Y, and B also borders X1: in the order found, B–X1 crosses A–X2. The
    barycenter sweep puts X1 between X2 and Y, and the crossing is gone."""
    names = ["Root", "A", "B", "X1", "X2", "Y"]
    edges = [("Root", "A"), ("Root", "B"), ("A", "X1"), ("A", "X2"), ("B", "Y"), ("B", "X1")]
    adj = neighbours(names, edges)
    found = components(names, adj)[0]
    assert found == [["Root"], ["A", "B"], ["X1", "X2", "Y"]]
    assert crossings(found, adj) == 1
    ordered = order_layers(found, adj)
    assert crossings(ordered, adj) == 0
    cells = auto_layout(names, edges)
    assert cells["X2"][1] < cells["X1"][1] < cells["Y"][1]


def test_separate_parts_are_stacked_or_chained() -> None:
    names = ["A", "B", "C", "D"]
    edges = [("A", "B"), ("C", "D")]
    assert auto_layout(names, edges) == {"A": (0, 0), "B": (1, 0), "C": (0, 1), "D": (1, 1)}
    assert auto_layout(names, edges, chained=True) == {"A": (0, 0), "B": (1, 0), "C": (2, 0), "D": (3, 0)}


def test_at_is_honoured() -> None:
    """Every zone placed: the GM's cells, exactly (a 2×2 square drawn as the GM laid it out)."""
    names = ["NW", "NE", "SW", "SE"]
    edges = [("NW", "NE"), ("NW", "SW"), ("NE", "SE"), ("SW", "SE")]
    fixed: dict[str, Cell] = {"NW": (0, 0), "NE": (1, 0), "SW": (0, 1), "SE": (1, 1)}
    assert place(names, edges, fixed) == fixed


def test_at_keeps_only_the_order_of_cells() -> None:
    """Empty columns and rows close up: [0, 0] and [4, 2] are drawn side by side, one row apart."""
    assert place(["A", "B"], [("A", "B")], {"A": (0, 0), "B": (4, 2)}) == {"A": (0, 0), "B": (1, 1)}


def test_unplaced_zones_go_next_to_their_placed_neighbours() -> None:
    """Pier and Warehouse are placed; the Yard, between them, takes the free cell between them, and the
    Boat, joined only to the Pier, a cell beside the Pier."""
    names = ["Pier", "Yard", "Warehouse", "Boat"]
    edges = [("Pier", "Yard"), ("Yard", "Warehouse"), ("Boat", "Pier")]
    cells = place(names, edges, {"Pier": (0, 0), "Warehouse": (2, 0)})
    assert cells["Pier"] == (0, 0) and cells["Yard"] == (1, 0) and cells["Warehouse"] == (2, 0)
    (bc, br) = cells["Boat"]
    assert abs(bc - 0) + abs(br - 0) == 1


def test_a_part_with_no_placed_zone_is_laid_out_below() -> None:
    cells = place(["A", "B", "X", "Y"], [("A", "B"), ("X", "Y")], {"A": (0, 0), "B": (1, 0)})
    assert cells["X"][1] == cells["Y"][1] == 1 and {cells["X"][0], cells["Y"][0]} == {0, 1}


def test_close_up_keeps_order() -> None:
    assert close_up({"a": (3, 7), "b": (9, 7), "c": (3, 8)}) == {"a": (0, 0), "b": (1, 0), "c": (0, 1)}


graphs = st.integers(min_value=1, max_value=9).flatmap(
    lambda n: st.tuples(
        st.just([f"N{i}" for i in range(n)]),
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=14),
        st.booleans(),
        st.booleans(),
        st.integers(0, 4),
    )
)


@given(graphs)
def test_every_node_gets_its_own_cell_and_no_row_or_column_is_empty(
    graph: tuple[list[str], list[tuple[int, int]], bool, bool, int],
) -> None:
    names, pairs, turned, chained, fold = graph
    edges = [(names[a], names[b]) for a, b in pairs if a != b]
    cells = auto_layout(names, edges, turned=turned, chained=chained, fold=fold if fold > 1 else 0)
    assert set(cells) == set(names)
    assert len(set(cells.values())) == len(names)
    assert {c for c, _ in cells.values()} == set(range(max(c for c, _ in cells.values()) + 1))
    assert {r for _, r in cells.values()} == set(range(max(r for _, r in cells.values()) + 1))
    if not turned and not fold:
        for a, b in edges:  # breadth-first layers: a border never skips a column
            assert abs(cells[a][0] - cells[b][0]) <= 1


@given(graphs, st.data())
def test_placed_nodes_keep_their_order_and_every_node_is_placed(
    graph: tuple[list[str], list[tuple[int, int]], bool, bool, int], data: st.DataObject
) -> None:
    names, pairs, _, _, _ = graph
    edges = [(names[a], names[b]) for a, b in pairs if a != b]
    spots = data.draw(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), unique=True, max_size=len(names)))
    fixed = dict(zip(names, spots, strict=False))
    cells = place(names, edges, fixed)
    assert set(cells) == set(names) and len(set(cells.values())) == len(names)
    for a, b in itertools.combinations(fixed, 2):
        (ca, ra), (cb, rb) = fixed[a], fixed[b]
        (xa, ya), (xb, yb) = cells[a], cells[b]
        assert (ca < cb) == (xa < xb) and (ca == cb) == (xa == xb)
        assert (ra < rb) == (ya < yb) and (ra == rb) == (ya == yb)
