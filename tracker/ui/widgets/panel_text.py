"""A panel's text, drawn line by line: a line that reads as before keeps what it was drawn as.

The panels put the family's whole block into their text after every command (`Panel.put`), and between
two turns most of the Turn panel reads the same (the actions and their AP: "walk 1 AP", "run 2 AP" …).
A `Static` wraps and styles every line of its text again each time it is updated: at 500 combatants that
was the largest single part of the frame a keypress paints (≈2.5 ms of ≈7). `PanelText` draws
with Textual's Line API instead (`render_line`). It keeps each line of its text (as the newlines cut it)
wrapped into rows, and each row styled; an update wraps only the lines it did not hold before (a line
that moved, say under a new "Fate Points" line, keeps its wrapping) and styles again only the rows of
lines that changed or moved. When the text keeps its number of rows it repaints only those rows and
lays nothing out (a new number of rows is a new `height: auto`, which only a layout of the screen gives
the widget). Rows are styled when a frame first shows them, so rows scrolled out of the panel's sight
cost nothing, and a line narrower than the width is known to take one row without being wrapped.

What reaches the screen is what the Static drew. A Static makes the Rich text one Textual `Content`,
cuts it at its newlines and wraps each piece on its own; here each line is cut out of the Rich text with
its part of each span (as Rich's `Text.split` cuts them), made a `Content` the same way, and counted
(`Content.get_height`, as the Static is measured) and drawn (`Visual.to_strips`, as the Static is drawn)
by the same Textual code with the widget's style, so each row holds the same segments, down to the
offsets Textual writes into them for text selection: a line drawn alone is Textual's line 0, so its rows
are given the line's number in the whole text (`on_line`; the tests compare every row with a Static's).
While the GM selects text, the text is drawn whole, as the Static drew it, and a content alignment other
than the top left is drawn the same way (the panels never set one). The text never holds a link, so
Textual's link search is off.

`render()` still gives the whole text as one `Content`: Textual copies a selection out of it, and tests
read a panel's text with `str(body.render())`.

Why this stays here, and not in `tracker.ui.textual_adapter`: that module holds the tracker's uses of
*private* Textual names, so a Textual release that renames one breaks one module. This one uses none: it
is a widget of Textual's public Line API (`render_line`, `get_content_width`, `get_content_height`), drawn
with public classes (`Content.from_rich_text`, `Visual.to_strips`, `Strip`), the way Textual's own
`Log` and `DataTable` draw. What it repeats of the `Static` is a policy (one `Content` per line, wrapped
at the widget's width with its text rules, cut or padded to the counted rows), not code reached into; if
a release changes how a `Static` draws, tests/ui/test_panel_text.py (every row against a `Static`'s, for
each kind of text and update) fails, and the snapshots with it. A plain `Static` in its place costs the
keypress its largest single part at 500 combatants (≈2.5 ms of ≈7, above), against a target of ``n`` →
frame at most half a bare Textual app's one-cell `DataTable` update (`python -m bench.bench_startup
--no-startup`, docs/performance.md). `tracker.ui.widgets.base.StyledOncePerFrame` is the
same case: it overrides the public `rich_style` and `render_lines` to work a widget's style out once a
frame.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Span, Text
from textual.content import Content
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.app import RenderResult
    from textual.css.types import TextAlign, TextOverflow
    from textual.style import Style

#: What wrapping a line depends on: the width, and the text rules Textual wraps a `Content` by.
Wrapping = tuple[int, "TextAlign", "TextOverflow", bool, int]
#: A line of the text as it is compared with the line drawn before: its characters, the whole text's
#: style and the line's part of each span.
LineKey = tuple[str, "str | RichStyle", tuple[Span, ...]]


def cut_lines(text: Text) -> list[LineKey]:
    """The text's lines, each with its part of each span, as `text.split("\\n", allow_blank=True)` cuts
    them; without building a Rich `Text` for every line and newline (an update pays for what it cuts)."""
    pieces = text.plain.split("\n")
    starts: list[int] = []
    at = 0
    for piece in pieces:
        starts.append(at)
        at += len(piece) + 1
    spans: list[list[Span]] = [[] for _ in pieces]
    for start, end, style in text.spans:
        line = max(0, bisect_right(starts, start) - 1)
        while line < len(pieces) and starts[line] < end:
            first = starts[line]
            cut_start, cut_end = max(start, first) - first, min(end, first + len(pieces[line])) - first
            if cut_end > cut_start:  # as Rich keeps a span's part: only when it holds characters
                spans[line].append(Span(cut_start, cut_end, style))
            line += 1
    return [(piece, text.style, tuple(parts)) for piece, parts in zip(pieces, spans, strict=True)]


def on_line(row: Strip, y: int) -> Strip:
    """A row of a line drawn alone, as drawn in line `y` of the whole text: Textual marks each character's
    place for text selection (a style's `offset`: its column in the line, and the line's number), which
    for a line drawn alone says line 0."""
    segments = []
    for text, style, control in row:
        if style is not None and (offset := style.meta.get("offset")) is not None:
            style += RichStyle.from_meta({"offset": (offset[0], y)})
        segments.append(Segment(text, style, control))
    return Strip(segments, row.cell_length)


class Line:
    """One line of the text: made a Content once, counted and drawn once per wrapping (shared by equal lines)."""

    __slots__ = ("content", "count", "rows")

    def __init__(self, content: Content) -> None:
        self.content = content
        #: How many rows the line takes at the widget's wrapping, and those rows drawn alone with the
        #: widget's style (None until needed).
        self.count: int | None = None
        self.rows: list[Strip] | None = None


class PanelText(Widget):
    """A panel's body: text the family wrote, which never holds a link; `show` puts new text in."""

    DEFAULT_CSS = "PanelText { height: auto; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, markup=False)
        # Textual styles links on hover in every line of a widget it paints; this text has none.
        self.auto_links = False
        self._text = Text()
        #: Counts the texts shown (what the text drawn whole was drawn from).
        self._shown = 0
        #: The whole text as one Content, made when asked for (`render`).
        self._whole: Content | None = None
        #: Each line, and what it was made from.
        self._keys: list[LineKey] = cut_lines(self._text)
        self._lines: list[Line] = [Line(Content(""))]
        #: The wrapping (width and text rules) the lines' rows were wrapped for.
        self._wrapped_for: Wrapping | None = None
        #: Where each line's rows start with that wrapping, and after the last line the number of rows.
        self._starts: list[int] | None = None
        #: Each line's rows styled with `_styled_with` for its place in the text, None until a frame shows it.
        self._strips: list[list[Strip] | None] = [None]
        self._styled_with: Style | None = None
        #: The rows drawn whole (a selection, an alignment), with what they were drawn for.
        self._drawn_whole: tuple[object, list[Strip]] | None = None

    # --- the text ------------------------------------------------------------------------
    def show(self, text: Text) -> None:
        """Put new text in: lines it held already keep their wrapping, the rows that changed are repainted,
        and the screen is laid out again only when the number of rows changed."""
        keys = cut_lines(text)
        old = self._keys
        if keys == old:
            return
        width = self.size.width
        before = self._counted(width)
        held = dict(zip(old, self._lines, strict=True))
        lines: list[Line] = []
        for key in keys:
            line = held.get(key)
            if line is None:
                line = held[key] = Line(self._content(key))
            lines.append(line)
        # A row's style holds its line's number (for text selection): a line kept in its place keeps its rows.
        kept = [n < len(old) and old[n] == key for n, key in enumerate(keys)]
        self._strips = [self._strips[n] if same else None for n, same in enumerate(kept)]
        self._keys, self._lines, self._text, self._whole, self._starts = keys, lines, text, None, None
        self._shown += 1
        after = self._counted(width)
        if before is None or after is None or before[-1] != after[-1]:
            self.refresh(layout=True)
            return
        # The rows of a line that changed or moved, or that a line above pushed down or pulled up.
        regions: list[Region] = []
        for n, same in enumerate(kept):
            if same and before[n] == after[n]:
                continue
            top, bottom = after[n], after[n + 1]
            if regions and regions[-1].bottom == top:
                top = regions.pop().y
            regions.append(Region(0, top, width, bottom - top))
        self.refresh(*regions)

    @property
    def text(self) -> Text:
        """The text last shown."""
        return self._text

    def _content(self, key: LineKey) -> Content:
        """A line as a Content, made as Textual makes the Static's content (`visualize`)."""
        piece, style, spans = key
        return Content.from_rich_text(Text(piece, style=style, spans=list(spans)), console=self.app.console)

    def render(self) -> RenderResult:
        """The whole text as the Static showed it (a selection is copied out of it)."""
        return self._whole_text()

    def _whole_text(self) -> Content:
        """The whole text as one Content, as Textual made the Static's (`visualize`)."""
        if self._whole is None:
            self._whole = Content.from_rich_text(self._text, console=self.app.console)
        return self._whole

    # --- rows ----------------------------------------------------------------------------
    def _counted(self, width: int) -> list[int] | None:
        """`_rows_at`, or None when there is no width yet."""
        return self._rows_at(width) if width else None

    def _rows_at(self, width: int) -> list[int]:
        """Where each line's rows start at this width, and the number of rows; a line is wrapped again only
        when the width or the text rules changed."""
        styles = self.styles
        nowrap = styles.text_wrap == "nowrap"
        rules: Wrapping = (width, styles.text_align, styles.text_overflow, nowrap, styles.line_pad)
        if rules != self._wrapped_for:
            self._wrapped_for, self._starts = rules, None
            for line in self._lines:
                line.count = line.rows = None
            self._strips = [None] * len(self._lines)
        if self._starts is None:
            starts = [0]
            room = width - 2 * styles.line_pad
            for line in self._lines:
                if line.count is None:
                    if line.content.cell_length <= room and "\t" not in line.content.plain:
                        line.count = 1  # it fits: one row, wrapped or not
                    else:
                        line.count = line.content.get_height(styles, width)  # type: ignore[arg-type]  # as Widget does
                starts.append(starts[-1] + line.count)
            self._starts = starts
        return self._starts

    def _line_rows(self, n: int, style: Style) -> list[Strip]:
        """Line `n`'s rows, styled the first time a frame shows them: the line drawn alone as Textual draws
        the Static's content (shared by equal lines), with its number in the text (`on_line`)."""
        strips = self._strips[n]
        if strips is None:
            line = self._lines[n]
            if line.rows is None:
                line.rows = Visual.to_strips(self, line.content, self.size.width, None, style, apply_selection=False)
            strips = [on_line(row, n) for row in line.rows] if n else list(line.rows)
            count = line.count or 0
            if len(strips) != count:  # as the Static's rows are cut or padded to its height
                strips = strips[:count] + [Strip.blank(self.size.width, style.rich_style)] * (count - len(strips))
            self._strips[n] = strips
        return strips

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        style = self.visual_style
        if self.text_selection is not None or self.styles.content_align != ("left", "top"):
            return self._whole_row(y, style)
        if style != self._styled_with:
            self._styled_with = style
            self._strips = [None] * len(self._lines)
            for line in self._lines:
                line.rows = None
        starts = self._rows_at(width)
        if y >= starts[-1]:
            return Strip.blank(width, style.rich_style)
        n = bisect_right(starts, y) - 1
        return self._line_rows(n, style)[y - starts[n]]

    def _whole_row(self, y: int, style: Style) -> Strip:
        """Row `y` of the text drawn whole, exactly as the Static drew it (Widget._render_content)."""
        key = (self._shown, self.text_selection, self.size, style)
        if self._drawn_whole is None or self._drawn_whole[0] != key:
            width, height = self.size
            self._drawn_whole = (key, Visual.to_strips(self, self._whole_text(), width, height, style))
        rows = self._drawn_whole[1]
        return rows[y] if y < len(rows) else Strip.blank(self.size.width, style.rich_style)

    # --- size ----------------------------------------------------------------------------
    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The longest line (as a Static measures its content's optimal width)."""
        width = max(cell_len(piece) for piece, _, _ in self._keys) + self.styles.line_pad * 2
        if self.expand:
            width = max(container.width, width)
        if self.shrink:
            width = min(width, container.width)
        return width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The rows the lines wrap to at this width."""
        if not width:
            return 0
        starts = self._counted(width)
        if starts is not None:
            return starts[-1]
        return self._whole_text().get_height(self.styles, width)  # type: ignore[arg-type]  # as Widget does
