"""The command line (CONTRACT.md §3) with completion of verbs, names, conditions and actions.

Completion is a Textual `Suggester`: the grey suggestion after the cursor is accepted with → or Tab.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from textual.suggester import Suggester
from textual.widgets import Input

from tracker.rules.commands import VERBS
from tracker.rules.session import Session

NAME_FIRST = {
    "add",
    "remove",
    "damage",
    "heal",
    "spend",
    "initiative",
    "engage",
    "disengage",
    "move",
    "reach",
    "pick",
    "keep",
    "roll",
    "treat",
    "stabilize",
    "revive",
    "fortune",
}


def words_for(session: Session, verb: str, position: int) -> list[str]:
    """What may come at `position` (1 = the word after the verb)."""
    names = list(session.engine.sheets)
    if verb in NAME_FIRST and position == 1:
        return names
    if verb in ("engage", "disengage", "reach") and position == 2:
        return names
    if verb in ("add", "remove") and position == 2:
        if session.system == "ttb":
            from tracker.rules.ttb.catalogue import CONDITIONS
        else:
            from tracker.rules.twod20.catalogue import CONDITIONS  # type: ignore[assignment]
        return list(CONDITIONS)
    if verb == "spend" and position == 2:
        if session.system == "ttb":
            from tracker.rules.ttb.actions import ACTIONS
        else:
            from tracker.rules.twod20.actions import ACTIONS  # type: ignore[assignment]
        return [k.replace("_", "-") for k in ACTIONS]
    if verb == "move" and position == 2:
        return list(session.engine.zones.names())
    if verb == "answer" and position == 1 and session.state.prompt is not None:
        return list(session.state.prompt.options)
    return []


def quote(word: str) -> str:
    return f"'{word}'" if " " in word else word


class CommandSuggester(Suggester):
    """Suggests the rest of the word being typed, from the encounter's own names."""

    def __init__(self, session: Callable[[], Session]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self._session = session

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
        if len(words) == 1:
            matches = [v for v in VERBS if v.startswith(words[0].casefold())]
            return value + matches[0][len(words[0]) :] + " " if matches else None
        session = self._session()
        partial = words[-1]
        options = words_for(session, words[0].casefold(), len(words) - 1)
        for option in options:
            if option.casefold().startswith(partial.casefold()) and option.casefold() != partial.casefold():
                head = value[: len(value) - len(partial)].rstrip("'\"")
                return head + quote(option) + " "
        return None


class CommandLine(Input):
    """Enter runs the line through the same language as `tracker exec`."""

    DEFAULT_CSS = "CommandLine { height: 3; }"
