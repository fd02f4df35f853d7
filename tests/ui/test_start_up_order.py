"""Widgets composed by their own containers (the order table by the initiative panel, the Turn panel by the
tabs, the log view by its panel) may arrive after the screen's Mount: Textual composes each container in its
own time, and on a loaded box a command can land in between. Nothing the screen does after a command may
assume they are there yet (a run of the whole suite on two cores once crashed with NoMatches for
``#order-table``, another time for the log panel's view)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widget import Widget

from tests.ui.conftest import make_app
from tracker.ui.screens.main import TrackerScreen
from tracker.ui.widgets.log import LogPanel, LogView
from tracker.ui.widgets.order_table import OrderTable


@pytest.mark.anyio
async def test_a_new_turn_before_the_order_table_is_composed_waits_for_it(tmp_path: Path) -> None:
    """A command that starts a turn moves the order's cursor to the actor: with the table not composed yet
    (taken away here, as it is for a moment at start-up), the screen waits a refresh instead of crashing, and
    selects the actor once the table is there."""
    app = make_app(tmp_path, "duel.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, TrackerScreen)
        table = screen.query_one(OrderTable)
        parent = table.parent
        assert isinstance(parent, Widget)
        await table.remove()
        screen._found_widgets.clear()  # the screen had found it once: forget it, as at start-up
        assert app.submit("start") is None
        await pilot.pause()
        assert app.is_running and app.return_code is None
        fresh = OrderTable(id="order-table")
        await parent.mount(fresh)
        assert app.submit("next") is None
        await pilot.pause()
        assert fresh.selected() == app.session.rules.state.active


@pytest.mark.anyio
async def test_a_note_for_the_log_before_its_view_is_composed_is_written_with_the_first_draw(tmp_path: Path) -> None:
    app = make_app(tmp_path, "duel.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        panel = app.screen.query_one("#log-bottom", LogPanel)
        await panel.query_one(LogView).remove()
        panel.note = "the table stays closed to players"
        panel.on_resize()
        await pilot.pause()
        assert app.is_running and app.return_code is None
