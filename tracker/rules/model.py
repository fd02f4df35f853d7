"""The encounter file as pydantic models (CONTRACT.md §2).

The file has three layers:

* the **setup** the GM writes: ``[encounter]``, ``[settings]``, ``[[zones]]``, ``[[combatants]]``,
  ``[[demo]]``; it never changes once play starts, because undo replays the history from it;
* ``[state]``: the live state the engine writes after every accepted command (round, order, AP,
  decks, prompt, log), so a restart continues exactly where the last command left it;
* ``[history]``: the seed and the accepted command lines (and the undone ones, for redo).

Every model forbids unknown keys, so a typo in a file is an error with its line, not a silent default.

This module holds only what both rule families share (the header, prompts, demo steps, history, zones).
Each family's own models live in its package: `tracker.rules.ttb.file` (+ ``ttb.sheet``) and
`tracker.rules.twod20.file` (+ ``twod20.sheet``). Keeping this module free of both families is what lets
them stay independent of each other: a model here that reached into one family would make the other
depend on it through this shared layer.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt


class Strict(BaseModel):
    """Base for every file model: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid")


class Prompt(Strict):
    """The one question the engine waits on; every other command is refused until it is answered."""

    kind: str
    question: str
    options: list[str]
    who: str | None = None
    data: dict[str, str | int | bool | list[str]] = Field(default_factory=dict)


class EncounterInfo(Strict):
    """``[encounter]``: what the fight is and which rules run it."""

    name: str = Field(min_length=1)
    system: Literal["ttb", "2d20"]
    seed: int | None = None
    #: 2d20 only (RULES.md §3.0); accepted here so a 2d20 file validates its header.
    profile: Literal["srd", "infinity", "secret-war"] | None = None
    action_order: Literal["alternating", "initiative", "player-priority", "narrative"] | None = None
    momentum: int | None = Field(default=None, ge=0, le=6)
    threat: int | None = Field(default=None, ge=0)
    #: How much a ``--player`` view shows of Fatemaster wounds: hidden, or a descriptor.
    player_view: Literal["hidden", "descriptor", "exact"] = "descriptor"


ConditionValue = Annotated[StrictBool | StrictInt, Field(union_mode="left_to_right")]


class Zone(Strict):
    """``[[zones]]`` (2d20): a zone with its neighbours and terrain traits."""

    name: str = Field(min_length=1)
    adjacent: list[str] = Field(default_factory=list)
    traits: list[str] = Field(default_factory=list)


class DemoStep(Strict):
    """``[[demo]]``: one GM command played by ``tracker demo``, with an optional caption."""

    do: str = Field(min_length=1)
    say: str | None = None


class History(Strict):
    """``[history]``: what undo replays. ``seed`` is the seed the live state was created with."""

    seed: int
    commands: list[str] = Field(default_factory=list)
    undone: list[str] = Field(default_factory=list)


def unique_names(combatants: list[Any]) -> None:
    """Combatant names are unique, ignoring case (commands resolve them case-insensitively)."""
    seen: set[str] = set()
    for c in combatants:
        key = c.name.casefold()
        if key in seen:
            raise ValueError(f"two combatants are named '{c.name}'")
        seen.add(key)
