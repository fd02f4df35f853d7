"""The map in the field tab (README "The map"): the Zones tab draws the zones above the odds, the Melee tab
the engagements with the walk line; the map follows the selection, widens the side panel on a very wide
screen, and its modules load only once the tab is shown."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Static, TabbedContent

from tests.conftest import pinned
from tests.ui.conftest import EXAMPLES, make_app
from tracker.ui.app import TrackerApp
from tracker.ui.widgets.map_panel import MapPanel
from tracker.ui.widgets.panel_text import PanelText


def map_text(app: TrackerApp) -> str:
    return str(app.screen.query_one("#field", MapPanel).query_one(".map-body", Static).render())


def body_text(app: TrackerApp) -> str:
    return str(app.screen.query_one("#field", MapPanel).query_one(".panel-body", PanelText).render())


async def show(app: TrackerApp, pilot: object, tab: str) -> None:
    """Show `tab`; the field tab's map is drawn a few refreshes later (its modules load when first shown), so
    wait for it, up to a second, as a loaded machine (the suite on every core) may need."""
    app.screen.query_one("#side", TabbedContent).active = f"tab-{tab}"
    await pilot.pause()  # type: ignore[attr-defined]
    for _ in range(20):
        if tab != "field" or map_text(app).strip():
            return
        await pilot.pause(0.05)  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_the_zones_tab_draws_the_map_above_the_odds(tmp_path: Path) -> None:
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.selected = "Ada Vance"  # type: ignore[attr-defined]
        await show(app, pilot, "field")
        drawn = map_text(app)
        for zone in ("Pier", "Boathouse", "Crane", "Yard", "Warehouse"):
            assert zone in drawn
        assert "● Ada Vance" in drawn and "▲ Cult Enforcer" in drawn
        assert "┏━ Pier" in drawn  # Ada's zone: Close, framed heavy
        assert body_text(app).startswith("Chance to hit, % · Ada Vance")
        panel = app.screen.query_one("#field", MapPanel)
        width = panel.scrollable_content_region.width
        assert all(len(line) <= width for line in drawn.splitlines())
        assert len(drawn.splitlines()) <= panel.scrollable_content_region.height  # all of it in view


@pytest.mark.anyio
async def test_the_map_follows_the_selection(tmp_path: Path) -> None:
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        app.screen.selected = "Ada Vance"  # type: ignore[attr-defined]
        await show(app, pilot, "field")
        assert "┏━ Pier" in map_text(app) and "ranges from Ada Vance" in map_text(app)
        app.screen.selected = "Cult Priest"  # type: ignore[attr-defined]
        await pilot.pause()
        assert "┏━ Warehouse" in map_text(app) and "ranges from Cult Priest" in map_text(app)
        assert app.submit("start") is None and app.submit("pick Ada") is None
        assert app.submit("move Ada Boathouse") is None
        app.screen.selected = "Ada Vance"  # type: ignore[attr-defined]
        await pilot.pause()
        assert "┏━ Boathouse" in map_text(app)


@pytest.mark.anyio
async def test_the_melee_tab_draws_the_engagements_and_the_walk_line(tmp_path: Path) -> None:
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(100, 30)) as pilot:
        for line in ("initiative Sofia 10", "initiative Ash 8", "initiative Marguerite 5", "start"):
            assert app.submit(line) is None
        assert app.submit("answer Belle") is None
        assert app.submit("engage Sofia 'Guild Thug'") is None
        assert app.submit("engage Sofia Lieutenant") is None
        await show(app, pilot, "field")
        drawn = map_text(app)
        assert "● Sofia Ramos 1y" in drawn and "▲ Guild Lieutenant 2y" in drawn and "▲ Guild Thug 1y" in drawn
        walk = " ".join(drawn.split())
        assert "If Sofia Ramos walks: disengaging strikes from Guild Thug, Guild Lieutenant" in walk


def side_width(app: TrackerApp) -> int:
    return app.screen.query_one("#side", TabbedContent).outer_size.width


@pytest.mark.anyio
async def test_a_very_wide_screen_gives_the_map_half_the_width(tmp_path: Path) -> None:
    """200 columns: the side panel takes half the screen while the map shows, 44 columns otherwise; at 120
    it keeps its 44 (the order table needs the rest)."""
    app = make_app(tmp_path, "skirmish_srd.toml")

    (tmp_path / "b").mkdir()
    async with app.run_test(size=(200, 60)) as pilot:
        assert side_width(app) == 44
        await show(app, pilot, "field")
        assert side_width(app) == 100
        await show(app, pilot, "log")
        assert side_width(app) == 44
    narrower = make_app(tmp_path / "b", "skirmish_srd.toml")
    async with narrower.run_test(size=(120, 40)) as pilot:
        await show(narrower, pilot, "field")
        assert side_width(narrower) == 44


LAZY = textwrap.dedent(
    """\
    import asyncio, json, sys
    from pathlib import Path
    from textual.widgets import TabbedContent
    from tracker.families.session import Session
    from tracker.store import files
    from tracker.ui.app import TrackerApp

    MAP = ("tracker.present.map.draw", "tracker.present.map.layout", "tracker.present.map.route",
           "tracker.present.map.graph", "tracker.families.twod20.present.zonemap",
           "tracker.families.ttb.present.melee_map")
    path = Path(sys.argv[1])
    app = TrackerApp(Session(files.load(path)), path)
    seen = {}

    async def drive():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            seen["first"] = sorted(m for m in sys.modules if m in MAP)
            app.screen.query_one("#side", TabbedContent).active = "tab-field"
            await pilot.pause()
            seen["shown"] = sorted(m for m in sys.modules if m in MAP)

    asyncio.run(drive())
    print(json.dumps(seen))
    """
)


@pytest.mark.perf
def test_the_map_modules_load_only_when_the_field_tab_is_shown(tmp_path: Path) -> None:
    """The first frame (the Turn tab) imports none of the map's modules (start-up speed); the Zones tab does."""
    path = tmp_path / "skirmish_srd.toml"
    path.write_text(pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8")), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", LAZY, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"TRACKER_CONFIG_DIR": str(tmp_path / "config"), "PATH": "", "HOME": str(tmp_path)},
    )
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["first"] == []
    assert seen["shown"] == [
        "tracker.families.twod20.present.zonemap",
        "tracker.present.map.draw",
        "tracker.present.map.graph",
        "tracker.present.map.layout",
        "tracker.present.map.route",
    ]


@pytest.mark.anyio
async def test_a_new_theme_recolours_the_map(tmp_path: Path) -> None:
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.selected = "Ada Vance"  # type: ignore[attr-defined]
        await show(app, pilot, "field")
        body = app.screen.query_one("#field", MapPanel).query_one(".map-body", Static)
        before = body.content
        app.theme = "parchment-light"
        await pilot.pause()
        after = body.content
        assert isinstance(before, Text) and isinstance(after, Text)
        assert before.plain == after.plain and before.spans != after.spans  # the same map, other colours


def test_the_panel_styles_every_tone_the_drawing_uses() -> None:
    """The panel keeps its own list of the map's tones (importing `mapview` at the first frame would cost
    start-up): it must stay the drawing's `Tone` less the text emphases every panel styles."""
    from typing import get_args

    from tracker.present.map.graph import Tone
    from tracker.present.view import Emphasis
    from tracker.ui.widgets.map_panel import TONES

    assert set(TONES) == set(get_args(Tone)) - set(get_args(Emphasis))


@pytest.mark.anyio
async def test_the_field_text_is_asked_for_when_shown_and_follows_selection_and_commands(tmp_path: Path) -> None:
    """The range report under the map (2d20: from the selected combatant to everyone else) is worked out
    only while the field tab shows (≈ 6 ms per command at 500 combatants), and is current then."""
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        assert app.submit("start") is None and app.submit("pick Ada") is None
        await pilot.pause()
        assert app.screen.field == ()  # type: ignore[attr-defined]  # never shown: never asked
        app.screen.selected = "Ada Vance"  # type: ignore[attr-defined]
        await show(app, pilot, "field")
        assert "From Ada Vance" in body_text(app)
        before = body_text(app)
        assert app.submit("move Ada Boathouse") is None
        await pilot.pause()
        assert "From Ada Vance" in body_text(app) and body_text(app) != before  # ranges from her new zone
        app.screen.selected = "Cult Priest"  # type: ignore[attr-defined]
        await pilot.pause()
        assert "From Cult Priest" in body_text(app)
