"""What every panel shares: it draws a slice of the screen's typed view, and skips work while hidden.

The screen holds one `EncounterView` per revision and binds each panel's own reactive to its slice with
`data_bind`; a panel never reads the session. A panel in a tab that is not showing marks itself stale
instead of drawing (a layout for nothing) and catches up when its tab is shown. The family's text is
drawn by a `PanelText` (tracker/ui/widgets/panel_text.py), which repaints only the lines that changed.

`StyledOncePerFrame` changes how a widget asks for its style, not how it draws: it overrides Textual's
public `rich_style` and `render_lines` (no private name, so it is not in `tracker.ui.textual_adapter`),
and tests/ui/test_frame_style.py checks the style it gives is the one Textual works out, theme changes
included. Why `PanelText` keeps its own drawing is said in its module.
"""

from __future__ import annotations

import contextlib
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static, TabPane

from tracker.present.view import Block
from tracker.ui.widgets.panel_text import PanelText

#: How each emphasis of the rules' text looks on screen.
EMPHASIS = {"": "", "bold": "bold", "dim": "dim", "italic": "italic", "key": "reverse"}


class StyledOncePerFrame:
    """For a widget that draws line by line (`render_line`) and asks its `rich_style` for each line: the style
    is worked out once for all the lines a frame paints.

    Working it out walks the widget's ancestors for their backgrounds, a tenth of a millisecond a line: the
    log strip scrolls after every `next`, which repaints each of its lines. Mixed in before the
    Textual widget class, so its `render_lines` and `rich_style` come first."""

    _style_this_frame: Style | None = None

    @property
    def rich_style(self) -> Style:
        style = self._style_this_frame
        return style if style is not None else super().rich_style  # type: ignore[misc]

    def render_lines(self, crop: Region) -> list[Strip]:
        self._style_this_frame = None
        self._style_this_frame = self.rich_style
        try:
            return super().render_lines(crop)  # type: ignore[misc, no-any-return]
        finally:
            self._style_this_frame = None


def to_text(block: Block) -> Text:
    """A rules-side text block as Rich text."""
    out = Text()
    for span in block:
        out.append(span.text, style=EMPHASIS[span.emphasis])
    return out


class Panel(Vertical):
    """A panel: `draw()` runs whenever one of its bound reactives changes (and it is showing)."""

    #: A bound reactive changed while the panel was hidden: it draws when shown (`catch_up`).
    _stale: bool = False

    def __init__(self, *children: Widget, **kwargs: Any) -> None:
        super().__init__(*children, **kwargs)
        #: The number of lines each of the panel's Statics last held (`put`: same count, no layout).
        self._lines_in: dict[int, int] = {}

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

    def put(self, static: Static | PanelText, content: Text) -> None:
        """Update a panel's text; skip the screen-wide layout when the text keeps its number of lines.

        A `PanelText` (the family's text) repaints only the rows that changed and counts its rows itself."""
        if isinstance(static, PanelText):
            static.show(content)
            return
        lines = content.plain.count("\n")
        same = self._lines_in.get(id(static)) == lines
        self._lines_in[id(static)] = lines
        static.update(content, layout=not same)

    def catch_up(self) -> None:
        if self._stale:
            self._stale = False
            with contextlib.suppress(NoMatches):
                self.draw()

    def on_mount(self) -> None:
        self.redraw()

    def draw(self) -> None:
        """Draw the bound slice; every panel overrides it."""
