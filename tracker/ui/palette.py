"""The command palette's entries: what the screen's actions offer now (`tracker.ui.actions`), each time the
palette opens."""

from __future__ import annotations

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tracker.ui.actions import Offer
from tracker.ui.screens.acting import ActingScreen


class TrackerCommands(Provider):
    """Palette entries built from the screen's actions each time the palette opens."""

    def _offers(self) -> list[Offer]:
        screen = self.screen
        return screen.ACTIONS.offers(screen) if isinstance(screen, ActingScreen) else []

    async def discover(self) -> Hits:
        for title, text, callback in self._offers():
            yield DiscoveryHit(title, callback, help=text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, text, callback in self._offers():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=text)
