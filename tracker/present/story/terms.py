"""What a rule family tells the story of a fight (`tracker.present.story.events`) about its own JSON state.

The story replays a file's history and compares the JSON state (docs/reference/json-state.md) before and after each
command. What counts as damage (Through the Breach: Wounds lost; 2d20: stress taken and Harms), which
of the table's numbers to follow over time (the Fate Deck, or Momentum and Threat), what turns the
table (a reshuffle, a pool swing) and who a command says is attacking differ between the families, so
each family answers them here, behind the seam, and the story itself never asks which system it is.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from tracker.engine.errors import Refusal

if TYPE_CHECKING:
    from tracker.engine.language.commands import Command

#: One combatant's entry, or the whole state, of the JSON state (loosely typed, as JSON is).
JSONMap: TypeAlias = Mapping[str, object]


class Hurt(NamedTuple):
    """What one command did to one combatant's health, in the family's own unit."""

    #: Damage taken (TTB: Wounds lost; 2d20: stress taken on all tracks).
    damage: int = 0
    #: Damage healed (Wounds regained, stress removed).
    healed: int = 0
    #: Harms gained, by kind (2d20: ``("wound", 1)``); empty where the family has none.
    harms: tuple[tuple[str, int], ...] = ()
    #: The numbers before and after, in the family's words ("Wounds 9 → 5", "stress 2 → 7 of 14, +1 Wound").
    change: str = ""

    def __bool__(self) -> bool:
        return bool(self.damage or self.healed or self.harms)


class TableTurn(NamedTuple):
    """A change of the table's numbers worth calling a turning point (a reshuffle, a pool swing)."""

    #: The gauge it concerns (one of `StoryTerms.gauges`), so the players' story can leave out the GM's.
    gauge: str
    text: str


class StoryTerms(ABC):
    """A family's answers to the story's questions about its JSON state; pure functions of the JSON."""

    #: The unit damage is counted in ("Wounds", "stress"), and one of it ("Wound", "stress").
    damage_unit: str
    damage_one: str
    #: What the gauges are called together ("Fate Deck", "Momentum and Threat").
    gauges_title: str
    #: The gauges players may see (the 2d20 group's Momentum; not the GM's Threat, not the Fate Deck).
    player_gauges: frozenset[str]
    #: The damage option that names the attacker outright (TTB ``by``, 2d20 ``from``).
    attacker_option: str
    #: The actions that declare an attack (``strike``, ``attack`` …), as the family's catalogue keys them.
    attacks: frozenset[str]
    #: Verbs whose recovery is a reset, not healing (the 2d20 end of the scene clears all stress): the story
    #: counts none of it as healed.
    resets: frozenset[str] = frozenset()

    @abstractmethod
    def hurt(self, before: JSONMap, after: JSONMap) -> Hurt:
        """What happened to one combatant's health between two of its JSON entries."""

    @abstractmethod
    def gauges(self, state: JSONMap) -> dict[str, int]:
        """The table's numbers to follow over the fight, by name, from a whole JSON state."""

    @abstractmethod
    def table_turns(self, before: JSONMap, after: JSONMap) -> list[TableTurn]:
        """Turning points in the table's numbers between two whole JSON states."""

    def attacker(self, cmd: Command) -> tuple[str | None, bool]:
        """Who `cmd` says attacks (the name as typed, or None), and whether it names them outright.

        Outright: an option of the damage itself (``by=``, ``from=``), which holds for that command
        only. Otherwise a declared attack (``spend A strike``, ``attack A``), which the story holds for the damage that
        resolves it later in the same turn.
        """
        if self.attacker_option in cmd.options:
            return cmd.options[self.attacker_option], True
        if cmd.verb == "spend" and len(cmd.args) >= 2 and self.action(cmd.args[1]) in self.attacks:
            return cmd.args[0], False
        if cmd.verb == "attack" and cmd.args:  # the attack flow: its damage lands on a later answer
            return cmd.args[0], False
        return None, False

    def action(self, text: str) -> str | None:
        """The catalogue key of the action `text` names, or None when it names none."""
        try:
            return self.action_key(text)
        except Refusal:
            return None

    @abstractmethod
    def action_key(self, text: str) -> str:
        """The catalogue key of the action `text` names (the family's reader); Refusal when it names none."""


def number(entry: JSONMap, key: str) -> int:
    """An integer field of a JSON entry (0 when missing or not a number)."""
    value = entry.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def numbers(entry: JSONMap, key: str) -> dict[str, int]:
    """A table of integers in a JSON entry (``stress``, ``harms``, ``deck``); empty when missing."""
    value = entry.get(key)
    if not isinstance(value, Mapping):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, int) and not isinstance(v, bool)}
