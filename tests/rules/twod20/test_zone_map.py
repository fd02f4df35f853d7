"""The Zones tab's map (docs/rules/2d20-combat.md#s3-6, README "The map"): a node per zone with its traits and who
stands there, a line per border, and each zone's range band from the selected combatant's zone; ``[[zones]] at``
places a zone and two zones on one cell are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import d20, d20_view, pinned, run, session_from
from tracker.cli.check import check_file
from tracker.families.session import Session
from tracker.present.map.draw import draw_map
from tracker.store.files import FileInvalid, parse_text

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

DOCKS = """
[encounter]
name = "Docks"
system = "2d20"
seed = 3

[[zones]]
name = "Street"
adjacent = ["Warehouse"]
traits = ["Crowded"]
{street_at}
[[zones]]
name = "Warehouse"
adjacent = ["Dock"]
traits = ["Dim Light", "Crates"]
[[zones]]
name = "Dock"
[[zones]]
name = "Pier"
adjacent = ["Dock"]
[[zones]]
name = "Lighthouse"
{lighthouse_at}

[[combatants]]
name = "Ada Vance"
stress = 10
zone = "Street"

[[combatants]]
name = "Cultist"
npc_type = "minor"
stress = 6
harm_capacity = 1
zone = "Pier"

[[combatants]]
name = "Cult Enforcer"
npc_type = "notable"
stress = 8
zone = "Dock"

[[combatants]]
name = "Hermit"
npc_type = "minor"
side = "hermits"
stress = 4
zone = "Lighthouse"
"""


def docks(street_at: str = "", lighthouse_at: str = "") -> Session:
    return session_from(DOCKS.format(street_at=street_at, lighthouse_at=lighthouse_at))


def test_s3_6_bands_follow_the_zone_distance_from_the_selected() -> None:
    """docs/rules/2d20-combat.md#s3-6: Close in the same zone, Medium adjacent, Long two away, Extreme three or more; a
    zone no way reaches has no band."""
    view = d20_view(docks()).field_map("Ada Vance")
    bands = {n.key: n.band for n in view.nodes}
    assert bands == {"Street": "close", "Warehouse": "medium", "Dock": "long", "Pier": "extreme", "Lighthouse": None}
    assert [n.key for n in view.nodes if n.focus] == ["Street"]
    assert view.focus == "Ada Vance"


def test_s3_6_bands_move_with_the_selection_and_with_a_move() -> None:
    s = docks()
    assert {n.key: n.band for n in d20_view(s).field_map("Cultist").nodes}["Pier"] == "close"
    run(s, "start", "pick Ada", "move Ada Warehouse")
    bands = {n.key: n.band for n in d20_view(s).field_map("Ada Vance").nodes}
    assert bands["Warehouse"] == "close" and bands["Street"] == "medium" and bands["Pier"] == "long"


def test_no_bands_without_a_selection_or_a_zone() -> None:
    view = d20_view(docks()).field_map(None)
    assert all(n.band is None for n in view.nodes) and view.focus is None


def test_the_map_has_every_zone_border_and_trait() -> None:
    view = d20_view(docks()).field_map(None)
    assert [n.key for n in view.nodes] == ["Street", "Warehouse", "Dock", "Pier", "Lighthouse"]
    assert {frozenset(e) for e in view.edges} == {
        frozenset(("Street", "Warehouse")),
        frozenset(("Warehouse", "Dock")),
        frozenset(("Dock", "Pier")),  # listed by the Pier only: borders join both ways
    }
    assert len(view.edges) == 3
    assert {n.key: n.badges for n in view.nodes}["Warehouse"] == ("Dim Light", "Crates")


def test_who_stands_where_with_a_side_each() -> None:
    """The players' side is the first marker; any other side gets its own (the hermits are a third)."""
    view = d20_view(docks()).field_map("Ada Vance")
    marks = {m.name: (n.key, view.sides[m.side], m.selected) for n in view.nodes for m in n.marks}
    assert marks == {
        "Ada Vance": ("Street", "players", True),
        "Cultist": ("Pier", "npcs", False),
        "Cult Enforcer": ("Dock", "npcs", False),
        "Hermit": ("Lighthouse", "hermits", False),
    }
    assert view.sides[0] == "players"


def test_the_dead_and_the_departed_leave_the_map_and_the_defeated_are_dim() -> None:
    s = run(docks(), "start", "pick Ada", "damage Cultist 5", "leave Hermit")
    view = d20_view(s).field_map("Ada Vance")
    marks = {m.name: m for n in view.nodes for m in n.marks}
    assert "Hermit" not in marks
    assert marks["Cultist"].down  # Defeated by its one Harm (harm_capacity 1, docs/rules/2d20-combat.md#s3-9)
    run(s, "damage Enforcer 20", "damage Enforcer 20")
    assert d20(s).status("Cult Enforcer") == "dead"
    assert "Cult Enforcer" not in {m.name for n in d20_view(s).field_map(None).nodes for m in n.marks}


def test_at_reaches_the_map_and_is_honoured_by_the_drawing() -> None:
    view = d20_view(docks(street_at="at = [3, 0]", lighthouse_at="at = [0, 0]")).field_map(None)
    assert {n.key: n.at for n in view.nodes}["Street"] == (3, 0)
    drawing = draw_map(view, 120, 60).plain().splitlines()
    street = next(i for i, line in enumerate(drawing) if "Street" in line)
    assert drawing[street].index("Lighthouse") < drawing[street].index("Street")


def test_two_zones_on_one_cell_are_refused_at_the_key() -> None:
    with pytest.raises(FileInvalid) as exc:
        parse_text(DOCKS.format(street_at="at = [1, 2]", lighthouse_at="at = [1, 2]"), "docks.toml")
    assert "zones 'Street' and 'Lighthouse' are both at [1, 2] on the map" in str(exc.value)


def test_two_zones_on_one_cell_are_a_check_error_at_the_later_at(tmp_path: Path) -> None:
    text = DOCKS.format(street_at="at = [1, 2]", lighthouse_at="at = [1, 2]")
    path = tmp_path / "docks.toml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index("at = [1, 2]", text.splitlines().index('name = "Lighthouse"')) + 1
    problems = check_file(str(path)).lines()
    assert any(p.startswith(f"{path}:{line}:") and "both at [1, 2]" in p for p in problems), problems


@pytest.mark.parametrize("cell", ["[-1, 0]", "[0, 100]", "[1.5, 0]", "[1]", '["a", 0]', "[0, 0, 0]"])
def test_a_bad_at_is_refused(cell: str) -> None:
    with pytest.raises(FileInvalid):
        parse_text(DOCKS.format(street_at=f"at = {cell}", lighthouse_at=""), "docks.toml")


def test_the_examples_draw_every_zone() -> None:
    for example in ("skirmish_srd.toml", "firefight_infinity.toml"):
        s = Session(parse_text(pinned((EXAMPLES / example).read_text(encoding="utf-8")), example))
        view = d20_view(s).field_map(None)
        text = draw_map(view, 78, 10).plain()
        for node in view.nodes:
            assert node.key in text
