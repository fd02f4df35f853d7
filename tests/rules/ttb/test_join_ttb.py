"""Through the Breach ``join`` / ``leave`` (docs/reference/language.md; docs/rules/ttb-turns.md#s2-3 initiative,
docs/rules/ttb.md#s2-2-2 the Control Hand).

Decisions tested here (README "Joining and leaving"): a newcomer joining while Dramatic Time runs flips its
initiative at once and enters the order from the next round; a Fated newcomer draws its Control Hand of three
Twist cards as at the start of Dramatic Time; before ``start`` a newcomer waits for ``start`` like everyone;
``leave`` on the active combatant ends its turn without end-of-turn effects and play goes on as after ``next``.
"""

from __future__ import annotations

from tests.conftest import pending, run, session_from, ttb_state
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.ttb.fate.cards import parse_card

FIGHT = """
[[combatants]]
name = "Sofia"
kind = "fated"
initiative = 3
wounds = 8
hand = []

[[combatants]]
name = "Henchman"
rank_value = 10
initiative = 1
wounds = 12

[[stat_blocks]]
name = "Drifter"
kind = "fated"
initiative = 1
wounds = 6

[[stat_blocks]]
name = "Dealer"
kind = "fated"
initiative = 0
wounds = 6
hand = ["5R"]

[[stat_blocks]]
name = "Minion"
rank_value = 5
initiative = 4
wounds = 6

[[stat_blocks]]
name = "Cutter"
rank_value = 7
wounds = 6
surprised = true
"""


def in_turn() -> Session:
    """Round 1, Sofia's turn (her card 9: 9 + 3 = 12 beats the Henchman's 10 + 1 = 11)."""
    s = run(session_from(FIGHT), "initiative Sofia 9", "start")
    assert ttb_state(s).active == "Sofia"
    return s


def test_s2_3_newcomer_flips_initiative_and_enters_the_order_next_round() -> None:
    """docs/rules/ttb-turns.md#s2-3-1 (a Fated flips 1 card + Initiative, never cheated) and the README's decision:
    joining in round 1 it flips at once, stays out of round 1's order, and takes its place in round 2's."""
    s = in_turn()
    top = parse_card(ttb_state(s).deck[-1])
    run(s, "join Drifter")
    drifter = ttb_state(s).fighters["Drifter"]
    assert drifter.init_card == top.code and drifter.init == top.value + 1
    assert state_json(s)["order"] == ["Sofia", "Henchman"]
    assert "enters the order from round 2" in ttb_state(s).log[-1].text
    run(s, "next")
    assert ttb_state(s).active == "Henchman"
    run(s, "next")
    assert ttb_state(s).round == 2
    order = ttb_state(s).order
    assert sorted(order) == ["Drifter", "Henchman", "Sofia"]
    inits = [ttb_state(s).fighters[n].init for n in order]
    assert inits == sorted(inits, reverse=True)


def test_s2_2_2_fated_newcomer_draws_its_control_hand() -> None:
    """docs/rules/ttb.md#s2-2-2 [000:L169]: a Fated draws 3 Twist cards as Dramatic Time starts; a newcomer without a
    ``hand`` does so as it joins; one with a ``hand`` keeps it. Its Twist cards stay its 13."""
    s = run(in_turn(), "join Drifter", "join Dealer")
    drifter = ttb_state(s).fighters["Drifter"]
    assert len(drifter.hand) == 3 and len(drifter.twist_deck) == 10
    assert state_json(s)["combatants"][2]["hand"] == 3
    assert ttb_state(s).fighters["Dealer"].hand == ["5R"]


def test_s2_3_2_fatemaster_newcomer_flips_nothing() -> None:
    """docs/rules/ttb-turns.md#s2-3-2: a Fatemaster newcomer has Rank Value + Initiative (5 + 4) and flips no card; it
    starts with its rank's Fate Points (Minion 1, docs/rules/ttb-damage.md#s2-10)."""
    s = in_turn()
    deck = list(ttb_state(s).deck)
    run(s, "join Minion")
    assert ttb_state(s).deck == deck
    assert ttb_state(s).fighters["Minion"].init == 9
    assert ttb_state(s).fighters["Minion"].fate_points == 1


def test_s2_3_initiative_command_replaces_a_newcomers_card() -> None:
    """docs/rules/ttb-turns.md#s2-3-1 via ``initiative NAME CARD`` (the GM's card instead of the flip): it sets the
    newcomer's total and still keeps it out of this round's order."""
    s = run(in_turn(), "join Drifter", "initiative Drifter 13")
    assert ttb_state(s).fighters["Drifter"].init == 14
    assert ttb_state(s).order == ["Sofia", "Henchman"]
    run(s, "next", "next")
    assert ttb_state(s).order[0] == "Drifter" and ttb_state(s).active == "Drifter"


def test_s2_3_newcomer_before_start_flips_with_everyone() -> None:
    """docs/rules/ttb.md#s2-2-2, docs/rules/ttb-turns.md#s2-3: before ``start`` a newcomer flips nothing and draws
    nothing yet; ``start`` flips its card and draws its hand with everyone, and it is in round 1's order."""
    s = run(session_from(FIGHT), "join Drifter")
    assert len(ttb_state(s).deck) == 54 and ttb_state(s).fighters["Drifter"].hand == []
    run(s, "start")
    while ttb_state(s).prompt is not None:
        run(s, f"answer {pending(ttb_state(s)).options[0]}")
    assert "Drifter" in ttb_state(s).order
    assert len(ttb_state(s).fighters["Drifter"].hand) == 3
    assert ttb_state(s).fighters["Drifter"].init_card is not None


def test_s2_3_4_surprised_newcomer_is_slow_on_its_first_turn() -> None:
    """docs/rules/ttb-turns.md#s2-3-4: a surprised character is Slow on its first turn; a surprised newcomer too."""
    s = run(in_turn(), "join Cutter", "next", "next")
    for _ in range(3):
        if ttb_state(s).active == "Cutter":
            break
        run(s, "next")
    assert ttb_state(s).active == "Cutter" and ttb_state(s).round == 2
    assert ttb_state(s).fighters["Cutter"].conditions.get("slow") is True


def test_leave_on_its_own_turn_passes_the_turn_without_end_of_turn_effects() -> None:
    """docs/reference/language.md ``leave`` (README decision): the active combatant leaves, its turn ends without its
    end-of-turn effects (Burning does not tick, docs/rules/ttb-lifecycle.md#s2-11), and the next turn opens as after
    ``next``."""
    s = run(in_turn(), "add Sofia burning 2", "leave Sofia")
    assert ttb_state(s).active == "Henchman"
    assert ttb_state(s).fighters["Sofia"].wounds == 8
    assert state_json(s)["order"] == ["Henchman"]
    assert state_json(s)["combatants"][0]["left"] is True


def test_s2_9_leave_ends_its_engagements() -> None:
    """docs/rules/ttb-damage.md#s2-9: engagement is between those in the fight; who leaves is engaged with nobody."""
    s = run(in_turn(), "engage Sofia Henchman", "leave Henchman")
    assert ttb_state(s).engagements == []


def test_s2_3_7_ordered_subordinate_still_acts_when_its_controller_leaves() -> None:
    """docs/rules/ttb-turns.md#s2-3-7 Order (A18): the Ordered subordinate acts right after the ordering character's
    turn, also when that turn ends by leaving."""
    text = FIGHT + '\n[[stat_blocks]]\nname = "Goon"\nrank_value = 5\nwounds = 6\nsubordinate = true\n'
    s = run(session_from(text), "join Goon", "initiative Sofia 9", "start")
    while ttb_state(s).active != "Henchman":
        run(s, "next")
    run(s, "spend Henchman order Goon", "leave Henchman")
    assert ttb_state(s).active == "Goon"


def test_nobody_left_then_a_newcomer_carries_on() -> None:
    """docs/rules/ttb-lifecycle.md#s2-11 (advance): when everyone has left the fight stops; a newcomer joining then
    takes its turn from the next round."""
    s = run(in_turn(), "leave Henchman", "leave Sofia")
    assert ttb_state(s).active is None
    assert "Nobody is left to fight" in ttb_state(s).log[-1].text
    run(s, "join Minion")
    assert ttb_state(s).round == 2 and ttb_state(s).active == "Minion"
