"""Snapshots of the map: the 2d20 Zones tab mid-fight at 80×24, 120×40 and 200×60, a map laid
out with ``at``, and the TTB Melee tab's engagement map.

Regenerate after an intended change with: python -m pytest tests/snapshots --snapshot-update
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import TabbedContent

from tests.conftest import pinned
from tests.snapshots.conftest import EXAMPLES, SnapCompare, play_app
from tracker.ui.app import TrackerApp

#: Ada shot the Cultist (Defeated: drawn dim), the Enforcer moved into the Boathouse and closed to Reach
#: with Brann; Brann is selected when his turn comes.
SKIRMISH = [
    "start",
    "pick Ada",
    "spend Ada attack",
    "damage Cultist 4 icons=1 vicious=1",
    "next",
    "pick Enforcer",
    "move Enforcer Boathouse",
    "reach Enforcer Brann",
]
#: Sofia engaged with the Guild Thug and the Lieutenant, Ash with the Ghoul, the Lieutenant with Marguerite.
BRAWL = [
    "initiative Sofia 10",
    "initiative Ash 8",
    "initiative Marguerite 5",
    "start",
    "answer Belle",
    "engage Sofia 'Guild Thug'",
    "engage Sofia Lieutenant",
    "engage Ash Ghoul",
    "engage Marguerite Lieutenant",
]
#: The skirmish's harbour placed by hand: the Pier at the bottom left, the Warehouse top right.
PLACED = {"Pier": "[0, 2]", "Boathouse": "[1, 2]", "Crane": "[0, 1]", "Yard": "[1, 1]", "Warehouse": "[1, 0]"}


async def field_tab(pilot: Pilot[None]) -> None:
    pilot.app.screen.query_one("#side", TabbedContent).active = "tab-field"
    await pilot.pause()


def app_for(tmp_path: Path, example: str, commands: list[str], text: str | None = None) -> TrackerApp:
    text = text if text is not None else pinned((EXAMPLES / example).read_text(encoding="utf-8"))
    return play_app(tmp_path / example, text, commands)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_zone_map(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = app_for(tmp_path, "skirmish_srd.toml", SKIRMISH)
    assert snap_compare(app, terminal_size=size, run_before=field_tab)


def test_zone_map_placed_with_at(snap_compare: SnapCompare, tmp_path: Path) -> None:
    text = pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8"))
    for zone, cell in PLACED.items():
        text = text.replace(f'name = "{zone}"\n', f'name = "{zone}"\nat = {cell}\n', 1)
    app = app_for(tmp_path, "skirmish_srd.toml", SKIRMISH, text)
    assert snap_compare(app, terminal_size=(120, 40), run_before=field_tab)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_engagement_map(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = app_for(tmp_path, "brawl.toml", BRAWL)
    assert snap_compare(app, terminal_size=size, run_before=field_tab)
