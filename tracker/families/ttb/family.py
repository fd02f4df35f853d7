"""Through the Breach behind the family seam (`tracker.families.seam`): the static side.

The name, the command table, the tabs and the ``tracker odds`` options of a Through the Breach fight; its
file model, its rules (`TTBRules`, opened by the dispatcher) and their presenter come in when first needed.
"""

from __future__ import annotations

from tracker.families.seam import FamilyParts, Pilot, RuleFamily
from tracker.families.ttb.verbs import TABLE
from tracker.families.values import Capabilities, OddsOption


class TTBFamily(RuleFamily):
    """Through the Breach 2E: a Fate Deck instead of dice, General AP, melee engagement."""

    name = "ttb"
    title = "Through the Breach"
    verbs = TABLE
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

    def parts(self) -> FamilyParts:
        from tracker.families.ttb.dispatch import open_rules
        from tracker.families.ttb.present.presenter import TTBPresenter
        from tracker.families.ttb.records.file import TTBFile

        return FamilyParts(TTBFile, open_rules, TTBPresenter)

    def pilot(self) -> Pilot:
        from tracker.families.ttb.policy import TTBPilot

        return TTBPilot()


FAMILY = TTBFamily()
