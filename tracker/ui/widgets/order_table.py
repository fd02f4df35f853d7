"""A line-API table for the initiative order: each row is rendered once and cached until it changes.

Textual's DataTable re-renders every visible cell whenever any cell changes; at 500 combatants a turn
change would repaint them all. Here a `next` re-renders the two rows that changed (the one that ended,
the one that starts) and every other line comes from the cache (ARCHITECTURE.md practice 9).
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

Row = tuple[str, ...]


class OrderTable(ScrollView, can_focus=True):
    """Rows keyed by combatant name; the first line is the header."""

    COMPONENT_CLASSES = {
        "order-table--header",
        "order-table--cursor",
        "order-table--active",
        "order-table--zebra",
        "order-table--down",
    }
    DEFAULT_CSS = """
    OrderTable { height: 1fr; }
    OrderTable > .order-table--header { text-style: bold; background: $panel; }
    OrderTable > .order-table--cursor { background: $accent 35%; }
    OrderTable:focus > .order-table--cursor { background: $accent 55%; }
    OrderTable > .order-table--active { text-style: bold; color: $primary; }
    OrderTable > .order-table--zebra { background: $boost; }
    OrderTable > .order-table--down { color: $text-muted; }
    """
    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Previous", id="order.up", show=False),
        Binding("down,j", "cursor(1)", "Next combatant", id="order.down", show=False),
        Binding("home", "cursor_to(0)", "First", id="order.first", show=False),
        Binding("end", "cursor_to(-1)", "Last", id="order.last", show=False),
    ]

    class Highlighted(Message):
        """The cursor moved to a combatant."""

        def __init__(self, name: str | None) -> None:
            super().__init__()
            self.name = name

    cursor = reactive(0)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.columns: Row = ()
        self.keys: list[str] = []
        self.rows: dict[str, Row] = {}
        self.active: str | None = None
        self.down: set[str] = set()
        self.widths: list[int] = []
        self._cache: dict[str, tuple[object, Strip]] = {}
        #: A combatant the screen asked to select before its row was drawn (`select_name`).
        self._wanted: str | None = None

    # --- data ---------------------------------------------------------------------------
    def set_rows(self, columns: Row, keys: list[str], rows: dict[str, Row], active: str | None, down: set[str]) -> None:
        """Replace the content; rows whose cells did not change keep their rendered line."""
        widths = [len(c) for c in columns]
        for row in rows.values():
            for i, cell in enumerate(row):
                widths[i] = max(widths[i], len(cell))
        widths[-1] = min(widths[-1], 48)
        if widths != self.widths or columns != self.columns:
            self._cache.clear()
        follow = active is not None and active != self.active
        # The cursor stays on the same combatant when the rows move (a new round re-sorts the order).
        held = self._wanted or self.selected()
        self._wanted = None
        self.columns, self.keys, self.rows, self.active, self.down, self.widths = (
            columns,
            keys,
            rows,
            active,
            down,
            widths,
        )
        if follow and active in keys and self.size.height > 1:
            # Keep the acting combatant in view when the turn passes to someone off-screen.
            at = keys.index(active)
            top, visible = self.scroll_offset.y, self.size.height - 1
            if not top <= at < top + visible:
                self.scroll_to(y=max(0, at - visible // 2), animate=False)
        size = Size(sum(widths) + len(widths), len(keys) + 1)
        if size != self.virtual_size:
            self.virtual_size = size
        cursor = keys.index(held) if held in keys else min(self.cursor, max(0, len(keys) - 1))
        if cursor != self.cursor:
            self.cursor = cursor
        self.refresh()

    def selected(self) -> str | None:
        return self.keys[self.cursor] if 0 <= self.cursor < len(self.keys) else None

    def select_name(self, name: str) -> None:
        """Put the cursor on `name` for the screen (a turn started), without announcing it as the GM's move:
        the screen already selected them. A row not drawn yet is selected when it is."""
        if name in self.keys:
            self.cursor = self.keys.index(name)
        else:
            self._wanted = name

    # --- keys and mouse -------------------------------------------------------------------
    def _move(self, index: int) -> None:
        """The GM moved the cursor: select that combatant (until then the active one is shown)."""
        self.cursor = index
        self.post_message(self.Highlighted(self.selected()))

    def action_cursor(self, step: int) -> None:
        if self.keys:
            self._move(max(0, min(len(self.keys) - 1, self.cursor + step)))

    def action_cursor_to(self, index: int) -> None:
        if self.keys:
            self._move(index % len(self.keys))

    def on_click(self, event: Click) -> None:
        row = event.y + self.scroll_offset.y - 1
        if 0 <= row < len(self.keys):
            self._move(row)

    def watch_cursor(self, old: int, new: int) -> None:
        if new >= self.scroll_offset.y + self.size.height - 1:
            self.scroll_to(y=new - self.size.height + 2, animate=False)
        elif new < self.scroll_offset.y:
            self.scroll_to(y=new, animate=False)
        self.refresh()

    # --- rendering ------------------------------------------------------------------------
    def _line(self, cells: Row, style: Style) -> Strip:
        text = " ".join(cell[:w].ljust(w) for cell, w in zip(cells, self.widths, strict=False))
        return Strip([Segment(" " + text, style)])

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        x = self.scroll_offset.x
        if y == 0:
            header = base + self.get_component_rich_style("order-table--header")
            return self._line(self.columns, header).crop(x, x + width).adjust_cell_length(width, header)
        index = self.scroll_offset.y + y - 1
        if index >= len(self.keys):
            return Strip.blank(width, base)
        key = self.keys[index]
        cells = self.rows[key]
        flags = (index == self.cursor, key == self.active, key in self.down, index % 2, self.has_focus)
        cache_key = (cells, flags, width, x, base)
        hit = self._cache.get(key)
        if hit is not None and hit[0] == cache_key:
            return hit[1]
        style = base
        if index % 2:
            style += self.get_component_rich_style("order-table--zebra")
        if key in self.down:
            style += self.get_component_rich_style("order-table--down")
        if key == self.active:
            style += self.get_component_rich_style("order-table--active")
        if index == self.cursor:
            style += self.get_component_rich_style("order-table--cursor")
        strip = self._line(cells, style).crop(x, x + width).adjust_cell_length(width, style)
        self._cache[key] = (cache_key, strip)
        return strip
