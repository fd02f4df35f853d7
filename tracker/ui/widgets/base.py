"""What every panel shares: it draws a slice of the screen's typed view, and skips work while hidden.

The screen holds one `EncounterView` per revision and binds each panel's own reactive to its slice with
`data_bind`; a panel never reads the session. A panel in a tab that is not showing marks itself stale
instead of drawing (a layout for nothing) and catches up when its tab is shown.
"""

from __future__ import annotations

import contextlib

from rich.text import Text
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.widgets import Static, TabPane

from tracker.rules.view import Block

#: How each emphasis of the rules' text looks on screen.
EMPHASIS = {"": "", "bold": "bold", "dim": "dim", "italic": "italic", "key": "reverse"}


class PanelText(Static):
    """A panel's body: text the family wrote, which never holds a link.

    Textual looks for links in every line of a Static it paints (to style them on hover); the family's
    text has none, and the Turn panel is painted again after every `next`: not looking takes a quarter
    of its repaint off the keypress (issue 12)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.auto_links = False


def to_text(block: Block) -> Text:
    """A rules-side text block as Rich text."""
    out = Text()
    for span in block:
        out.append(span.text, style=EMPHASIS[span.emphasis])
    return out


class Panel(Vertical):
    """A panel: `draw()` runs whenever one of its bound reactives changes (and it is showing)."""

    def redraw(self) -> None:
        """Draw now, or later if the panel is hidden; watchers of the bound reactives call this."""
        if not self.is_mounted:
            return
        if self._hidden():
            self._stale = True
            return
        self._stale = False
        # Bound reactives can fire before the panel's children are composed; on_mount draws then.
        with contextlib.suppress(NoMatches):
            self.draw()

    def _hidden(self) -> bool:
        node = self.parent
        while node is not None:
            if isinstance(node, TabPane) and not node.display:
                return True
            node = node.parent
        return not self.display

    def put(self, static: Static, content: Text) -> None:
        """Update a Static; skip the screen-wide layout when the text keeps its number of lines."""
        lines = content.plain.count("\n")
        same = getattr(static, "_tracker_lines", None) == lines
        static._tracker_lines = lines  # type: ignore[attr-defined]
        static.update(content, layout=not same)

    def catch_up(self) -> None:
        if getattr(self, "_stale", False):
            self._stale = False
            with contextlib.suppress(NoMatches):
                self.draw()

    def on_mount(self) -> None:
        self.redraw()

    def draw(self) -> None:
        """Draw the bound slice; every panel overrides it."""
