"""Through the Breach behind the family seam (`tracker.rules.family`): the static side.

The live side, `TTBEncounter`, is in `tracker.rules.ttb.views`.
"""

from __future__ import annotations

from collections.abc import Mapping

from tracker.rules.family import Capabilities, EncounterFile, RuleFamily
from tracker.rules.verbs import table_for


class TTBFamily(RuleFamily):
    """Through the Breach 2E: a Fate Deck instead of dice, General AP, melee engagement."""

    name = "ttb"
    title = "Through the Breach"
    verbs = table_for("ttb")
    capabilities = Capabilities()
    tab_titles = {"field": "Melee", "resources": "Fate Deck"}

    def validate_setup(self, data: Mapping[str, object]) -> EncounterFile:
        from tracker.rules.ttb.file import TTBFile

        return TTBFile.model_validate(data)


FAMILY = TTBFamily()
