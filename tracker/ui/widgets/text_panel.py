"""A panel whose whole content is a block of the family's text: Turn, Melee or Zones, Fate Deck or Pools.

The family decides what the block says (AP pips and legal actions, engagements, the zone map, the
deck or the pools); the panel only draws it, scrollable, and only when the block changed.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.reactive import var
from textual.widgets import Static

from tracker.rules.view import Block
from tracker.ui.widgets.base import Panel, to_text


class TextPanel(Panel):
    """Draws the `block` slice of the view it is bound to."""

    DEFAULT_CSS = """
    TextPanel { overflow-y: auto; }
    TextPanel > Static { width: 1fr; }
    """

    #: The family's text for this panel (bound to one slice of the screen's view).
    block: var[Block] = var(())

    def compose(self) -> ComposeResult:
        yield Static(classes="panel-body")

    def watch_block(self) -> None:
        self.redraw()

    def draw(self) -> None:
        self.put(self.query_one(".panel-body", Static), to_text(self.block))
