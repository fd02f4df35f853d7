"""The 2d20 System behind the family seam (`tracker.families.seam`): the static side.

The live side, `TwoD20Encounter`, is in `tracker.families.twod20.present.views`.
"""

from __future__ import annotations

from collections.abc import Mapping

from tracker.engine.language.verbs import table_for
from tracker.engine.records.record import validate
from tracker.families.seam import Capabilities, EncounterFile, OddsOption, RuleFamily
from tracker.present.story.terms import StoryTerms


class TwoD20Family(RuleFamily):
    """The 2d20 System: zones and range bands, alternating order, Momentum and Threat."""

    name = "2d20"
    title = "2d20"
    verbs = table_for("2d20")
    capabilities = Capabilities(pools=True)
    tab_titles = {"field": "Zones", "resources": "Pools"}
    odds_tab = "field"
    #: ``tracker odds FILE …`` (answered by `tracker.families.twod20.present.odds_report`).
    odds_options = (
        OddsOption(
            "--who", "the attacker: alone, its chances against each target (as the Zones panel)", "text", "NAME"
        ),
        OddsOption("--tn", "the test's Target Number (attribute + skill)"),
        OddsOption("--difficulty", "the test's Difficulty", metavar="D"),
        OddsOption("--bought", "d20s bought (0-3): the roll the numbers are for", metavar="K"),
        OddsOption("--focus", "an applicable Focus: a die at or under this rating scores 2", metavar="F"),
        OddsOption("--range", "complication range 1-5 (1: a 20; 2: 19-20 …)", metavar="R"),
        OddsOption("--damage", "Challenge Dice of the damage: expected damage and Effects"),
    )

    def validate_setup(self, data: Mapping[str, object]) -> EncounterFile:
        from tracker.families.twod20.records.file import TwoD20File

        return validate(TwoD20File, data)

    @property
    def story(self) -> StoryTerms:
        from tracker.families.twod20.present.story import STORY

        return STORY


FAMILY = TwoD20Family()
