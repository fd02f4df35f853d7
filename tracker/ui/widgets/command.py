"""The command line (docs/reference/language.md) with completion of verbs, names, conditions, actions and zones.

Completion is a Textual `Suggester`: the grey suggestion after the cursor is accepted with → or Tab.
What may come at each position is read from the family's command table (`VerbSpec.kind_at`) and the
words the encounter's rules give for that kind, so a 2d20 line never completes a Through the Breach verb.
A word whose kind depends on the words before it (the conditions a named combatant has, for ``remove``)
is asked of the rules with that combatant as the subject.

Tab belongs to the line while it has focus: a GM who presses Tab to complete must never see the focus
leave and the next letters fire the screen's keys (``n`` ended a turn mid-typing in a try-out).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from textual.binding import Binding
from textual.suggester import Suggester
from textual.widgets import Input

from tracker.engine.language.commands import ArgKind, VerbTable
from tracker.families.rules import FamilyRules
from tracker.present.words import quote
from tracker.ui.textual_adapter import shown_suggestion


class CommandSuggester(Suggester):
    """Suggests the rest of the word being typed, from the encounter's own names."""

    def __init__(self, verbs: Callable[[], VerbTable], rules: Callable[[], FamilyRules]) -> None:
        # Case-sensitive as far as Textual goes: it would lowercase the whole line it hands over, and the
        # accepted suggestion would turn "remove 'Sofia Ramos' b" into "remove 'sofia ramos' burning".
        # Matching here ignores case itself.
        super().__init__(use_cache=False, case_sensitive=True)
        self._verbs = verbs
        self._rules = rules

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
        rules = self._rules()
        verbs = self._verbs()
        if len(words) == 1:
            matches = [v for v in verbs.verbs() if v.startswith(words[0].casefold())]
            return value + matches[0][len(words[0]) :] + " " if matches else None
        spec = verbs.get(words[0].casefold())
        if spec is not None and "=" in words[-1]:
            return self._option_value(value, words[-1], spec.option_kind(words[-1].partition("=")[0]), rules)
        kind = spec.kind_at(len(words) - 1) if spec else None
        if kind is None:
            return None
        partial = words[-1]
        # The combatant the line is about (the first name before this word), for kinds that depend on it.
        names = [w for i, w in enumerate(words[1:-1], 1) if spec is not None and spec.kind_at(i) == "name"]
        for option in rules.choices(kind, names[0] if names else None):
            if option.casefold().startswith(partial.casefold()) and option.casefold() != partial.casefold():
                head = value[: len(value) - len(partial)].rstrip("'\"")
                return head + quote(option) + " "
        return None

    @staticmethod
    def _option_value(value: str, word: str, kind: ArgKind | None, rules: FamilyRules) -> str | None:
        """The rest of a ``key=value`` option's value (``from=Gu`` → ``from='Guild Thug'``), from its kind."""
        typed = word.partition("=")[2].lstrip("'\"")
        if kind is None:
            return None
        for option in rules.choices(kind):
            if option.casefold().startswith(typed.casefold()) and option.casefold() != typed.casefold():
                head = value[: len(value) - len(typed)].rstrip("'\"")
                return head + quote(option) + " "
        return None


def typed_line(value: str) -> str:
    """The line as the language reads it: a GM who opened the line with `:` often types the `:` again out of
    habit (``:add thug burning 2``); a leading colon is no verb of either family, so it is dropped."""
    return value.strip().lstrip(":").strip()


class CommandLine(Input):
    """Enter runs the line through the same language as `tracker exec`.

    Until `:` (or a key that prefills it) gives it the focus it reads as a hint, not a field: dim words
    that say how to start typing, no frame, no field's background (the stylesheet). A line that looked
    ready for typing invited typing without `:`, and then ``n``, ``u`` or ``s`` ran as keys. Focused, it
    is the field, with its example.
    """

    DEFAULT_CSS = "CommandLine { height: 3; }"
    BINDINGS = [Binding("tab", "complete", "Complete", id="command.complete", show=False)]
    #: What the line says while it waits for `:`.
    HINT = "press : to type a command"

    def __init__(self, *, placeholder: str, **kwargs: Any) -> None:
        super().__init__(placeholder=self.HINT, **kwargs)
        #: What the focused line says: an example and the keys that run and leave it.
        self.example = placeholder

    def on_focus(self) -> None:
        self.placeholder = self.example

    def on_blur(self) -> None:
        self.placeholder = self.HINT

    def action_complete(self) -> None:
        """Tab accepts the grey suggestion like → does; with none it does nothing and keeps the focus."""
        suggestion = shown_suggestion(self)
        if self.cursor_at_end and suggestion:
            self.value = suggestion
            self.cursor_position = len(self.value)

    def select_for_editing(self) -> None:
        """Keep the line, all of it selected: typing replaces it, → or End edits it, Enter runs it again."""
        self.select_all()
