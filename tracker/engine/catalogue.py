"""What a rule family knows of its conditions and actions, and the notes its screens show of them.

The kernel (`tracker.engine.kernel`) answers a combatant's condition notes from its family's catalogue,
so these types live in the engine layer; `tracker.present.view` re-exports them for the screens.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, Protocol


class ConditionNote(NamedTuple):
    """A condition as the Conditions panel and the `i` rule screen show it."""

    key: str
    label: str
    timing: str
    title: str
    summary: str
    section: str


class RuleText(Protocol):
    """A catalogue entry of either family: a condition's title, summary and the rules reference's heading
    that has it (docs/rules/index.md)."""

    @property
    def title(self) -> str: ...

    @property
    def summary(self) -> str: ...

    @property
    def section(self) -> str: ...


class Catalogue(NamedTuple):
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
