"""The part of ``[state]`` both rule families share: randomness, round and turn, order, prompt and log.

Each family's state (`TTBState`, `TwoD20State`) subclasses `LiveState` with its own ``system`` and
``phase`` literals, its fighters' record type and whatever else its rules track. Keeping the shared
fields here is what lets `tracker.engine.kernel.Engine` do the lookups, the log and the prompts once.

Records (`tracker.engine.records.record`), so the engine builds and mutates them cheaply; the file loader
validates them once when it reads ``[state]``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Any, Generic, TypeVar

from tracker.engine.log import LogEntry
from tracker.engine.records.model import Loc, Located, Prompt, Request, Strict
from tracker.engine.records.record import Record, default_of, record

if TYPE_CHECKING:
    from pydantic import Field  # read by pydantic when a saved state is validated (`records.validation`)

#: The family's live record of one combatant (`ttb.state.Fighter`, `twod20.state.Fighter`). Covariant,
#: so either family's state is a `LiveState[object]` where the seam speaks of any family's state.
FighterT = TypeVar("FighterT", covariant=True)


@record
class LiveState(Strict, Generic[FighterT]):
    """The live state of one encounter, whichever rules run it; it satisfies `rng.Seeded`."""

    canonical_key = True  # the store remembers it as it saves it (`tracker.engine.records.record.remember`)

    #: Randomness is a pure function of (seed or secret, branch, draws), so a replay draws the same cards and
    #: dice (`tracker.engine.rng`). The secret, when the file names no seed, is the GM's alone
    #: (docs/guide/shared-box.md).
    seed: int = 0
    secret: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")] | None = None
    branch: int = 0
    draws: int = 0
    #: ``setup`` before ``start`` and ``ended`` after ``end`` in both families; each family's state
    #: narrows it to a Literal of its own phases in between.
    phase: str = "setup"
    round: int = 0
    #: Whose turn is open, if anyone's.
    active: str | None = None
    #: The family's turn order (TTB: this round's initiative; 2d20: turns taken this round).
    order: list[str] = field(default_factory=list)
    fighters: dict[str, FighterT]
    #: The sheets of combatants that joined mid-fight (``join``, docs/reference/file-format.md: they live in the
    #: state, not
    #: in the setup), in the order they came; each family narrows the type to its own ``[[combatants]]`` entry.
    joined: list[Any] = field(default_factory=list)
    #: Combatants that left the fight (``leave``): kept with their record, out of the order, not targetable.
    left: list[str] = field(default_factory=list)
    #: The one question waiting for the table; every other command is refused until it is answered.
    prompt: Prompt | None = None
    log: list[LogEntry] = field(default_factory=list)
    #: Log entries ever written (the stored log keeps only the latest); lets a screen append only new ones.
    logged: int = 0
    #: The players' requests waiting for the GM (docs/guide/seating.md), oldest first. In the state, not beside it,
    #: so they persist in the file and undo and redo step over them like any command.
    requests: list[Request] = field(default_factory=list)
    #: Requests ever made in this fight: the next one's id is one more, so an id never names two requests.
    request_count: int = 0


def reset(record: Record, *fields: str) -> None:
    """Put `fields` of `record` back to their declared defaults (a fresh list for a list field).

    Turn and scene boundaries clear a handful of per-turn counters; naming them here keeps the
    cleared value the one the model declares, instead of a second copy of it in the rule.
    """
    for name in fields:
        setattr(record, name, default_of(type(record), name))


def name_problems(st: LiveState[object], names: Collection[str]) -> list[Located]:
    """The shared part of a saved ``[state]`` against the setup's combatants: one live record per
    combatant, no record of anyone else, and every name in the order, the turn and the prompt is one of
    them. Each problem at its key inside ``[state]`` (an engine looks names up; a stranger is a KeyError)."""
    problems: list[Located] = [
        (("fighters",), f"no live record for '{name}' (the setup's combatants and [state] disagree)")
        for name in names
        if name not in st.fighters
    ]
    problems += unknown_names(((("fighters", n), n) for n in st.fighters), names)
    problems += unknown_names(((("order", i), n) for i, n in enumerate(st.order)), names)
    problems += unknown_names([(("active",), st.active)], names)
    if st.prompt is not None:
        problems += unknown_names([(("prompt", "who"), st.prompt.who)], names)
    return problems


def unknown_names(found: Iterable[tuple[Loc, str | None]], names: Collection[str]) -> list[Located]:
    """A problem for each name (at its key) that is not a combatant's; None is no name."""
    return [
        (loc, f"'{name}' is not a combatant of this encounter")
        for loc, name in found
        if name is not None and name not in names
    ]
