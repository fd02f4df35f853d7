"""A panel whose whole content is a block of the family's text: Turn, Melee or Zones, Fate Deck or Pools.

The family decides what the block says (AP pips and legal actions, engagements, the zone map, the
deck or the pools); the panel only draws it, scrollable, and only when the block changed. The family's
odds tab (Fate Deck, Zones) draws the odds table above the block, laid out for the panel's width
(`view.odds_block`: thirteen thresholds across on a wide panel, down on a narrow one). A panel made with
`lead` shows the first paragraph of the family's text above the table, under the odds' title and the
question at hand: the Fate Deck tab's Control Hands, in view when the tab opens on a short screen.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.reactive import var

from tracker.present.view import Block, OddsView, Span, odds_block, split_lead
from tracker.ui.widgets.base import Panel, to_text
from tracker.ui.widgets.panel_text import PanelText


class TextPanel(Panel):
    """Draws the `block` slice of the view it is bound to."""

    DEFAULT_CSS = """
    TextPanel { overflow-y: auto; }
    TextPanel > Static, TextPanel > PanelText { width: 1fr; }
    """

    #: The family's text for this panel (bound to one slice of the screen's view).
    block: var[Block] = var(())
    #: The odds shown above the block (only the family's odds tab is bound to them).
    odds: var[OddsView | None] = var(None)
    #: The fight's odds line (`tracker.ui.fight_odds`), first on the odds tab, whole: the title may drop parts.
    fight: var[str] = var("")

    def __init__(self, *, id: str | None = None, lead: bool = False) -> None:
        super().__init__(id=id)
        #: The family's first paragraph goes above the odds table (when there are odds).
        self.lead = lead

    def compose(self) -> ComposeResult:
        yield PanelText(classes="panel-body")

    def watch_block(self) -> None:
        self.redraw()

    def watch_odds(self) -> None:
        self.redraw()

    def watch_fight(self) -> None:
        self.redraw()

    def on_resize(self) -> None:
        if self.odds is not None:
            self.redraw()  # the table's layout follows the width

    def body_width(self) -> int:
        """The columns the panel's text has (the width inside its scrollbar)."""
        return max(1, self.scrollable_content_region.width or self.size.width)

    def block_text(self) -> Text:
        """The odds (when bound) laid out for the width, then the family's block."""
        block = self.block
        if self.odds is not None:
            lead, rest = split_lead(block) if self.lead else ((), block)
            block = (*odds_block(self.odds, self.body_width(), lead), Span("\n"), *rest)
        if self.fight:
            block = (Span("The fight: ", "bold"), Span(f"{self.fight}\n\n"), *block)
        return to_text(block)

    def draw(self) -> None:
        self.put(self.query_one(".panel-body", PanelText), self.block_text())
