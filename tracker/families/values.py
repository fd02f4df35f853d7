"""The small values the family seam passes: JSON data, carried sheet fields, capabilities, odds options.

Shared by the static side (`tracker.families.seam.RuleFamily`), the rules (`tracker.families.rules`)
and the presentation (`tracker.families.presenter`), so each of those imports this and none the others.
They are NamedTuples, not frozen dataclasses: a frozen dataclass writes and compiles code for its class
at import (≈ 4 M instructions each, on every start).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, NamedTuple, TypeAlias

from tracker.present.view import OddsView

#: JSON data as docs/reference/json-state.md prints it.
JSONValue: TypeAlias = "str | int | float | bool | Sequence[JSONValue] | Mapping[str, JSONValue] | None"
JSONObject: TypeAlias = "dict[str, JSONValue]"


class Carried(NamedTuple):
    """One field of a party member's sheet that `tracker carry` writes back to the party file (docs/reference/cli.md).

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

    #: The verbs of the pools the GM steps by one with a key: ``momentum`` (the group's pool, ``+ -``) and
    #: ``threat`` (the GM's pool, ``] [``), each a verb of the family's table that takes ``±N GM``. Empty for a
    #: family without such pools: the keys are then not offered.
    stepped_pools: frozenset[str] = frozenset()


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


#: The styles a combatant's ``tactics = "…"`` may name (docs/reference/file-format.md "tactics"): how the
#: family's default policy plays it in ``tracker odds FILE --fight`` (docs/reference/cli.md). Without
#: ``tactics`` a combatant fights ``steady``.
TACTICS: Mapping[str, str] = {
    "steady": "goes for the weakest enemy it can reach, closes in when it has to, buys dice while they pay",
    "cautious": "keeps its distance: shoots when it can, never charges, never walks out of a melee, buys no dice",
    "brute": "charges the nearest enemy and keeps hitting, walks away under any strike, spends all it can",
}

#: A ``tactics`` value as the file model checks it (the keys of `TACTICS`).
Tactic: TypeAlias = Literal["steady", "cautious", "brute"]
