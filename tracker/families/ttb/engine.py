"""The Through the Breach engine object: the setup, the live state, and the plumbing every rule uses.

Rules live in the sibling modules (deck, conditions, damage, initiative, lifecycle, actions); each is a
set of functions over a `TTBEngine`. This module adds TTB's lookups and the agenda to the shared
`Engine` (lookups, log, prompts, dispatch).
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.engine.kernel import Engine
from tracker.engine.language.commands import VerbTable
from tracker.families.ttb.records.file import TTBFile
from tracker.families.ttb.records.sheet import TTBCombatant
from tracker.families.ttb.records.state import Fighter, Step, TTBState

StepRunner = Callable[["TTBEngine", Step], None]


class TTBEngine(Engine[TTBFile, TTBCombatant, Fighter, TTBState]):
    """Holds one encounter's setup and live state; the rule modules act on it."""

    PLAY = "Dramatic Time"

    def __init__(self, setup: TTBFile, state: TTBState, verbs: VerbTable) -> None:
        super().__init__(setup, state, verbs)
        self.settings = setup.settings
        #: Set by the engine module: op name → function running that agenda step.
        self.steps: dict[str, StepRunner] = {}
        #: Set by a step that opens a turn: the agenda waits for the GM's `next`.
        self.halt = False
        #: Whether questions carry their odds for the screen (a run of the fight's odds shows no screen, and
        #: its policy reads no label: `tracker.families.ttb.policy`).
        self.labelled = True

    # --- lookups -------------------------------------------------------------------------
    def is_active(self, name: str) -> bool:
        return self.st.phase == "turn" and self.st.active == name

    def can_attack(self, name: str) -> bool:
        """Able to make a melee attack: alive, conscious, not Paralyzed, melee weapon readied (A20, A21)."""
        f = self.st.fighters[name]
        return (
            not f.dead and not f.unconscious and not f.conditions.get("paralyzed") and self.sheets[name].melee_range > 0
        )

    def engaged_by(self, name: str) -> list[str]:
        """Enemies that engage `name` now: linked in melee and able to attack (docs/rules/ttb-damage.md#s2-9)."""
        out = []
        for a, b in self.st.engagements:
            other = b if a == name else a if b == name else None
            if other is not None and self.enemies(name, other) and self.can_attack(other):
                out.append(other)
        return out

    def linked(self, name: str) -> list[str]:
        """Everyone in a melee engagement link with `name`, able to attack or not."""
        return [b if a == name else a for a, b in self.st.engagements if name in (a, b)]

    # --- agenda ------------------------------------------------------------------------
    def push(self, *steps: Step) -> None:
        """Put steps at the front of the agenda, in the order given."""
        self.st.agenda[0:0] = list(steps)

    def run(self) -> None:
        """Run agenda steps until it is empty, a step asks the table something, or a turn opens.

        When a turn opens, the rest of the agenda (more Reactivate offers, the next round start …)
        is set aside in ``after_turn`` and resumes only when that turn closes.
        """
        self.halt = False
        while self.st.agenda and self.st.prompt is None and not self.halt:
            step = self.st.agenda.pop(0)
            if step.who is not None and step.who in self.st.left:
                continue  # work queued for someone who has since left the fight (a Reactivate offer …)
            self.steps[step.op](self, step)
        if self.halt:
            self.st.after_turn = self.st.agenda + self.st.after_turn
            self.st.agenda = []
        self.halt = False

    def after_command(self) -> None:
        """Every accepted command may have queued lifecycle work: run the agenda on."""
        self.run()

    def close_turn(self, who: str, effects: bool = True) -> None:
        """End `who`'s open turn: its turn-end effects (unless it died), then what comes next.

        Work set aside when the turn opened follows (the rest of a round end after a Reactivate
        turn); otherwise the next turn in the order starts.
        """
        self.st.phase = "between"
        steps = [Step(op="turn_end", who=who)] if effects else []
        steps += self.st.after_turn or [Step(op="advance")]
        self.st.after_turn = []
        self.push(*steps)


def step(op: str, who: str | None = None, arg: str | int | None = None) -> Step:
    """Shorthand for building an agenda step."""
    return Step(op=op, who=who, arg=arg)
