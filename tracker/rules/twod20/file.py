"""The 2d20 encounter file: profile, zones and combatants (CONTRACT.md §2, RULES.md §3).

Kept apart from the TTB models so that a Through the Breach file never pays for building these.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import Field, model_validator

from tracker.rules.errors import Refusal
from tracker.rules.family import EncounterFile, FamilyEngine, RuleFamily
from tracker.rules.model import Zone, unique_names
from tracker.rules.names import resolve
from tracker.rules.twod20.profiles import resolve_profile
from tracker.rules.twod20.sheet import TwoD20Combatant, TwoD20Settings


class TwoD20File(EncounterFile):
    """A 2d20 encounter file: profile, zones and combatants (CONTRACT.md §2, RULES.md §3)."""

    settings: TwoD20Settings = Field(default_factory=TwoD20Settings)
    zones: list[Zone] = Field(default_factory=list)
    combatants: list[TwoD20Combatant] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> TwoD20File:
        unique_names(self.combatants)
        try:
            profile = resolve_profile(self.encounter.profile or "srd", self.settings.overrides())
        except Refusal as exc:
            raise ValueError(str(exc)) from None
        tracks = {t for t, _, _ in profile.tracks}
        zones = [z.name for z in self.zones]
        problems = []
        for z in self.zones:
            for other in z.adjacent:
                if other not in zones:
                    problems.append(f"zone '{z.name}' is adjacent to '{other}', which is not a zone")
        harm_kinds = {h for _, h, _ in profile.tracks} | {profile.mental_harm}
        for c in self.combatants:
            if isinstance(c.stress, dict):
                unknown = set(c.stress) - tracks
                if unknown:
                    problems.append(
                        f"{c.name}: no stress track '{sorted(unknown)[0]}' in profile "
                        f"{profile.name} (tracks: {', '.join(sorted(tracks))})"
                    )
            bad = set(c.harms) - harm_kinds
            if bad:
                problems.append(f"{c.name}: unknown harm '{sorted(bad)[0]}' (kinds: {', '.join(sorted(harm_kinds))})")
            if c.zone is not None:
                if not zones:
                    problems.append(f"{c.name} is in zone '{c.zone}' but the encounter has no [[zones]]")
                else:
                    try:
                        resolve(c.zone, zones, what="zone")
                    except Refusal as exc:
                        problems.append(f"{c.name}: {exc}")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    # --- the family seam (`tracker.rules.family.EncounterFile`) ---------------------------------
    def rule_family(self) -> RuleFamily:
        from tracker.rules.twod20.family import FAMILY

        return FAMILY

    def engine(self, state: Mapping[str, object] | None, seed: int) -> FamilyEngine:
        from tracker.rules.twod20.engine import open_engine

        return open_engine(self, state, seed)
