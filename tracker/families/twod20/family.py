"""The 2d20 System behind the family seam (`tracker.families.seam`): the static side.

Zones, pools and profiles make a 2d20 scene; this says so to the screens (the tab titles, the pools
its keys step, the odds options), and hands the seam its file model, rules opener and presenter on demand.
"""

from __future__ import annotations

from tracker.families.seam import FamilyParts, Pilot, RuleFamily
from tracker.families.twod20.verbs import TABLE
from tracker.families.values import Capabilities, OddsOption


class TwoD20Family(RuleFamily):
    """The 2d20 System: zones and range bands, alternating order, Momentum and Threat."""

    name = "2d20"
    title = "2d20"
    verbs = TABLE
    capabilities = Capabilities(stepped_pools=frozenset({"momentum", "threat"}))
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

    def parts(self) -> FamilyParts:
        from tracker.families.twod20.dispatch import open_rules
        from tracker.families.twod20.present.presenter import TwoD20Presenter
        from tracker.families.twod20.records.file import TwoD20File

        return FamilyParts(TwoD20File, open_rules, TwoD20Presenter)

    def pilot(self) -> Pilot:
        from tracker.families.twod20.policy import TwoD20Pilot

        return TwoD20Pilot()


FAMILY = TwoD20Family()
