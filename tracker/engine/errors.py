"""Errors that reach the GM as one line, never as a traceback."""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A command the rules or the parser refuse; the message is the one-line reason shown to the GM.

    Engine code raises it *before* it changes any state, so a refused command never leaves a
    half-applied change behind (a hypothesis test checks this across random command sequences).
    """


class Invalid(ValueError):
    """A document that does not validate; `errors` lists pydantic's error dicts (``loc``, ``msg``, ``type``,
    ``input``, ``ctx``), which the store turns into positioned problems (``FILE:LINE:COL: message``)."""

    def __init__(self, title: str, errors: list[dict[str, Any]], text: str | None = None) -> None:
        super().__init__(
            text or f"{len(errors)} validation error(s) for {title}: " + "; ".join(e["msg"] for e in errors)
        )
        self.title = title
        self._errors = errors

    def errors(self) -> list[dict[str, Any]]:
        return list(self._errors)
