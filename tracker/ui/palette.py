"""The command palette's entries: what `tracker.ui.offers` offers now, each time the palette opens."""

from __future__ import annotations

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tracker.ui.offers import Offer, Offering, offers


class TrackerCommands(Provider):
    """Palette entries built from `offers` each time the palette opens."""

    def _offers(self) -> list[Offer]:
        return offers(self.screen) if isinstance(self.screen, Offering) else []

    async def discover(self) -> Hits:
        for title, text, callback in self._offers():
            yield DiscoveryHit(title, callback, help=text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, text, callback in self._offers():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=text)
