"""The screens of another account: `tracker view FILE --player` and `tracker play FILE`, fed by the GM's process.

Such an account cannot read FILE (it is the GM's, mode 0600), and needs not: the GM's `tracker run` sends
it its projection over the table's socket (`tracker.table`). This app shows those projections on the same
screens as the GM's own player view (`PlayerScreen`) or the seat's own (`PlayScreen`), says when it waits
for the GM (no `tracker run` open, or the GM quit), and connects again by itself.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.screen import Screen

from tracker.table.client import Refused, TableClient
from tracker.ui.app import TrackerApp

if TYPE_CHECKING:
    from tracker.present.story.events import Story
    from tracker.present.view import PlayerView
    from tracker.table.projection import Projection


class RemoteApp(TrackerApp):
    """A player's or viewer's screen on another account, fed by the table's socket."""

    def __init__(self, path: Path, *, mode: str, as_name: str | None = None, theme: str | None = None) -> None:
        super().__init__(None, path, theme=theme, player=mode == "view")
        self.mode = mode
        self.projection: Projection | None = None
        #: Why the GM's process refused this seat (the exit line of `tracker play`), if it did.
        self.refused: str | None = None
        self.client = TableClient(path, mode=mode, as_name=as_name, shown=self._shown, said=self._said)
        self._main: Screen[None] | None = None

    async def on_mount(self) -> None:
        screen = self.screen
        while not screen.is_mounted:
            await asyncio.sleep(0)
        for problem in self._theme_problems:
            self.notify(problem, severity="warning", timeout=8, markup=False)
        from tracker.ui.screens.waiting import WaitingScreen

        self.push_screen(WaitingScreen(self.path, message=self.client.waiting_text()))
        self._follow_table()
        self.call_after_refresh(self._resume_gc)

    @work(exclusive=True, group="table")
    async def _follow_table(self) -> None:
        try:
            await self.client.run()
        except Refused as exc:
            self.refused = str(exc)
            self.exit(return_code=1)

    def _waiting(self) -> Any:
        from tracker.ui.screens.waiting import WaitingScreen

        return next((s for s in self.screen_stack if isinstance(s, WaitingScreen)), None)

    def _said(self, text: str) -> None:
        """The connection's news: waiting for the GM, or the GM gone. Shown on the waiting screen."""
        waiting = self._waiting()
        if waiting is not None:
            waiting.say(None, text)
            return
        from tracker.ui.screens.waiting import WaitingScreen

        self.push_screen(WaitingScreen(self.path, message=text))

    def _shown(self, projection: Projection) -> None:
        """A projection came: the first puts the screen up, each later one redraws it."""
        self.projection = projection
        if self._main is None:
            self._main = self._main_screen()
            if self._waiting() is self.screen:
                self.switch_screen(self._main)
            else:
                self.push_screen(self._main)
            return
        if self._waiting() is self.screen:
            self.pop_screen()
        self.bump()

    def _main_screen(self) -> Screen[None]:
        if self.mode == "play":
            from tracker.ui.screens.play import PlayScreen

            return PlayScreen()
        from tracker.ui.screens.player import PlayerScreen

        return PlayerScreen()

    def player_view(self) -> PlayerView:
        assert self.projection is not None  # the player screen is shown only once one came
        return self.projection.view

    def players_story(self) -> Story | None:
        return self.projection.story if self.projection is not None else None

    def want_story(self, wanted: bool) -> None:
        self.client.want_story(wanted)

    async def send(self, line: str) -> dict[str, Any]:
        """Send one command to the GM's process; its reply."""
        return await self.client.send(line)

    def submit(self, line: str) -> str | None:
        return "this screen sends its commands to the GM's process"
