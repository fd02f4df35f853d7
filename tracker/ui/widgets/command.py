"""The command line (CONTRACT.md §3) with completion of verbs, names, conditions, actions and zones.

Completion is a Textual `Suggester`: the grey suggestion after the cursor is accepted with → or Tab.
What may come at each position is read from the family's command table (`VerbSpec.kind_at`) and the
words the family's engine gives for that kind, so a 2d20 line never completes a Through the Breach verb.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from textual.suggester import Suggester
from textual.widgets import Input

from tracker.rules.family import FamilyEngine
from tracker.rules.words import quote


class CommandSuggester(Suggester):
    """Suggests the rest of the word being typed, from the encounter's own names."""

    def __init__(self, engine: Callable[[], FamilyEngine]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self._engine = engine

    async def get_suggestion(self, value: str) -> str | None:
        if not value or value.endswith(" "):
            return None
        try:
            words = shlex.split(value)
        except ValueError:
            words = value.split()
            words[-1] = words[-1].lstrip("'\"")
        if not words:
            return None
        engine = self._engine()
        verbs = engine.family.verbs
        if len(words) == 1:
            matches = [v for v in verbs.verbs() if v.startswith(words[0].casefold())]
            return value + matches[0][len(words[0]) :] + " " if matches else None
        spec = verbs.get(words[0].casefold())
        kind = spec.kind_at(len(words) - 1) if spec else None
        if kind is None:
            return None
        partial = words[-1]
        for option in engine.choices(kind):
            if option.casefold().startswith(partial.casefold()) and option.casefold() != partial.casefold():
                head = value[: len(value) - len(partial)].rstrip("'\"")
                return head + quote(option) + " "
        return None


class CommandLine(Input):
    """Enter runs the line through the same language as `tracker exec`."""

    DEFAULT_CSS = "CommandLine { height: 3; }"
