"""What outlasts a fight, per family (``tracker carry``, README "Campaigns"), through the family seam.

TTB: docs/rules/ttb-conditions.md#s2-7-2 (conditions whose end is no turn or round event), docs/rules/ttb.md#s2-1
(Wounds left), docs/rules/ttb.md#s2-2-2 (the Control Hand and the Twist discards), docs/rules/ttb-damage.md#s2-10 (Fate
Points). 2d20: docs/rules/2d20-harm.md#s3-10-4 (stress goes at the end of the scene, Harms stay),
docs/rules/2d20-harm.md#s3-10-2 (Harms enough to defeat), docs/rules/2d20-harm.md#s3-10-3 (Fatigue),
docs/rules/2d20.md#s3-3 (Fortune), docs/rules/2d20-harm.md#s3-11 (conditions ended only by treatment or rest).
"""

from __future__ import annotations

import pytest

from tests.conftest import run, session_from
from tracker.families.ttb.records.sheet import TwistSuits
from tracker.families.ttb.tables.catalogue import CONDITIONS as TTB_CONDITIONS
from tracker.families.ttb.tables.catalogue import LASTING as TTB_LASTING
from tracker.families.ttb.tables.catalogue import STATES
from tracker.families.twod20.tables.catalogue import CONDITIONS as D20_CONDITIONS
from tracker.families.twod20.tables.catalogue import LASTING as D20_LASTING
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
    """docs/rules/ttb-conditions.md#s2-7-2: a condition that expires at a turn's start or end belongs to the fight."""
    assert set(TTB_CONDITIONS) | STATES >= TTB_LASTING
    assert all(TTB_CONDITIONS[k].expires is None for k in TTB_LASTING if k in TTB_CONDITIONS)
    # Burning and Poison run down on the owner's own turn ends [000:L324, L368]; Prone ends with Stand Up.
    assert not {"burning", "poison", "prone", "suffocating"} & TTB_LASTING


def test_d20_lasting_conditions_are_conditions() -> None:
    assert set(D20_CONDITIONS) >= D20_LASTING
    assert not {"prone", "stunned", "persistent", "burning"} & D20_LASTING


def test_ttb_lasting_through_the_seam() -> None:
    """docs/rules/ttb.md#s2-1 Wounds, docs/rules/ttb-conditions.md#s2-7-2 lasting conditions, docs/rules/ttb.md#s2-2-2
    the hand, docs/rules/ttb-damage.md#s2-10 a Fatemaster's Fate Points."""
    s = run(session_from(SOFIA), "initiative sofia 13", "start", "damage sofia 3", "add sofia bleeding_out 2",
            "add sofia fast", "add sofia useless_leg")  # fmt: skip
    sofia = fields(s.rules.lasting("Sofia Ramos"))
    # Fast ends with her turn (A11): not carried; Bleeding Out and a Useless Limb are.
    assert sofia == {
        "wounds_left": 5,
        "conditions": {"bleeding_out": 2, "useless_leg": True},
        "hand": ["9R", "3M", "5T"],
        "twist_discard": [],
    }
    run(s, "next", "spend lieutenant quick-action")
    lieutenant = {c.key: c for c in s.rules.lasting("Guild Lieutenant")}
    assert lieutenant["fate_points"].value == 1 and lieutenant["fate_points"].unset == 2  # Enforcer: 2 [000:L421]
    assert lieutenant["wounds_left"].unset == 9


def test_ttb_wounds_left_starts_the_fight_and_never_exceeds_wounds() -> None:
    """docs/rules/ttb.md#s2-1 ``wounds_current`` (may be 0 or less); docs/rules/ttb-damage.md#s2-8-3: never above the
    maximum (A38)."""
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
    """docs/rules/2d20-harm.md#s3-10-4: no stress; Harms, Fatigue, Fortune and Dazed stay; an NPC has no Fortune."""
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


FULL_HAND = SOFIA.replace('hand = ["9R", "3M", "5T"]', 'hand = ["9R", "3M", "5T", "1R", "2C"]')


def test_ttb_the_twist_discard_pile_is_carried() -> None:
    """docs/rules/ttb.md#s2-1 ``twist_discard``, docs/rules/ttb.md#s2-2: a card discarded from the Control Hand stays in
    the Twist discard pile until the Twist Deck runs out [001:L36], so it is carried with the hand."""
    s = run(session_from(FULL_HAND), "initiative sofia 13", "start")
    while s.state.prompt is None:  # flip the Fate Deck through: its reshuffle draws a sixth Twist card
        run(s, "flip 10")
    assert s.state.prompt.kind == "hand_discard"
    run(s, "answer 9R")
    carried = fields(s.rules.lasting("Sofia Ramos"))
    assert carried["twist_discard"] == ["9R"]
    assert "9R" not in carried["hand"]  # type: ignore[operator]


def test_ttb_a_carried_twist_discard_pile_starts_the_next_fight() -> None:
    """docs/rules/ttb.md#s2-2: the next fight's Twist Deck is the suits' 13 cards less the hand and the discards, and
    the discards are reshuffled into it only when it runs out [001:L36]."""
    s = session_from(SOFIA.replace('hand = ["9R", "3M", "5T"]', 'hand = ["9R", "3M", "5T"]\ntwist_discard = ["1R"]'))
    f = s.rules.st.fighters["Sofia Ramos"]  # type: ignore[attr-defined]
    assert f.twist_discards == ["1R"]
    assert sorted(f.twist_deck) == sorted(set(TwistSuits().cards()) - {"9R", "3M", "5T", "1R"})
    assert fields(s.rules.lasting("Sofia Ramos"))["twist_discard"] == ["1R"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('twist_discard = ["9R"]', "'9R' is in the hand: a card is in one pile"),
        ('twist_discard = ["RJ"]', "the Twist discard pile never holds a Joker"),
        ('twist_discard = ["2C", "2C"]', "'2C' is in the pile twice"),
    ],
)
def test_ttb_a_twist_discard_pile_holds_twist_cards_once(extra: str, message: str) -> None:
    """docs/rules/ttb.md#s2-2: a Twist card is in one pile, once; no Joker is a Twist card [001:L25]."""
    with pytest.raises(FileInvalid) as info:
        parse_text(SOFIA.replace("wounds = 8\n", f"wounds = 8\n{extra}\n") + HEADER, "x.toml")
    assert message in info.value.lines()[0]


def test_ttb_a_fatemaster_has_no_twist_discards() -> None:
    """docs/rules/ttb.md#s2-1: the Twist Deck and its discards are a Fated's (Fatemaster characters have Fate
    Points)."""
    with pytest.raises(FileInvalid) as info:
        parse_text(SOFIA.replace("wounds = 9\n", 'wounds = 9\ntwist_discard = ["1R"]\n') + HEADER, "x.toml")
    assert "twist_discard is for Fated characters" in info.value.lines()[0]


D20_HARMED = D20.replace("starting_fortune = 2", "starting_fortune = 2\nharms = { wound = 2, trauma = 1 }")


def test_d20_harms_enough_to_defeat_make_the_next_scene_start_defeated() -> None:
    """docs/rules/2d20-harm.md#s3-10-2: three Harms defeat (SRD); carried Harms are not healed [004:L1906], so a
    character carried with them enters the next scene Defeated and Prone, and the log says why at the start."""
    s = session_from(D20_HARMED)
    ada = s.rules.st.fighters["Ada Vance"]  # type: ignore[attr-defined]
    assert ada.defeated and ada.conditions.get("prone") is True and not ada.dying
    run(s, "start")
    log = [entry.text for entry in s.rules.st.log]  # type: ignore[attr-defined]
    assert "Ada Vance begins the scene Defeated: 3 Harms not healed" in log


def test_d20_fewer_harms_or_a_higher_capacity_do_not_defeat() -> None:
    """docs/rules/2d20-harm.md#s3-10-2: Defeat comes at the Harm count (``harm_capacity`` when the sheet gives one)."""
    s = session_from(D20.replace("starting_fortune = 2", "starting_fortune = 2\nharms = { wound = 2 }"))
    assert not s.rules.st.fighters["Ada Vance"].defeated  # type: ignore[attr-defined]
    s = session_from(
        D20_HARMED.replace('npc_type = "minor"', 'npc_type = "minor"\nharms = { wound = 2 }\nharm_capacity = 3')
    )
    assert s.rules.st.fighters["Ada Vance"].defeated  # type: ignore[attr-defined]
    assert not s.rules.st.fighters["Cultist"].defeated  # type: ignore[attr-defined]
