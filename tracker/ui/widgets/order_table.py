"""A line-API table for the initiative order: each row is rendered once and cached until it changes.

Textual's DataTable re-renders every visible cell whenever any cell changes; at 500 combatants a turn
change would repaint them all. Here a `next` re-renders the two rows that changed (the one that ended,
the one that starts) and every other line comes from the cache (docs/architecture/index.md).

The table always fits its width, so no horizontal scrollbar ever covers a row. The Conditions column
gets what the other columns leave (a very long name gives up characters first, with an ellipsis): each
condition is written in full when there is room, else in its short form (the legend under the table says
what each short form means), and short forms that still do not fit wrap onto the row's next lines.
When the room is short the Conditions column asks only for what its conditions take (nothing while
nobody has one), and a column no row writes in (Harms before anyone is harmed) gives up its room, title
and all, before a name or a zone does: the room goes to the columns that have something to say, and a
title that gives way in part is shortened with an ellipsis.
Nothing is cut silently.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click, Resize
from textual.geometry import Size
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tracker.present.view import ConditionTag, OrderRow
from tracker.ui.widgets.base import StyledOncePerFrame

Row = tuple[str, ...]
#: A row as fitted: the row, the widths it was fitted to, its lines, the tags written short and the
#: width its conditions take.
Fitted = tuple[OrderRow, tuple[tuple[int, ...], int], list[Row], list[ConditionTag], int]
#: A row as measured: the row, its cells' lengths, its conditions' length written in full and the width
#: they need in a Conditions column as wide as its title (`conditions_need`).
Measured = tuple[OrderRow, tuple[int, ...], int, int]

#: The Name column keeps at least this many characters when the width is short, and gives up
#: characters beyond `NAME_ROOMY` before the Conditions column has to wrap.
NAME_MIN = 10
NAME_ROOMY = 24
#: The Conditions column's smallest useful width (its title).
CONDITIONS_MIN = len("Conditions")


def fit_conditions(tags: tuple[ConditionTag, ...], width: int) -> tuple[list[str], list[ConditionTag]]:
    """The conditions as lines of at most `width`, and the tags written in short form (for the legend)."""
    full = ", ".join(t.full for t in tags)
    if len(full) <= width:
        return [full], []
    lines = [""]
    for tag in tags:
        word = tag.short
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}".strip()
    return lines, list(tags)


def conditions_need(tags: tuple[ConditionTag, ...], full: int) -> int:
    """The width `tags` (written in full `full` wide) take in a Conditions column as wide as its title: in
    full when they fit it, else their widest line of short forms; fitted to any width from this one up to
    the title's, they make the same lines (each line the packing made is no wider than this)."""
    if full <= CONDITIONS_MIN:
        return full
    return min(CONDITIONS_MIN, max(len(line) for line in fit_conditions(tags, CONDITIONS_MIN)[0]))


class OrderTable(StyledOncePerFrame, ScrollView, can_focus=True):
    """Rows keyed by combatant name; the first line is the header."""

    COMPONENT_CLASSES = {
        "order-table--header",
        "order-table--cursor",
        "order-table--active",
        "order-table--zebra",
        "order-table--down",
    }
    DEFAULT_CSS = """
    OrderTable { height: 1fr; overflow-x: hidden; }
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

    class Legend(Message):
        """The short forms the Conditions column uses at this width changed: the panel shows them."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    #: The cursor's row; its watcher repaints the two rows it leaves and reaches (not the whole table).
    cursor = var(0)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.columns: Row = ()
        self.keys: list[str] = []
        self.source: dict[str, OrderRow] = {}
        self.rows: dict[str, list[Row]] = {}
        #: Each screen line below the header: (combatant, its line number within the row).
        self.lines: list[tuple[str, int]] = []
        self.active: str | None = None
        self.down: set[str] = set()
        self.widths: list[int] = []
        #: Columns no row writes in (their titles are dropped rather than cut when the room is short).
        self._untitled: frozenset[int] = frozenset()
        self.legend = ""
        self.shrinkable: tuple[int, ...] = (1,)
        self._position: dict[str, int] = {}
        #: Rendered lines by combatant and line number, with what they were rendered from.
        self._cache: dict[str, tuple[object, Strip]] = {}
        #: Each row's lines as last fitted, with the row and the widths they were fitted to.
        self._fitted: dict[str, Fitted] = {}
        #: The widths and the order of the rows `_fitted` was fitted to.
        self._fitted_to: tuple[tuple[int, ...], int] | None = None
        self._fitted_keys: list[str] = []
        #: Each row's cell lengths as last measured.
        self._measured: dict[str, Measured] = {}
        #: Where each combatant's row starts (its first line below the header).
        self._first_line: dict[str, int] = {}
        #: A combatant the screen asked to select before its row was drawn (`select_name`).
        self._wanted: str | None = None

    # --- data ---------------------------------------------------------------------------
    def set_rows(
        self, columns: Row, rows: list[OrderRow], active: str | None, shrinkable: tuple[int, ...] = (1,)
    ) -> None:
        """Replace the content; rows whose cells did not change keep their rendered line, and only the
        lines that changed are repainted (a `next` repaints two rows, not the table)."""
        keys = [row.name for row in rows]
        before_active, before_lines = self.active, self.lines
        follow = active is not None and active != self.active
        # The cursor stays on the same combatant when the rows move (a new round re-sorts the order).
        held = self._wanted or self.selected()
        self._wanted = None
        self.columns, self.keys, self.active, self.shrinkable = columns, keys, active, shrinkable
        self._position = {key: i for i, key in enumerate(keys)}
        self.source = {row.name: row for row in rows}
        self.down = {row.name for row in rows if row.down}
        changed = self._fit()
        top = self.scroll_offset.y
        if follow and active in self._position and self.size.height > 1:
            # Keep the acting combatant in view when the turn passes to someone off-screen.
            at = self.first_line(active)
            visible = self.size.height - 1
            if not top <= at < top + visible:
                self.scroll_to(y=max(0, at - visible // 2), animate=False)
        cursor = self._position[held] if held in self._position else min(self.cursor, max(0, len(keys) - 1))
        if changed is None or self.lines != before_lines:
            self.refresh()  # new widths, or rows moved: every line may differ
        else:
            # The rows that changed, and those that gain or lose the active mark (the cursor's: `watch_cursor`).
            self._refresh_rows(changed | {key for key in (before_active, active) if key is not None})
        if cursor != self.cursor:
            self.cursor = cursor

    def _refresh_rows(self, keys: set[str]) -> None:
        """Repaint only these combatants' lines."""
        for key in keys:
            first = self._first_line.get(key)
            if first is not None:
                self.refresh_lines(first + 1, len(self.rows[key]))  # + 1: the header line

    def _fit(self) -> set[str] | None:
        """Measure the columns against the width the table has now (again on every update and resize).

        Returns the combatants whose lines changed, or None when the widths did (every line changes).
        A `next` changes two rows of hundreds: the others keep what was measured and fitted last time
        (a row equal to the last one is kept as that very object, so later checks are identity checks).
        """
        if not self.columns:
            return None
        source, before = self.source, self._measured
        # The same combatants as last time (in any order: a round re-sorts them, a 2d20 turn moves one up)?
        same = len(source) == len(before) and all(key in before for key in source)
        measured: dict[str, Measured] = before if same else {}
        for key, row in source.items():
            seen = before.get(key)
            if seen is not None and seen[0] is row:
                if not same:
                    measured[key] = seen
                continue
            if seen is None or seen[0] != row:
                cond = len(", ".join(t.full for t in row.conditions))
                seen = (row, tuple(len(cell) for cell in row.cells), cond, conditions_need(row.conditions, cond))
            measured[key] = seen
            source[key] = seen[0]  # a row equal to the last is kept as that very object
        self._measured = measured
        fixed = [len(c) for c in self.columns[:-1]]
        empty: list[int] = []  # columns no row writes in (Harms before anyone is harmed)
        for i, longest_cell in enumerate(map(max, zip(*(m[1] for m in measured.values()), strict=False))):
            fixed[i] = max(fixed[i], longest_cell)
            if not longest_cell and i:
                empty.append(i)
        room = self.size.width - 1 - len(self.columns) if self.size.width else 10_000
        longest = max([0, *(m[2] for m in measured.values())])
        # The room the Conditions column asks for before the others give up characters: its title's, or
        # less when its conditions take less there (none at all: nothing). A zone's name is not cut short
        # for room the column would leave blank; its title then shortens, with an ellipsis, to the room left.
        wanted = max([0, *(m[3] for m in measured.values())])
        if len(fixed) > 1 and sum(fixed) + max(longest, wanted) > room:
            fixed[1] = min(fixed[1], max(NAME_MIN, NAME_ROOMY))  # a long name gives way first
            # Then columns no row writes in, title and all (a title cut to "…" says nothing), then names and
            # places, in the family's order, never numbers.
            for i in [*empty, *self.shrinkable]:
                short = wanted - (room - sum(fixed))
                if short <= 0:
                    break
                fixed[i] = 0 if i in empty else max(self._floor(i), fixed[i] - short)
        conditions_width = max(wanted, room - sum(fixed))
        fit = (tuple(fixed), conditions_width)
        before_fitted = self._fitted
        if same and fit == self._fitted_to:
            # The same rows at the same widths: refit only the rows that changed (a `next` at 500 combatants:
            # two), and lay out the lines and the legend again only if the order changed or those rows
            # changed their number of lines or their short forms.
            fitted, rows, changed = before_fitted, self.rows, set()
            relines = relegend = self.keys != self._fitted_keys
            for key, row in self.source.items():
                hit = fitted[key]
                if hit[0] is row:
                    continue
                new = _fitted(row, fit)
                relines = relines or len(new[2]) != len(hit[2])
                relegend = relegend or [(t.stem, t.meaning) for t in new[3]] != [(t.stem, t.meaning) for t in hit[3]]
                fitted[key], rows[key] = new, new[2]
                changed.add(key)
        else:
            fitted, rows, changed = {}, {}, set()
            for key, row in self.source.items():
                kept = before_fitted.get(key)
                if kept is None or kept[1] != fit or kept[0] is not row:
                    kept = _fitted(row, fit)
                    changed.add(key)
                fitted[key], rows[key] = kept, kept[2]
            relines = relegend = True
        self._fitted, self._fitted_to, self._fitted_keys = fitted, fit, list(self.keys)
        used = max([CONDITIONS_MIN, *(hit[4] for hit in fitted.values())])
        if not any(hit[4] for hit in fitted.values()):
            empty.append(len(fixed))
        self._untitled = frozenset(empty)
        widths = [*fixed, min(conditions_width, used)]
        same_widths = widths == self.widths
        if not same_widths:
            self._cache.clear()
        self.rows, self.widths = rows, widths
        if relines:
            self.lines = [(key, n) for key in self.keys for n in range(len(rows[key]))]
            self._first_line = {}
            for i, (key, n) in enumerate(self.lines):
                if n == 0:
                    self._first_line[key] = i
        if relegend:  # each short form's meaning, in the order the rows first use them
            explained = dict((t.stem, t.meaning) for key in self.keys for t in fitted[key][3])
            legend = " · ".join(f"{stem}={meaning}" for stem, meaning in explained.items())
            if legend != self.legend:
                self.legend = legend
                self.post_message(self.Legend(legend))
        size = Size(min(sum(widths) + len(widths), max(self.size.width, 1)), len(self.lines) + 1)
        if size != self.virtual_size:
            self.virtual_size = size
        return changed if same_widths else None

    def _floor(self, i: int) -> int:
        """The fewest characters column `i` keeps when the room is short: its title's, a name `NAME_MIN`."""
        return max(len(self.columns[i]), NAME_MIN if i == 1 else 6)

    def on_resize(self, event: Resize) -> None:
        self._fit()
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

    def first_line(self, key: str) -> int:
        """The screen line (below the header) where `key`'s row starts."""
        return self._first_line.get(key, 0)

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
        line = event.y + self.scroll_offset.y - 1
        if 0 <= line < len(self.lines):
            self._move(self._position[self.lines[line][0]])

    def watch_cursor(self, old: int, new: int) -> None:
        if not self.keys:
            return
        key = self.keys[min(new, len(self.keys) - 1)]
        top = self.first_line(key)
        bottom = top + len(self.rows.get(key, [()])) - 1
        if bottom >= self.scroll_offset.y + self.size.height - 1:
            self.scroll_to(y=bottom - self.size.height + 2, animate=False)
        elif top < self.scroll_offset.y:
            self.scroll_to(y=top, animate=False)
        # The two rows the cursor left and reached (a scroll repaints the rest itself).
        self._refresh_rows({self.keys[i] for i in (old, new) if 0 <= i < len(self.keys)})

    # --- rendering ------------------------------------------------------------------------
    def _line(self, cells: Row, style: Style) -> Strip:
        text = " ".join(cell[:w].ljust(w) for cell, w in zip(cells, self.widths, strict=False))
        return Strip([Segment(" " + text, style)])

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        if y == 0:
            header = base + self.get_component_rich_style("order-table--header")
            # A column no row writes in, too narrow for its title, goes untitled: a title cut to "Condi…" is a
            # clipped word, and the column gets its room (and its title) back with the first condition.
            titles = tuple(
                "" if len(title) > w and i in self._untitled else _cut(title, w)
                for i, (title, w) in enumerate(zip(self.columns, self.widths, strict=False))
            )
            return self._line(titles, header).crop(0, width).adjust_cell_length(width, header)
        at = self.scroll_offset.y + y - 1
        if at >= len(self.lines):
            return Strip.blank(width, base)
        key, part = self.lines[at]
        index = self._position[key]
        cells = self.rows[key][part]
        flags = (index == self.cursor, key == self.active, key in self.down, index % 2, self.has_focus)
        cache_key = (cells, flags, width, base)
        hit = self._cache.get(f"{key}\0{part}")
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
        strip = self._line(cells, style).crop(0, width).adjust_cell_length(width, style)
        self._cache[f"{key}\0{part}"] = (cache_key, strip)
        return strip


def _fitted(row: OrderRow, fit: tuple[tuple[int, ...], int]) -> Fitted:
    """`row` fitted to the columns' widths and the Conditions column's (`fit`)."""
    fixed, conditions_width = fit
    texts, brief = fit_conditions(row.conditions, conditions_width)
    cells = tuple(_cut(cell, fixed[i]) for i, cell in enumerate(row.cells))
    blank = tuple("" for _ in cells)
    lines = [(*(cells if n == 0 else blank), text) for n, text in enumerate(texts)]
    return (row, fit, lines, brief, max(len(text) for text in texts))


def _cut(cell: str, width: int) -> str:
    """A cell shortened to `width` with an ellipsis, never silently."""
    return cell if len(cell) <= width else cell[: max(0, width - 1)] + "…"
