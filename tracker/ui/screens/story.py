"""The story of the fight on a screen of its own: the players' view of it (``tracker view --player``,
key ``s``), and the GM's when the Story tab is too small (key ``S``).

Imported only when first opened, like the Story tab, so textual-plotext stays out of start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static

from tracker.ui.host import TellsStory
from tracker.ui.screens.following import FollowingScreen
from tracker.ui.widgets.story import StoryPanel

if TYPE_CHECKING:
    from tracker.ui.host import Host


class StoryScreen(FollowingScreen):
    """The whole story, full size; it follows the file like the screen under it."""

    BINDINGS = [
        Binding("escape,s,S", "app.pop_screen", "Back", id="story.back"),
        Binding("pageup", "scroll(-1)", "Scroll up", id="story.up", show=False),
        Binding("pagedown", "scroll(1)", "Scroll down", id="story.down", show=False),
        Binding("q", "app.quit", "Quit", id="story.quit"),
    ]
    DEFAULT_CSS = """
    StoryScreen #story-title { height: 1; padding: 0 1; background: $primary 30%; text-style: bold; }
    StoryScreen StoryPanel { height: 1fr; padding: 0 1; }
    StoryScreen StoryPanel > PlotextPlot { height: 1fr; min-height: 10; }
    """

    def __init__(self, player: bool) -> None:
        super().__init__()
        self.player = player

    def compose(self) -> ComposeResult:
        who = "for the players" if self.player else ""
        yield Static(f"The story of the fight {who}".strip(), id="story-title", markup=False)
        yield StoryPanel(player=self.player, id="story-full")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(StoryPanel).focus()
        if isinstance(self.app, TellsStory):
            self.app.want_story(True)
        self.tell()

    def watch_revision(self) -> None:
        if self.is_mounted:
            self.tell()

    def tell(self) -> None:
        app = self.app
        if isinstance(app, TellsStory):  # another account's screen: the story comes from the GM's process
            self.query_one(StoryPanel).show(app.players_story())
        else:
            panel = self.query_one(StoryPanel)
            panel.follow(cast("Host", app).session)
            if not self.player:  # the GM's: the round-by-round odds from the worker of the screen below
                from tracker.ui import fight_odds

                line = next((f for s in reversed(app.screen_stack) if (f := fight_odds.found_on(s))), None)
                if line is not None:
                    line.ask_timeline(cast("Host", app).session, panel.show_odds)

    def on_unmount(self) -> None:
        if isinstance(self.app, TellsStory):
            self.app.want_story(False)

    def action_scroll(self, step: int) -> None:
        panel = self.query_one(StoryPanel)
        (panel.scroll_page_down if step > 0 else panel.scroll_page_up)(animate=False)
