"""One encounter in play: setup + live state + history, and the commands that move it on.

Undo replays the accepted history from the setup with the recorded seed. Randomness is a pure function
of (seed, draw count), so the replay reproduces every card exactly; that is what lets undo and redo
cover every command with all its effects, and survive a restart (the history is in the file).

The session knows no rule family: it holds the file's `RuleFamily` (its command table, from the
registry), the encounter's `FamilyRules` and, built on demand over them, its `FamilyPresenter`
(`tracker.families.seam`).
"""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command
from tracker.engine.records.model import History
from tracker.engine.records.record import copied
from tracker.engine.state import LiveState
from tracker.families.file import EncounterFile
from tracker.families.presenter import FamilyPresenter
from tracker.families.registry import family_of
from tracker.families.rules import FamilyRules
from tracker.families.seam import RuleFamily


class Session:
    """The encounter being played. `execute` is the only way it changes."""

    def __init__(self, setup: EncounterFile, seed: int | None = None, rules: FamilyRules | None = None) -> None:
        """`rules`: ones already resumed over `setup`'s saved ``[state]`` (the store's load checks that state
        by resuming it, and hands those rules over rather than have the state validated a second time)."""
        self.setup: EncounterFile = copied(setup, state=None, history=None)
        self.family: RuleFamily = family_of(setup)
        self.history: History
        self.rules: FamilyRules
        self._presenter: FamilyPresenter[FamilyRules] | None = None
        if setup.state is not None and setup.history is not None:
            self.rules = rules if rules is not None else self.family.resume(self.setup, setup.state)
            self.history = copied(setup.history, deep=True)
            if seed is not None and seed != self.rules.state.seed:
                self.execute(f"seed {seed}")
        else:
            start_seed = seed if seed is not None else setup.encounter.seed
            if start_seed is None:
                import secrets  # here: it loads hashlib and OpenSSL (10 M instructions), for a seed only this needs

                start_seed = secrets.randbelow(2**31)
            # A fight from shared sheets (a party, a bestiary) keeps them: its replays never read those files.
            self.history = History(seed=start_seed, sheets=setup.sheets)
            self.rules = self._fresh()

    def _fresh(self) -> FamilyRules:
        return self.family.start(self.setup, self.history.seed)

    @property
    def presenter(self) -> FamilyPresenter[FamilyRules]:
        """The presentation of the current rules: one per rules object (an undo replays into new rules,
        and the presentation's memory of its last rows goes with the old ones)."""
        shown = self._presenter
        if shown is None or shown.rules is not self.rules:
            shown = self._presenter = self.family.presenter(self.rules)
        return shown

    @property
    def state(self) -> LiveState[object]:
        """The live state in the shape both families share (the rules have the family's own)."""
        return self.rules.state

    def parse(self, line: str) -> Command:
        """One line of the family's command language as a typed command (Refusal when malformed)."""
        return self.family.verbs.parse(line)

    def execute(self, line: str) -> Command:
        """Parse and apply one GM command; raises Refusal (state unchanged) when it is refused."""
        cmd = self.parse(line)
        if cmd.verb == "undo":
            self.undo()
        elif cmd.verb == "redo":
            self.redo()
        else:
            self.rules.apply(cmd)
            self.history.commands.append(cmd.line)
            self.history.undone.clear()
        return cmd

    def undo(self) -> None:
        if not self.history.commands:
            raise Refusal("nothing to undo")
        last = self.history.commands[-1]
        self.rules = self.replay(self.history.commands[:-1])
        self.history.commands.pop()
        self.history.undone.append(last)

    def redo(self) -> None:
        if not self.history.undone:
            raise Refusal("nothing to redo")
        line = self.history.undone[-1]
        self.rules.apply(self.parse(line))
        self.history.undone.pop()
        self.history.commands.append(line)

    def replay(self, lines: list[str]) -> FamilyRules:
        """New rules with `lines` applied to the setup; the history was accepted once, so it replays."""
        eng = self._fresh()
        for n, line in enumerate(lines, 1):
            try:
                eng.apply(self.parse(line))
            except Refusal as exc:
                raise Refusal(f"the history no longer replays at command {n} ('{line}'): {exc}") from None
        return eng
