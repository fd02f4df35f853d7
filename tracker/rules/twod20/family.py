"""The 2d20 System behind the family seam (`tracker.rules.family`): the static side.

The live side, `TwoD20Encounter`, is in `tracker.rules.twod20.views`.
"""

from __future__ import annotations

from collections.abc import Mapping

from tracker.rules.family import Capabilities, EncounterFile, RuleFamily
from tracker.rules.verbs import table_for


class TwoD20Family(RuleFamily):
    """The 2d20 System: zones and range bands, alternating order, Momentum and Threat."""

    name = "2d20"
    title = "2d20"
    verbs = table_for("2d20")
    capabilities = Capabilities(pools=True)
    tab_titles = {"field": "Zones", "resources": "Pools"}

    def validate_setup(self, data: Mapping[str, object]) -> EncounterFile:
        from tracker.rules.twod20.file import TwoD20File

        return TwoD20File.model_validate(data)


FAMILY = TwoD20Family()
