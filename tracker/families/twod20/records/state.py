"""The live state of a 2d20 conflict: what ``[state]`` in the file holds (docs/rules/2d20.md#s3-1,
docs/rules/2d20.md#s3-3)."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Literal

from tracker.engine.records.model import ConditionValue, Strict
from tracker.engine.records.record import record
from tracker.engine.state import LiveState
from tracker.families.twod20.dice.rolls import MAX_CHALLENGE_DICE
from tracker.families.twod20.records.play import Challenge, Task, Trait
from tracker.families.twod20.records.sheet import TwoD20Combatant

if TYPE_CHECKING:  # pydantic's marker, read by pydantic only (`tracker.engine.records.validation`)
    from pydantic import Field


@record
class Persistent(Strict):
    """A Persistent X instance: X[CD] of `track` damage at the end of each own turn, `ticks` left (B19)."""

    x: Annotated[int, Field(ge=0, le=MAX_CHALLENGE_DICE)]
    track: str
    ticks: int
    mental: bool = False


@record
class Grant(Strict):
    """Conditional resistance from an action: +`dice`[CD] Cover or Morale until the start of `until`'s next
    turn (Hit the Dirt [004:L1529]; Defend and Bolster [004:L1488-1489], duration B18)."""

    kind: Literal["cover", "morale"]
    dice: Annotated[int, Field(ge=0, le=MAX_CHALLENGE_DICE)]
    source: str
    until: str
    #: "scene": kept to the scene's end, not only to `until`'s next turn (SRD Confidence [004:L1935], B6).
    lasts: Literal["turn", "scene"] = "turn"


@record
class Assist(Strict):
    """An ally's assisting d20 waiting for the assisted character's next test: the assister's own TN and Focus
    (docs/rules/2d20.md#s3-2 Assistance [004:L502-506]; declared on the assisted one's turn [004:L1457-1465])."""

    by: str
    tn: Annotated[int, Field(ge=0)]
    focus: Annotated[int | None, Field(ge=0)] = None


@record
class Fighter(Strict):
    """A 2d20 combatant's live record."""

    #: Stress taken per track (B32: Infinity displays what remains, the state keeps what was taken).
    stress: dict[str, int]
    harms: dict[str, int] = field(default_factory=dict)
    treated: dict[str, int] = field(default_factory=dict)
    zone: str | None = None
    conditions: dict[str, ConditionValue] = field(default_factory=dict)
    #: Infinity Burning: rounds left (its X is in conditions["burning"]).
    burning_rounds: int = 0
    persistent: list[Persistent] = field(default_factory=list)
    fatigue: int = 0
    fortune: int = 0
    defeated: bool = False
    dying: bool = False
    stabilized: bool = False
    dead: bool = False
    broken: bool = False
    unconscious: bool = False
    #: Voluntary defeat this scene: no revival by allies or Fortune until the scene ends [004:L1886].
    yielded: bool = False
    #: Left Defeated (Fortune or an ally's revive): any further Harm defeats again [004:L1876].
    revived: bool = False
    #: Injuries avoided this scene (the Avoid Injury variant [004:L2000]): a PC or a notable NPC has one.
    avoided: int = 0
    #: Dice of its own Cover and Morale lost to Fragile, or all of them when Volatile went off; at its dice, that
    #: Resistance is destroyed [004:L1798-1800].
    resistance_lost: dict[str, int] = field(default_factory=dict)
    acted: bool = False
    majors: int = 0
    majors_allowed: int = 1
    majors_turn: int = 0
    minors: list[str] = field(default_factory=list)
    extra_minors: int = 0
    reactions: int = 0
    free_actions: int = 0
    #: Passed without a Minor Action: the turn is not used and the character may act later [004:L1472].
    deferred: bool = False
    rush_used: bool = False
    #: Sprinted this turn (Infinity): its tests are +1 Difficulty until its next turn starts [003:L579-581].
    sprinted: bool = False
    #: Took a Swift Action this turn: its extra Major Action is +1 Difficulty [004:L1944; 003:L375-377].
    swift: bool = False
    #: Who Protects it: attacks against it are +1 Difficulty until the start of its next turn [004:L1473].
    protected_by: list[str] = field(default_factory=list)
    #: A mental attack on it failed: no mental attack may target it again this scene [004:L1642] (B40).
    mental_immune: bool = False
    #: A Stun taken during its own turn: it costs the next turn, not the rest of this one (B20).
    stun_delayed: bool = False
    #: The enemy a Link follows: this hacker moves with it until the end of its turn [003:L675-678].
    linked_to: str | None = None
    initiative: int = 0
    #: Zones this turn's movement actions allow `move` to cover (Movement 1, Rush 1+, Sprint 2),
    #: docs/rules/2d20-combat.md#s3-6.
    move_budget: int = 0
    #: Cover and Morale dice granted by actions, rolled in every damage's resistance until they expire.
    granted: list[Grant] = field(default_factory=list)
    #: Reloads left per weapon that counts them (the file's ``reloads``), spent by Burst [004:L1695-1701].
    reloads: dict[str, int] = field(default_factory=dict)
    #: Momentum spends not marked R taken this round: once per round each (B24 [004:L528]).
    round_spends: list[str] = field(default_factory=list)
    #: Harms from a Subdue attack, per kind: recovered when the next scene begins [004:L1943], B38.
    subdued: dict[str, int] = field(default_factory=dict)
    #: Non-lethal Harms, per kind: removed at the end of the scene [004:L1964] (`tracker.families.twod20.nonlethal`).
    nonlethal: dict[str, int] = field(default_factory=dict)
    #: What a Snare binds (docs/rules/2d20-combat.md#s3-8 [004:L1782]): actions of the snaring attack's type are refused
    #: but breaking free; its Difficulty is ``conditions["snared"]``.
    snare_kind: Literal["physical", "mental", "digital"] = "physical"
    #: Allies' d20s joining this character's next test (Assist, docs/rules/2d20.md#s3-2).
    assisted_by: list[Assist] = field(default_factory=list)
    #: A readied Major Action (catalogue key) and its trigger, lost per profile (docs/rules/2d20-turns.md#s3-5-1 Ready,
    #: B9).
    ready: str | None = None
    ready_trigger: str = ""


Phase = Literal["setup", "turn", "handover", "ended"]


@record
class TwoD20State(LiveState[Fighter]):
    """``[state]`` of a 2d20 encounter; ``order`` is the turns taken this round (with the initiative
    variant, the whole round's order)."""

    system: Literal["2d20"] = "2d20"
    phase: Phase = "setup"
    fighters: dict[str, Fighter]
    joined: list[TwoD20Combatant] = field(default_factory=list)
    scene: int = 1
    #: Who took the last turn (the hand-over goes to an opposing side).
    last_actor: str | None = None
    #: The side that kept the initiative last; it may not keep again until an enemy has acted.
    kept_by: str | None = None
    momentum: int = 0
    threat: int = 0
    #: Declared Reach pairs (B22: a state, not a zone distance).
    reach: list[list[str]] = field(default_factory=list)
    #: Initiative-score order: who paid to act next, ahead of their score (tie or interrupt) [004:L1412-1414].
    jumped: list[str] = field(default_factory=list)
    #: Bonus Momentum from this turn (lost if unspent, never saved) [004:L518].
    bonus_momentum: int = 0
    #: Traits in play on combatants, zones and the scene [004:L205-288] (`tracker.families.twod20.traits`).
    traits: list[Trait] = field(default_factory=list)
    #: Extended tasks and consequences [004:L2053-2084] (`tracker.families.twod20.tasks`).
    tasks: list[Task] = field(default_factory=list)
    #: Challenges: Key Tests, Contests and time pressure [004:L679-743] (`tracker.families.twod20.challenges`).
    challenges: list[Challenge] = field(default_factory=list)
