"""The seam between the rule families and everything else (ARCHITECTURE.md "The family seam").

Modelled on harlequin's adapter (``src/harlequin/adapter.py``): a `RuleFamily` is the static side (its
name, its command table, its tab titles and capability flags, how to read its file), like
``HarlequinAdapter``; a `FamilyEngine` is one encounter in play (apply a command, the JSON state, the
typed screen view, the player view, completions, the action catalogue), like ``HarlequinConnection``.
Through the Breach implements both in ``rules/ttb/``, the 2d20 System in ``rules/twod20/``.

Code outside those two folders asks the family, never "which system is this?": a capability is a flag
or a verb in the family's table, not a comparison of names or an ``isinstance``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import ArgKind, Command, VerbTable
from tracker.engine.records.model import DemoStep, EncounterInfo, History, Located, Sheets, Strict
from tracker.present.story.terms import StoryTerms
from tracker.present.view import (
    ActionChoice,
    Block,
    BlockWriter,
    ConditionNote,
    EncounterView,
    HeaderView,
    OddsView,
    OrderView,
    PlayerRow,
    PlayerView,
    PromptView,
)
from tracker.present.words import mentions, plain_conditions

if TYPE_CHECKING:
    from tracker.engine.kernel import LiveState
    from tracker.present.map.graph import MapView

#: JSON data as CONTRACT.md §4 prints it.
JSONValue: TypeAlias = "str | int | float | bool | Sequence[JSONValue] | Mapping[str, JSONValue] | None"
JSONObject: TypeAlias = "dict[str, JSONValue]"

# The small values of the seam are NamedTuples, not frozen dataclasses: a frozen dataclass writes and compiles
# code for its class at import (≈ 4 M instructions each, on every start).


class Carried(NamedTuple):
    """One field of a party member's sheet that `tracker carry` writes back to the party file (CONTRACT.md §1).

    `unset` is what the sheet means without the key (full Wounds, no conditions, the rank's Fate Points):
    a value equal to it is not added to a sheet that lacks the key, so an untouched character's sheet stays
    as the GM wrote it.
    """

    key: str
    value: JSONValue
    unset: JSONValue


class Capabilities(NamedTuple):
    """What a family offers beyond what every family has: flags the screen reads, never name checks.

    A key that prefills a verb (``m`` for ``move``) is offered when the family's command table has the
    verb; a capability is for what is more than one verb.
    """

    #: A group Momentum pool and a GM pool: the ``+ - ] [`` keys step them, the header shows them.
    pools: bool = False


class OddsOption(NamedTuple):
    """One option of ``tracker odds FILE …`` that the file's family answers (the CLI builds its parser
    from the family's list, so the command stays one for both families)."""

    #: The option as typed: ``--tn``.
    flag: str
    help: str
    #: "int" for a whole number (0 or more), "text" for a word (a name, a skill).
    kind: str = "int"
    metavar: str = "N"


#: The options as given on the command line, by flag without its dashes (absent ones left out).
OddsOptions: TypeAlias = Mapping[str, "int | str"]


class OddsReport(NamedTuple):
    """What ``tracker odds`` prints: the table the panel shows (`view`), or `data` with ``--json``."""

    view: OddsView
    data: JSONObject


class FamilyEngine(ABC):
    """One encounter in play under one rule family: the live side of the seam.

    The screen asks for the whole `view` once per accepted command; the family answers each part.
    """

    @property
    @abstractmethod
    def family(self) -> RuleFamily:
        """The family this engine plays."""

    @property
    @abstractmethod
    def state(self) -> LiveState[object]:
        """The live state (round, active, order, prompt, log) in the shape both families share."""

    @abstractmethod
    def apply(self, cmd: Command) -> None:
        """Apply one command; raise Refusal before changing anything when it is refused."""

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
    def combatant_json(self, name: str) -> JSONObject:
        """The family's own keys for one combatant in the JSON state (wounds and AP, or stress and zone)."""

    @abstractmethod
    def table_json(self) -> JSONObject:
        """The family's own top-level keys in the JSON state (the deck, or the profile and pools)."""

    @abstractmethod
    def status(self, name: str) -> str:
        """``ok``, ``unconscious``, ``defeated``, ``dying`` or ``dead`` (CONTRACT.md §4)."""

    @abstractmethod
    def shown_conditions(self, name: str) -> Mapping[str, int | bool | str]:
        """`name`'s conditions with the table effects shown beside them (Waiting, Stunned, Persistent …)."""

    @abstractmethod
    def family_label(self) -> str:
        """The family as the title line names it ("Through the Breach", "2d20 infinity")."""

    @abstractmethod
    def pools_text(self, style: str = "title") -> str:
        """The pools the table watches ("Momentum 2 · Threat 5", or "momentum 2, threat 5" in plain
        ``style``); empty for a family without pools."""

    @abstractmethod
    def summary_body(self, name: str) -> str:
        """One combatant's numbers for ``tracker exec`` (initiative, wounds and AP; or zone, stress, Harms)."""

    # --- the parts of the GM screen's view -----------------------------------------------------

    @abstractmethod
    def order(self) -> OrderView:
        """The initiative order table and its round line."""

    @abstractmethod
    def turn_of(self, who: str) -> Block:
        """`who`'s budget for the open turn (AP and legal actions, or Major/Minor/Reaction use)."""

    @abstractmethod
    def field(self, focus: str | None) -> Block:
        """Where everyone stands (melee engagements, or zones with ranges from `focus`)."""

    @abstractmethod
    def resources(self) -> Block:
        """The table's resources (the Fate Deck and hands, or the pools)."""

    @abstractmethod
    def conditions_of(self, who: str) -> tuple[ConditionNote, ...]:
        """`who`'s conditions with what each does and when."""

    @abstractmethod
    def prompt_view(self) -> PromptView | None:
        """The pending question with the command each answer stands for."""

    @abstractmethod
    def words(self, kind: ArgKind) -> list[str]:
        """The family's own words for an argument of `kind` (conditions, actions, zones)."""

    @abstractmethod
    def held_conditions(self, who: str) -> list[str]:
        """The conditions `who` has now, as ``remove`` takes them: the only ones worth completing there."""

    @abstractmethod
    def actions_for(self, who: str) -> list[ActionChoice]:
        """The action catalogue for `who`, legal first, each illegal one with its reason."""

    @abstractmethod
    def player_row(self, name: str, hidden: set[str]) -> PlayerRow:
        """`name` as players may see it; text that names a `hidden` combatant is left out."""

    @abstractmethod
    def player_question(self) -> str:
        """The pending question in the players' words: no command syntax, nothing GM-only."""

    @abstractmethod
    def player_pools(self) -> str:
        """The pools players may see ("Momentum 2"); empty when the family has none for them."""

    @abstractmethod
    def hidden_names(self) -> set[str]:
        """Combatants marked ``gm_only``: never shown to players."""

    def field_map(self, focus: str | None) -> MapView | None:
        """The map the field tab draws (the zones, the melee engagements) about `focus`, or None for a
        family without one. The screen asks only while that tab is in view, so the family imports its
        map modules here, lazily: the first frame never pays for them."""
        return None

    def odds(self, focus: str | None) -> OddsView | None:
        """The chances the GM's odds panel shows about `focus` (None: nothing to show). The screen asks
        only while that panel is in view, so the family may import its odds modules here, lazily."""
        return None

    def odds_report(self, options: OddsOptions) -> OddsReport:
        """``tracker odds FILE …``: the chances the `options` ask for (one of the family's `odds_options`),
        the same numbers the panel shows; Refusal for options that do not make a question."""
        raise Refusal(f"{self.family.title} has no odds to compute")

    @abstractmethod
    def health_shown(self, name: str) -> bool:
        """Whether players see `name`'s health exactly (their own side; others as ``player_view`` says)."""

    # --- what both families build the same way --------------------------------------------------
    def header(self) -> HeaderView:
        """The title line: encounter, family, round, pools, whose turn."""
        st = self.state
        where = f"Round {st.round}" if st.round else "not started"
        return HeaderView(self.encounter_name(), self.family_label(), where, self.pools_text(), st.active)

    def state_json(self) -> JSONObject:
        """CONTRACT.md §4: the keys every family has, then the family's own (`combatant_json`, `table_json`)."""
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
            "system": self.family.name,
            "round": st.round,
            "active": st.active,
            "order": list(st.order),
            "prompt": st.prompt.question if st.prompt else None,
            "prompt_options": list(st.prompt.options) if st.prompt else [],
            "phase": st.phase,
            "combatants": combatants,
            **self.table_json(),
        }

    def turn(self) -> Block:
        """The Turn panel: the acting combatant's budget, or that no turn is open."""
        who = self.state.active
        return self.turn_of(who) if who is not None else BlockWriter().add("No turn is open.", "italic").block()

    def summary(self) -> list[str]:
        """A few plain lines for ``tracker exec`` without ``--json``: the round, everyone, the prompt."""
        st = self.state
        first = f"round {st.round}, " + (f"{st.active}'s turn" if st.active else st.phase)
        pools = self.pools_text("plain")
        lines = [first + (f", {pools}" if pools else "")]
        for name in self.combatant_names():
            conds = plain_conditions(self.shown_conditions(name))
            status = self.status(name) + (", left the fight" if self.has_left(name) else "")
            line = f"  {name} ({status}): {self.summary_body(name)}"
            lines.append(line + (f" [{conds}]" if conds else ""))
        if st.prompt:
            lines.append(f"? {st.prompt.question}")
        return lines

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

    def view(self, revision: int, selected: str | None) -> EncounterView:
        """Everything the GM screen shows, about `selected` (None or unknown: the active combatant)."""
        st = self.state
        focus = selected if selected in self.combatant_names() else st.active
        return EncounterView(
            revision=revision,
            header=self.header(),
            order=self.order(),
            focus=focus,
            turn=self.turn(),
            conditions=self.conditions_of(focus) if focus else (),
            prompt=self.prompt_view(),
            log=tuple(st.log),
            logged=st.logged,
            phase=st.phase,
        )

    def choices(self, kind: ArgKind, subject: str | None = None) -> list[str]:
        """Words the command line may complete for an argument of `kind`; `subject` is the combatant the
        line names first (as typed), for kinds that depend on it (``held``: that one's own conditions)."""
        if kind == "name":
            return self.present_names()
        if kind == "held":
            who = self.find_name(subject) if subject else None
            return self.held_conditions(who) if who else self.words("condition")
        if kind == "answer":
            prompt = self.state.prompt
            return list(prompt.options) if prompt else []
        return self.words(kind)

    def player_view(self) -> PlayerView:
        """What players may see (``tracker view --player``): nothing GM-only reaches it."""
        st = self.state
        hidden = self.hidden_names()
        # Who left the fight is gone from the players' table (the GM's order shows them, muted, at the end).
        rows = tuple(self.player_row(n, hidden) for n in self.in_order() if n not in hidden and not self.has_left(n))
        active = st.active if st.active not in hidden else None
        question = self.player_question() if st.prompt and not mentions(st.prompt.question, hidden) else None
        where = f"Round {st.round}" if st.round else "not started"
        return PlayerView(self.encounter_name(), st.round, active, rows, question, where, self.player_pools())

    def find_name(self, text: str) -> str | None:
        """The combatant `text` names (case-insensitive, a unique prefix), or None: completion never refuses."""
        try:
            return names.resolve(text, self.present_names())
        except Refusal:
            return None

    @abstractmethod
    def encounter_name(self) -> str:
        """The encounter's name from its file."""

    @abstractmethod
    def lasting(self, name: str) -> list[Carried]:
        """`name`'s state that outlasts the fight, as the sheet fields that carry it into the next one
        (``tracker carry``): each family decides from its rules what lasts (README "Campaigns")."""


class RuleFamily(ABC):
    """A rule family: its name, its command language, its screen words and its capabilities."""

    #: The ``system`` value in the encounter file.
    name: str
    #: How the screens name it ("Through the Breach", "2d20").
    title: str
    #: The family's command table: the only verbs its screens and errors speak of.
    verbs: VerbTable
    capabilities: Capabilities
    #: Titles of the side panel's family tabs: "field" (Melee / Zones) and "resources" (Fate Deck / Pools).
    tab_titles: Mapping[str, str]
    #: The family tab ("field" or "resources") whose panel shows `FamilyEngine.odds` above its text.
    odds_tab: str | None = None
    #: The options of ``tracker odds FILE …`` for this family's files.
    odds_options: tuple[OddsOption, ...] = ()

    @abstractmethod
    def validate_setup(self, data: Mapping[str, object]) -> EncounterFile:
        """The file's setup as this family's model (pydantic ValidationError when it is wrong)."""

    @property
    @abstractmethod
    def story(self) -> StoryTerms:
        """What the story of a fight (`tracker.present.story.events`) reads in this family's JSON state."""

    def help_lines(self) -> list[tuple[str, str]]:
        """(usage, one-line help) for every verb, in the table's order."""
        return [(spec.usage, spec.help) for spec in self.verbs]


@dataclass(kw_only=True)
class EncounterFile(Strict):
    """Base of both families' file models: what the session and the store use of any encounter file.

    The tables every encounter file has are declared here; each family's model adds its own
    (``[settings]``, ``[[zones]]``, ``[[combatants]]``) and answers for its own family, so nothing
    outside the family asks which system a file is. (The store writes the tables back in the order a
    GM writes them, whatever the order of the fields.)
    """

    encounter: EncounterInfo
    demo: list[DemoStep] = field(default_factory=list)
    #: The live ``[state]``, validated by the family when an engine resumes it.
    state: dict[str, object] | None = None
    history: History | None = None
    #: The setup tables as the GM wrote them, when the loader expanded them (stat blocks, ``count``, the
    #: party, CONTRACT.md §2.1): saves write these back, never the expanded combatants. None otherwise.
    _written: dict[str, object] | None = field(default=None, init=False, repr=False, compare=False)
    #: The expanded sheets themselves, for a new fight's ``[history]`` (`History.sheets`). None otherwise.
    _sheets: Sheets | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def written(self) -> dict[str, object] | None:
        """The GM's own setup tables when this model is an expansion of them (see `_written`), else None."""
        return self._written

    @property
    def sheets(self) -> Sheets | None:
        """The expanded combatants and stat blocks a fight from this setup keeps in its history, else None."""
        return self._sheets

    def keep_written(self, tables: dict[str, object], sheets: Sheets) -> None:
        """Remember the GM's setup tables this model was expanded from, and the expansion (the loader calls this)."""
        self._written = tables
        self._sheets = sheets

    def rule_family(self) -> RuleFamily:
        """The family that plays this file."""
        raise NotImplementedError

    def warnings(self) -> list[Located]:
        """What is allowed but probably a slip (TTB Armor above +3), each at its key: ``tracker check``
        prints them as ``FILE:LINE:COL: warning: …`` without failing. The family decides; none by default."""
        return []

    def engine(self, state: Mapping[str, object] | None, seed: int) -> FamilyEngine:
        """The family's engine: fresh from the setup when `state` is None, else over a saved ``[state]``
        (pydantic ValidationError when it is wrong)."""
        raise NotImplementedError

    def start(self, seed: int) -> FamilyEngine:
        """A fresh engine: the state before ``start``."""
        return self.engine(None, seed)

    def resume(self, state: Mapping[str, object]) -> FamilyEngine:
        """An engine over a saved ``[state]`` (pydantic ValidationError when it is wrong)."""
        return self.engine(state, 0)
