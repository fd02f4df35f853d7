"""One encounter in play: setup + live state + history, and the commands that move it on.

Undo replays the accepted history from the setup with the recorded seed. Randomness is a pure function
of (seed, draw count), so the replay reproduces every card exactly; that is what lets undo and redo
cover every command with all its effects, and survive a restart (the history is in the file).

Turning a session into file text is storage, not rules: `tracker.store.save` does it.
"""

from __future__ import annotations

import secrets
from typing import Any

from tracker.rules.commands import Command, parse
from tracker.rules.encounter import EncounterFile
from tracker.rules.errors import Refusal
from tracker.rules.families import Family, family_of
from tracker.rules.model import History


class Session:
    """The encounter being played. `execute` is the only way it changes."""

    def __init__(self, setup: EncounterFile, seed: int | None = None) -> None:
        self.setup = setup.model_copy(update={"state": None, "history": None})
        self.family: Family = family_of(setup)
        self.history: History
        #: The rule family's engine (TTBEngine or TwoD20Engine); its ``st`` is the live state.
        self.engine: Any
        if setup.state is not None and setup.history is not None:
            state = self.family.load_state(setup.state)
            self.history = setup.history.model_copy(deep=True)
            self.engine = self.family.make_engine(self.setup, state)
            if seed is not None and seed != state.seed:
                self.execute(f"seed {seed}")
        else:
            start_seed = seed if seed is not None else setup.encounter.seed
            if start_seed is None:
                start_seed = secrets.randbelow(2**31)
            self.history = History(seed=start_seed)
            self.engine = self._fresh()

    def _fresh(self) -> Any:
        return self.family.make_engine(self.setup, self.family.new_state(self.setup, self.history.seed))

    @property
    def system(self) -> str:
        return self.setup.encounter.system

    @property
    def state(self) -> Any:
        """The live state: a TTBState or a TwoD20State, by the encounter's system."""
        return self.engine.st

    def execute(self, line: str) -> Command:
        """Parse and apply one GM command; raises Refusal (state unchanged) when it is refused."""
        cmd = parse(line)
        if cmd.verb == "undo":
            self.undo()
        elif cmd.verb == "redo":
            self.redo()
        else:
            self.family.apply(self.engine, cmd)
            self.history.commands.append(cmd.line)
            self.history.undone.clear()
        return cmd

    def undo(self) -> None:
        if not self.history.commands:
            raise Refusal("nothing to undo")
        last = self.history.commands[-1]
        self.engine = self.replay(self.history.commands[:-1])
        self.history.commands.pop()
        self.history.undone.append(last)

    def redo(self) -> None:
        if not self.history.undone:
            raise Refusal("nothing to redo")
        line = self.history.undone[-1]
        self.family.apply(self.engine, parse(line))
        self.history.undone.pop()
        self.history.commands.append(line)

    def replay(self, lines: list[str]) -> Any:
        """A new engine with `lines` applied to the setup; the history was accepted once, so it replays."""
        eng = self._fresh()
        for n, line in enumerate(lines, 1):
            try:
                self.family.apply(eng, parse(line))
            except Refusal as exc:
                raise Refusal(f"the history no longer replays at command {n} ('{line}'): {exc}") from None
        return eng
