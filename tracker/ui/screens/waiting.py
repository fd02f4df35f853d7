"""The screen of a viewer that has no good state yet (`tracker view` on a missing or invalid file).

Kept out of `tracker.ui.app`: the GM's screen never needs it, and every screen class costs start-up time.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static


class WaitingScreen(Screen[None]):
    """A viewer with no good state yet: its file is missing or invalid; it waits, watching the folder."""

    def __init__(self, path: Path, invalid: str | None = None, message: str | None = None) -> None:
        super().__init__()
        self._path = path
        self._invalid = invalid
        #: What a player's screen waits for instead (the GM's process: `tracker.ui.remote`).
        self._message = message

    def compose(self) -> ComposeResult:
        yield Static(self.text(), id="waiting", markup=False)

    def text(self) -> str:
        """What the viewer waits for, and why: a missing file to appear, or an invalid one to be fixed."""
        if self._message is not None:
            return f"{self._message[:1].upper()}{self._message[1:]}… (q quits)"
        if self._invalid is None:
            return f"Waiting for {self._path} to appear… (q quits)"
        if not self._invalid:
            return f"{self._path} is invalid.\nWaiting for a valid version… (q quits)"
        return f"{self._path} is invalid:\n{self._invalid}\nWaiting for a valid version… (q quits)"

    def say(self, invalid: str | None, message: str | None = None) -> None:
        """The file changed but is still not usable: show the new reason."""
        self._invalid = invalid
        self._message = message
        if self.is_mounted:
            self.query_one("#waiting", Static).update(self.text())

    BINDINGS = [("q", "app.quit", "Quit")]
