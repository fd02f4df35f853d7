"""The 2d20 System behind the family seam (`tracker.rules.family`): the static side.

The live side, `TwoD20Encounter`, is in `tracker.rules.twod20.views`.
"""

from __future__ import annotations

from collections.abc import Mapping

from tracker.rules.family import Capabilities, EncounterFile, OddsOption, RuleFamily
from tracker.rules.story_terms import StoryTerms
from tracker.rules.verbs import table_for


class TwoD20Family(RuleFamily):
    """The 2d20 System: zones and range bands, alternating order, Momentum and Threat."""

    name = "2d20"
    title = "2d20"
    verbs = table_for("2d20")
    capabilities = Capabilities(pools=True)
    tab_titles = {"field": "Zones", "resources": "Pools"}
    odds_tab = "field"
    #: ``tracker odds FILE …`` (answered by `tracker.rules.twod20.odds_report`).
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
        from tracker.rules.twod20.file import TwoD20File

        return TwoD20File.model_validate(data)

    @property
    def story(self) -> StoryTerms:
        from tracker.rules.twod20.story import STORY

        return STORY


FAMILY = TwoD20Family()
