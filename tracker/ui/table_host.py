"""The GM's app opens the table: players (`tracker play`) and other accounts' viewers reach the fight through
its socket (`tracker.table`), and the GM's screen says who is there and whose answer it waits for
(docs/guide/seating.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual import work
from textual.app import App

if TYPE_CHECKING:
    from tracker.table.server import TableHost, TableServer


class HostsTable(App[None]):
    """The table half of the GM's app: `open_table` after the first frame, `publish` after each command."""

    path: Path
    _table: TableServer | None = None
    #: Why the table stayed closed to players (with the fix), or None: it opened, or the GM opens none.
    table_closed: str | None = None
    #: The fight's odds from what the players know, for their screens (only with `fight_odds_for_players`).
    players_fight_odds: str = ""

    @work(group="table")
    async def open_table(self) -> None:
        from tracker.table.seats import RulesSeating
        from tracker.table.server import TableServer
        from tracker.ui.screens.main import TrackerScreen

        # The app this is mixed into (`tracker.ui.app.TrackerApp`) is the table's host: it runs the commands.
        table = TableServer(self.path, cast("TableHost", self), RulesSeating())
        problem = await table.open()
        if problem is not None:
            # Said where it stays (the title line and the log's first line), not only in a passing toast: a
            # GM whose players cannot connect must see why, and the fix, for as long as it lasts.
            self.notify(problem, severity="warning", timeout=10, markup=False)
            self.table_closed = problem
            for screen in self.screen_stack:
                if isinstance(screen, TrackerScreen):
                    screen.table_closed = problem
            return
        self._table = table

    def table_changed(self) -> None:
        """Someone came to the table or left it: the GM's screen says who is there."""
        from tracker.ui.screens.main import TrackerScreen

        here = tuple(self._table.connected()) if self._table is not None else ()
        waits = self._table.waiting_on() if self._table is not None else None
        for screen in self.screen_stack:
            if isinstance(screen, TrackerScreen):
                screen.at_table = here
                screen.waiting_on = waits

    def publish(self) -> None:
        """Send the players their projections, once the GM's own frame is out."""
        if self._table is not None:
            self.table_changed()
            if self._table.seats:
                self.call_after_refresh(self._table.publish)

    def players_odds(self, text: str) -> None:
        """The players' odds line changed: their screens get it now, not with the next command."""
        self.players_fight_odds = text
        if self._table is not None and self._table.seats:
            self._table.republish()

    def close_table(self) -> None:
        if self._table is not None:
            self._table.close_now()
