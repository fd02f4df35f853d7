"""Messages the screen's widgets send back: the only way a widget asks for a change."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from textual.message import Message


@dataclass
class Submit(Message):
    """Run one line of the GM command language: keys, the action picker, the palette and the command
    line all send this, and the screen submits it through the app's one path (`TrackerApp.submit`)."""

    line: str
    _: KW_ONLY
    #: Typed on the command line: cleared once accepted, kept for editing when refused.
    typed: bool = False
