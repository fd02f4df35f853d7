"""Through the Breach behind the family seam (`tracker.families.seam`): the static side.

The live side, `TTBEncounter`, is in `tracker.families.ttb.present.views`.
"""

from __future__ import annotations

from collections.abc import Mapping

from tracker.engine.language.verbs import table_for
from tracker.engine.records.record import validate
from tracker.families.seam import Capabilities, EncounterFile, OddsOption, RuleFamily
from tracker.present.story.terms import StoryTerms


class TTBFamily(RuleFamily):
    """Through the Breach 2E: a Fate Deck instead of dice, General AP, melee engagement."""

    name = "ttb"
    title = "Through the Breach"
    verbs = table_for("ttb")
    capabilities = Capabilities()
    tab_titles = {"field": "Melee", "resources": "Fate Deck"}
    odds_tab = "resources"
    #: ``tracker odds FILE …`` (answered by `tracker.families.ttb.present.odds_report`).
    odds_options = (
        OddsOption("--tn", "the duel's Target Number: adds the duel's chances to the table"),
        OddsOption("--av", "the acting value added to the card (or --skill with --who)"),
        OddsOption("--who", "the one who flips: a Fated may cheat with the Control Hand", "text", "NAME"),
        OddsOption("--skill", "read the acting value from --who's skills (untrained: no cheating)", "text", "SKILL"),
        OddsOption("--plus", "⊞ on the flip (one extra card each, the best kept)"),
        OddsOption("--minus", "⊟ on the flip (one extra card each, the lowest kept; no cheating)"),
    )

    def validate_setup(self, data: Mapping[str, object]) -> EncounterFile:
        from tracker.families.ttb.records.file import TTBFile

        return validate(TTBFile, data)

    @property
    def story(self) -> StoryTerms:
        from tracker.families.ttb.present.story import STORY

        return STORY


FAMILY = TTBFamily()
