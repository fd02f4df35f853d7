"""The coin duel's file and live state: combatants with a side, and who is down.

Records, as the built-in families' are (`tracker.engine.records.record`): the tracker validates a coin file
with the same machinery, through the seam (docs/architecture/writing-a-family.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.engine.records.model import Located, Strict, name_clashes, raise_located
from tracker.engine.state import LiveState
from tracker.families.file import EncounterFile


@dataclass(kw_only=True)
class CoinCombatant(Strict):
    """``[[combatants]]``: a duellist."""

    name: str
    side: str = "players"
    gm_only: bool = False
    #: Starts the fight down (what `tracker carry` writes back of a fight).
    down: bool = False

    @property
    def side_name(self) -> str:
        return self.side


@dataclass(kw_only=True)
class CoinFile(EncounterFile):
    """A coin duel's file: its combatants, and the stat blocks ``join`` may name."""

    combatants: list[CoinCombatant] = field(default_factory=list)
    stat_blocks: list[CoinCombatant] = field(default_factory=list)

    def check(self) -> None:
        problems: list[Located] = name_clashes(self.combatants)
        problems += self.seat_problems([c.name for c in self.combatants])
        raise_located(problems)


@dataclass(kw_only=True)
class Fighter(Strict):
    """One duellist in play."""

    down: bool = False
    conditions: dict[str, int | bool] = field(default_factory=dict)

    @property
    def dead(self) -> bool:
        """Down is out: the kernel refuses commands that name the dead, and so the downed."""
        return self.down


@dataclass(kw_only=True)
class CoinState(LiveState[Fighter]):
    """``[state]``: the shared fields, the duellists, and the flips so far."""

    fighters: dict[str, Fighter] = field(default_factory=dict)
    joined: list[CoinCombatant] = field(default_factory=list)
    heads: int = 0
    tails: int = 0
