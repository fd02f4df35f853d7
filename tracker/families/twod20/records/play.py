"""What a 2d20 scene holds besides its combatants: traits and the problems worked on under fire.

A trait is a fact of the scene on a combatant, a zone or the scene itself [004:L205-288]; an extended task or
an extended consequence is a problem with Stress, Resistance and Harms (Breakthroughs or Setbacks), and a task
may run on a ticking clock [004:L2039-2084]. docs/guide/decisions.md says which tests a trait touches.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Literal

from tracker.engine.records.model import Strict
from tracker.engine.records.record import record

if TYPE_CHECKING:  # pydantic's marker, read by pydantic only (`tracker.engine.records.validation`)
    from pydantic import Field

#: The most a trait adds to or takes off a Difficulty: a Difficulty runs 0-5 [004:L347].
TRAIT_LIMIT = 5

Until = Literal["turn", "round", "scene"]


@record
class Trait(Strict):
    """One trait in play: on whom or what, its text, what it does to a Difficulty, and how long it lasts."""

    #: A combatant's name, a zone's name, or "scene".
    on: str
    text: str
    #: What it adds to the tests it touches (negative: it makes them easier) [004:L264-270].
    difficulty: Annotated[int, Field(ge=-TRAIT_LIMIT, le=TRAIT_LIMIT)] = 0
    until: Until = "scene"
    #: Where it came from: "" (the GM's), "advantage" (Create Advantage [004:L1470]), "complication" [004:L457-459],
    #: "harm" (a Harm is a trait [004:L1852]).
    kind: Literal["", "advantage", "complication", "harm"] = ""
    #: The turn an ``until=turn`` trait ends with (None: the next turn to end).
    turn_of: str | None = None


@record
class Task(Strict):
    """An extended task (Harms are Breakthroughs, overcome at `needed`) or an extended consequence (Harms are
    Setbacks, disastrous at `needed`, its state then ``failed``) [004:L2053-2084]."""

    name: str
    kind: Literal["task", "consequence"] = "task"
    stress: Annotated[int, Field(ge=0)] = 0
    stress_max: Annotated[int, Field(ge=1, le=99)]
    #: Harms taken so far: Breakthroughs (task) or Setbacks (consequence).
    breakthroughs: Annotated[int, Field(ge=0)] = 0
    needed: Annotated[int, Field(ge=1, le=20)]
    resistance: Annotated[int, Field(ge=0, le=20)] = 0
    #: The ticking clock's size in rounds (None: no clock) and the rounds left [004:L2041-2047].
    clock: Annotated[int, Field(ge=1, le=99)] | None = None
    rounds_left: Annotated[int, Field(ge=0, le=99)] | None = None
    state: Literal["open", "overcome", "failed"] = "open"
    #: The test an Overcome makes against it ("reason+tech") and its Difficulty [004:L1470].
    test: str = ""
    difficulty: Annotated[int, Field(ge=0, le=5)] = 1


@record
class KeyTest(Strict):
    """One Key Test of a Challenge: a test that must succeed for the Challenge to be complete [004:L687]."""

    name: str
    #: The test, "attribute+skill" ("agility+tech").
    test: str
    difficulty: Annotated[int, Field(ge=0, le=5)] = 1
    #: Key Tests that must be done before this one may be tried (a Gated Challenge [004:L697]).
    after: list[str] = field(default_factory=list)
    done: bool = False
    #: Who completed it.
    by: str = ""


@record
class Challenge(Strict):
    """A Challenge [004:L679-743]: Key Tests toward a goal, maybe in order (linear) or behind gates, maybe a Group
    Challenge, maybe under time pressure (intervals against a limit) or a Contest against rivals."""

    name: str
    keys: list[KeyTest]
    #: "any": the Key Tests in any order; "linear": each after the one before [004:L695].
    order: Literal["any", "linear"] = "any"
    #: A Group Challenge: each further test a character makes during it is +1 Difficulty, cumulative [004:L703].
    group: bool = False
    #: The Key Test that completes it (a gated Challenge's victory condition [004:L697]); "": all of them.
    goal: str = ""
    #: Tests each character has made during it (the Group Challenge's cumulative Difficulty).
    attempts: dict[str, int] = field(default_factory=dict)
    #: Time pressure [004:L719-727]: what one interval is ("15 minutes"), the intervals allowed (None: no
    #: limit) and those used.
    interval: str = ""
    limit: Annotated[int, Field(ge=1, le=99)] | None = None
    used: Annotated[int, Field(ge=0)] = 0
    #: The last test's outcome ("passed", "failed"; "" before any) and the intervals it took: Momentum shortens
    #: a success, Threat a failure, each down to 1 interval [004:L721, L733].
    last: Literal["", "passed", "failed"] = ""
    last_taken: Annotated[int, Field(ge=0)] = 0
    #: A Contest [004:L711]: the successes the rivals need (None: no rivals), those they have, which side has
    #: Priority and whose test is next.
    rivals: Annotated[int, Field(ge=1, le=20)] | None = None
    rivals_done: Annotated[int, Field(ge=0)] = 0
    priority: Literal["players", "rivals"] = "players"
    next_side: Literal["players", "rivals"] = "players"
    #: What happens when the time runs out or the rivals finish first (the GM's words).
    consequence: str = ""
    #: "complete" (the goal reached), "failed" (time ran out), "lost" (the rivals finished first).
    state: Literal["open", "complete", "failed", "lost"] = "open"
