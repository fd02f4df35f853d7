"""The coin duel's case of the seam's conformance suite (`tests.families.test_seam_contract`)."""

from __future__ import annotations

from tests.families.case import Case
from tests.families.coin.family import REGISTERS

CASE = Case(
    "coin",
    """
[encounter]
name = "Contract"
system = "coin"
[[combatants]]
name = "Kit"
[[combatants]]
name = "Thug"
side = "enemies"
[[combatants]]
name = "Spy"
side = "enemies"
gm_only = true
""",
    ("start",),
    ("add Thug dazed", "add Kit dazed", "remove Thug dazed"),
    frozenset({"coin"}),
    frozenset({"down", "conditions"}),
    REGISTERS,
)
