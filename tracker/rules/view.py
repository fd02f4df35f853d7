"""The typed view of an encounter that a rule family builds for the screens.

The family turns its live state into these plain, frozen values once per accepted command; each panel
is bound to its own slice and only draws it. Nothing here knows Textual or Rich: text comes as spans
with a small set of emphases that the screen maps to its theme, so the rules core stays UI-free and a
family never has to know how a panel looks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from tracker.rules.log import LogEntry

#: How a span is emphasised; the screen maps each to a style of its theme.
Emphasis = Literal["", "bold", "dim", "italic", "key"]


@dataclass(frozen=True, slots=True)
class Span:
    """A run of text with one emphasis; ``\\n`` inside the text breaks the line."""

    text: str
    emphasis: Emphasis = ""


#: A block of text for a panel body: spans in reading order.
Block = tuple[Span, ...]


class BlockWriter:
    """Builds a Block the way one writes a paragraph: `add` spans, `line` whole lines."""

    def __init__(self) -> None:
        self._spans: list[Span] = []

    def add(self, text: str, emphasis: Emphasis = "") -> BlockWriter:
        if text:
            self._spans.append(Span(text, emphasis))
        return self

    def line(self, text: str = "", emphasis: Emphasis = "") -> BlockWriter:
        return self.add(text + "\n", emphasis)

    def block(self) -> Block:
        return tuple(self._spans)


@dataclass(frozen=True, slots=True)
class ConditionTag:
    """One condition in the order table: written out when there is room, else its short form,
    which the table's legend explains ("Brn2" → "Brn burning")."""

    full: str
    short: str
    #: The short form's stem and what it stands for, for the legend ("Brn", "burning").
    stem: str
    meaning: str


@dataclass(frozen=True, slots=True)
class OrderRow:
    """One combatant's row in the order table; `cells` follow `OrderView.columns` but for the last
    column, Conditions, which the table writes from `conditions` to fit its width."""

    name: str
    cells: tuple[str, ...]
    #: Out of the fight for now (dead, unconscious, defeated): drawn muted.
    down: bool = False
    conditions: tuple[ConditionTag, ...] = ()


@dataclass(frozen=True, slots=True)
class OrderView:
    """The initiative order: columns, rows in acting order, who acts, and the round line above it."""

    columns: tuple[str, ...]
    rows: tuple[OrderRow, ...]
    active: str | None
    round_line: str
    #: Abbreviations the columns use besides conditions ("V Vigour · R Resolve"), shown under the table.
    legend: str = ""
    #: Columns that may give up characters (with an ellipsis) when the width is short: names and
    #: places, never numbers. The first gives way first.
    shrinkable: tuple[int, ...] = (1,)


@dataclass(frozen=True, slots=True)
class HeaderView:
    """The title line's parts, most important first where the screen must shorten it."""

    encounter: str
    family: str
    #: "Round 2" or "not started".
    where: str
    #: The pools the table watches ("Momentum 2 · Threat 5"); empty for families without pools.
    pools: str = ""
    #: Whose turn it is, or None.
    active: str | None = None


@dataclass(frozen=True, slots=True)
class PromptView:
    """The question the rules wait on, each option with the command that answers it."""

    question: str
    options: tuple[str, ...]
    #: The command line each option stands for (same order as `options`).
    answers: tuple[str, ...]
    #: A hint for answers that are typed rather than picked ("or type a card: answer 9R").
    hint: str = ""


@dataclass(frozen=True, slots=True)
class ActionChoice:
    """One action the selected combatant could take, with why it may not (None: legal now)."""

    key: str
    label: str
    cost: str
    reason: str | None
    #: The command line this action starts ("spend Sofia walk").
    line: str
    #: The action needs more words (a target, an amount): the command line opens prefilled.
    needs_more: bool = False


@dataclass(frozen=True, slots=True)
class ConditionNote:
    """A condition as the Conditions panel and the `i` rule screen show it."""

    key: str
    label: str
    timing: str
    title: str
    summary: str
    section: str


@dataclass(frozen=True)
class EncounterView:
    """Everything the GM screen shows, for one revision and one selected combatant."""

    revision: int
    header: HeaderView
    order: OrderView
    #: Whom the Turn, Conditions and field panels speak about (the selection, else the active one).
    focus: str | None
    turn: Block
    conditions: tuple[ConditionNote, ...]
    field: Block
    resources: Block
    prompt: PromptView | None
    #: The log entries the state keeps, and how many were ever written (panels append only new ones).
    log: tuple[LogEntry, ...] = ()
    logged: int = 0
    #: The phase's words: "setup", "turn", "ended", … (keys and the palette follow it).
    phase: str = "setup"


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A combatant as players may see it: nothing GM-only, health as the encounter allows."""

    name: str
    status: str
    health: str
    conditions: tuple[tuple[str, int | bool | str], ...]
    active: bool
    acted: bool
    zone: str | None = None
    #: The same conditions as the order table writes them (full, or short with a legend).
    tags: tuple[ConditionTag, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The player screen's whole content; every string in it is safe to show to the table."""

    name: str
    round: int
    active: str | None
    rows: tuple[PlayerRow, ...]
    prompt: str | None
    #: "Round 2", or "not started" before the fight.
    where: str = ""
    #: The players' own pools ("Momentum 2"); the GM's pool is never here.
    pools: str = ""


class RuleText(Protocol):
    """A catalogue entry of either family: a condition's title, summary and RULES.md section."""

    @property
    def title(self) -> str: ...

    @property
    def summary(self) -> str: ...

    @property
    def section(self) -> str: ...


@dataclass(frozen=True)
class Catalogue:
    """A family's words for its screens: conditions with their rules and timing, and its actions."""

    conditions: Mapping[str, RuleText]
    #: When each condition acts, in the GM's words ("{v}" is its value).
    timing: Mapping[str, str]
    #: Action keys, as ``spend NAME ACTION`` takes them (underscores typed as hyphens).
    actions: tuple[str, ...] = ()


def condition_notes(
    conditions: Mapping[str, int | bool], catalogue: Mapping[str, RuleText], timing: Mapping[str, str]
) -> tuple[ConditionNote, ...]:
    """Conditions as the Conditions panel shows them: label, when it acts, and the rule in our words."""
    notes = []
    for key, value in conditions.items():
        rule = catalogue.get(key)
        label = key.replace("_", " ").title() + ("" if value is True else f" +{value}")
        when = timing.get(key, "")
        notes.append(
            ConditionNote(
                key,
                label,
                when.format(v=value) if when else "",
                rule.title if rule else label,
                rule.summary if rule else "",
                rule.section if rule else "",
            )
        )
    return tuple(notes)
