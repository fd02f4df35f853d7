"""The engine skeleton both rule families share: lookups, the log, prompts and command dispatch.

A family's engine (`TTBEngine`, `TwoD20Engine`) subclasses `Engine` with its own file, sheet, fighter
and state types and adds only what its rules need; its rule modules are functions over that engine.
The plumbing lives here once so both families name things alike, log alike and refuse alike.

Undo is not here: the session replays the accepted history from the setup, and randomness is a pure
function of the state's seed and draw count (`tracker.engine.rng`), so an engine never needs to roll back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from tracker.engine import names, players
from tracker.engine.catalogue import Catalogue, ConditionNote, condition_notes
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, VerbTable, signed_int
from tracker.engine.log import LOG_LIMIT, PROMPT_MARK, LogEntry, LogKind
from tracker.engine.records.model import EncounterInfo, Prompt
from tracker.engine.state import LiveState

__all__ = ["LOG_LIMIT", "Engine", "Handler", "LiveState", "LogEntry"]


class Sheet(Protocol):
    """What the skeleton needs of a ``[[combatants]]`` entry."""

    @property
    def name(self) -> str: ...

    @property
    def side_name(self) -> str:
        """The side it fights on (who its enemies are)."""
        ...

    @property
    def gm_only(self) -> bool:
        """Hidden from the players' view."""
        ...


class Mortal(Protocol):
    """What the skeleton needs of a combatant's live record."""

    @property
    def dead(self) -> bool: ...

    @property
    def conditions(self) -> Mapping[str, int | bool]: ...


SheetT_co = TypeVar("SheetT_co", bound=Sheet, covariant=True)


class Setup(Protocol[SheetT_co]):
    """What the skeleton needs of an encounter file: its combatants."""

    @property
    def combatants(self) -> Sequence[SheetT_co]: ...

    @property
    def encounter(self) -> EncounterInfo: ...

    @property
    def stat_blocks(self) -> Sequence[SheetT_co]:
        """The stat blocks ``join`` may name (docs/reference/file-format.md)."""
        ...


SetupT = TypeVar("SetupT", bound=Setup[Any])
SheetT = TypeVar("SheetT", bound=Sheet)
FighterT = TypeVar("FighterT", bound=Mortal)
StateT = TypeVar("StateT", bound=LiveState[Any])

#: One verb's handler: checks what it can, then changes the engine's state (or raises Refusal).
Handler = Callable[[Any, Command], None]


def seed(eng: Engine[Any, Any, Any, Any], cmd: Command) -> None:
    """``seed N``: draw from a new random sequence from here on (the history replays it exactly). An explicit
    seed replaces the GM's secret (`tracker.engine.rng`): the draws to come are whatever N makes them, which is
    what a demo or a test wants; only the GM may set it (docs/guide/seating.md)."""
    eng.st.seed = signed_int(cmd.args[0], "seed")
    eng.st.secret = None
    eng.st.branch = 0
    eng.st.draws = 0
    eng.log(f"random seed set to {eng.st.seed}")


class Engine(Generic[SetupT, SheetT, FighterT, StateT]):
    """One encounter's setup and live state, with the plumbing every rule uses.

    ``HANDLERS`` maps each verb to its handler; a family fills its own with `install`.
    """

    #: verb → handler: the verbs every family handles alike here, each family's own added by `install`.
    #: Typed loosely because a ClassVar cannot name ``Self``; `install` checks the handlers' type.
    HANDLERS: ClassVar[Mapping[str, Handler]] = {"seed": seed, **players.HANDLERS}
    #: What the family calls the stretch of play from ``start`` to ``end``, as its refusals say it.
    PLAY: ClassVar[str] = "play"
    #: The family's conditions (with when each acts) and actions, as its screens word them.
    CATALOGUE: ClassVar[Catalogue] = Catalogue({}, {})

    def __init__(self, setup: SetupT, state: StateT, verbs: VerbTable) -> None:
        self.setup = setup
        #: The family's command table: which verbs run while a prompt waits.
        self.verbs = verbs
        #: The live state: what ``[state]`` in the file holds, mutated in place by the rules.
        self.st = state
        #: Count log entries without writing them: a fight's odds play thousands of runs nobody reads (no
        #: rule reads the log; the run told as the typical one keeps it).
        self.unlogged = False
        #: Everyone's sheet: the setup's combatants, then those that joined mid-fight (kept in the state).
        self.sheets: dict[str, SheetT] = {c.name: c for c in setup.combatants}
        self.sheets.update((c.name, c) for c in state.joined)

    @classmethod
    def install(cls, handlers: Mapping[str, Callable[[Self, Command], None]]) -> None:
        """Add `handlers` to the verbs this class inherits (every family has ``seed``)."""
        cls.HANDLERS = {**cls.HANDLERS, **handlers}

    # --- lookups -------------------------------------------------------------------------
    def name(self, text: str) -> str:
        """Resolve a typed name (unique prefix, any case) to a combatant's name; one who has left the fight
        is no longer named by any command (docs/reference/language.md ``leave``)."""
        gone = self.st.left
        if not gone:
            return names.resolve(text, self.sheets.keys())
        present = self.present_names()
        # One who left is refused when typed in full, or when the name fits nobody still in the fight: never
        # swapped for someone present whose name it starts, nor hiding an ambiguity among those present.
        left = [n for n in gone if n.casefold() == text.casefold()]
        if not left and not names.matching(text, present):
            left = names.matching(text, gone)
        if len(left) == 1:
            raise Refusal(f"{left[0]} has left the fight: commands no longer name it")
        return names.resolve(text, present)

    def present_names(self) -> list[str]:
        """Everyone still in the fight (not ``leave``-d), in the file's order, newcomers last."""
        gone = self.st.left
        return [n for n in self.sheets if n not in gone] if gone else list(self.sheets)

    def has_left(self, name: str) -> bool:
        return name in self.st.left

    def sheet(self, name: str) -> SheetT:
        """The combatant's file entry, as the GM wrote it (it never changes during play)."""
        return self.sheets[name]

    def fighter(self, name: str) -> FighterT:
        """The combatant's live record."""
        fighters: Mapping[str, FighterT] = self.st.fighters
        return fighters[name]

    def living(self, text: str) -> str:
        """Resolve a name and refuse the dead, who take no part any more."""
        name = self.name(text)
        if self.fighter(name).dead:
            raise Refusal(f"{name} is dead")
        return name

    def side(self, name: str) -> str:
        return self.sheets[name].side_name

    def enemies(self, a: str, b: str) -> bool:
        return self.side(a) != self.side(b)

    # --- phases ----------------------------------------------------------------------------
    def require_started(self) -> None:
        """Refuse a command that needs play under way: before ``start`` or after ``end``."""
        if self.st.phase == "setup":
            raise Refusal(f"{self.PLAY} has not started: use 'start' first")
        if self.st.phase == "ended":
            raise Refusal(f"{self.PLAY} has ended ('start' begins a new one)")

    def require_not_started(self) -> None:
        """Refuse ``start`` while play is under way (it begins the first one, or a new one after ``end``)."""
        if self.st.phase not in ("setup", "ended"):
            raise Refusal(f"{self.PLAY} has already started")

    # --- log and prompts -------------------------------------------------------------------
    def log(self, text: str, kind: LogKind = "event") -> None:
        """Append a log entry tagged with the round and whose turn it is (the screens group by them)."""
        st = self.st
        st.logged += 1
        if self.unlogged:
            return
        st.log.append(LogEntry(round=st.round, actor=st.active, kind=kind, text=text))
        if len(st.log) > LOG_LIMIT:
            del st.log[: len(st.log) - LOG_LIMIT]

    def ask(
        self,
        kind: str,
        question: str,
        options: list[str],
        who: str | None = None,
        **data: str | int | bool | list[str],
    ) -> None:
        """Stop and wait for the table: only verbs the family marks ``while_prompted`` run until it is answered."""
        self.st.prompt = Prompt(kind=kind, question=question, options=options, who=who, data=dict(data))
        self.log(f"{PROMPT_MARK}{question}", kind="prompt")

    def ask_weapon(
        self, kind: str, who: str, target: str, weapons: list[str], labels: list[str], **data: str | int | bool
    ) -> None:
        """Ask which of `who`'s weapons an attack on `target` is made with (the attack flow of either family:
        each option a weapon's name, each label what the screen shows of it, its profile and odds)."""
        self.ask(
            kind, f"{who} attacks {target}: with which weapon?", weapons, who=who, target=target, labels=labels, **data
        )

    # --- commands ----------------------------------------------------------------------------
    def apply(self, cmd: Command) -> None:
        """Apply one command (undo and redo are the session's), then `after_command`.

        A handler checks before it changes anything, so a refused command leaves the state as it was.
        """
        self.dispatch(cmd)
        self.after_command()

    def dispatch(self, cmd: Command) -> None:
        """Check `cmd` against a waiting prompt and run its handler, without `after_command`: ``by`` and
        ``approve`` run the command they carry through here, inside their own `apply`."""
        prompt = self.st.prompt
        if prompt is not None and cmd.verb not in self.verbs.while_prompted():
            raise Refusal(f"waiting for an answer: {prompt.question}")
        handler = self.HANDLERS.get(cmd.verb)
        if handler is None:
            raise Refusal(f"'{cmd.verb}' cannot be used here")
        handler(self, cmd)

    def after_command(self) -> None:
        """Work a family runs after every accepted command (TTB: its agenda); none by default."""

    # --- what the family's rules answer alike (`tracker.families.rules.FamilyRules`) ----------------
    @property
    def state(self) -> StateT:
        """The live state (the rules' name for `st`)."""
        return self.st

    def combatant_names(self) -> list[str]:
        return list(self.sheets)

    def hidden_names(self) -> set[str]:
        return {name for name, sheet in self.sheets.items() if sheet.gm_only}

    def health_shown(self, name: str) -> bool:
        """Players see their own side's health exactly, and the others' only when ``player_view = "exact"``."""
        return self.side(name) == "players" or self.setup.encounter.player_view == "exact"

    def encounter_name(self) -> str:
        return self.setup.encounter.name

    def condition_notes(self, who: str) -> tuple[ConditionNote, ...]:
        """`who`'s conditions with what each does and when, from the family's `CATALOGUE`."""
        return condition_notes(self.fighter(who).conditions, self.CATALOGUE.conditions, self.CATALOGUE.timing)

    def words(self, kind: str) -> list[str]:
        if kind == "block":
            return [block.name for block in self.setup.stat_blocks]
        if kind == "condition":
            return list(self.CATALOGUE.conditions)
        if kind == "action":
            return [key.replace("_", "-") for key in self.CATALOGUE.actions]
        return []
