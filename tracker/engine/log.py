"""One line of the encounter log, as data: when it happened, on whose turn, and what was said.

The screens group the log by round and turn and show the table's questions apart from events, so an
entry carries those as fields instead of a ``"round|active|text"`` string that every reader had to
split again.
"""

from __future__ import annotations

from typing import Any, Literal

from tracker.engine.records.model import Strict
from tracker.engine.records.record import record

#: Most recent entries kept in the live state; older ones are dropped (deterministically, so a replay
#: keeps the same ones). ``LiveState.logged`` still counts every entry ever written.
LOG_LIMIT = 200

#: What `Engine.ask` writes before a question, so the text alone still reads as one.
PROMPT_MARK = "? "

#: ``event`` for what happened, ``prompt`` for a question the table must answer, ``result`` for the outcome
#: of a flip or a roll (the screen shows those where the GM looks as well as in the log).
LogKind = Literal["event", "prompt", "result"]


def _kind_of(text: str) -> LogKind:
    """The kind the string form reads back: a prompt by its mark, anything else as an event."""
    return "prompt" if text.startswith(PROMPT_MARK) else "event"


@record
class LogEntry(Strict):
    """A log entry: the round, whose turn it was (None between turns), its kind, and the text.

    Saved as the string ``"round|actor|text"``, the form every file has used (``actor`` empty between
    turns; a prompt's text starts with ``"? "``, which is how its kind reads back). tomli_w writes a
    list per entry over six lines and a table per entry as ``[[state.log]]`` sections: for the 200
    kept entries that is 40-60 % more file, up to a millisecond more per durable save (one per
    command) and 2-4 ms more to read it back. An entry the string cannot carry exactly (an actor
    containing ``|``, a kind its text does not show) is saved as the list ``[round, actor, kind,
    text]`` instead; both forms load. A result is such an entry: the few flips and rolls of a fight
    keep their kind across a restart for a handful of bytes each.
    """

    round: int
    #: Whose turn it was when the entry was written (``active``), None when no turn was open.
    actor: str | None = None
    #: ``prompt`` for a question the table must answer (`Engine.ask`), ``result`` for a flip's or a roll's
    #: outcome, ``event`` for everything else.
    kind: LogKind = "event"
    #: As written; a prompt's text keeps its leading ``"? "``.
    text: str

    @classmethod
    def read(cls, data: Any) -> Any:
        """Read the saved string form and the list form."""
        if isinstance(data, str):
            round_no, actor, text = data.split("|", 2)
            return {"round": round_no, "actor": actor or None, "kind": _kind_of(text), "text": text}
        if isinstance(data, list | tuple):
            if len(data) != 4:
                raise ValueError("a log entry is 'round|actor|text' or [round, actor, kind, text]")
            round_no, actor, kind, text = data
            return {"round": round_no, "actor": actor or None, "kind": kind, "text": text}
        return data

    def as_data(self) -> str | list[int | str]:
        """Saved as the compact string (or the list form when the string cannot carry the entry)."""
        actor = self.actor or ""
        if "|" in actor or self.kind != _kind_of(self.text):
            return [self.round, actor, self.kind, self.text]
        return f"{self.round}|{actor}|{self.text}"
