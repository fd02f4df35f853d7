"""The initiative order: who acts, who has acted, statuses, wounds or stress, AP, conditions.

The family builds the rows (`OrderView`); the panel hands them to the line-API table, which re-renders
only the rows that changed (ARCHITECTURE.md practice 9: never clear and refill).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.reactive import var
from textual.widgets import Static

from tracker.rules.view import OrderView
from tracker.ui.widgets.base import Panel
from tracker.ui.widgets.order_table import OrderTable


class InitiativePanel(Panel):
    """The order of the round, as a table the GM can move through to select a combatant."""

    DEFAULT_CSS = """
    InitiativePanel > #round-line { height: 1; padding: 0 1; text-style: bold; }
    """

    #: Bound to the screen's order slice.
    order: var[OrderView | None] = var(None)

    def compose(self) -> ComposeResult:
        yield Static(id="round-line")
        yield OrderTable(id="order-table")

    def watch_order(self) -> None:
        self.redraw()

    def draw(self) -> None:
        order = self.order
        if order is None:
            return
        rows = {row.name: row.cells for row in order.rows}
        down = {row.name for row in order.rows if row.down}
        keys = [row.name for row in order.rows]
        self.query_one(OrderTable).set_rows(order.columns, keys, rows, order.active, down)
        if order.round_line != getattr(self, "_line", None):  # one fixed line: no layout needed
            self._line = order.round_line
            self.query_one("#round-line", Static).update(order.round_line, layout=False)
