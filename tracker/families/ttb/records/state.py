"""The live state of a Through the Breach fight: what ``[state]`` in the file holds.

Records (`tracker.engine.records.record`), so the engine builds and mutates them cheaply; the file loader
validates them once when it reads ``[state]``.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from tracker.engine.records.model import ConditionValue, Prompt, Strict
from tracker.engine.records.record import record
from tracker.engine.state import LiveState
from tracker.families.ttb.records.sheet import TTBCombatant

__all__ = ["Prompt"]

Phase = Literal["setup", "turn", "between", "ended"]


@record
class Step(Strict):
    """One unit of lifecycle work still to run (turn end effects, round end offers, …).

    The engine runs the agenda until it is empty, a turn opens for the GM, or a step needs the table
    (a prompt). Keeping the remaining work as data makes prompts resumable and the state saveable.
    """

    op: str
    who: str | None = None
    arg: str | int | None = None


@record
class Critical(Strict):
    """A recorded critical effect (docs/rules/ttb-damage.md#s2-8-2): the tables are not in the seeds, so the GM reads
    them."""

    severity: str
    location: str
    card: str
    negative_wounds: int
    round: int


@record
class CardEffect(Strict):
    """Impose or Trick (docs/rules/ttb-conditions.md#s2-7-2 effect records): ends at the start of the owner's next
    turn."""

    kind: Literal["impose", "trick"]
    owner: str
    target: str
    magnitude: int = 1


@record
class DuelCard(Strict):
    """The card a duel ended with, for the trigger its flipper may declare after it [000:L67; 001:L41-43]:
    ``card`` None when the table gave the result (or no card was flipped)."""

    who: str
    card: str | None = None
    skill: str = ""
    kind: str = ""
    #: The trigger declared on this duel (one per duel [001:L43]).
    triggered: str | None = None


@record
class Trigger(Strict):
    """A suit trigger declared after a duel, with its effect text (the GM resolves the effect)."""

    who: str
    text: str
    suit: str
    card: str | None = None
    round: int = 0
    #: Whose turn it was: a trigger is used once per turn [001:L42].
    turn: str | None = None


@record
class Aura(Strict):
    """An Aura [000:L128]: emanates from `source` until it ends; `effect` (the ``aura`` command's words) reaches
    each character `inside` at the end of its turn."""

    source: str
    yards: int
    effect: list[str]
    inside: list[str] = field(default_factory=list)


@record
class Ongoing(Strict):
    """An Ongoing Challenge [000:L407-415]: successes toward `needed` before `failure_limit` Margins of Failure."""

    name: str
    tn: int
    needed: int
    failure_limit: int
    skill: str = ""
    duration: str = ""
    successes: int = 0
    failures: int = 0
    state: Literal["open", "succeeded", "failed"] = "open"
    #: Each challenge made, as ``"Sofia: +2"`` (successes) or ``"Ash: -1"`` (Margins of Failure).
    attempts: list[str] = field(default_factory=list)


@record
class Fighter(Strict):
    """A combatant's live record: everything about it that changes during the fight."""

    wounds: int
    unconscious: bool = False
    dead: bool = False
    conditions: dict[str, ConditionValue] = field(default_factory=dict)
    #: "Until end of turn" conditions gained during this combatant's own turn end: they survive
    #: that turn end and last to the end of its next turn (docs/rules/ttb-conditions.md#s2-7-2 Paralyzed, decision A11).
    grace: list[str] = field(default_factory=list)
    init_card: str | None = None
    init_mod: int = 0
    #: Pass (+1) and Wait (−1) changes waiting for the next round's re-sort (decision A16).
    pending_init_mod: int = 0
    init: int = 0
    ap: int = 0
    combat_ap: int = 0
    acted: bool = False
    #: Joined mid-round (``join``): out of this round's order, it enters the order from the next round.
    arriving: bool = False
    turns_taken: int = 0
    quick_action_used: bool = False
    first_turn_slow: bool = False
    #: The action named by a Wait, still to be triggered before this combatant's next turn.
    wait: str | None = None
    #: AP paid for the Waited action itself (the Wait's cost − 1): a triggered Defensive Stance or
    #: Reload counts them as spent on it (docs/rules/ttb-turns.md#s2-3-6, docs/rules/ttb-turns.md#s2-5).
    wait_ap: int = 0
    #: Assist bonus to add to the next duel (end of its next turn, or when used).
    assist: int = 0
    assist_turns: int = 0
    fate_points: int = 0
    hand: list[str] = field(default_factory=list)
    twist_deck: list[str] = field(default_factory=list)
    twist_discards: list[str] = field(default_factory=list)
    pending_discard: int = 0
    #: AP spent so far towards reloading each weapon, and shots left where capacity is counted.
    reload_progress: dict[str, int] = field(default_factory=dict)
    shots: dict[str, int] = field(default_factory=dict)
    #: Hazardous terrain: a damage flip waits for the end of its movement (or its turn end), and
    #: after it the combatant is immune to that terrain until its next turn start (docs/rules/ttb-turns.md#s2-6).
    hazard_pending: bool = False
    hazard_immune: bool = False
    #: The subordinate this combatant Ordered this turn: it acts right after this turn.
    ordered: str | None = None
    criticals: list[Critical] = field(default_factory=list)
    #: Horror duel sources this combatant resisted: immune to them until the end of Dramatic Time [000:L405].
    horror_immune: list[str] = field(default_factory=list)


@record
class TTBState(LiveState[Fighter]):
    """``[state]`` of a Through the Breach encounter; ``order`` is this round's initiative (the dead left out)."""

    system: Literal["ttb"] = "ttb"
    phase: Phase = "setup"
    fighters: dict[str, Fighter]
    joined: list[TTBCombatant] = field(default_factory=list)
    deck: list[str]
    discards: list[str] = field(default_factory=list)
    #: Cards flipped and not yet discarded (a flip in progress).
    table: list[str] = field(default_factory=list)
    #: Melee engagements as pairs of names; who engages whom is derived from who can attack
    #: (docs/rules/ttb-damage.md#s2-9).
    engagements: list[list[str]] = field(default_factory=list)
    effects: list[CardEffect] = field(default_factory=list)
    agenda: list[Step] = field(default_factory=list)
    #: Lifecycle work that waits for the open turn to close (see TTBEngine.run).
    after_turn: list[Step] = field(default_factory=list)
    #: Whose turn end is being processed (conditions gained now survive to the next turn end).
    ending: str | None = None
    #: The extra Reactivate turn in progress, if any (shown by the screens).
    extra_turn: bool = False
    #: Tie-break picks the players made for this round: name → place among its tied group.
    tie_picks: list[str] = field(default_factory=list)
    #: The last round's tie-break picks, so a tie that stands again is offered "as last round" first.
    last_tie_picks: list[str] = field(default_factory=list)
    #: Reshuffles so far (shown in the Fate Deck panel).
    reshuffles: int = 0
    #: The cards the last duel ended with (one per side that flipped): what a trigger is declared on.
    last_duel: list[DuelCard] = field(default_factory=list)
    #: Triggers declared this Dramatic Time, oldest first.
    triggers: list[Trigger] = field(default_factory=list)
    #: Auras in play (one per source).
    auras: list[Aura] = field(default_factory=list)
    #: Ongoing Challenges, open or over, in the order they were opened.
    challenges: list[Ongoing] = field(default_factory=list)
