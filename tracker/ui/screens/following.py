"""What every screen that follows the file shares: a revision the app bumps after each change it sees."""

from __future__ import annotations

from textual.reactive import var
from textual.screen import Screen


class FollowingScreen(Screen[None]):
    """A screen that follows the file: the app bumps its `revision` after every change it sees."""

    #: Bumped by the app after every change of the file; the screen then asks for its view again.
    revision = var(0)
