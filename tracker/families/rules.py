"""The rules half of the family seam: one encounter in play, as the rules see it.

`FamilyRules` is what every caller that changes or reads the fight asks (the session applies commands,
the store saves the JSON state, ``tracker carry`` reads what lasts, the command line completes words):
the live state, commands applied or refused, the JSON state of docs/reference/json-state.md, the actions with their
legality and reasons, the completion words and the combatants' names and status. It builds no text for
a screen: that is the presentation half (`tracker.families.presenter.FamilyPresenter`), which holds a
reference to one of these.

Through the Breach implements it in ``families/ttb/rules.py``, the 2d20 System in ``families/twod20/rules.py``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, TypeVar

from tracker.engine import names
from tracker.engine.catalogue import ConditionNote
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import ArgKind, Command
from tracker.engine.records.model import Located, Strict, located_error
from tracker.engine.records.record import validate
from tracker.engine.state import LiveState
from tracker.families.values import Carried, JSONObject, JSONValue
from tracker.present.view import ActionChoice

SavedT = TypeVar("SavedT", bound=Strict)


def saved_or_fresh(
    state: Mapping[str, object] | None,
    model: type[SavedT],
    fresh: Callable[[], SavedT],
    problems: Callable[[SavedT], Sequence[Located]],
) -> SavedT:
    """The live state a family's rules open over: `fresh()` when there is no saved one, else the saved
    ``[state]`` as `model`, then checked by `problems` against the setup (every combatant, zone or card it
    names): a state that disagrees fails as a wrong type does, each problem at its key."""
    if state is None:
        return fresh()
    st = validate(model, state)
    found = problems(st)
    if found:
        raise located_error("state", found, state)
    return st


class FamilyRules(ABC):
    """One encounter in play under one rule family: its setup, its live state and the commands that move it."""

    #: The ``system`` value of the family's files ("ttb", "2d20"): the JSON state names it.
    SYSTEM: ClassVar[str]
    #: True while a fight's odds play a run nobody reads: log entries are counted, not written (no rule
    #: reads the log). A family whose rules write no log may ignore it.
    unlogged: bool = False

    @property
    @abstractmethod
    def state(self) -> LiveState[object]:
        """The live state (round, active, order, prompt, log) in the shape both families share."""

    @abstractmethod
    def apply(self, cmd: Command) -> None:
        """Apply one command; raise Refusal before changing anything when it is refused."""

    def new_branch(self) -> None:
        """The state just took a new branch of the future (the first command after an undo,
        `tracker.families.session`): put in a new order whatever the table has not seen, so an undone
        command's draws are not the known future. Dice are drawn afresh, so by default there is nothing."""
        return

    def unseen_hands(self, names: Sequence[str]) -> None:
        """The hands of cards of `names` are not known to whoever asks (a fight's odds for the players): put
        each back where it was drawn from and draw as many again, unlogged. A family without hands has none."""
        return

    # --- who is in the fight -------------------------------------------------------------------
    @abstractmethod
    def encounter_name(self) -> str:
        """The encounter's name from its file."""

    @abstractmethod
    def combatant_names(self) -> list[str]:
        """Everyone in the encounter, in the file's order, then those who joined mid-fight."""

    @abstractmethod
    def present_names(self) -> list[str]:
        """Everyone still in the fight: `combatant_names` without those who left (``leave``)."""

    @abstractmethod
    def has_left(self, name: str) -> bool:
        """`name` left the fight (``leave``): out of the order, never named by a command again."""

    @abstractmethod
    def side(self, name: str) -> str:
        """The side `name` fights on."""

    @abstractmethod
    def status(self, name: str) -> str:
        """``ok``, ``unconscious``, ``defeated``, ``dying`` or ``dead`` (docs/reference/json-state.md)."""

    @abstractmethod
    def hidden_names(self) -> set[str]:
        """Combatants marked ``gm_only``: never shown to players."""

    @abstractmethod
    def health_shown(self, name: str) -> bool:
        """Whether players see `name`'s health exactly (their own side; others as ``player_view`` says)."""

    # --- conditions and actions ----------------------------------------------------------------
    @abstractmethod
    def shown_conditions(self, name: str) -> Mapping[str, int | bool | str]:
        """`name`'s conditions with the table effects beside them (Waiting, Stunned, Persistent …)."""

    @abstractmethod
    def held_conditions(self, who: str) -> list[str]:
        """The conditions `who` has now, as ``remove`` takes them: the only ones worth completing there."""

    @abstractmethod
    def condition_notes(self, who: str) -> tuple[ConditionNote, ...]:
        """`who`'s conditions with what each does and when, from the family's catalogue."""

    @abstractmethod
    def actions_for(self, who: str) -> list[ActionChoice]:
        """The action catalogue for `who`, legal first, each illegal one with its reason."""

    @abstractmethod
    def words(self, kind: ArgKind) -> list[str]:
        """The family's own words for an argument of `kind` (conditions, actions, zones)."""

    # --- the JSON state and what outlasts the fight -----------------------------------------------
    @abstractmethod
    def combatant_json(self, name: str) -> JSONObject:
        """The family's own keys for one combatant in the JSON state (wounds and AP, or stress and zone)."""

    @abstractmethod
    def table_json(self) -> JSONObject:
        """The family's own top-level keys in the JSON state (the deck, or the profile and pools)."""

    @abstractmethod
    def lasting(self, name: str) -> list[Carried]:
        """`name`'s state that outlasts the fight, as the sheet fields that carry it into the next one
        (``tracker carry``): each family decides from its rules what lasts (README "Campaigns")."""

    # --- seated players (docs/guide/seating.md; the rules of it are `tracker.families.seating`) -------------------
    #: Verbs a seated player takes for their own character while it acts, each with how the command names
    #: that character: ``"first"`` (its first word) or ``"active"`` (it names none: whoever acts now).
    SEAT_VERBS: ClassVar[Mapping[str, str]] = {}
    #: Verbs that answer the waiting question (a player answers only the questions about their characters).
    ANSWER_VERBS: ClassVar[frozenset[str]] = frozenset({"answer"})
    #: Verbs that draw or enter a result no question asked for (a TTB ``flip``, a 2d20 ``roll``), each with how
    #: it names its character as in `SEAT_VERBS`: a seat's are requests, unless the table trusts its players'
    #: own cards and dice (`seats_enter_results`).
    RESULT_VERBS: ClassVar[Mapping[str, str]] = {}

    def seats_enter_results(self) -> bool:
        """``[settings] seats_enter_results`` (docs/guide/seating.md): the table trusts its players' physical cards
        and dice, so a seat's typed results apply as the GM's would. Off unless the file says so."""
        return False

    def fight_odds_for_players(self) -> bool:
        """``[settings] fight_odds_for_players``: players' screens show the fight's odds line too. Off unless the
        file says so."""
        return False

    def typed_result(self, cmd: Command) -> bool:
        """Whether `cmd`, an answer to the waiting question, enters a result made at the table (``pass 2``, a
        card, the faces rolled) rather than the tracker's own draw (``flip``, ``roll``) or a choice (a target,
        a weapon, yes/no, a cheat or a discard from the character's own hand)."""
        return False

    def seat_action_problem(self, who: str, cmd: Command) -> str:
        """Why `who`'s player may not take `cmd`, one of its own actions, though the GM may (a movement the
        rules forbid that the GM's own command only warns about), or "" when they may."""
        return ""

    def acting(self, name: str) -> bool:
        """`name`'s turn is open now (what a seated player's own actions need)."""
        st = self.state
        return st.phase == "turn" and st.active == name

    def prompt_subject(self) -> str | None:
        """The character the waiting question is about, whose player may answer it; None: only the GM."""
        prompt = self.state.prompt
        return prompt.who if prompt is not None else None

    def seat_answer_problem(self, who: str, cmd: Command) -> str:
        """Why `who`'s player may not give this answer (the family's own limits), or "" when they may."""
        return ""

    # --- what both families answer the same way -------------------------------------------------
    def state_json(self) -> JSONObject:
        """docs/reference/json-state.md: the keys every family has, then the family's own (`combatant_json`,
        `table_json`)."""
        st = self.state
        combatants: list[JSONValue] = [
            {
                "name": name,
                "side": self.side(name),
                "status": self.status(name),
                "left": self.has_left(name),
                **self.combatant_json(name),
            }
            for name in self.combatant_names()
        ]
        return {
            "system": self.SYSTEM,
            "round": st.round,
            "active": st.active,
            "order": list(st.order),
            "prompt": st.prompt.question if st.prompt else None,
            "prompt_options": self.prompt_options(),
            "phase": st.phase,
            "combatants": combatants,
            "requests": [r.as_data() for r in st.requests],
            **self.table_json(),
        }

    def in_order(self) -> list[str]:
        """This round's order, then everyone else still in the fight, then those who left it."""
        order = self.state.order
        present = self.present_names()
        ordered, here = set(order), set(present)  # membership in sets: hundreds of combatants, every command
        return [
            *order,
            *(n for n in present if n not in ordered),
            *(n for n in self.combatant_names() if n not in here),
        ]

    def choices(self, kind: ArgKind, subject: str | None = None) -> list[str]:
        """Words the command line may complete for an argument of `kind`; `subject` is the combatant the
        line names first (as typed), for kinds that depend on it (``held``: that one's own conditions)."""
        if kind == "name":
            return self.present_names()
        if kind == "held":
            who = self.find_name(subject) if subject else None
            return self.held_conditions(who) if who else self.words("condition")
        if kind == "answer":
            return self.prompt_options()
        return self.words(kind)

    def prompt_options(self) -> list[str]:
        """The waiting question's answers as of now (none when nothing waits): those it was asked with, unless
        the family works out again which it would accept (2d20's hand-over, whose costs follow the pools)."""
        prompt = self.state.prompt
        return list(prompt.options) if prompt else []

    def find_name(self, text: str) -> str | None:
        """The combatant `text` names (case-insensitive, a unique prefix), or None: completion never refuses."""
        try:
            return names.resolve(text, self.present_names())
        except Refusal:
            return None
