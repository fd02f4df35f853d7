"""Exact odds of a Fated vs Fated duel: both flip, the lower total cheats first (the defender on a tie), and the
aggressor wins ties (docs/rules/ttb.md#s2-2-4 last point, [000:L418]); each side's Control Hand, Twist card and
the deck's reshuffle counted as `tracker.families.ttb.fate.odds` counts one flip.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from tracker.engine.errors import Refusal
from tracker.families.ttb.fate.cards import Card
from tracker.families.ttb.fate.odds import (
    RED_JOKER_VALUE,
    FlipSource,
    cards_for,
    chance,
    count_minus,
    count_plus,
    source,
)


@dataclass(frozen=True)
class OpposedOdds:
    """The aggressor's chance to win a Fated vs Fated duel (docs/rules/ttb.md#s2-2-4 last point, [000:L418]):
    card + acting value against card + Defense, the aggressor winning ties, a Black Joker failing its side.
    """

    straight: Fraction
    #: Only the aggressor cheats, and when both do (None: that side may not cheat).
    aggressor_cheats: Fraction | None
    both_cheat: Fraction | None
    reshuffles: bool


def _wins(a: int, av: int, d: int, dv: int) -> bool:
    """The aggressor's card value `a` beats the defender's `d` (0 is the Black Joker), as `opposed._result`."""
    if a == 0:
        return False
    if d == 0:
        return True
    return a + av >= d + dv


def _values(cards: Iterable[Card]) -> dict[int, int]:
    out: dict[int, int] = {}
    for c in cards:
        out[c.value] = out.get(c.value, 0) + 1
    return out


def _classes(cards: Iterable[Card]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    for c in cards:
        out.setdefault(c.value, []).append(c)
    return out


def _draws(pool: Sequence[Card], n: int) -> Iterator[tuple[list[Card], int]]:
    """Every multiset of card values `n` cards drawn from `pool` can make, with its number of ways (one
    representative card per value: an opposed duel has no suits to meet)."""
    classes = sorted(_classes(pool).items())

    def walk(i: int, left: int) -> Iterator[tuple[list[Card], int]]:
        if left == 0:
            yield [], 1
            return
        if i == len(classes):
            return
        _, cards = classes[i]
        for take in range(min(left, len(cards)), -1, -1):
            for rest, ways in walk(i + 1, left - take):
                yield cards[:take] + rest, ways * comb(len(cards), take)

    yield from walk(0, n)


def _without(cards: Sequence[Card], taken: Sequence[Card]) -> tuple[Card, ...]:
    out = list(cards)
    for c in taken:
        out.remove(c)
    return tuple(out)


def _aggressor_flips(
    deck: Sequence[Card], discards: Sequence[Card], k: int, m: int
) -> tuple[list[tuple[list[Card], int, FlipSource]], int, bool]:
    """The aggressor's flip of `k` cards, each way it can fall (its cards, the ways, and where the defender's
    `m` then come from), the number of ways, and whether a reshuffle happens: the two flips are two draws, the
    aggressor's first, and a deck that runs out is reshuffled from the discards, which by the defender's
    flip hold the aggressor's cards (`deck.flip`)."""
    d = len(deck)
    out: list[tuple[list[Card], int, FlipSource]] = []
    if d >= k + m or d == 0:
        pool = tuple(deck) if d else tuple(discards)
        if len(pool) < k + m:
            raise Refusal("a duel needs more cards than the deck and its discards hold")
        for cards, ways in _draws(pool, k):
            rest = _without(pool, cards)
            out.append((cards, ways, FlipSource((), rest, m, False)))
        return out, comb(len(pool), k), d == 0
    if d >= k:
        for cards, ways in _draws(deck, k):
            out.append((cards, ways, source(_without(deck, cards), (*discards, *cards), m)))
        return out, comb(d, k), True
    if len(discards) < k - d:
        raise Refusal("a duel needs more cards than the deck and its discards hold")
    for drawn, ways in _draws(discards, k - d):
        cards = [*deck, *drawn]
        out.append((cards, ways, source(_without(discards, drawn), tuple(cards), m)))
    return out, comb(len(discards), k - d), True


def _kept_counts(src: FlipSource, fate: int) -> dict[int, int]:
    """value → the ways the flip keeps a card of that value (0 the Black Joker, 14 the Red), as `cards.keep`."""
    count = count_minus if fate < 0 else count_plus
    at_least = {v: count(src, v, None) for v in range(1, RED_JOKER_VALUE + 2)}
    out = {0: src.ways - at_least[1]}
    for v in range(1, RED_JOKER_VALUE + 1):
        out[v] = at_least[v] - at_least[v + 1]
    return {v: n for v, n in out.items() if n}


def _best(flipped: int, hand: Sequence[Card] | None, twist: int | None) -> int:
    """The card a side ends with when it cheats with its best card: never off a Black Joker
    (docs/rules/ttb.md#s2-2-4)."""
    if flipped == 0 or hand is None:
        return flipped
    return max([flipped, *(c.value for c in hand), *([twist] if twist is not None else [])])


def _twists(twist: Sequence[Card], reshuffles: bool) -> list[tuple[int | None, int]]:
    """The Twist card a reshuffle draws a side (value, ways), or none."""
    if not reshuffles or not twist:
        return [(None, 1)]
    return list(_values(twist).items())


def opposed_odds(
    deck: Sequence[Card],
    discards: Sequence[Card],
    av: int,
    dv: int,
    aggressor_hand: Sequence[Card] | None,
    defender_hand: Sequence[Card] | None,
    aggressor_twist: Sequence[Card] = (),
    defender_twist: Sequence[Card] = (),
    *,
    fa: int = 0,
    fd: int = 0,
    blind: bool = False,
) -> OpposedOdds:
    """The aggressor's chance to win, straight and with cheats (a hand None: that side may not cheat).

    Each side flips one card plus one per ⊞ or ⊟ of its net modifier (`fa`, `fd`) and keeps the card
    `cards.keep` keeps; `blind`: the defender counts as flipping the Black Joker and draws nothing (an
    Unconscious Fated, docs/rules/ttb-conditions.md#s2-7). Whoever cheats first (the lower total, the defender on a
    tie), each side's best play is its highest card: a higher card never makes its side lose, so the order of the cheats
    does not change who wins, and the chance with cheats is the chance that the two best cards win. Counted exactly:
    every way the aggressor's cards can fall, then the defender's kept card in closed form.
    """
    if blind:
        src = source(deck, discards, cards_for(fa))
        sure = chance(src, fa, 1)
        return OpposedOdds(sure, sure if aggressor_hand is not None else None, sure, src.reshuffles)
    flips, ways, reshuffles = _aggressor_flips(deck, discards, cards_for(fa), cards_for(fd))
    rows = []
    for cards, w, src in flips:
        a = _kept_value(cards, fa)
        rows.append((a, Fraction(w, ways), src.ways, _kept_counts(src, fd), src.reshuffles))
    reshuffles = reshuffles or any(r[4] for r in rows)

    def chance_with(a_hand: Sequence[Card] | None, d_hand: Sequence[Card] | None) -> Fraction:
        at = _twists(aggressor_twist, reshuffles) if a_hand is not None else [(None, 1)]
        dt = _twists(defender_twist, reshuffles) if d_hand is not None else [(None, 1)]
        twist_ways = sum(w for _, w in at) * sum(w for _, w in dt)
        won = Fraction(0)
        for a, share, d_ways, kept, _ in rows:
            hits = 0
            for ta, wa in at:
                mine = _best(a, a_hand, ta)
                for td, wd in dt:
                    hits += wa * wd * sum(n for d, n in kept.items() if _wins(mine, av, _best(d, d_hand, td), dv))
            won += share * Fraction(hits, d_ways * twist_ways)
        return won

    straight = chance_with(None, None)
    alone = chance_with(aggressor_hand, None) if aggressor_hand is not None else None
    both = (
        chance_with(aggressor_hand, defender_hand) if aggressor_hand is not None or defender_hand is not None else None
    )
    return OpposedOdds(straight, alone, both, reshuffles)


def _kept_value(cards: Sequence[Card], fate: int) -> int:
    """The value of the card a flip keeps (`cards.keep`'s rule, here without the engine)."""
    if any(c.is_black_joker for c in cards):
        return 0
    if any(c.is_red_joker for c in cards):
        return RED_JOKER_VALUE
    values = [c.value for c in cards]
    return min(values) if fate < 0 else max(values)
