"""The initiative order: who acts, who has acted, statuses, wounds or stress, AP, conditions.

The family builds the rows (`OrderView`); the panel hands them to the line-API table, which re-renders
only the rows that changed (docs/architecture/index.md: never clear and refill). The round line sits
in the panel's border (a row saved for a combatant at 80×24) when it fits there whole; a longer one
(it says who acts next, "players kept last: an enemy acts before they keep again") gets a line of its
own at the top of the panel instead of being cut. A legend under the table explains every
abbreviation the columns use at this width.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.geometry import Region
from textual.reactive import var
from textual.widgets import Static

from tracker.present.view import ConditionTag, OrderRow, OrderView
from tracker.ui.widgets.base import Panel
from tracker.ui.widgets.order_table import OrderTable

#: Cells of the top border a title cannot use: the two corners, a line and a space each side of it.
BORDER_LABEL_ROOM = 6

#: What a ``gm_only`` combatant's row says on the GM's screens, first among its conditions: in words, not
#: by colour alone, so the GM knows whom the table cannot see (the player view leaves them out).
GM_ONLY = ConditionTag("GM only", "GM", "GM", "GM only, hidden from players")


def mark_gm_only(order: OrderView, hidden: set[str], kept: dict[str, tuple[OrderRow, OrderRow]]) -> OrderView:
    """`order` with the `hidden` combatants' rows tagged `GM_ONLY`. `kept` holds each row tagged before
    with the row it was made from: an unchanged row is handed back as the very row the table already has
    (the table repaints only the rows that are new objects)."""
    if not hidden:
        return order
    rows = []
    for row in order.rows:
        if row.name in hidden:
            hit = kept.get(row.name)
            if hit is None or hit[0] is not row:
                hit = kept[row.name] = (row, row._replace(conditions=(GM_ONLY, *row.conditions)))
            row = hit[1]
        rows.append(row)
    return order._replace(rows=tuple(rows))


class InitiativePanel(Panel):
    """The order of the round, as a table the GM can move through to select a combatant."""

    DEFAULT_CSS = """
    InitiativePanel > #order-legend { dock: bottom; height: auto; padding: 0 1; color: $text-muted; }
    InitiativePanel > #order-round { dock: top; height: auto; padding: 0 1; color: $primary; text-style: bold; }
    """

    #: Bound to the screen's order slice.
    order: var[OrderView | None] = var(None)
    #: The round line as last written in the border, and inside (when too long for the border).
    _round_line: str | None = None
    _own_line: str | None = None
    #: A border title change under way (`refresh` repaints the border's line only).
    _retitling: bool = False
    _legend_text: str | None = None

    def compose(self) -> ComposeResult:
        round_line = Static(id="order-round", markup=False)
        round_line.display = False  # until a round line is too long for the border
        yield round_line
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
        self._place_round_line()
        self._show_legend()

    def on_resize(self) -> None:
        self._place_round_line()

    def _place_round_line(self) -> None:
        """The round line in the border when it fits there whole, else on a line of its own inside."""
        line = self.order.round_line if self.order else ""
        width = self.outer_size.width
        inside = bool(width) and cell_len(line) > width - BORDER_LABEL_ROOM
        title, own = ("", line) if inside else (line, "")
        if title != self._round_line:
            self._round_line = title
            self._retitling = True
            try:
                self.border_title = Text(title)  # as text: a name may hold [brackets]
            finally:
                self._retitling = False
        if own != self._own_line:
            self._own_line = own
            static = self.query_one("#order-round", Static)
            static.update(own)
            static.display = bool(own)

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> InitiativePanel:
        """A new round line repaints the border's top line, where it is written, not the whole panel.

        Textual repaints a widget entirely when its border title changes; this panel is the height of the
        screen, and the round line changes with every turn (a few milliseconds a keypress).
        """
        if self._retitling and not regions and not layout and not recompose:
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
        if text != self._legend_text:
            self._legend_text = text
            legend.update(text)
            legend.display = bool(text)
