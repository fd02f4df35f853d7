"""What the screens ask of the app that runs them, as a protocol: the screens speak to `self.app` through it
and never import the app's module (the app imports the screens, not the other way round)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tracker.families.session import Session


class Host(Protocol):
    """The app as its screens see it: the session shown, its revision, the one path commands take, the theme."""

    #: The encounter being run or followed.
    session: Session
    #: Counts accepted commands (and file changes a viewer saw); the screens' views carry it.
    revision: int

    def submit(self, line: str) -> str | None:
        """Run one command; None when accepted and saved, else the one-line reason."""
        ...

    def cycle_theme(self) -> None:
        """Switch to the next theme (and remember it)."""
        ...
