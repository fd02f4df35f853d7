"""The initiative order: who acts, who has acted, statuses, wounds or stress, AP, conditions.

The family builds the rows (`OrderView`); the panel hands them to the line-API table, which re-renders
only the rows that changed (ARCHITECTURE.md practice 9: never clear and refill). The round line sits
in the panel's border (a row saved for a combatant at 80×24), and a legend under the table explains
every abbreviation the columns use at this width.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.geometry import Region
from textual.reactive import var
from textual.widgets import Static

from tracker.present.view import OrderView
from tracker.ui.widgets.base import Panel
from tracker.ui.widgets.order_table import OrderTable


class InitiativePanel(Panel):
    """The order of the round, as a table the GM can move through to select a combatant."""

    DEFAULT_CSS = """
    InitiativePanel > #order-legend { dock: bottom; height: auto; padding: 0 1; color: $text-muted; }
    """

    #: Bound to the screen's order slice.
    order: var[OrderView | None] = var(None)

    def compose(self) -> ComposeResult:
        yield OrderTable(id="order-table")
        legend = Static(id="order-legend", markup=False)
        legend.display = False  # until there is a legend (set now: hiding it once mounted restyles it)
        yield legend

    def on_mount(self) -> None:
        self._conditions_legend = ""
        # Panel.on_mount draws next: Textual runs each class's on_mount, so no super() call here.

    def watch_order(self) -> None:
        self.redraw()

    def draw(self) -> None:
        order = self.order
        if order is None:
            return
        self.query_one(OrderTable).set_rows(order.columns, list(order.rows), order.active, order.shrinkable)
        if order.round_line != getattr(self, "_round_line", None):
            self._round_line = order.round_line
            self._retitling = True
            try:
                self.border_title = Text(order.round_line)  # as text: a name may hold [brackets]
            finally:
                self._retitling = False
        self._show_legend()

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> InitiativePanel:
        """A new round line repaints the border's top line, where it is written, not the whole panel.

        Textual repaints a widget entirely when its border title changes; this panel is the height of the
        screen, and the round line changes with every turn (a few milliseconds a keypress).
        """
        if getattr(self, "_retitling", False) and not regions and not layout and not recompose:
            offset = self.content_offset  # the regions are given inside the border; the title is on it
            regions = (Region(-offset.x, -offset.y, self.outer_size.width, 1),)
        super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        return self

    def on_order_table_legend(self, message: OrderTable.Legend) -> None:
        self._conditions_legend = message.text
        self._show_legend()

    def _show_legend(self) -> None:
        parts = [self.order.legend if self.order else "", self._conditions_legend]
        text = " | ".join(p for p in parts if p)
        legend = self.query_one("#order-legend", Static)
        if text != getattr(self, "_legend_text", None):
            self._legend_text = text
            legend.update(text)
            legend.display = bool(text)
