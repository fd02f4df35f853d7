"""The log: every event, grouped by round and turn, automatic effects included.

It appends only the entries written since it last looked (the state counts every entry ever logged),
into a `RichLog` with a line limit (docs/architecture/index.md).

A RichLog wraps each write at the width it has then, and never less than its `min_width` (78 by
default): narrower than that, lines were cut at the edge and words lost ("fai the check"). So the
minimum is small, and when the width changes the panel writes the kept entries again at the new width.
"""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.geometry import Size
from textual.reactive import Reactive, var
from textual.widgets import RichLog

from tracker.engine.log import LogEntry
from tracker.present.words import plain
from tracker.ui.textual_adapter import update_scrollbars
from tracker.ui.widgets.base import Panel, StyledOncePerFrame

#: The entries the state keeps, and how many were ever written.
LogSlice = tuple[tuple[LogEntry, ...], int]


class LogView(StyledOncePerFrame, RichLog):
    """A RichLog whose new lines repaint the log without a layout of the whole screen.

    A RichLog grows its `virtual_size` with each write, and Textual lays the screen out again when a
    widget's virtual size changes (it may size the widget, when its height is ``auto``): at 500 combatants
    that layout, and the repaint of every scrollbar it brings, was a good part of a keypress.
    The log's height is the panel's (``1fr``), never its content's, so a longer log only needs the log
    repainted and its own scrollbar told, which `watch_virtual_size` does. (Showing or hiding that
    scrollbar still lays the screen out: Textual does it when the scrollbar's visibility changes.)
    """

    DEFAULT_CSS = "LogView { height: 1fr; }"

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def watch_virtual_size(self, size: Size) -> None:
        update_scrollbars(self, size)  # what Textual's layout does for it


class LogPanel(Panel):
    #: Bound to the screen's log slice.
    entries: var[LogSlice] = var(((), 0))
    #: A line the GM must read above the fight's entries (the table stays closed to players, and the fix);
    #: bound to the screen's. Not an entry of the fight: nothing of it is saved.
    note: var[str | None] = var(None)
    #: The width the kept entries were last written for.
    _width: int | None = None

    def compose(self) -> ComposeResult:
        yield LogView(max_lines=2000, min_width=20, wrap=True, markup=False)

    def on_mount(self) -> None:
        self._seen = 0
        self._group: tuple[int, str | None] = (-1, None)
        #: Whether `note` is written above the entries since the log was last cleared.
        self._noted = False
        # Panel.on_mount draws next: Textual runs each class's on_mount, so no super() call here.

    def watch_entries(self) -> None:
        self.redraw()

    def watch_note(self) -> None:
        if not self.is_mounted:
            return
        self._seen = 0
        self._group = (-1, None)
        self._noted = False
        self._clear()
        self.redraw()

    def _clear(self) -> None:
        """Empty the log view; none yet when the panel's children are still to be composed (a note or a size
        can come first): its first draw writes everything then."""
        for view in self.query(LogView):
            view.clear()

    def on_resize(self) -> None:
        """Wrapped text is laid out for one width: at a new width, write the kept entries again."""
        width, before = self.size.width, self._width
        self._width = width
        if width and before and width != before:  # the first size is the one the log was written for
            self._seen = 0
            self._group = (-1, None)
            self._noted = False
            self._clear()
            self.redraw()

    def draw(self) -> None:
        entries, logged = self.entries
        view = self.query_one(LogView)
        if logged < self._seen:  # an undo went back: start again from what the state keeps
            view.clear()
            self._seen = logged - len(entries)
            self._group = (-1, None)
            self._noted = False
        new = logged - self._seen
        parts: list[Text | Padding] = []
        if self.note and not self._noted:
            self._noted = True
            parts.append(Text(self.note, style="bold"))
        if new <= 0:
            if parts:
                view.write(Group(*parts))
            return
        for entry in entries[-new:] if new <= len(entries) else entries:
            if (entry.round, entry.actor) != self._group:
                self._group = (entry.round, entry.actor)
                if entry.round:
                    title = f"Round {entry.round}" + (f" · {entry.actor}" if entry.actor else "")
                    parts.append(Text(title, style="bold underline"))
            # Padding keeps wrapped lines indented under their event.
            style = "italic" if entry.kind == "prompt" else ""
            # A player's words are drawn without control or format characters (a forged line, a bidi override).
            parts.append(Padding(Text(plain(entry.text), style=style), (0, 0, 0, 2)))
        view.write(Group(*parts))  # one write: one refresh of the log however many lines came
        if view.auto_scroll:
            # At the end at once, not only after the next frame as RichLog scrolls: the frame that shows
            # the command shows its log lines too (one frame per keypress, not two; RichLog's own
            # scroll after the frame then finds the log where it should be and repaints nothing).
            view.scroll_end(animate=False, immediate=True, x_axis=False)
        self._seen = logged
