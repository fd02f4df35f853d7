"""The odds the tracker states for a duel equal the frequency of its own flips of that duel over the deck,
exactly, by enumeration (docs/rules/ttb.md#s2-2-1 the deck and its reshuffle, docs/rules/ttb.md#s2-2-3 ⊞/⊟ and the card
kept, docs/rules/ttb.md#s2-2-4 the cheat, docs/rules/ttb.md#s2-2-5 the duel; [000:L83-89, L152-159, L418]).

The flips are the engine's own: `duel.keep` picks the card a flip of several cards uses, `answers._score`
scores a duel against a TN and `opposed._result` a Fated vs Fated duel; the draws follow `deck.flip` (the
cards left first, then the discards reshuffled, which by the defender's flip hold the aggressor's cards).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.families.ttb.answers import _score
from tracker.families.ttb.fate.cards import Card, keep, parse_card
from tracker.families.ttb.fate.odds import duel_odds
from tracker.families.ttb.fate.opposed import _result
from tracker.families.ttb.fate.opposed_odds import opposed_odds

CODES = [f"{v}{s}" for v in range(1, 14) for s in "RCTM"] + ["RJ", "BJ"]


def _rest(cards: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    out = list(cards)
    for c in taken:
        out.remove(c)
    return out


def draws(
    deck: Sequence[Card], discards: Sequence[Card], n: int
) -> Iterator[tuple[list[Card], Fraction, list[Card], list[Card]]]:
    """Every way `deck.flip` can turn over `n` cards, with its chance, and the deck and discards after it."""
    if len(deck) >= n:
        ways = list(combinations(range(len(deck)), n))
        for idx in ways:
            cards = [deck[i] for i in idx]
            yield cards, Fraction(1, len(ways)), _rest(deck, cards), [*discards, *cards]
        return
    fixed = list(deck)
    ways = list(combinations(range(len(discards)), n - len(fixed)))
    for idx in ways:
        drawn = [discards[i] for i in idx]
        yield [*fixed, *drawn], Fraction(1, len(ways)), _rest(discards, drawn), [*fixed, *drawn]


deck_and_discards = st.lists(st.sampled_from(CODES), min_size=4, max_size=11, unique=True).flatmap(
    lambda codes: st.tuples(st.just(codes), st.integers(0, len(codes)))
)


@settings(max_examples=60, deadline=None)
@given(
    cards=deck_and_discards,
    tn=st.integers(3, 20),
    av=st.integers(0, 6),
    fate=st.integers(-3, 3),
    hand=st.lists(st.sampled_from([f"{v}R" for v in range(1, 14)]), max_size=3, unique=True),
)
def test_a_duel_against_a_tn(cards: tuple[list[str], int], tn: int, av: int, fate: int, hand: list[str]) -> None:
    codes, split = cards
    deck, discards = [parse_card(c) for c in codes[:split]], [parse_card(c) for c in codes[split:]]
    held = [parse_card(c) for c in hand]
    if len(deck) + len(discards) < 1 + abs(fate) or (len(deck) < 1 + abs(fate) and not discards):
        return
    straight = cheated = Fraction(0)
    for flipped, chance, _, _ in draws(deck, discards, 1 + abs(fate)):
        card = keep(flipped, fate)
        passed, _ = _score(card, av, tn)
        # The cheat: only without ⊟ and without the Black Joker flipped [000:L63-65]; a hand card that passes.
        rescued = fate >= 0 and not card.is_black_joker and any(_score(c, av, tn)[0] for c in held)
        straight += chance * passed
        cheated += chance * (passed or rescued)
    odds = duel_odds(deck, discards, tn, av, fate, held)
    assert odds.straight == straight
    if fate < 0:
        assert odds.cheat is None
    elif not (odds.reshuffles and not held):  # a reshuffle's Twist card is counted only with a Twist Deck given
        assert odds.cheat == cheated


@settings(max_examples=40, deadline=None)
@given(
    cards=deck_and_discards,
    av=st.integers(0, 6),
    dv=st.integers(0, 6),
    fa=st.integers(-2, 2),
    fd=st.integers(-2, 2),
    hand=st.lists(st.sampled_from([f"{v}C" for v in range(1, 14)]), max_size=2, unique=True),
)
def test_a_fated_against_a_fated(
    cards: tuple[list[str], int], av: int, dv: int, fa: int, fd: int, hand: list[str]
) -> None:
    codes, split = cards
    deck, discards = [parse_card(c) for c in codes[:split]], [parse_card(c) for c in codes[split:]]
    k, m = 1 + abs(fa), 1 + abs(fd)
    if len(deck) + len(discards) < k + m or (len(deck) < k + m and len(discards) < k + m - len(deck)):
        return
    if 0 < len(deck) < k and len(discards) - (k - len(deck)) < m:
        return
    held = [parse_card(c) for c in hand]
    straight = alone = Fraction(0)
    for mine, p1, deck2, discards2 in draws(deck, discards, k) if deck else draws(discards, [], k):
        a = keep(mine, fa)
        pool = (deck2, discards2) if deck else (deck2, [])
        for theirs, p2, _, _ in draws(*pool, m):
            d = keep(theirs, fd)
            won = _result(a, a.value + av, d, d.value + dv)[0]
            straight += p1 * p2 * won
            best = max([a, *held], key=lambda c: c.value) if fa >= 0 and not a.is_black_joker and held else a
            alone += p1 * p2 * _result(best, best.value + av, d, d.value + dv)[0]
    odds = opposed_odds(deck, discards, av, dv, held if fa >= 0 else None, None, fa=fa, fd=fd)
    assert odds.straight == straight
    if fa >= 0 and not odds.reshuffles:
        assert odds.aggressor_cheats == alone
