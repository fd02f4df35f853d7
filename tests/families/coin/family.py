"""A coin duel behind the family seam: a rule family that lives outside the tracker's folders.

Two sides take turns; an attack flips a coin, and heads puts the target down. It exists to show that a
family is a folder (docs/architecture/writing-a-family.md): it registers through the environment,
``TRACKER_FAMILIES=tests.families.coin.family:FAMILY``, and nothing outside this folder names it.
"""

from __future__ import annotations

from pathlib import Path

from tests.families.coin.verbs import TABLE
from tracker.families.seam import FamilyParts, RuleFamily
from tracker.families.values import Capabilities

#: What registers this family (the value of ``TRACKER_FAMILIES``).
REGISTERS = "tests.families.coin.family:FAMILY"


class CoinFamily(RuleFamily):
    """A coin duel: flip at an enemy, heads and they are down."""

    name = "coin"
    title = "Coin Duel"
    verbs = TABLE
    capabilities = Capabilities()
    tab_titles = {"field": "Sides", "resources": "Coin"}

    def parts(self) -> FamilyParts:
        from tests.families.coin.presenter import CoinPresenter
        from tests.families.coin.records import CoinFile
        from tests.families.coin.rules import open_rules

        return FamilyParts(CoinFile, open_rules, CoinPresenter)

    def starter(self) -> str:
        return (Path(__file__).resolve().parent / "starter.toml").read_text(encoding="utf-8")


FAMILY = CoinFamily()
