"""The Through the Breach encounter file (CONTRACT.md §2, RULES.md §2.1): header, settings, combatants.

Mirrors `tracker.families.twod20.records.file`; `tracker.families.encounter` picks one of the two by ``system``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tracker.engine.records.model import Located, name_clashes, raise_located
from tracker.families.seam import EncounterFile, FamilyEngine, RuleFamily
from tracker.families.ttb.records.sheet import MAX_ARMOR, TTBCombatant, TTBSettings


@dataclass(kw_only=True)
class TTBFile(EncounterFile):
    """A Through the Breach encounter file."""

    settings: TTBSettings = field(default_factory=TTBSettings)
    combatants: list[TTBCombatant] = field(default_factory=list)
    #: Stat blocks a ``[[combatants]]`` entry (``from = NAME``) or ``join`` may name (CONTRACT.md §2.1): the
    #: ``[[stat_blocks]]`` of the ``[encounter] bestiary`` files, gathered by the loader, or written inline.
    stat_blocks: list[TTBCombatant] = field(default_factory=list)

    def check(self) -> None:
        """Names, and the header's system; each problem at its key."""
        problems = name_clashes(self.combatants)
        if self.encounter.system != "ttb":
            problems.append((("encounter", "system"), "this file is not a Through the Breach encounter"))
        raise_located(problems)

    def warnings(self) -> list[Located]:
        """Armor above +3: allowed, since the Fatemaster may exceed the maximum, but worth a second look
        (RULES.md §2.1 ``armor``, decision A27: "``armor`` accepts more, with a warning")."""
        return [
            (
                ("combatants", n, "armor"),
                f"{c.name} has Armor +{c.armor}, above the usual maximum of +{MAX_ARMOR} "
                "(allowed: the Fatemaster may exceed it, RULES.md A27)",
            )
            for n, c in enumerate(self.combatants)
            if c.armor > MAX_ARMOR
        ]

    # --- the family seam (`tracker.families.seam.EncounterFile`) ---------------------------------
    def rule_family(self) -> RuleFamily:
        from tracker.families.ttb.family import FAMILY

        return FAMILY

    def engine(self, state: Mapping[str, object] | None, seed: int) -> FamilyEngine:
        from tracker.families.ttb.dispatch import open_engine

        return open_engine(self, state, seed)
