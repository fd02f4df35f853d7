"""Issue 12, keypress → frame: after a command the GM screen repaints only what changed, and what it
shows is what a full repaint would show.

The order table repaints the rows that changed (a `next`: the one that ended and the one that starts)
rather than every visible line; a line it forgot would stay stale on screen. So after each step the
screen is compared with the screen every widget draws again from scratch.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from tests.ui.conftest import make_app
from tests.ui.test_keys import type_text
from tests.ui.test_viewer import screen_text
from tracker.ui.app import TrackerApp
from tracker.ui.widgets.order_table import OrderTable

#: Keys and typed commands: turns, cursor moves, a row that changes (damage, a condition that widens the
#: Conditions column), an undo; each step is followed by the comparison.
STEPS = {
    "brawl.toml": ["n", "n", "down", "down", "n", ":damage Thug 2", "up", ":add Sofia burning 2", "n", "u", "n"],
    "skirmish_srd.toml": ["n", "n", "down", "n", ":damage Cultist 3", "up", "n", "u", "n", "n"],
}


async def step(pilot: Pilot[None], app: TrackerApp, what: str) -> None:
    """Press a key or type a command, then answer any question it raised with its first option."""
    if what.startswith(":"):
        await pilot.press("colon")
        await type_text(pilot, what[1:])
        await pilot.press("enter")
    else:
        await pilot.press(what)
    await pilot.pause()
    for _ in range(5):
        if app.session.state.prompt is None:
            break
        await pilot.press("1")
        await pilot.pause()


async def repainted(pilot: Pilot[None], app: TrackerApp) -> str:
    """The screen once every widget has drawn itself again, nothing kept."""
    for widget in app.screen.walk_children(with_self=True):
        if isinstance(widget, Widget):
            widget.refresh()
    await pilot.pause()
    return screen_text(app)


@pytest.mark.anyio
@pytest.mark.parametrize("example", sorted(STEPS))
@pytest.mark.parametrize("size", [(160, 50), (90, 30)])
async def test_what_a_keypress_repaints_is_what_a_full_repaint_shows(
    tmp_path: Path, example: str, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path, example)

    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for what in STEPS[example]:
            await step(pilot, app, what)
            shown = screen_text(app)
            assert shown == await repainted(pilot, app), what


@pytest.mark.anyio
@pytest.mark.perf
async def test_next_repaints_two_rows_of_a_long_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 40 combatants a `next` repaints the row that ended and the row that starts, not the table."""
    fighters = "".join(
        f'\n[[combatants]]\nname = "Fighter {i:02d}"\nrank_value = {1 + i % 14}\ninitiative = {i % 5}\n'
        f"speed = {i}\nwounds = 6\n"
        for i in range(40)
    )
    (tmp_path / "big.toml").write_text(
        f'[encounter]\nname = "Big"\nsystem = "ttb"\nseed = 5\n{fighters}', encoding="utf-8"
    )
    from tracker.store.save import load_session

    app = TrackerApp(load_session(tmp_path / "big.toml"), tmp_path / "big.toml")
    repaints: list[tuple[Region, ...]] = []
    refresh = OrderTable.refresh

    def counted(self: OrderTable, *regions: Region, **kwargs: bool) -> OrderTable:
        repaints.append(regions)
        return refresh(self, *regions, **kwargs)

    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("n")  # start
        await pilot.press("n")
        await pilot.pause()
        monkeypatch.setattr(OrderTable, "refresh", counted)
        await pilot.press("n")
        await pilot.pause()
        assert repaints, "the table was not repainted at all"
        assert all(regions for regions in repaints), "a `next` repainted the whole table"
        assert sum(r.height for regions in repaints for r in regions) <= 4


@pytest.mark.anyio
@pytest.mark.perf
async def test_the_panels_text_is_painted_without_a_search_for_links(tmp_path: Path) -> None:
    """The family's text holds no links: the bodies repainted after each command skip Textual's link search."""
    from tracker.ui.widgets.panel_text import PanelText

    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        bodies = list(app.screen.query(PanelText))
        assert {b.id for b in bodies} >= {"prompt-body"} and any(b.has_class("panel-body") for b in bodies)
        assert not any(b.auto_links for b in bodies)
