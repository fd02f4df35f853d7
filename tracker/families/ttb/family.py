"""Through the Breach behind the family seam (`tracker.families.seam`): the static side.

It opens an encounter's rules (`tracker.families.ttb.rules.TTBRules`, through the dispatcher) and their
presentation (`tracker.families.ttb.present.presenter.TTBPresenter`), each imported when first asked for.
"""

from __future__ import annotations

from collections.abc import Mapping

from tracker.engine.language.verbs import table_for
from tracker.families.file import EncounterFile
from tracker.families.presenter import FamilyPresenter
from tracker.families.rules import FamilyRules
from tracker.families.seam import RuleFamily
from tracker.families.values import Capabilities, OddsOption


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

        return TTBFile.model_validate(data)

    def open(self, setup: EncounterFile, state: Mapping[str, object] | None, seed: int) -> FamilyRules:
        from tracker.families.ttb.dispatch import open_rules

        return open_rules(setup, state, seed, self.verbs)

    def presenter(self, rules: FamilyRules) -> FamilyPresenter[FamilyRules]:
        from tracker.families.ttb.present.presenter import TTBPresenter

        return TTBPresenter(rules)


FAMILY = TTBFamily()
