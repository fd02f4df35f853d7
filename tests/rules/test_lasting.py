"""What outlasts a fight, per family (``tracker carry``, README "Campaigns"), through the family seam.

TTB: RULES.md §2.7.2 (conditions whose end is no turn or round event), §2.1 (Wounds left), §2.2.2 (the
Control Hand), §2.10 (Fate Points). 2d20: §3.10.4 (stress goes at the end of the scene, Harms stay), §3.10.3
(Fatigue), §3.3 (Fortune), §3.11 (conditions ended only by treatment or rest).
"""

from __future__ import annotations

import pytest

from tests.conftest import run, session_from
from tracker.families.ttb.catalogue import CONDITIONS as TTB_CONDITIONS
from tracker.families.ttb.catalogue import LASTING as TTB_LASTING
from tracker.families.ttb.catalogue import STATES
from tracker.families.twod20.catalogue import CONDITIONS as D20_CONDITIONS
from tracker.families.twod20.catalogue import LASTING as D20_LASTING
from tracker.families.values import Carried
from tracker.store.files import FileInvalid, parse_text

SOFIA = """
[[combatants]]
name = "Sofia Ramos"
kind = "fated"
wounds = 8
hand = ["9R", "3M", "5T"]

[[combatants]]
name = "Guild Lieutenant"
rank_value = 7
wounds = 9
"""


def fields(items: list[Carried]) -> dict[str, object]:
    return {c.key: c.value for c in items}


def test_ttb_lasting_conditions_never_end_with_a_turn() -> None:
    """RULES.md §2.7.2: a condition that expires at a turn's start or end belongs to the fight."""
    assert set(TTB_CONDITIONS) | STATES >= TTB_LASTING
    assert all(TTB_CONDITIONS[k].expires is None for k in TTB_LASTING if k in TTB_CONDITIONS)
    # Burning and Poison run down on the owner's own turn ends [000:L324, L368]; Prone ends with Stand Up.
    assert not {"burning", "poison", "prone", "suffocating"} & TTB_LASTING


def test_d20_lasting_conditions_are_conditions() -> None:
    assert set(D20_CONDITIONS) >= D20_LASTING
    assert not {"prone", "stunned", "persistent", "burning"} & D20_LASTING


def test_ttb_lasting_through_the_seam() -> None:
    """RULES.md §2.1 Wounds, §2.7.2 lasting conditions, §2.2.2 the hand, §2.10 a Fatemaster's Fate Points."""
    s = run(session_from(SOFIA), "initiative sofia 13", "start", "damage sofia 3", "add sofia bleeding_out 2",
            "add sofia fast", "add sofia useless_leg")  # fmt: skip
    sofia = fields(s.rules.lasting("Sofia Ramos"))
    # Fast ends with her turn (A11): not carried; Bleeding Out and a Useless Limb are.
    assert sofia == {
        "wounds_left": 5,
        "conditions": {"bleeding_out": 2, "useless_leg": True},
        "hand": ["9R", "3M", "5T"],
    }
    run(s, "next", "spend lieutenant quick-action")
    lieutenant = {c.key: c for c in s.rules.lasting("Guild Lieutenant")}
    assert lieutenant["fate_points"].value == 1 and lieutenant["fate_points"].unset == 2  # Enforcer: 2 [000:L421]
    assert lieutenant["wounds_left"].unset == 9


def test_ttb_wounds_left_starts_the_fight_and_never_exceeds_wounds() -> None:
    """RULES.md §2.1 ``wounds_current`` (may be 0 or less); §2.8.3: never above the maximum (A38)."""
    s = session_from(SOFIA.replace("wounds = 8\n", "wounds = 8\nwounds_left = -1\n"))
    assert fields(s.rules.lasting("Sofia Ramos"))["wounds_left"] == -1
    with pytest.raises(FileInvalid) as info:
        parse_text(SOFIA.replace("wounds = 8\n", "wounds = 8\nwounds_left = 9\n") + HEADER, "x.toml")
    assert "wounds_left is 9, above wounds (8)" in info.value.lines()[0]


HEADER = '\n[encounter]\nname = "x"\nsystem = "ttb"\n'

D20 = """
[encounter]
name = "Harbour"
system = "2d20"
profile = "srd"

[[combatants]]
name = "Ada Vance"
stress = 11
starting_fortune = 2

[[combatants]]
name = "Cultist"
npc_type = "minor"
stress = 6
"""


def test_d20_lasting_through_the_seam() -> None:
    """RULES.md §3.10.4: no stress; Harms, Fatigue, Fortune and Dazed stay; an NPC has no Fortune."""
    s = run(session_from(D20), "start", "pick Ada", "damage Ada 6", "add Ada fatigue 1", "add Ada dazed",
            "add Ada prone", "fortune Ada -1")  # fmt: skip
    ada = {c.key: c for c in s.rules.lasting("Ada Vance")}
    assert {k: c.value for k, c in ada.items()} == {
        "harms": {"wound": 1},
        "fatigue": 1,
        "conditions": {"dazed": True},
        "fortune": 1,
    }
    assert ada["fortune"].unset == 2  # her starting_fortune (B43)
    assert "fortune" not in fields(s.rules.lasting("Cultist"))
