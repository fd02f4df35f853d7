"""What the screens ask of the app that runs them, as a protocol: the screens speak to `self.app` through it
and never import the app's module (the app imports the screens, not the other way round)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tracker.families.session import Session
    from tracker.present.story.events import Story
    from tracker.present.view import PlayerView


class Host(Protocol):
    """The app as its screens see it: the session shown, its revision, the one path commands take, the theme."""

    #: The encounter being run or followed.
    session: Session
    #: Counts accepted commands (and file changes a viewer saw); the screens' views carry it.
    revision: int
    #: The keys the settings file's `[keymap]` gave actions, by binding id (help shows them).
    remapped: dict[str, str]

    def submit(self, line: str) -> str | None:
        """Run one command; None when accepted and saved, else the one-line reason."""
        ...

    def player_view(self) -> PlayerView:
        """What the players may see now (from the session, or from the GM's process for another account)."""
        ...

    def cycle_theme(self) -> None:
        """Switch to the next theme (and remember it)."""
        ...


@runtime_checkable
class TellsStory(Protocol):
    """An app whose players' story comes from the GM's process (`tracker.ui.remote`), not from a session."""

    def players_story(self) -> Story | None:
        """The players' story as last sent (None until it comes)."""
        ...

    def want_story(self, wanted: bool) -> None:
        """Ask the GM's process for the story with every change (while its screen is open), or stop."""
        ...
