"""Messages the screen's widgets send back: the only way a widget asks for a change."""

from __future__ import annotations

from textual.message import Message


class Submit(Message):
    """Run one line of the GM command language (the screen submits it through the app)."""

    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line
