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
from tracker.ui.collector import settle

if TYPE_CHECKING:
    from tracker.present.story.events import Story
    from tracker.present.view import PlayerView
    from tracker.table.projection import Projection
    from tracker.ui.screens.waiting import WaitingScreen


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
        #: The waiting screen while one is up (before the first projection, and while the GM is away).
        self._wait: WaitingScreen | None = None

    async def on_mount(self) -> None:
        """After `TrackerApp.on_mount` (the themes' notices, the collector back on after the first frame):
        wait for the GM's process, and follow it."""
        screen = self.screen
        while not screen.is_mounted:
            await asyncio.sleep(0)
        self._said(self.client.waiting_text())
        self._follow_table()

    @work(exclusive=True, group="table")
    async def _follow_table(self) -> None:
        try:
            await self.client.run()
        except Refused as exc:
            self.refused = str(exc)
            self.exit(return_code=1)

    def _said(self, text: str) -> None:
        """The connection's news: waiting for the GM, or the GM gone. Shown on the waiting screen, put up
        over the fight's screen when the GM goes away (the last state stays under it)."""
        if self._wait is not None:
            self._wait.say(None, text)
            return
        from tracker.ui.screens.waiting import WaitingScreen

        self._wait = WaitingScreen(self.path, message=text)
        self.push_screen(self._wait)

    def _shown(self, projection: Projection) -> None:
        """A projection came: the first puts the screen up, each later one redraws it."""
        self.projection = projection
        waiting, self._wait = self._wait, None
        if self._main is None:
            self._main = self._main_screen()
            if waiting is not None and waiting is self.screen:
                self.switch_screen(self._main)
            else:
                self.push_screen(self._main)
            # Once its first frame is out, as a file viewer does: the collector's full passes then skip the
            # modules, validators and widgets built so far (else ~100 ms every few projections, on every
            # player's screen at once).
            self.call_after_refresh(settle)
            return
        if waiting is not None and waiting is self.screen:
            self.pop_screen()
        elif waiting is not None and waiting in self.screen_stack:  # a screen went over it: take it out too
            self.call_later(self._drop_screen, waiting)
        self.bump()

    async def _drop_screen(self, screen: Screen[None]) -> None:
        while screen in self.screen_stack and screen is not self.screen:
            self.pop_screen()
        if screen is self.screen:
            self.pop_screen()

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
