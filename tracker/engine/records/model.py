"""The encounter file as pydantic models (docs/reference/file-format.md).

The file has three layers:

* the **setup** the GM writes: ``[encounter]``, ``[settings]``, ``[[zones]]``, ``[[combatants]]``,
  ``[[demo]]``; it never changes once play starts, because undo replays the history from it;
* ``[state]``: the live state the engine writes after every accepted command (round, order, AP,
  decks, prompt, log), so a restart continues exactly where the last command left it;
* ``[history]``: what keys the draws (the seed or secret, and the branches after undos) and the accepted command
  lines (and the undone ones, for redo).

Every model forbids unknown keys, so a typo in a file is an error with its line, not a silent default.

This module holds only what every rule family shares (the header's common keys, prompts, demo steps,
history). Each family's own models live in its package: `tracker.families.ttb.records.file` (+ ``ttb.sheet``)
and `tracker.families.twod20.records.file` (+ ``twod20.sheet``, the 2d20 header's keys and ``[[zones]]``).
Keeping this module free of every family is what lets them stay independent of each other, and lets a new
family be a folder (docs/architecture/writing-a-family.md): a model here that reached into one family would
make the others depend on it through this shared layer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from tracker.engine.errors import Invalid
from tracker.engine.records.record import Record

if TYPE_CHECKING:
    # pydantic's markers, named by the annotations for the type checker and read by pydantic when it
    # validates a file (`tracker.engine.records.validation`): importing this module loads no pydantic.
    from pydantic import BeforeValidator, Field, StrictBool, StrictInt
    from pydantic_core import PydanticCustomError


@dataclass(kw_only=True)
class Strict(Record):
    """Base for every file model: unknown keys are errors (a `Record`'s default ``extra``)."""


@dataclass(kw_only=True)
class Prompt(Strict):
    """The one question the engine waits on; every other command is refused until it is answered."""

    kind: str
    question: str
    options: list[str]
    who: str | None = None
    data: dict[str, str | int | bool | list[str]] = field(default_factory=dict)


@dataclass(kw_only=True)
class Request(Strict):
    """A player's command waiting for the GM's ``approve`` or ``deny`` (docs/guide/seating.md).

    Saved and shown as ``{"id": 3, "seat": "alice", "as": "Sofia Ramos", "command": "damage 'Guild Thug' 2"}``:
    ``as`` is a Python keyword, so the field is ``as_`` and `read` / `as_data` translate the key.
    """

    #: Numbered from 1 in the order requests arrive (`LiveState.request_count`); never reused in a fight.
    id: int
    #: The OS account that sent it (its key in ``[seats]``).
    seat: str
    #: The seated character it was sent as.
    as_: str
    #: The command line the GM's ``approve`` runs.
    command: str

    @classmethod
    def read(cls, data: Any) -> Any:
        """The saved ``as`` key as the ``as_`` field."""
        if isinstance(data, dict) and "as" in data:
            data = {("as_" if k == "as" else k): v for k, v in data.items()}
        return data

    def as_data(self) -> Any:
        """The JSON and saved form, with the key ``as``."""
        return {"id": self.id, "seat": self.seat, "as": self.as_, "command": self.command}


def one_file(value: object) -> object:
    """``bestiary = "guild.toml"`` is the list of that one file."""
    return [value] if isinstance(value, str) else value


@dataclass(kw_only=True)
class EncounterInfo(Strict):
    """``[encounter]``: what the fight is and which rules run it.

    The keys every family's header has. A family whose header says more (2d20's ``profile`` and pools)
    extends this in its own records; which names ``system`` may take is the registry's
    (`tracker.families.registry`, checked by `tracker.families.encounter.validate_document`), so this layer
    names no family (docs/architecture/writing-a-family.md).
    """

    name: Annotated[str, Field(min_length=1)]
    #: The rule family that plays the file, by its name (``ttb``, ``2d20``).
    system: str
    #: Makes the draws follow this seed: for demos and tests only, since whoever knows it knows every flip and
    #: roll to come. Without it a fight's draws follow a 128-bit secret kept in the file (`tracker.engine.rng`).
    seed: int | None = None
    #: The seed ``tracker demo`` plays the ``[[demo]]`` script from when the file names no ``seed`` (a demo's
    #: steps answer the cards its seed deals); a fight played from the file never reads it.
    demo_seed: int | None = None
    #: How much a ``--player`` view shows of Fatemaster wounds: hidden, or a descriptor.
    player_view: Literal["hidden", "descriptor", "exact"] = "descriptor"
    #: Files of ``[[stat_blocks]]``, relative to the encounter file (docs/reference/file-format.md). The loader gathers
    #: their blocks into the family file's ``stat_blocks`` before validation; one file may be given alone.
    bestiary: Annotated[list[str] | None, BeforeValidator(one_file)] = None
    #: A file of ``[[combatants]]``, relative to the encounter file: the players' characters, shared by the
    #: encounters of a campaign; the loader puts them first among the combatants (docs/reference/file-format.md).
    party: str | None = None


#: A condition's value: ``true``, or a count (never coerced: ``1`` is not ``true``). The aliases here are text,
#: read by pydantic where a record names them, so that defining them loads no pydantic.
ConditionValue: TypeAlias = "Annotated[StrictBool | StrictInt, Field(union_mode='left_to_right')]"


@dataclass(kw_only=True)
class DemoStep(Strict):
    """``[[demo]]``: one GM command played by ``tracker demo``, with an optional caption."""

    do: Annotated[str, Field(min_length=1)]
    say: str | None = None


@dataclass(kw_only=True)
class Fork(Strict):
    """A new branch of the future, taken by the command at index `at` of ``[history] commands``: the first
    command after an undo, so it never draws what the undone command saw (`tracker.engine.rng`)."""

    at: Annotated[int, Field(ge=0)]
    branch: Annotated[int, Field(ge=1)]


#: Whole sheets by table (``combatants``, ``stat_blocks``), as plain TOML data.
Sheets = dict[str, list[dict[str, Any]]]


@dataclass(kw_only=True)
class History(Strict):
    """``[history]``: what undo replays. ``seed`` or ``secret`` is what the live state was created with."""

    canonical_key = True  # the store remembers it as it saves it (`tracker.engine.records.record.remember`)

    #: The explicit seed the fight started from (0 when a `secret` keys it).
    seed: int = 0
    #: The GM's secret the fight started from, when the file named no seed (`tracker.engine.rng`): 128 bits
    #: as 32 lower-case hex digits.
    secret: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")] | None = None
    commands: list[str] = field(default_factory=list)
    undone: list[str] = field(default_factory=list)
    #: The combatants and stat blocks the fight started with, when they came from other files (a party, a
    #: bestiary, docs/reference/file-format.md): a saved fight replays from these, so a later change to those
    #: shared files
    #: (``tracker carry`` writes the party's) never changes a fight already under way. None for a plain file.
    sheets: Sheets | None = None
    #: Where a command after an undo took a new branch (oldest first); replay enters each at its command.
    forks: list[Fork] = field(default_factory=list)
    #: Branches ever taken in this fight: a new one is numbered past every earlier one, undone or not.
    branches: int = 0


#: A key path inside the file, as pydantic writes it: ``("combatants", 1, "name")``.
Loc = tuple[str | int, ...]
#: One problem a validator found, at a key path relative to the model (or field) that found it.
Located = tuple[Loc, str]
#: The pydantic error type of `located` errors; the store reads their problems from the context.
LOCATED = "located"


def located(problems: Sequence[Located]) -> PydanticCustomError:
    """A validation error that says where each of its problems sits.

    pydantic reports a `model_validator`'s error at the model itself (the table's header, or ``1:1`` for
    the whole file), which is not the line a GM has to fix. Each problem here names its key relative
    to the validated model (or field), and `tracker.store.files` points at that key instead.
    """
    from pydantic_core import PydanticCustomError  # only validators raise it: pydantic is loaded then

    found = [(tuple(loc), message) for loc, message in problems]
    return PydanticCustomError(LOCATED, "{summary}", {"summary": "; ".join(m for _, m in found), "problems": found})


def located_error(title: str, problems: Sequence[Located], value: object) -> Invalid:
    """An `Invalid` of `located` problems, raised outside a validator: a saved ``[state]`` that is
    well typed but disagrees with the setup (it names a combatant the setup lacks) fails like a wrong type."""
    found = [(tuple(loc), message) for loc, message in problems]
    summary = "; ".join(m for _, m in found)
    ctx = {"summary": summary, "problems": found}
    return Invalid(title, [{"type": LOCATED, "loc": (), "msg": summary, "input": value, "ctx": ctx}])


def raise_located(problems: Sequence[Located]) -> None:
    """Raise the `located` error when there is any problem."""
    if problems:
        raise located(problems)


def name_clashes(combatants: Sequence[Any]) -> list[Located]:
    """Combatant names are unique, ignoring case (commands resolve them case-insensitively); each clash
    is reported at the later ``name`` key."""
    seen: set[str] = set()
    problems: list[Located] = []
    for n, c in enumerate(combatants):
        key = c.name.casefold()
        if key in seen:
            problems.append((("combatants", n, "name"), f"two combatants are named '{c.name}'"))
        seen.add(key)
    return problems
