"""Through the Breach behind the family seam (`tracker.rules.family`): the static side.

The live side, `TTBEncounter`, is in `tracker.rules.ttb.views`.
"""

from __future__ import annotations

from collections.abc import Mapping

from tracker.rules.family import Capabilities, EncounterFile, OddsOption, RuleFamily
from tracker.rules.story_terms import StoryTerms
from tracker.rules.verbs import table_for


class TTBFamily(RuleFamily):
    """Through the Breach 2E: a Fate Deck instead of dice, General AP, melee engagement."""

    name = "ttb"
    title = "Through the Breach"
    verbs = table_for("ttb")
    capabilities = Capabilities()
    tab_titles = {"field": "Melee", "resources": "Fate Deck"}
    odds_tab = "resources"
    #: ``tracker odds FILE …`` (answered by `tracker.rules.ttb.odds_report`).
    odds_options = (
        OddsOption("--tn", "the duel's Target Number: adds the duel's chances to the table"),
        OddsOption("--av", "the acting value added to the card (or --skill with --who)"),
        OddsOption("--who", "the one who flips: a Fated may cheat with the Control Hand", "text", "NAME"),
        OddsOption("--skill", "read the acting value from --who's skills (untrained: no cheating)", "text", "SKILL"),
        OddsOption("--plus", "⊞ on the flip (one extra card each, the best kept)"),
        OddsOption("--minus", "⊟ on the flip (one extra card each, the lowest kept; no cheating)"),
    )

    def validate_setup(self, data: Mapping[str, object]) -> EncounterFile:
        from tracker.rules.ttb.file import TTBFile

        return TTBFile.model_validate(data)

    @property
    def story(self) -> StoryTerms:
        from tracker.rules.ttb.story import STORY

        return STORY


FAMILY = TTBFamily()
