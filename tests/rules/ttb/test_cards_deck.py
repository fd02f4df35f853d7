"""docs/rules/ttb.md#s2-2 (Fate Deck, Twist Deck, Control Hand, flips, fate modifiers, cheating) and the
card-driven scenario checks C18, C19 and C20 of docs/rules/checks.md#s4."""

from __future__ import annotations

import pytest

from tests.conftest import pending, refused, run, session_from, ttb_state
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.ttb.fate.cards import (
    Card,
    accuracy_modifier,
    can_cheat,
    choose,
    full_deck,
    net_modifier,
    parse_card,
    severity_of,
)

FATED_AND_FM = """
[[combatants]]
name = "Sofia"
kind = "fated"
initiative = 3
speed = 6
wounds = 8
hand = ["9R", "4C", "7T"]

[[combatants]]
name = "Thug"
rank_value = 5
initiative = 2
wounds = 6
"""

TWO_FATED_AND_FM = """
[[combatants]]
name = "Sofia"
kind = "fated"
initiative = 3
wounds = 8
hand = ["9R"]

[[combatants]]
name = "Marco"
kind = "fated"
initiative = 2
wounds = 8
hand = []

[[combatants]]
name = "Boss"
rank_value = 8
initiative = 1
wounds = 10
"""


def cards(*codes: str) -> list[Card]:
    return [parse_card(c) for c in codes]


def target_session(armor: int = 0, wounds: int = 20) -> Session:
    return session_from(f"""
        [[combatants]]
        name = "Target"
        rank_value = 5
        wounds = {wounds}
        armor = {armor}
    """)


# --- docs/rules/ttb.md#s2-2-1 the Fate Deck --------------------------------------------------------------------


def test_full_deck_has_54_cards_in_four_suits_plus_two_jokers() -> None:
    """docs/rules/ttb.md#s2-2-1: 54 cards, values 1-13 in Rams, Crows, Tomes, Masks, plus the two Jokers."""
    deck = full_deck()
    assert len(deck) == 54
    assert len(set(deck)) == 54
    assert "RJ" in deck and "BJ" in deck
    for suit in "RCTM":
        values = sorted(parse_card(c).value for c in deck if parse_card(c).suit == suit)
        assert values == list(range(1, 14))


def test_jokers_values_and_suits() -> None:
    """docs/rules/ttb.md#s2-2-1: Red Joker = 14 (suit of choice, none fixed), Black Joker = 0 with no suit."""
    red, black = parse_card("RJ"), parse_card("BJ")
    assert (red.value, red.is_red_joker) == (14, True)
    assert (black.value, black.is_black_joker, black.suit) == (0, True, None)


def test_parse_card_reads_suits_and_rejects_bad_values() -> None:
    """docs/rules/ttb.md#s2-2-1: cards are 1-13 with a suit letter (R Rams, C Crows, T Tomes, M Masks)."""
    assert parse_card("9R") == Card("9R", 9, "R")
    assert parse_card("13m").suit == "M"
    assert parse_card("K").value == 13
    for bad in ("0", "14", "9X", "Z"):
        with pytest.raises(Refusal):
            parse_card(bad)


def test_new_encounter_deck_is_54_shuffled_and_seeded() -> None:
    """docs/rules/ttb.md#s2-2-1 and docs/rules/index.md#s1-3: the shuffled Fate Deck holds all 54 cards; the same seed
    gives the same order, another seed a different one."""
    a = session_from(FATED_AND_FM, seed=7)
    b = session_from(FATED_AND_FM, seed=7)
    c = session_from(FATED_AND_FM, seed=8)
    assert sorted(ttb_state(a).deck) == sorted(full_deck())
    assert ttb_state(a).deck != full_deck()
    assert ttb_state(a).deck == ttb_state(b).deck
    assert ttb_state(a).deck != ttb_state(c).deck


def test_flip_moves_cards_from_the_top_of_the_deck_to_the_discards() -> None:
    """docs/rules/ttb.md#s2-2-1: flipped cards leave the deck for its own discard pile."""
    s = session_from(FATED_AND_FM)
    top = list(ttb_state(s).deck[-3:])
    run(s, "flip 3")
    assert len(ttb_state(s).deck) == 51
    assert sorted(ttb_state(s).discards) == sorted(top)
    assert state_json(s)["deck"]["left"] == 51
    assert state_json(s)["deck"]["discards"] == 3


def test_flip_count_out_of_range_is_refused() -> None:
    """docs/rules/ttb.md#s2-2-3: a flip is 1 card plus one per modifier; 0 or absurd counts are refused."""
    s = session_from(FATED_AND_FM)
    refused(s, "flip 0")
    refused(s, "flip 11")


def test_empty_deck_reshuffles_and_each_fated_draws_a_twist_card() -> None:
    """docs/rules/ttb.md#s2-2-1 and docs/rules/decisions.md#a22: flipping from an empty Fate Deck shuffles the discards
    into a new deck; every Fated draws 1 Twist card; a FM character gains no Fate Point from a reshuffle."""
    s = session_from(TWO_FATED_AND_FM)
    st = ttb_state(s)
    st.discards = list(st.deck)
    st.deck = []
    sofia_twist = len(st.fighters["Sofia"].twist_deck)
    fp = st.fighters["Boss"].fate_points
    run(s, "flip")
    assert st.reshuffles == 1
    assert len(st.deck) == 53
    assert len(st.discards) == 1
    assert len(st.fighters["Sofia"].hand) == 2
    assert len(st.fighters["Marco"].hand) == 1
    assert len(st.fighters["Sofia"].twist_deck) == sofia_twist - 1
    assert st.fighters["Boss"].fate_points == fp


def test_reshuffled_deck_order_is_seeded_and_undo_restores_it() -> None:
    """docs/rules/ttb.md#s2-2-1 and docs/rules/index.md#s1-3: the reshuffle is reproducible from the seed; undo restores
    the deck."""
    s = session_from(FATED_AND_FM, seed=3)
    run(s, "flip 5")
    deck_before = list(ttb_state(s).deck)
    run(s, "reshuffle")
    shuffled = list(ttb_state(s).deck)
    assert sorted(shuffled) == sorted(full_deck())
    run(s, "undo")
    assert ttb_state(s).deck == deck_before
    assert ttb_state(s).reshuffles == 0
    run(s, "redo")
    assert ttb_state(s).deck == shuffled


def test_manual_reshuffle_command_draws_twist_cards_like_an_empty_deck() -> None:
    """docs/rules/ttb.md#s2-2-1 and docs/rules/decisions.md#a22: the GM's `reshuffle` returns every discard to the deck
    and fires the same Twist draw for every Fated."""
    s = session_from(TWO_FATED_AND_FM)
    run(s, "flip 4")
    assert len(ttb_state(s).deck) == 50
    run(s, "reshuffle")
    assert len(ttb_state(s).deck) == 54
    assert ttb_state(s).discards == []
    assert ttb_state(s).reshuffles == 1
    assert len(ttb_state(s).fighters["Sofia"].hand) == 2
    assert len(ttb_state(s).fighters["Marco"].hand) == 1
    assert state_json(s)["deck"]["reshuffles"] == 1


def test_000_l171_draw_takes_twist_cards_on_demand_and_a_fatemaster_character_gains_fate_points() -> None:
    """[000:L167-172]: a Fated draws a Twist card "when an 'On the Pursuit' ability is triggered": `draw NAME
    [N]` draws them into the Control Hand, over five the discard is asked (docs/rules/decisions.md#a23); a
    Fatemaster character gains a Fate Point instead of each [000:L392]. Bad input changes nothing."""
    s = session_from(TWO_FATED_AND_FM)
    before = len(ttb_state(s).fighters["Sofia"].twist_deck)
    run(s, "draw Sofia")
    sofia = ttb_state(s).fighters["Sofia"]
    assert len(sofia.hand) == 2 and len(sofia.twist_deck) == before - 1
    run(s, "draw Sofia 4")
    assert len(ttb_state(s).fighters["Sofia"].hand) == 6
    assert pending(ttb_state(s)).kind == "hand_discard"
    run(s, "answer " + ttb_state(s).fighters["Sofia"].hand[0])
    assert len(ttb_state(s).fighters["Sofia"].hand) == 5 and ttb_state(s).prompt is None
    points = ttb_state(s).fighters["Boss"].fate_points
    run(s, "draw Boss 2")
    assert ttb_state(s).fighters["Boss"].fate_points == points + 2
    assert any("Boss gains 1 Fate Point instead of a Twist card" in e.text for e in ttb_state(s).log)
    for bad in ("draw Nobody", "draw Sofia 0", "draw Sofia 6", "draw Sofia x"):
        refused(s, bad)
    run(s, "undo")
    assert ttb_state(s).fighters["Boss"].fate_points == points


def test_empty_twist_deck_reshuffles_its_own_discards_without_extra_draws() -> None:
    """docs/rules/ttb.md#s2-2-1: an empty Twist Deck shuffles its own discard pile into a new Twist Deck;
    exactly one card is drawn and the Fate discards never mix in."""
    s = session_from(TWO_FATED_AND_FM)
    marco = ttb_state(s).fighters["Marco"]
    marco.twist_deck = []
    marco.twist_discards = ["4T", "5T", "6T"]
    run(s, "flip 2")
    fate_discards = list(ttb_state(s).discards)
    run(s, "reshuffle")
    assert len(marco.hand) == 1
    assert marco.hand[0] in {"4T", "5T", "6T"}
    assert len(marco.twist_deck) == 2
    assert marco.twist_discards == []
    assert not set(fate_discards) & set(marco.twist_deck)


def test_twist_deck_and_discard_both_empty_draws_nothing() -> None:
    """docs/rules/ttb.md#s2-2-1: with no Twist cards anywhere nothing is drawn (the reshuffle still happens)."""
    s = session_from(TWO_FATED_AND_FM)
    marco = ttb_state(s).fighters["Marco"]
    marco.twist_deck = []
    marco.twist_discards = []
    run(s, "reshuffle")
    assert marco.hand == []
    assert ttb_state(s).reshuffles == 1


def test_prologue_draws_three_twist_cards_when_no_hand_is_given() -> None:
    """docs/rules/ttb.md#s2-2-2: a Fated draws 3 Twist cards at the end of the Prologue (start of play)."""
    s = session_from("""
        [[combatants]]
        name = "Sofia"
        kind = "fated"
        wounds = 8
        twist_deck = ["1R", "2R", "3R", "4R", "5R"]
    """)
    run(s, "start")
    hand = ttb_state(s).fighters["Sofia"].hand
    assert len(hand) == 3
    assert set(hand) <= {"1R", "2R", "3R", "4R", "5R"}
    assert len(ttb_state(s).fighters["Sofia"].twist_deck) == 2


# --- docs/rules/ttb.md#s2-2-2 Control Hand maximum 5 -----------------------------------------------------------

FULL_HAND = """
[[combatants]]
name = "Sofia"
kind = "fated"
wounds = 8
hand = ["1R", "2C", "3T", "4M", "5R"]
twist_deck = ["1R", "2C", "3T", "4M", "5R", "9T"]

[[combatants]]
name = "Thug"
rank_value = 5
wounds = 6
"""


def test_hand_over_five_asks_for_a_discard() -> None:
    """docs/rules/ttb.md#s2-2-2 and docs/rules/decisions.md#a23: a sixth card queues a discard; the player chooses which
    card."""
    s = session_from(FULL_HAND)
    run(s, "reshuffle")
    st = ttb_state(s)
    assert st.fighters["Sofia"].hand == ["1R", "2C", "3T", "4M", "5R", "9T"]
    assert st.prompt is not None
    assert st.prompt.kind == "hand_discard"
    assert sorted(st.prompt.options) == sorted(st.fighters["Sofia"].hand)
    assert state_json(s)["prompt"] is not None


def test_hand_discard_prompt_blocks_other_commands_and_rejects_cards_not_in_hand() -> None:
    """docs/rules/ttb.md#s2-2-2 and CONTRACT docs/rules/2d20.md#s3: while the discard is pending other commands are
    refused, and a card that is not in the hand is not accepted."""
    s = session_from(FULL_HAND)
    run(s, "reshuffle")
    refused(s, "start")
    refused(s, "flip")
    refused(s, "answer 13M")
    assert ttb_state(s).prompt is not None


def test_hand_discard_answer_settles_to_five_into_the_twist_discard() -> None:
    """docs/rules/ttb.md#s2-2-1 to #s2-2-2: the discarded card goes to the Twist discard, never the Fate discards."""
    s = session_from(FULL_HAND)
    run(s, "reshuffle", "answer 3T")
    sofia = ttb_state(s).fighters["Sofia"]
    assert ttb_state(s).prompt is None
    assert len(sofia.hand) == 5
    assert "3T" not in sofia.hand
    assert sofia.twist_discards == ["3T"]
    assert "3T" not in ttb_state(s).discards
    assert sofia.pending_discard == 0


def test_hand_overflow_during_a_damage_flip_settles_after_the_action() -> None:
    """docs/rules/ttb.md#s2-2-2 (001:L40, docs/rules/decisions.md#a23): a draw made during an action (a damage flip that
    empties the deck) is discarded at the end of that action: the damage is applied first."""
    s = session_from(FULL_HAND)
    st = ttb_state(s)
    st.discards = ["7R", "8R", "9R"]
    st.deck = []
    run(s, "damage Thug 2/3/5")
    assert st.fighters["Thug"].wounds == 3
    assert st.prompt is not None and st.prompt.kind == "hand_discard"
    run(s, "answer 9T")
    assert len(st.fighters["Sofia"].hand) == 5


# --- docs/rules/ttb.md#s2-2-3 flips and fate modifiers ---------------------------------------------------------


def test_modifiers_cancel_one_for_one() -> None:
    """docs/rules/ttb.md#s2-2-3: ⊞ and ⊟ cancel 1 for 1."""
    assert net_modifier(2, 1) == 1
    assert net_modifier(1, 3) == -2
    assert net_modifier(2, 2) == 0


def test_modifiers_cap_at_three_after_cancelling() -> None:
    """docs/rules/ttb.md#s2-2-3: after cancelling, each side is capped at 3."""
    assert net_modifier(5, 1) == 3
    assert net_modifier(0, 4) == -3
    assert net_modifier(6, 0) == 3


def test_positive_flip_uses_the_highest_card() -> None:
    """docs/rules/ttb.md#s2-2-3: with ⊞ the flipper chooses (the tracker picks the highest)."""
    assert choose(cards("3R", "11C"), 1).code == "11C"


def test_negative_flip_keeps_the_lowest_card() -> None:
    """docs/rules/ttb.md#s2-2-3: with ⊟ the lowest value is kept."""
    assert choose(cards("12R", "2C", "9T"), -2).code == "2C"


def test_red_joker_may_be_used_despite_negative_modifier() -> None:
    """docs/rules/ttb.md#s2-2-1: the Red Joker may be used despite ⊟ (not a damage flip)."""
    assert choose(cards("2C", "RJ"), -1).is_red_joker


def test_red_joker_exception_does_not_apply_to_negative_damage_flip() -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 2 and docs/rules/decisions.md#a34: on a damage flip with net ⊟ the lowest
    card is used."""
    assert choose(cards("2C", "RJ"), -1, damage_flip=True).code == "2C"


def test_black_joker_is_forced_even_with_positive_modifier_and_red_joker() -> None:
    """docs/rules/ttb.md#s2-2-1: the Black Joker must be used despite ⊞ and even beside the Red Joker."""
    assert choose(cards("RJ", "BJ", "12M"), 2).is_black_joker
    assert choose(cards("BJ", "5M"), -1).is_black_joker


# --- docs/rules/ttb.md#s2-2-4 cheating ---------------------------------------------------------------------------


def test_cheating_allowed_without_negative_modifier_or_black_joker() -> None:
    """docs/rules/ttb.md#s2-2-4: cheating is allowed when the final flip has no ⊟ and no Black Joker."""
    assert can_cheat(cards("4R"), 0)
    assert can_cheat(cards("4R", "RJ"), 2)


def test_cheating_refused_with_negative_modifier_black_joker_or_initiative() -> None:
    """docs/rules/ttb.md#s2-2-4: no cheating under ⊟, after the Black Joker, or on an initiative flip."""
    assert not can_cheat(cards("9R", "10T"), -1)
    assert not can_cheat(cards("BJ"), 0)
    assert not can_cheat(cards("13T"), 0, initiative=True)


def test_C18a_plus_plus_and_minus_net_to_one_plus() -> None:
    """docs/rules/checks.md#c18(a): ⊞⊞ and ⊟ net to ⊞: flip 2 cards, choose 1, cheating allowed."""
    net = net_modifier(2, 1)
    assert net == 1
    flipped = cards("5R", "10M")
    assert len(flipped) == 1 + abs(net)
    assert choose(flipped, net).code == "10M"
    assert can_cheat(flipped, net)


def test_C18b_projectile_minuses_cap_at_three() -> None:
    """docs/rules/checks.md#c18(b): Blind ⊟⊟ + Hard Cover ⊟ + unstable platform ⊟ net to ⊟⊟⊟ (capped):
    flip 4 cards, keep the lowest, no cheating; a Red Joker among them may be used instead."""
    net = net_modifier(0, 2 + 1 + 1)
    assert net == -3
    flipped = cards("8R", "3C", "11T", "6M")
    assert len(flipped) == 1 + abs(net)
    assert choose(flipped, net).code == "3C"
    assert not can_cheat(flipped, net)
    with_red = cards("8R", "3C", "RJ", "6M")
    assert choose(with_red, net).is_red_joker


def test_C18c_black_joker_forced_and_no_cheating() -> None:
    """docs/rules/checks.md#c18(c): with ⊞⊞, Black Joker, 12 and Red Joker force the Black Joker (value 0)
    and cheating is refused."""
    flipped = cards("BJ", "12R", "RJ")
    chosen = choose(flipped, 2)
    assert chosen.is_black_joker and chosen.value == 0
    assert not can_cheat(flipped, 2)


# --- docs/rules/ttb-damage.md#s2-8-1 damage flips driven through the command language (C19, C20) ----------------------


@pytest.mark.parametrize(
    ("difference", "modifier"),
    [(0, -2), (3, -1), (5, -1), (8, 0), (10, 0), (11, 1), (20, 1)],
)
def test_C19_accuracy_modifier_bands(difference: int, modifier: int) -> None:
    """docs/rules/checks.md#c19 (docs/rules/ttb-damage.md#s2-8-1, docs/rules/decisions.md#a2): tie ⊟⊟; 1-5 ⊟; 6-10 none;
    11+ ⊞."""
    assert accuracy_modifier(difference) == modifier


def test_C19_margin_zero_flips_three_and_keeps_the_lowest() -> None:
    """docs/rules/checks.md#c19 and docs/rules/ttb-damage.md#s2-8-1 step 2: a tied attack (margin 0) flips 3 cards with
    ⊟⊟ and the lowest is used, even a Red Joker does not help (docs/rules/decisions.md#a34)."""
    s = target_session()
    ttb_state(s).deck[-3:] = ["2R", "RJ", "12T"]
    run(s, "damage Target 2/3/5 margin=0")
    assert len(ttb_state(s).discards) == 3
    assert ttb_state(s).fighters["Target"].wounds == 18


def test_C19_margin_eleven_flips_two_and_uses_the_best() -> None:
    """docs/rules/checks.md#c19: a difference of 11 gives ⊞: 2 cards, the higher is used."""
    s = target_session()
    ttb_state(s).deck[-2:] = ["12T", "2R"]
    run(s, "damage Target 2/3/5 margin=11")
    assert len(ttb_state(s).discards) == 2
    assert ttb_state(s).fighters["Target"].wounds == 15


def test_C19_margin_eight_flips_one_card() -> None:
    """docs/rules/checks.md#c19: a difference of 8 has no modifier: exactly 1 card is flipped."""
    s = target_session()
    ttb_state(s).deck[-1:] = ["7M"]
    run(s, "damage Target 2/3/5 margin=8")
    assert ttb_state(s).discards == ["7M"]
    assert ttb_state(s).fighters["Target"].wounds == 17


def test_negative_margin_is_refused() -> None:
    """docs/rules/ttb-damage.md#s2-8-1: a damage flip needs a hit (difference ≥ 0)."""
    s = target_session()
    refused(s, "damage Target 2/3/5 margin=-1")


@pytest.mark.parametrize(
    ("card", "armor", "wounds_after"),
    [
        ("8", 0, 17),  # Moderate 3
        ("8", 1, 18),  # Moderate 3 − Armor 1 = 2
        ("4", 0, 18),  # Weak 2
        ("4", 2, 19),  # Weak 2 − Armor 2 → minimum 1
        ("13", 0, 15),  # Severe 5
        ("BJ", 0, 20),  # Black Joker: no damage
        ("BJ", 2, 20),  # Black Joker: still 0 against armor
    ],
)
def test_C20_severity_armor_and_black_joker(card: str, armor: int, wounds_after: int) -> None:
    """docs/rules/checks.md#c20 (docs/rules/ttb-damage.md#s2-8-1 steps 4-5): 2/3/5 weapon; severity by card; armor −1
    per point with a minimum of 1 only when the raw damage is ≥ 1."""
    s = target_session(armor=armor)
    run(s, f"damage Target 2/3/5 card={card}")
    assert ttb_state(s).fighters["Target"].wounds == wounds_after


def test_C20_red_joker_severe_damage_plus_severe_critical_above_zero() -> None:
    """docs/rules/checks.md#c20 and docs/rules/ttb-damage.md#s2-8-2: the Red Joker gives Severe 5 damage plus a Severe
    Critical even when the target stays above 0 Wounds."""
    s = target_session()
    run(s, "damage Target 2/3/5 card=RJ")
    st = ttb_state(s)
    assert st.fighters["Target"].wounds == 15
    assert st.prompt is not None and st.prompt.kind == "critical"
    assert st.prompt.data["severity"] == "severe"
    run(s, "answer 3T")
    crit = st.fighters["Target"].criticals
    assert len(crit) == 1
    assert (crit[0].severity, crit[0].location) == ("severe", "Head")
    assert not st.fighters["Target"].unconscious


def test_severity_bands() -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 4: Black Joker none; 1-5 Weak; 6-10 Moderate; 11-13 Severe; Red Joker
    Severe."""
    assert severity_of(parse_card("BJ")) is None
    assert severity_of(parse_card("1")) == "weak"
    assert severity_of(parse_card("5")) == "weak"
    assert severity_of(parse_card("6")) == "moderate"
    assert severity_of(parse_card("10")) == "moderate"
    assert severity_of(parse_card("11")) == "severe"
    assert severity_of(parse_card("RJ")) == "severe"


def test_damage_card_option_takes_that_card_out_of_the_deck() -> None:
    """docs/rules/ttb.md#s2-2-1: a card the GM names for a flip is the deck's card: it leaves the deck for the
    discards, so the deck still totals 54."""
    s = target_session()
    run(s, "damage Target 2/3/5 card=8R")
    assert "8R" not in ttb_state(s).deck
    assert ttb_state(s).discards == ["8R"]
    assert len(ttb_state(s).deck) + len(ttb_state(s).discards) == 54


def test_two_overfull_hands_are_settled_one_after_the_other() -> None:
    """docs/rules/ttb.md#s2-2-2: every Fated over five cards after a reshuffle discards down to five; the
    engine asks each player in turn."""
    s = session_from(
        FULL_HAND
        + """
[[combatants]]
name = "Marco"
kind = "fated"
wounds = 8
hand = ["1M", "2M", "3M", "4M", "5M"]
twist_deck = ["1M", "2M", "3M", "4M", "5M", "6M"]
"""
    )
    run(s, "reshuffle")
    first = ttb_state(s).prompt
    assert first is not None and first.kind == "hand_discard"
    run(s, f"answer {first.options[0]}")
    second = ttb_state(s).prompt
    assert second is not None and second.kind == "hand_discard"
    assert second.who != first.who
    run(s, f"answer {second.options[0]}")
    assert ttb_state(s).prompt is None
    assert len(ttb_state(s).fighters["Sofia"].hand) == 5
    assert len(ttb_state(s).fighters["Marco"].hand) == 5


def test_end_of_dramatic_time_refills_hands_to_three() -> None:
    """docs/rules/ttb.md#s2-2-2 (docs/rules/decisions.md#a23b): at the end of Dramatic Time a Fated refills its Control
    Hand to 3; a hand already holding 3 or more draws nothing."""
    s = session_from(TWO_FATED_AND_FM.replace("hand = []", 'hand = ["1T", "2T", "3T", "4T"]'))
    run(s, "initiative Sofia 5", "initiative Marco 5", "start", "end", "answer none", "answer none")
    assert len(ttb_state(s).fighters["Sofia"].hand) == 3
    assert ttb_state(s).fighters["Marco"].hand == ["1T", "2T", "3T", "4T"]


def test_end_of_dramatic_time_offers_each_fated_the_discard_before_refilling() -> None:
    """docs/rules/ttb.md#s2-2-2 (docs/rules/decisions.md#a23b) [000:L172]; CONTRACT docs/rules/2d20.md#s3 "End of
    Dramatic Time": each Fated is asked which cards to discard (`answer 9R,3M` or `answer none`), then refills to 3."""
    s = session_from(TWO_FATED_AND_FM.replace("hand = []", 'hand = ["1T", "2T", "3T", "4T"]'))
    run(s, "initiative Sofia 5", "initiative Marco 5", "start", "end")
    first = pending(ttb_state(s))
    assert first.kind == "end_discard" and first.options[-1] == "none"
    if first.who == "Sofia":
        run(s, "answer none")
    before = dump(ttb_state(s))
    with pytest.raises(Refusal):
        s.execute("answer 1T,13R")
    assert dump(ttb_state(s)) == before
    run(s, "answer 1T,2T 3T")
    marco = ttb_state(s).fighters["Marco"]
    assert len(marco.hand) == 3 and "4T" in marco.hand
    assert {"1T", "2T", "3T"} <= set(marco.twist_discards)
    if ttb_state(s).prompt is not None:
        run(s, "answer none")
    assert len(ttb_state(s).fighters["Sofia"].hand) == 3 and ttb_state(s).prompt is None


def test_seed_decides_the_next_reshuffle_as_the_readme_says() -> None:
    """README `seed N` (docs/rules/index.md#s1-3 determinism, docs/rules/ttb.md#s2-2-1): the cards already in the Fate
    Deck keep their order; the new seed decides the next reshuffle — the same seed the same deck, another seed
    another."""

    def after(seed: int | None) -> tuple[list[str], list[str]]:
        s = session_from(TWO_FATED_AND_FM)
        before = list(ttb_state(s).deck)
        if seed is not None:
            run(s, f"seed {seed}")
        kept = list(ttb_state(s).deck)
        assert kept == before
        run(s, "flip 3", "reshuffle")
        st = ttb_state(s)
        assert sorted([*st.deck, *st.discards, *st.table]) == sorted(full_deck())
        return kept, list(st.deck)

    assert after(5) == after(5)
    assert after(5)[1] != after(None)[1]
    assert after(5)[1] != after(6)[1]
