"""The encounter file both rule families extend: what the session and the store use of any file.

A record only: it names no family. Which family plays a file is the registry's answer
(`tracker.families.registry.family_of`, from ``[encounter] system``), so a family's records never import
its rules or its presentation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.players import valid_account
from tracker.engine.records.model import DemoStep, EncounterInfo, History, Located, Sheets, Strict
from tracker.engine.records.record import record


@record
class EncounterFile(Strict):
    """Base of both families' file models: what the session and the store use of any encounter file.

    The tables every encounter file has are declared here; each family's model adds its own
    (``[settings]``, ``[[zones]]``, ``[[combatants]]``); the registry picks the family from
    ``[encounter] system``, so nothing outside the family asks which system a file is. (The store writes
    the tables back in the order a GM writes them, whatever the order of the fields.)
    """

    encounter: EncounterInfo
    demo: list[DemoStep] = field(default_factory=list)
    #: ``[seats]`` (docs/guide/seating.md): OS account → the character (or characters) it plays at its own terminal,
    #: the party file's seats under the encounter's own (the loader merges them, the encounter's win per account).
    seats: dict[str, str | list[str]] = field(default_factory=dict)
    #: The live ``[state]``, validated by the family when an engine resumes it.
    state: dict[str, object] | None = None
    history: History | None = None
    #: The setup tables as the GM wrote them, when the loader expanded them (stat blocks, ``count``, the
    #: party, docs/reference/file-format.md): saves write these back, never the expanded combatants. None otherwise.
    _written: dict[str, object] | None = field(default=None, init=False, repr=False, compare=False)
    #: The expanded sheets themselves, for a new fight's ``[history]`` (`History.sheets`). None otherwise.
    _sheets: Sheets | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def written(self) -> dict[str, object] | None:
        """The GM's own setup tables when this model is an expansion of them (see `_written`), else None."""
        return self._written

    @property
    def sheets(self) -> Sheets | None:
        """The expanded combatants and stat blocks a fight from this setup keeps in its history, else None."""
        return self._sheets

    def keep_written(self, tables: dict[str, object], sheets: Sheets) -> None:
        """Remember the GM's setup tables this model was expanded from, and the expansion (the loader calls this)."""
        self._written = tables
        self._sheets = sheets

    def seated(self, combatants: list[str]) -> dict[str, tuple[str, ...]]:
        """Each account's characters as full combatant names (a seat names one exactly or by a unique prefix,
        ignoring case, as commands do); a name that fits no one is left out (`seat_problems` reports it)."""
        out: dict[str, tuple[str, ...]] = {}
        for account, value in self.seats.items():
            found: list[str] = []
            for text in [value] if isinstance(value, str) else value:
                try:
                    name = names.resolve(text, combatants)
                except Refusal:
                    continue
                if name not in found:
                    found.append(name)
            out[account] = tuple(found)
        return out

    def seat_problems(self, combatants: list[str]) -> list[Located]:
        """What is wrong in ``[seats]`` (`seat_problems`), each at its key."""
        return seat_problems(self.seats, combatants)

    def warnings(self) -> list[Located]:
        """What is allowed but probably a slip (TTB Armor above +3), each at its key: ``tracker check``
        prints them as ``FILE:LINE:COL: warning: …`` without failing. The family decides; none by default."""
        return []


def seat_problems(seats: Mapping[str, str | list[str]], combatants: list[str]) -> list[Located]:
    """What is wrong in a ``[seats]`` table, each at its key: an account name the OS could not report, a name
    that is no combatant's, a character listed twice for one account or seated for two."""
    problems: list[Located] = []
    taken: dict[str, str] = {}
    for account, value in seats.items():
        if not valid_account(account):
            problems.append(
                (("seats", account), f"'{account}' is not an account name (lower-case letters, digits, '_', '-')")
            )
        listed = [value] if isinstance(value, str) else value
        mine: set[str] = set()
        for k, text in enumerate(listed):
            at = ("seats", account) if isinstance(value, str) else ("seats", account, k)
            try:
                name = names.resolve(text, combatants)
            except Refusal as exc:
                problems.append((at, str(exc)))
                continue
            if name in mine:
                problems.append((at, f"{name} is listed twice for {account}"))
            elif name in taken:
                problems.append((at, f"{name} is already seated for {taken[name]}"))
            mine.add(name)
            taken.setdefault(name, account)
    return problems
