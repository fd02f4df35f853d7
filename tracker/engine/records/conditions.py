"""The check of a file's ``conditions = {...}`` table, shared by both families' combatant models.

The families differ only in their catalogue (names, aliases, which conditions are valued), so each
passes its own; the rule and the wording of every problem are the same for a GM writing either file.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Protocol

from tracker.engine.errors import Refusal
from tracker.engine.records.model import Located, Strict, raise_located
from tracker.engine.records.record import record


class ConditionRule(Protocol):
    """What the check needs of a catalogue entry: its title for messages, and whether it has a value."""

    @property
    def title(self) -> str: ...

    @property
    def valued(self) -> bool: ...


def check_conditions(
    value: Mapping[str, int | bool],
    key_of: Callable[[str], str],
    rules: Mapping[str, ConditionRule],
    states: Collection[str] = (),
) -> dict[str, int | bool]:
    """The table with canonical keys; raises ValueError listing every problem at once."""
    out, problems = read_conditions(value, key_of, rules, states)
    if problems:
        raise ValueError("; ".join(message for _, message in problems))
    return out


def read_conditions(
    value: Mapping[str, int | bool],
    key_of: Callable[[str], str],
    rules: Mapping[str, ConditionRule],
    states: Collection[str] = (),
) -> tuple[dict[str, int | bool], list[Located]]:
    """The table with canonical keys, and every problem at the key the file wrote.

    Names are case-insensitive (`key_of` resolves them, refusing unknown ones); valued conditions take
    a whole number ≥ 1, the others ``true``. `states` are keys outside `rules` (TTB's Unconscious) that
    only take ``true``.
    """
    out: dict[str, int | bool] = {}
    problems: list[Located] = []
    for raw, v in value.items():
        try:
            key = key_of(raw)
        except Refusal as exc:
            problems.append(((raw,), str(exc)))
            continue
        if key in states:
            if v is not True:
                problems.append(((raw,), f"{key} takes true"))
        elif rules[key].valued:
            if isinstance(v, bool) or v < 1:
                problems.append(((raw,), f"{rules[key].title} is valued: give a number of 1 or more"))
        elif v is not True:
            problems.append(((raw,), f"{rules[key].title} is not valued: write {key} = true"))
        out[key] = v
    return out, problems


#: How a family reads its conditions: the name resolver, the catalogue, and the keys that are states.
ConditionCatalogue = tuple[Callable[[str], str], Mapping[str, ConditionRule], Collection[str]]


@record
class CombatantEntry(Strict):
    """Base of both families' ``[[combatants]]`` models: their ``conditions`` table is checked against the
    catalogue the family names in `condition_catalogue` (`known_conditions`; the field itself is the family's)."""

    @classmethod
    def condition_catalogue(cls) -> ConditionCatalogue:
        raise NotImplementedError


def known_conditions(value: dict[str, int | bool], catalogue: ConditionCatalogue) -> dict[str, int | bool]:
    """A ``conditions`` table checked against a family's `catalogue` (a validator of its combatants' field):
    condition names are case-insensitive; valued ones take an int ≥ 1, others true. Each problem is
    reported at its own key of the table (`located`)."""
    out, problems = read_conditions(value, *catalogue)
    raise_located(problems)
    return out
