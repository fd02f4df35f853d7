"""The presentation half of the family seam: what the screens, the player view and the scripts show.

A `FamilyPresenter` holds a reference to one encounter's rules (`tracker.families.rules.FamilyRules`)
and builds from it, never changing it: the GM screen's typed view (`tracker.present.view`), the player
view with nothing GM-only in it, the odds, the field map, the plain summary of ``tracker exec`` and the
words the story of a fight is told in. Each family implements it in its ``present/presenter.py``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Generic, TypeVar

from tracker.engine.catalogue import ConditionNote
from tracker.engine.records.model import Prompt
from tracker.families.rules import FamilyRules
from tracker.families.values import OddsOptions, OddsReport
from tracker.present.story.terms import StoryTerms
from tracker.present.view import (
    Block,
    BlockWriter,
    EncounterView,
    HeaderView,
    OddsView,
    OrderView,
    PlayerRow,
    PlayerView,
    PromptView,
)
from tracker.present.words import mentions, plain_conditions, quote

if TYPE_CHECKING:
    from tracker.present.map.graph import MapView

RulesT_co = TypeVar("RulesT_co", bound=FamilyRules, covariant=True)


class FamilyPresenter(ABC, Generic[RulesT_co]):
    """Builds what the screens show of one encounter from its rules; the screen asks for the whole `view`
    once per accepted command, and for a tab's text (`field`, `resources`, `odds`, `field_map`) while it shows."""

    def __init__(self, rules: RulesT_co) -> None:
        self._rules = rules

    @property
    def rules(self) -> RulesT_co:
        """The encounter this presents (read, never changed here)."""
        return self._rules

    @property
    @abstractmethod
    def story(self) -> StoryTerms:
        """What the story of a fight (`tracker.present.story.events`) reads in this family's JSON state."""

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

    def prompt_view(self) -> PromptView | None:
        """The pending question with the command each answer stands for: ``answer OPTION`` for each option,
        and the family's hint for answers typed rather than picked (`prompt_hint`)."""
        prompt = self.rules.state.prompt
        if prompt is None:
            return None
        answers = tuple(f"answer {quote(option)}" for option in prompt.options)
        return PromptView(prompt.question, option_labels(prompt), answers, self.prompt_hint(prompt))

    def prompt_hint(self, prompt: Prompt) -> str:
        """How else `prompt` may be answered than by picking an option (none by default)."""
        return ""

    def own_sheet(self, who: str) -> Block:
        """What only `who`'s player may see of `who` beside the player view (`tracker play`): the turn panel
        (AP, actions and why not), and whatever the family keeps private to a character (a Control Hand)."""
        return self.turn_of(who)

    def conditions_of(self, who: str) -> tuple[ConditionNote, ...]:
        """`who`'s conditions with what each does and when (the rules' notes, as the panel labels them)."""
        return self.rules.condition_notes(who)

    @abstractmethod
    def field_map(self, focus: str | None) -> MapView | None:
        """The map the field tab draws (the zones, the melee engagements) about `focus`, or None. The screen
        asks only while that tab is in view, so a family imports its map modules there, lazily."""

    @abstractmethod
    def odds(self, focus: str | None, seat: frozenset[str] | None = None) -> OddsView | None:
        """The chances the GM's odds panel shows about `focus` (None: nothing to show). The screen asks
        only while that panel is in view, so a family imports its odds modules there, lazily. `seat`: the
        characters of the player who reads them (None: the GM), so the odds come from what that reader knows
        (another player's hidden cards are not counted)."""

    @abstractmethod
    def odds_report(self, options: OddsOptions) -> OddsReport:
        """``tracker odds FILE …``: the chances the `options` ask for (one of the family's `odds_options`),
        the same numbers the panel shows; Refusal for options that do not make a question."""

    # --- the players' view ----------------------------------------------------------------------
    @abstractmethod
    def player_row(self, name: str, hidden: set[str]) -> PlayerRow:
        """`name` as players may see it; text that names a `hidden` combatant is left out."""

    @abstractmethod
    def player_question(self) -> str:
        """The pending question in the players' words: no command syntax, nothing GM-only."""

    @abstractmethod
    def player_pools(self) -> str:
        """The pools players may see ("Momentum 2"); empty when the family has none for them."""

    def player_notes(self) -> tuple[str, ...]:
        """What the whole table knows of the scene beyond the order (2d20 traits and tasks, TTB Ongoing
        Challenges), a line each; none by default. A line naming a GM-only combatant never reaches players."""
        return ()

    # --- what both families build the same way --------------------------------------------------
    def header(self) -> HeaderView:
        """The title line: encounter, family, round, pools, whose turn."""
        st = self.rules.state
        where = f"Round {st.round}" if st.round else "not started"
        return HeaderView(self.rules.encounter_name(), self.family_label(), where, self.pools_text(), st.active)

    def turn(self) -> Block:
        """The Turn panel: the acting combatant's budget, or that no turn is open."""
        who = self.rules.state.active
        return self.turn_of(who) if who is not None else BlockWriter().add("No turn is open.", "italic").block()

    def summary(self) -> list[str]:
        """A few plain lines for ``tracker exec`` without ``--json``: the round, everyone, the prompt."""
        rules = self.rules
        st = rules.state
        first = f"round {st.round}, " + (f"{st.active}'s turn" if st.active else st.phase)
        pools = self.pools_text("plain")
        lines = [first + (f", {pools}" if pools else "")]
        for name in rules.combatant_names():
            conds = plain_conditions(rules.shown_conditions(name))
            status = rules.status(name) + (", left the fight" if rules.has_left(name) else "")
            line = f"  {name} ({status}): {self.summary_body(name)}"
            lines.append(line + (f" [{conds}]" if conds else ""))
        if st.prompt:
            lines.append(f"? {st.prompt.question}")
        return lines

    def view(self, revision: int, selected: str | None) -> EncounterView:
        """Everything the GM screen shows, about `selected` (None or unknown: the active combatant)."""
        st = self.rules.state
        focus = selected if selected in self.rules.combatant_names() else st.active
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
            requests=tuple(f"#{r.id} {r.seat} ({r.as_}): {r.command}" for r in st.requests),
        )

    def player_view(self) -> PlayerView:
        """What players may see (``tracker view --player``): nothing GM-only reaches it."""
        rules = self.rules
        st = rules.state
        hidden = rules.hidden_names()
        # Who left the fight is gone from the players' table (the GM's order shows them, muted, at the end).
        rows = tuple(self.player_row(n, hidden) for n in rules.in_order() if n not in hidden and not rules.has_left(n))
        active = st.active if st.active not in hidden else None
        question = self.player_question() if st.prompt and not mentions(st.prompt.question, hidden) else None
        where = f"Round {st.round}" if st.round else "not started"
        notes = tuple(note for note in self.player_notes() if not mentions(note, hidden))
        return PlayerView(rules.encounter_name(), st.round, active, rows, question, where, self.player_pools(), notes)


def option_labels(prompt: Prompt) -> tuple[str, ...]:
    """What the screen writes for each option: the prompt's ``labels`` where the rules gave them (a target
    with its odds, a card with what it would make), else the option itself, the answer JSON and typed
    commands use."""
    labels = prompt.data.get("labels")
    if isinstance(labels, list) and len(labels) == len(prompt.options):
        return tuple(str(label) for label in labels)
    return tuple(prompt.options)
