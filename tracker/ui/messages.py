"""Messages the screen's widgets send back: the only way a widget asks for a change."""

from __future__ import annotations

from textual.message import Message


class Submit(Message):
    """Run one line of the GM command language: keys, the action picker, the palette and the command
    line all send this, and the screen submits it through the app's one path (`TrackerApp.submit`)."""

    def __init__(self, line: str, *, typed: bool = False) -> None:
        super().__init__()
        self.line = line
        #: Typed on the command line: cleared once accepted, kept for editing when refused.
        self.typed = typed
