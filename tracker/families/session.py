"""One encounter in play: setup + live state + history, and the commands that move it on.

Undo replays the accepted history from the setup with what the history says keyed its draws. Randomness is a
pure function of (seed or secret, branch, draw count) (`tracker.engine.rng`), so the replay reproduces every
card exactly; that is what lets undo and redo cover every command with all its effects, and survive a restart
(the history is in the file).

A file that names no seed plays from a fresh 128-bit secret, kept in the GM's file only. A new command after
an undo takes a new branch of the future (a `Fork` in the history, so replay enters it at that command): the
undone command's cards were seen, and must not come back as a known future. ``redo`` keeps the branch the
undone command ran on, so it draws what it drew. The branch changes for an explicit seed too.

The session knows no rule family: it holds the file's `RuleFamily` (its command table, from the
registry), the encounter's `FamilyRules` and, built on demand over them, its `FamilyPresenter`
(`tracker.families.seam`).
"""

from __future__ import annotations

from collections.abc import Iterator

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command
from tracker.engine.records.model import Fork, History
from tracker.engine.records.record import copied
from tracker.engine.rng import fresh_secret
from tracker.engine.state import LiveState
from tracker.families.file import EncounterFile
from tracker.families.presenter import FamilyPresenter
from tracker.families.registry import family_of
from tracker.families.rules import FamilyRules
from tracker.families.seam import RuleFamily


class Session:
    """The encounter being played. `execute` is the only way it changes."""

    def __init__(
        self,
        setup: EncounterFile,
        seed: int | None = None,
        rules: FamilyRules | None = None,
        luck: History | None = None,
    ) -> None:
        """`rules`: ones already resumed over `setup`'s saved ``[state]`` (the store's load checks that state
        by resuming it, and hands those rules over rather than have the state validated a second time).
        `luck`: a history whose seed or secret and forks a fresh session plays from (`luck_of`), so a story
        retold from a fight's commands draws what the fight drew."""
        self.setup: EncounterFile = copied(setup, state=None, history=None)
        self.family: RuleFamily = family_of(setup)
        self.history: History
        self.rules: FamilyRules
        self._presenter: FamilyPresenter[FamilyRules] | None = None
        if setup.state is not None and setup.history is not None:
            self.rules = rules if rules is not None else self.family.resume(self.setup, setup.state)
            self.history = copied(setup.history, deep=True)
            st = self.rules.state
            if seed is not None and (seed != st.seed or st.secret is not None):
                self.execute(f"seed {seed}")
        else:
            if luck is not None and seed is None:
                self.history = copied(luck_of(luck), deep=True)
                self.history.sheets = setup.sheets
            else:
                start_seed = seed if seed is not None else setup.encounter.seed
                secret = fresh_secret() if start_seed is None else None
                # A fight from shared sheets (a party, a bestiary) keeps them: its replays never read those files.
                self.history = History(seed=start_seed or 0, secret=secret, sheets=setup.sheets)
            self.rules = self._fresh()

    def _fresh(self) -> FamilyRules:
        """The rules before the first command, their draws keyed as the history says."""
        return self.family.start(self.setup, self.history.seed, self.history.secret)

    def _enter(self, rules: FamilyRules, at: int) -> None:
        """Put `rules` on the branch the history's command at index `at` runs on, when it took a new one: the
        draws are keyed by that branch from here on, and the family puts anything unseen in a new order."""
        for fork in self.history.forks:
            if fork.at == at:
                rules.state.branch = fork.branch
                rules.new_branch()

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
            history = self.history
            at = len(history.commands)
            kept = (list(history.forks), history.branches)
            forked = bool(history.undone) or any(f.at == at for f in history.forks)
            if history.undone:
                # After an undo: a new branch, so this command cannot draw what the undone one saw.
                history.branches += 1
                history.forks = [f for f in history.forks if f.at < at] + [Fork(at=at, branch=history.branches)]
            self._enter(self.rules, at)
            try:
                self.rules.apply(cmd)
            except Refusal:
                if forked:  # the new branch shuffled the unseen cards: back to the state before it
                    history.forks, history.branches = kept
                    self.rules = self.replay(list(history.commands))
                raise
            history.commands.append(cmd.line)
            history.undone.clear()
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
        at = len(self.history.commands)
        self._enter(self.rules, at)  # the branch the undone command ran on, if it took one
        try:
            self.rules.apply(self.parse(line))
        except Refusal:
            if any(f.at == at for f in self.history.forks):
                self.rules = self.replay(list(self.history.commands))
            raise
        self.history.undone.pop()
        self.history.commands.append(line)

    def replaying(self) -> Iterator[FamilyRules]:
        """The rules before the first command, then after each command of the history in turn (the same object,
        moved on between yields): what a retelling reads at every step, without a session per step."""
        eng = self._fresh()
        yield eng
        for n, line in enumerate(self.history.commands):
            self._enter(eng, n)
            eng.apply(self.parse(line))
            yield eng

    def replay(self, lines: list[str]) -> FamilyRules:
        """New rules with `lines` applied to the setup; the history was accepted once, so it replays."""
        eng = self._fresh()
        for n, line in enumerate(lines, 1):
            self._enter(eng, n - 1)
            try:
                eng.apply(self.parse(line))
            except Refusal as exc:
                raise Refusal(f"the history no longer replays at command {n} ('{line}'): {exc}") from None
        return eng


def luck_of(history: History) -> History:
    """What keys a fight's draws, from its `history` (seed or secret, forks), without its commands: the start
    a retelling of its commands replays from."""
    return History(seed=history.seed, secret=history.secret, forks=list(history.forks), branches=history.branches)
