"""The Through the Breach encounter file (CONTRACT.md §2, RULES.md §2.1): header, settings, combatants.

Mirrors `tracker.rules.twod20.file`; `tracker.rules.encounter` picks one of the two by ``system``.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import Field, model_validator

from tracker.rules.family import EncounterFile, FamilyEngine, RuleFamily
from tracker.rules.model import unique_names
from tracker.rules.ttb.sheet import TTBCombatant, TTBSettings


class TTBFile(EncounterFile):
    """A Through the Breach encounter file."""

    settings: TTBSettings = Field(default_factory=TTBSettings)
    combatants: list[TTBCombatant] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> TTBFile:
        if self.encounter.system != "ttb":
            raise ValueError("this file is not a Through the Breach encounter")
        unique_names(self.combatants)
        return self

    # --- the family seam (`tracker.rules.family.EncounterFile`) ---------------------------------
    def rule_family(self) -> RuleFamily:
        from tracker.rules.ttb.family import FAMILY

        return FAMILY

    def engine(self, state: Mapping[str, object] | None, seed: int) -> FamilyEngine:
        from tracker.rules.ttb.engine import open_engine

        return open_engine(self, state, seed)
