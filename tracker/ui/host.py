"""What the screens ask of the application that shows them (`tracker.ui.app.TrackerApp` answers it).

A Protocol, so the screens name the app's few members they use without importing the app module, which
imports them: the screens stay below the app and the two never form an import cycle.
"""

from __future__ import annotations

from typing import Protocol

from tracker.families.session import Session


class TrackerHost(Protocol):
    """The running tracker: the session it plays, how many views it has built, and its two actions."""

    #: The encounter in play (replaced when the file changes on disk).
    session: Session
    #: Bumped on every accepted change; a screen rebuilds its view when its own falls behind.
    revision: int

    def submit(self, line: str) -> str | None:
        """Run one GM command line and save; the refusal or error to show, None when it was accepted."""
        ...

    def cycle_theme(self) -> None:
        """Switch to the next theme."""
        ...
