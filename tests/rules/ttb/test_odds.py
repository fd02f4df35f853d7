"""The Fate Deck odds (docs/rules/ttb.md#s2-2-1 Jokers and reshuffle, docs/rules/ttb.md#s2-2-3 ⊞/⊟,
docs/rules/ttb.md#s2-2-4 cheating, docs/rules/ttb.md#s2-2-5 duel total).

Hand-computed cases (a fresh deck, a deck without its Jokers, a hand to cheat with, a short deck), then a
brute-force enumeration of every flip against the closed forms, and properties: the chances add up, and
move the right way when a card leaves the deck.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import pending, run, session_from, ttb, ttb_state, ttb_view
from tests.rules.ttb.fighters import combatant
from tracker.families.ttb.fate import deck as deck_ops
from tracker.families.ttb.fate.cards import SUITS, Card, cheat_order, choose, full_deck, severity_of
from tracker.families.ttb.fate.odds import (
    cards_of,
    chance,
    chance_of,
    damage_odds,
    duel_odds,
    flip_odds,
    source,
)
from tracker.families.ttb.fate.opposed_odds import opposed_odds
from tracker.families.ttb.present import odds_command, odds_report
from tracker.present.words import percent

FULL = cards_of(full_deck())
NO_JOKERS = tuple(c for c in FULL if not (c.is_red_joker or c.is_black_joker))


def without(cards: tuple[Card, ...], *codes: str) -> tuple[Card, ...]:
    return tuple(c for c in cards if c.code not in codes)


# --- hand-computed: a fresh deck (docs/rules/ttb.md#s2-2-1: 52 cards 1-13 in four suits, Red Joker 14, Black Joker 0)


def test_s2_2_1_fresh_deck_plain_flip_at_least_each_value_by_suit_and_jokers() -> None:
    """A fresh deck: ≥V is 4 cards per value V..13 plus the Red Joker, of 54; a suit has one card per value
    and the Red Joker (any suit); each Joker 1 in 54."""
    f = flip_odds(FULL, (), 0)
    for v in range(1, 14):
        assert f.at_least[v] == Fraction(4 * (14 - v) + 1, 54)
        for s in SUITS:
            assert f.by_suit[s][v] == Fraction(14 - v + 1, 54)
    assert f.red_joker == f.black_joker == Fraction(1, 54)
    assert not f.reshuffles


def test_s2_2_3_fresh_deck_plus_keeps_any_card_but_the_black_joker_is_forced() -> None:
    """⊞ (2 cards): ≥13 needs a King or the Red Joker among them and no Black Joker:
    C(53,2) − C(48,2) = 1378 − 1128 = 250 of C(54,2) = 1431. ⊞⊞: C(53,3) − C(48,3) of C(54,3)."""
    assert flip_odds(FULL, (), 1).at_least[13] == Fraction(250, 1431)
    assert flip_odds(FULL, (), 2).at_least[13] == Fraction(comb(53, 3) - comb(48, 3), comb(54, 3))
    # ≥1 is "no Black Joker among the cards": 1 − 2/54 with two cards.
    assert flip_odds(FULL, (), 1).at_least[1] == 1 - Fraction(2, 54)


def test_s2_2_3_fresh_deck_minus_keeps_the_lowest_but_the_red_joker_may_be_used() -> None:
    """⊟ (2 cards) ≥13: the Red Joker with any card but the Black Joker (52 pairs) or two Kings (6): 58/1431.
    In Rams: the Red Joker's 52, or the King of Rams with another King (3): 55/1431."""
    f = flip_odds(FULL, (), -1)
    assert f.at_least[13] == Fraction(58, 1431)
    assert f.by_suit["R"][13] == Fraction(55, 1431)
    # ≥12 in Rams: the Red Joker (52); both ≥12 with a lowest card of Rams: {12R + any of the 7 other ≥12
    # plain cards} = 7, {13R + another King} = 3 → 62.
    assert f.by_suit["R"][12] == Fraction(62, 1431)


def test_s2_2_1_a_deck_with_both_jokers_gone() -> None:
    """Without the Jokers: ≥V is 4(14−V)/52; ≥1 is certain; ⊞ ≥13 = 1 − C(48,2)/C(52,2); ⊟ ≥13 = C(4,2)/C(52,2)."""
    plain = flip_odds(NO_JOKERS, (), 0)
    assert plain.at_least[1] == 1
    assert plain.at_least[7] == Fraction(28, 52)
    assert plain.red_joker == plain.black_joker == 0
    assert flip_odds(NO_JOKERS, (), 1).at_least[13] == 1 - Fraction(comb(48, 2), comb(52, 2))
    assert flip_odds(NO_JOKERS, (), -1).at_least[13] == Fraction(6, comb(52, 2))
    assert flip_odds(NO_JOKERS, (), -2).at_least[1] == 1


# --- a duel and a hand to cheat with (docs/rules/ttb.md#s2-2-4, docs/rules/ttb.md#s2-2-5) -----------------------------


def test_s2_2_5_duel_tn_12_with_acting_value_5_straight_and_cheating() -> None:
    """TN 12 − AV 5 = 7 to flip: 28 cards 7-13 and the Red Joker, 29/54. A hand card of 7 or more passes in
    place of any failed flip but the Black Joker (docs/rules/ttb.md#s2-2-4): 53/54. A hand of 3s does not help."""
    odds = duel_odds(FULL, (), 12, 5, 0, cards_of(["9R", "3M"]))
    assert odds.straight == Fraction(29, 54)
    assert odds.cheat == Fraction(53, 54)
    assert odds.winners == ("9R",)
    assert duel_odds(FULL, (), 12, 5, 0, cards_of(["3M", "3C"])).cheat == Fraction(29, 54)
    # With the Black Joker already discarded, a winning hand card makes the duel certain.
    assert duel_odds(without(FULL, "BJ"), cards_of(["BJ"]), 12, 5, 0, cards_of(["9R"])).cheat == 1


def test_s2_2_4_no_cheating_under_minus_untrained_or_for_a_fatemaster_character() -> None:
    """docs/rules/ttb.md#s2-2-4: no cheat with net ⊟; an untrained duel may not be cheated; without a hand there is
    none."""
    minus = duel_odds(FULL, (), 12, 5, -1, cards_of(["13R"]))
    assert minus.cheat is None and "⊟" in minus.no_cheat
    assert duel_odds(FULL, (), 12, 5, 0, cards_of(["13R"]), no_cheat="untrained").cheat is None
    assert duel_odds(FULL, (), 12, 5, 0, None).cheat is None


def test_s2_2_4_cheating_with_plus_rescues_every_flip_without_the_black_joker() -> None:
    """⊞, need 7: straight = C(53,2) − C(24,2) over C(54,2) (24 cards below 7 without the Black Joker);
    a passing hand card: every pair without the Black Joker, C(53,2)/C(54,2)."""
    odds = duel_odds(FULL, (), 12, 5, 1, cards_of(["10M"]))
    assert odds.straight == Fraction(comb(53, 2) - comb(24, 2), comb(54, 2))
    assert odds.cheat == Fraction(comb(53, 2), comb(54, 2))


def test_s2_2_5_tn_beyond_the_red_joker_cannot_pass_and_a_low_tn_only_fails_on_the_black_joker() -> None:
    assert duel_odds(FULL, (), 30, 5, 0, None).straight == 0
    assert duel_odds(FULL, (), 3, 5, 0, None).straight == Fraction(53, 54)


# --- a deck too short for the flip (docs/rules/ttb.md#s2-2-1 reshuffle; decision in the odds module and README) -------


def test_s2_2_1_short_deck_flips_what_is_left_then_draws_from_the_reshuffled_discards() -> None:
    """One card (5R) left and a ⊞ flip of two: the 5 of Rams for certain, the other from the 53 discards.
    ≥5: any second card but the Black Joker, 52/53; ≥6: one of the 33 cards 6-13 or the Red Joker, 33/53."""
    rest = without(FULL, "5R")
    f = flip_odds(cards_of(["5R"]), rest, 1)
    assert f.reshuffles
    assert f.at_least[5] == Fraction(52, 53)
    assert f.at_least[6] == Fraction(33, 53)
    assert f.red_joker == Fraction(1, 53)
    # ⊟: the 5 is the lowest unless the second card is lower (or the Red Joker, used despite ⊟).
    assert flip_odds(cards_of(["5R"]), rest, -1).at_least[5] == Fraction(4 * 8 + 3 + 1, 53)


def test_s2_2_1_empty_deck_reshuffles_first_so_the_flip_comes_from_the_discards() -> None:
    discards = cards_of(["1R", "13C", "BJ"])
    f = flip_odds((), discards, 0)
    assert f.reshuffles
    assert f.at_least[13] == Fraction(1, 3)
    assert f.black_joker == Fraction(1, 3)


def test_s2_2_1_the_engine_flips_a_short_deck_as_the_odds_say() -> None:
    """The model the odds follow: `deck.flip` takes the last card of the deck, then reshuffles the discards
    (without the cards on the table) for the rest, and each Fated draws a Twist card."""
    s = session_from(combatant("Sofia", kind="fated", wounds=8) + combatant("Thug", rank_value=5))
    eng = ttb(s)
    st = ttb_state(s)
    st.discards = [c for c in st.deck if c != "5R"]
    st.deck = ["5R"]
    cards = deck_ops.flip(eng, 2)
    assert cards[0].code == "5R" and cards[1].code != "5R"
    assert st.reshuffles == 1 and len(st.fighters["Sofia"].hand) == 1


def test_s2_2_1_a_reshuffle_during_the_flip_draws_the_fated_a_twist_card_to_cheat_with() -> None:
    """Empty deck: the reshuffle draws the flipper one Twist card (13R or 1R, one in two) before the cheat."""
    discards = cards_of(["2R", "3R", "12C"])
    odds = duel_odds((), discards, 12, 0, 0, (), cards_of(["13R", "1R"]))
    assert odds.straight == Fraction(1, 3)
    assert odds.cheat == Fraction(1, 3) + Fraction(1, 2) * Fraction(2, 3)


# --- Fated vs Fated (docs/rules/ttb.md#s2-2-4 last point, [000:L418]) -------------------------------------------------


def test_s2_2_4_fated_vs_fated_both_flip_aggressor_wins_ties_and_each_cheats_with_its_best_card() -> None:
    """Three cards 3, 9, 12, acting values 0: the aggressor wins (9,3), (12,3), (12,9): 3 of 6 ordered pairs.
    With a King in hand the aggressor always wins; with the defender holding a King too, 13 ties 13 and the
    aggressor still wins; the defender's King alone leaves the aggressor nothing."""
    deck = cards_of(["3R", "9R", "12R"])
    assert opposed_odds(deck, (), 0, 0, None, None).straight == Fraction(1, 2)
    assert opposed_odds(deck, (), 0, 0, cards_of(["13C"]), None).aggressor_cheats == 1
    assert opposed_odds(deck, (), 0, 0, cards_of(["13C"]), cards_of(["13M"])).both_cheat == 1
    assert opposed_odds(deck, (), 0, 0, None, cards_of(["13M"])).both_cheat == 0


def test_s2_2_4_fated_vs_fated_a_black_joker_fails_its_side_and_forbids_its_cheat() -> None:
    deck = cards_of(["BJ", "5R"])
    # (BJ, 5): the aggressor fails and may not cheat; (5, BJ): the defender fails.
    assert opposed_odds(deck, (), 0, 0, cards_of(["13C"]), cards_of(["13M"])).both_cheat == Fraction(1, 2)


# --- brute force: every flip enumerated against the closed forms ---------------------------------------------


def reference(cards: tuple[Card, ...], modifier: int, value: int, suit: str | None) -> bool:
    """The rules read directly (docs/rules/ttb.md#s2-2-1, docs/rules/ttb.md#s2-2-3): the Black Joker is forced; ⊞ uses
    any card, ⊟ the lowest (any of the tied lowest), but the Red Joker (14, any suit) may be used despite ⊟."""
    if any(c.is_black_joker for c in cards):
        return False
    if any(c.is_red_joker for c in cards) and value <= 14:
        return True  # ⊞ may pick it, and ⊟ may use it despite the ⊟
    plain = [c for c in cards if not c.is_red_joker]
    if modifier >= 0:
        return any(c.value >= value and suit in (None, c.suit) for c in plain)
    low = min(c.value for c in plain)
    return low >= value and any(c.value == low and suit in (None, c.suit) for c in plain)


def enumerated(
    deck: tuple[Card, ...], discards: tuple[Card, ...], modifier: int, value: int, suit: str | None
) -> Fraction:
    k = 1 + abs(modifier)
    if len(deck) >= k:
        flips = [tuple(x) for x in combinations(deck, k)]
    else:
        flips = [deck + tuple(x) for x in combinations(discards, k - len(deck))]
    return Fraction(sum(reference(f, modifier, value, suit) for f in flips), len(flips))


decks = st.lists(st.sampled_from(full_deck()), min_size=0, max_size=9, unique=True)


@settings(max_examples=200, deadline=None)
@given(
    decks,
    st.integers(-2, 2),
    st.integers(1, 15),
    st.sampled_from([None, *SUITS]),
    st.integers(0, 6),
)
def test_every_chance_equals_the_enumeration_of_every_flip(
    codes: list[str], modifier: int, value: int, suit: str | None, split: int
) -> None:
    """Closed forms = all combinations counted one by one, for short decks and reshuffles too."""
    cards = cards_of(codes)
    deck, discards = cards[split:], cards[:split]
    if len(deck) + len(discards) < 1 + abs(modifier):
        return
    src = source(deck, discards, 1 + abs(modifier))
    assert chance(src, modifier, value, suit) == enumerated(deck, discards, modifier, value, suit)


@settings(max_examples=100, deadline=None)
@given(decks, st.integers(-2, 2), st.integers(0, 3))
def test_the_chances_add_up(codes: list[str], modifier: int, split: int) -> None:
    """The kept value's distribution is a distribution: P(≥V) never rises with V, ≥1 is "no Black Joker
    among the cards" (it is forced), and on a plain flip the four suits and the Black Joker cover every
    card, the Red Joker counted in each suit."""
    cards = cards_of(codes)
    deck, discards = cards[split:], cards[:split]
    if len(deck) + len(discards) < 1 + abs(modifier):
        return
    f = flip_odds(deck, discards, modifier)
    chances = [f.at_least[v] for v in range(1, 14)]
    assert all(0 <= p <= 1 for p in chances)
    assert chances == sorted(chances, reverse=True)
    assert f.at_least[1] == 1 - f.black_joker
    if modifier == 0:
        assert sum(f.by_suit[s][1] for s in SUITS) - 3 * f.red_joker + f.black_joker == 1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(full_deck()), min_size=4, max_size=20, unique=True), st.integers(-2, 2), st.data())
def test_removing_a_high_card_lowers_the_chance_of_a_high_flip(
    codes: list[str], modifier: int, data: st.DataObject
) -> None:
    """A card that reaches V (value ≥ V, or the Red Joker) leaving the deck never raises P(≥V) of a plain flip
    or a ⊞ flip, nor of a ⊟ flip without the Red Joker in the deck; a card that does not reach V leaving
    never lowers it, for a plain flip, a ⊞ flip without the Black Joker and a ⊟ flip without the Red Joker.

    The exceptions are real: with ⊞, a low card leaving makes the (forced) Black Joker likelier among the
    cards; with ⊟, a high card leaving makes the Red Joker (used despite ⊟) likelier.
    """
    cards = cards_of(codes)
    if len(cards) - 1 < 1 + abs(modifier):
        return
    gone = data.draw(st.sampled_from(cards))
    rest = tuple(c for c in cards if c != gone)
    before = flip_odds(cards, (), modifier)
    after = flip_odds(rest, (gone,), modifier)
    red = any(c.is_red_joker for c in cards)
    black = any(c.is_black_joker for c in cards)
    for v in range(1, 14):
        reaches = gone.is_red_joker or (not gone.is_black_joker and gone.value >= v)
        if reaches and (modifier >= 0 or not red):
            assert after.at_least[v] <= before.at_least[v], v
        if not reaches and (modifier == 0 or (modifier > 0 and not black) or (modifier < 0 and not red)):
            assert after.at_least[v] >= before.at_least[v], v


def test_chance_of_a_card_among_the_flip() -> None:
    src = source(FULL, (), 3)
    assert chance_of(src, "RJ") == Fraction(3, 54)
    assert chance_of(source(cards_of(["RJ"]), without(FULL, "RJ"), 2), "RJ") == 1


# --- the panel and the live state ------------------------------------------------------------------------------


def test_the_panel_reads_the_cards_left_and_changes_as_cards_are_flipped_and_after_a_reshuffle() -> None:
    """The Fate Deck panel's table comes from the state's deck, not a fresh one."""
    s = session_from(combatant("Sofia", kind="fated", wounds=8) + combatant("Thug", rank_value=5))
    eng = ttb_view(s)
    fresh = eng.odds(None)
    assert fresh is not None and "54 cards left" in fresh.title
    assert fresh.rows[0].cells[12] == percent(Fraction(5, 54))  # ≥13
    run(s, "flip 10")
    st_ = ttb_state(s)
    flipped = eng.odds(None)
    assert flipped is not None and "44 cards left" in flipped.title
    kings = sum(1 for c in st_.deck if c.startswith("13") or c == "RJ")
    assert flipped.rows[0].cells[12] == percent(Fraction(kings, 44))
    run(s, "reshuffle")
    again = eng.odds(None)
    assert again is not None and "54 cards left" in again.title and again.rows == fresh.rows


def test_the_panel_shows_the_pending_duel_straight_and_with_the_hand() -> None:
    """A duel prompt the tracker can flip (the Toughness challenge, TN 10 with Toughness 2) shows its chances:
    8 or more of the 54 cards (24 + the Red Joker) straight; the 12R in hand passes: all but the Black Joker."""
    s = session_from(
        combatant("Sofia", kind="fated", wounds=3, skills={"toughness": 2}, hand=["12R", "4M"])
        + combatant("Thug", rank_value=5)
    )
    run(s, "damage Sofia 5 no-armor", "answer 5R")
    assert pending(ttb_state(s)).kind == "unconscious_check"
    eng = ttb_view(s)
    odds = eng.odds(None)
    assert odds is not None
    line = "".join(span.text for span in odds.headline)
    deck = cards_of(ttb_state(s).deck)
    expected = duel_odds(deck, cards_of(ttb_state(s).discards), 10, 2, 0, cards_of(["12R", "4M"]))
    assert f"TN 10 with Toughness 2: {percent(expected.straight, True)} straight" in line
    assert f"{percent(expected.cheat or 0, True)} cheating with 12♥" in line
    report = odds_command.report(eng.rules, {})
    assert report.data["duel"] == {**odds_command.duel_json("Sofia", expected), "counted": []}


def minimax(
    a: Card, d: Card, av: int, dv: int, a_hand: tuple[Card, ...] | None, d_hand: tuple[Card, ...] | None
) -> bool:
    """The Fated vs Fated duel played out as the engine offers it (docs/rules/ttb.md#s2-2-4 [000:L418]): the lower total
    (the defender on a tie) plays or keeps first, then the other answers knowing that card; each side plays to
    win; a side that flipped the Black Joker may not cheat."""

    def wins(x: Card, y: Card) -> bool:
        if x.is_black_joker:
            return False
        return True if y.is_black_joker else x.value + av >= y.value + dv

    a_opts = [a] + ([*a_hand] if a_hand is not None and not a.is_black_joker else [])
    d_opts = [d] + ([*d_hand] if d_hand is not None and not d.is_black_joker else [])
    first, _ = cheat_order("A", a.value + av, "D", d.value + dv)
    if first == "A":
        return any(all(wins(x, y) for y in d_opts) for x in a_opts)
    return not any(all(not wins(x, y) for x in a_opts) for y in d_opts)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(full_deck()), min_size=2, max_size=8, unique=True),
    st.integers(0, 6),
    st.integers(0, 6),
    st.lists(st.sampled_from([c for c in full_deck() if c not in ("RJ", "BJ")]), max_size=3, unique=True),
    st.lists(st.sampled_from([c for c in full_deck() if c not in ("RJ", "BJ")]), max_size=3, unique=True),
)
def test_fated_vs_fated_odds_equal_the_duel_played_out_card_by_card(
    codes: list[str], av: int, dv: int, a_codes: list[str], d_codes: list[str]
) -> None:
    """Every ordered pair of flips, each cheat order and each answer tried: the chances equal the closed form."""
    deck = cards_of(codes)
    a_hand, d_hand = cards_of(a_codes), cards_of(d_codes)
    pairs = [(a, d) for a in deck for d in deck if a != d]
    odds = opposed_odds(deck, (), av, dv, a_hand, d_hand)
    assert odds.straight == Fraction(sum(minimax(a, d, av, dv, None, None) for a, d in pairs), len(pairs))
    assert odds.aggressor_cheats == Fraction(sum(minimax(a, d, av, dv, a_hand, None) for a, d in pairs), len(pairs))
    assert odds.both_cheat == Fraction(sum(minimax(a, d, av, dv, a_hand, d_hand) for a, d in pairs), len(pairs))


def test_s2_2_4_fated_vs_fated_a_deck_of_one_reshuffles_between_the_flips() -> None:
    """One card left: the aggressor flips it; the deck is empty, so the discards (now holding that card) are
    reshuffled for the defender's flip (`deck.flip` runs once per side). 5 against {3, 9, 5}: wins 2 of 3."""
    odds = opposed_odds(cards_of(["5R"]), cards_of(["3R", "9R"]), 0, 0, None, None)
    assert odds.straight == Fraction(2, 3) and odds.reshuffles


def test_the_panel_shows_a_pending_fated_vs_fated_duel() -> None:
    """Sofia (Melee 3) attacks Mara (Defense 4), both Fated with a King in hand: the line above the table."""
    sabre = {"name": "Sabre", "kind": "melee", "range": 1, "damage": "2/3/5"}
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"melee": 3}, weapons=[sabre], hand=["13T"]
    )
    mara = combatant("Mara", kind="fated", initiative=1, wounds=8, defense=4, hand=["13C"])
    s = run(session_from(sofia + mara), "initiative Sofia 9", "initiative Mara 2", "start", "spend Sofia strike Mara")
    eng = ttb_view(s)
    st_ = ttb_state(s)
    expected = opposed_odds(cards_of(st_.deck), cards_of(st_.discards), 3, 4, cards_of(["13T"]), cards_of(["13C"]))
    shown = eng.odds(None)
    assert shown is not None
    line = "".join(span.text for span in shown.headline)
    assert line.startswith(f"Sofia vs Mara: Melee 3 vs Defense 4 — {percent(expected.straight, True)} straight")
    assert f"{percent(expected.both_cheat or 0, True)} if both cheat" in line
    data = odds_command.report(eng.rules, {}).data["opposed"]
    assert isinstance(data, dict) and data["both_cheat"] == float(expected.both_cheat or 0)


def test_the_panel_shows_a_pending_impose_between_fated_against_centering() -> None:
    """docs/rules/ttb-turns.md#s2-5 Impose (Intimidate vs Centering [000:L250]) between two Fated,
    docs/rules/ttb.md#s2-2-4: the line names the resisting skill and its acting value; a target untrained in it cannot
    cheat, so only the aggressor's hand counts."""
    sofia = combatant("Sofia", kind="fated", initiative=20, wounds=8, skills={"intimidate": 3}, hand=["13T"])
    mara = combatant("Mara", kind="fated", initiative=1, wounds=8, defense=4, skills={"centering": 2}, hand=["13C"])
    s = run(session_from(sofia + mara), "initiative Sofia 9", "initiative Mara 2", "start", "spend Sofia impose Mara")
    st_ = ttb_state(s)
    expected = opposed_odds(cards_of(st_.deck), cards_of(st_.discards), 3, 2, cards_of(["13T"]), cards_of(["13C"]))
    shown = ttb_view(s).odds(None)
    assert shown is not None
    line = "".join(span.text for span in shown.headline)
    assert line.startswith(f"Sofia vs Mara: Intimidate 3 vs Centering 2 — {percent(expected.straight, True)} straight")
    untrained = combatant("Mara", kind="fated", initiative=1, wounds=8, defense=4, hand=["13C"])
    s = run(
        session_from(sofia + untrained), "initiative Sofia 9", "initiative Mara 2", "start", "spend Sofia impose Mara"
    )
    st_ = ttb_state(s)
    alone = opposed_odds(cards_of(st_.deck), cards_of(st_.discards), 3, 0, cards_of(["13T"]), None)
    data = odds_command.report(ttb_view(s).rules, {}).data["opposed"]
    assert isinstance(data, dict) and data["defense"] == 0 and data["both_cheat"] == float(alone.both_cheat or 0)


# --- the damage flip (docs/rules/ttb-damage.md#s2-8-1 step 4 severities, docs/rules/ttb.md#s2-2-4 cheating) -----------


def damage_enumerated(
    deck: tuple[Card, ...], discards: tuple[Card, ...], modifier: int, hand: tuple[Card, ...] | None
) -> tuple[dict[str, Fraction], Fraction, dict[str, Fraction]]:
    """Every damage flip counted one by one, the card picked as the engine picks it (`choose`, damage flip),
    and the attacker's cheat: its best hand card in place of any flip but the Black Joker, only without ⊟."""
    k = 1 + abs(modifier)
    if len(deck) >= k:
        flips = [tuple(x) for x in combinations(deck, k)]
    else:
        flips = [deck + tuple(x) for x in combinations(discards, k - len(deck))]
    rank = {None: 0, "weak": 1, "moderate": 2, "severe": 3}
    names = ["none", "weak", "moderate", "severe"]
    straight = dict.fromkeys(names, Fraction(0))
    cheated = dict.fromkeys(names, Fraction(0))
    red = Fraction(0)
    share = Fraction(1, len(flips))
    best = max((rank[severity_of(c)] for c in hand or ()), default=0)
    for cards in flips:
        chosen = choose(list(cards), modifier, damage_flip=True)
        level = rank[severity_of(chosen)]
        straight[names[level]] += share
        red += share if chosen.is_red_joker else 0
        lifted = level if chosen.is_black_joker or chosen.is_red_joker or modifier < 0 else max(level, best)
        cheated[names[lifted]] += share
    return straight, red, cheated


@settings(max_examples=200, deadline=None)
@given(decks, st.integers(-2, 2), st.integers(0, 4), st.lists(st.sampled_from(range(1, 14)), max_size=3))
def test_damage_flip_odds_equal_the_enumeration(codes: list[str], modifier: int, split: int, hand: list[int]) -> None:
    """docs/rules/ttb-damage.md#s2-8-1 steps 2 and 4: Black Joker none, 1-5 weak, 6-10 moderate, 11-13 and the Red Joker
    severe; ⊞ keeps the best card, ⊟ the lowest (the Red Joker no exception, A34); docs/rules/ttb.md#s2-2-4: a cheat
    replaces any card but the Black Joker with a hand card, never under ⊟. Closed forms = every flip counted."""
    cards = cards_of(codes)
    deck, discards = cards[split:], cards[:split]
    if len(deck) + len(discards) < 1 + abs(modifier):
        return
    held = cards_of(f"{v}R" for v in hand)
    odds = damage_odds(deck, discards, modifier, held)
    straight, red, cheated = damage_enumerated(deck, discards, modifier, held)
    assert odds.straight == straight and odds.red_joker == red
    assert sum(odds.straight.values()) == 1
    if modifier < 0:
        assert odds.cheat is None and odds.no_cheat == "no cheating under ⊟"
    elif not (deck and len(deck) < 1 + abs(modifier)):  # a reshuffle draws a Twist card: none given here
        assert odds.cheat == cheated


def test_damage_flip_odds_of_a_full_deck() -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 4 on 54 cards: 1 Black Joker, 20 weak, 20 moderate, 12 severe and the Red
    Joker; docs/rules/ttb.md#s2-2-4: a King in hand makes every flip but the Black Joker severe."""
    odds = damage_odds(cards_of(full_deck()), (), 0, cards_of(["13T"]))
    assert odds.straight == {
        "none": Fraction(1, 54),
        "weak": Fraction(20, 54),
        "moderate": Fraction(20, 54),
        "severe": Fraction(13, 54),
    }
    assert odds.red_joker == Fraction(1, 54)
    assert odds.cheat == {"none": Fraction(1, 54), "weak": 0, "moderate": 0, "severe": Fraction(53, 54)}
    assert damage_odds(cards_of(full_deck()), (), 0, None).no_cheat == "not a Fated"


def test_the_panel_and_tracker_odds_show_the_damage_flip() -> None:
    """docs/rules/ttb-damage.md#s2-8-1, docs/rules/ttb.md#s2-2-4: the panel has a plain damage flip under the table; a
    pending damage flip of a Fated attacker is shown above it with its modifier and the cheat; ``tracker odds`` gives
    them as data."""
    sabre = {"name": "Sabre", "kind": "melee", "range": 1, "damage": "2/3/5"}
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"melee": 3}, weapons=[sabre], hand=["13T"]
    )
    thug = combatant("Thug", rank_value=5, initiative=1, wounds=5, defense=2)
    s = run(session_from(sofia + thug), "initiative Sofia 9", "start", "attack Sofia Thug", "answer pass 2")
    p = pending(ttb_state(s))
    assert p.kind == "damage_flip"
    modifier = int(str(p.data["modifier"]))
    shown = ttb_view(s).odds(None)
    assert shown is not None
    notes = "".join(span.text for span in shown.notes)
    plain = damage_odds(cards_of(ttb_state(s).deck), cards_of(ttb_state(s).discards), 0)
    assert odds_report.damage_line("Damage flip", plain) in notes
    headline = "".join(span.text for span in shown.headline)
    assert "Sofia's damage flip on Thug" in headline and "cheating: none" in headline
    data = odds_command.report(ttb_view(s).rules, {}).data
    flip = data["damage_flip"]
    assert isinstance(flip, dict) and flip["modifier"] == modifier and flip["cheat"] is not None
    assert isinstance(data["damage"], list) and len(data["damage"]) == 5
