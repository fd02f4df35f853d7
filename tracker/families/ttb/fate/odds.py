"""Exact odds of the next Fate Deck flip, from the cards actually left (docs/rules/ttb.md#s2-2-1,
docs/rules/ttb.md#s2-2-3, docs/rules/ttb.md#s2-2-4).

The table knows which cards are still in the Fate Deck but not their order, so every order of the cards
left is equally likely and a flip of K cards is a K-card combination of them, drawn without replacement.
The chances are counted, not sampled: each is a whole number of combinations over all of them (a
`Fraction`), in closed form (binomial coefficients over classes of cards), and a brute-force enumeration
in the tests checks every formula against the rules.

A flip of K cards (one, plus one per ⊞ or ⊟, docs/rules/ttb.md#s2-2-3) succeeds against a target "at least V"
(optionally "in suit S") when the card the flipper may use reaches it:

- the Black Joker is forced: if it is among the cards, the flip is a 0 and fails (docs/rules/ttb.md#s2-2-1);
- the Red Joker is 14 in any suit, and may be used despite ⊟ (docs/rules/ttb.md#s2-2-1);
- with ⊞ (or a plain flip) the flipper uses any of the cards, so the flip reaches the target when one
  card does;
- with ⊟ the lowest value is kept (the flipper picks among the tied lowest), so the flip reaches "at
  least V" when every card does, and "in suit S" when a lowest card has that suit.

**A deck too short for the flip** (decision, README "The odds"): the engine flips what is left and then
reshuffles the discard pile into a new deck for the rest (`deck.flip`, docs/rules/ttb.md#s2-2-1). The odds follow it
exactly: the cards left are all flipped, the rest come from the discards. An empty deck reshuffles
first, so the next flip comes from the discards. A reshuffle also draws each Fated a Twist card; the
cheating odds count that card (drawn from the Twist Deck, or its discards when it is empty).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from tracker.engine.errors import Refusal
from tracker.families.ttb.fate.cards import BLACK_JOKER, RED_JOKER, SUITS, Card, parse_card

#: The plain values a card can have (Ace 1 … King 13); the Red Joker is 14.
VALUES = range(1, 14)
RED_JOKER_VALUE = 14
#: Net fate modifiers the odds show: ⊟⊟ … ⊞⊞ (the rules cap each side at 3, docs/rules/ttb.md#s2-2-3).
MODIFIERS = (0, 1, 2, -1, -2)
MAX_MODIFIER = 3


def _c(n: int, k: int) -> int:
    """Combinations, 0 outside the triangle (no ways to pick a negative count or more than there are)."""
    return comb(n, k) if 0 <= k <= n else 0


def cards_of(codes: Iterable[str]) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in codes)


@dataclass(frozen=True)
class FlipSource:
    """Where the K cards of the next flip come from: `fixed` cards certainly (the last of a short deck),
    then `draw` cards uniformly from `pool` (the deck, or the discards a reshuffle makes the new deck)."""

    fixed: tuple[Card, ...]
    pool: tuple[Card, ...]
    draw: int
    #: The flip reshuffles the discards (and so draws each Fated a Twist card, docs/rules/ttb.md#s2-2-1).
    reshuffles: bool

    @property
    def ways(self) -> int:
        """How many equally likely flips there are."""
        return _c(len(self.pool), self.draw)


def source(deck: Sequence[Card], discards: Sequence[Card], cards: int) -> FlipSource:
    """Where a flip of `cards` cards comes from, as `deck.flip` draws them (see the module's decision)."""
    if len(deck) >= cards:
        return FlipSource((), tuple(deck), cards, False)
    need = cards - len(deck)
    if len(discards) < need:
        raise Refusal(f"a flip of {cards} cards needs more cards than the deck and its discards hold")
    return FlipSource(tuple(deck), tuple(discards), need, True)


def _black(card: Card) -> bool:
    return card.is_black_joker


def _red(card: Card) -> bool:
    return card.is_red_joker


def _reaches(card: Card, value: int, suit: str | None) -> bool:
    """A card alone meets "at least `value` [in `suit`]": the Red Joker is 14 in any suit; never the Black."""
    if card.is_black_joker:
        return False
    if card.is_red_joker:
        return value <= RED_JOKER_VALUE
    return card.value >= value and (suit is None or card.suit == suit)


def count_plus(src: FlipSource, value: int, suit: str | None) -> int:
    """Flips (neutral or ⊞) that reach the target: no Black Joker, and some card reaches it."""
    if any(_black(c) for c in src.fixed):
        return 0
    pool = [c for c in src.pool if not _black(c)]
    if any(_reaches(c, value, suit) for c in src.fixed):
        return _c(len(pool), src.draw)
    good = sum(1 for c in pool if _reaches(c, value, suit))
    return _c(len(pool), src.draw) - _c(len(pool) - good, src.draw)


def count_minus(src: FlipSource, value: int, suit: str | None) -> int:
    """Flips with ⊟ that reach the target: no Black Joker, and the Red Joker among them (used despite ⊟),
    or every card at least `value` with a lowest card in `suit`."""
    if any(_black(c) for c in src.fixed):
        return 0
    pool = [c for c in src.pool if not _black(c)]
    red_usable = value <= RED_JOKER_VALUE
    if any(_red(c) for c in src.fixed):
        return _c(len(pool), src.draw) if red_usable else 0
    plain = [c for c in pool if not _red(c)]
    with_red = _c(len(plain), src.draw - 1) if red_usable and len(plain) < len(pool) else 0
    if any(c.value < value for c in src.fixed):
        return with_red
    high = [c for c in plain if c.value >= value]
    if suit is None:
        return with_red + _c(len(high), src.draw)
    # The lowest value m of the whole flip, and whether the card (m, suit) is among the cards: one term per m.
    low_fixed = min((c.value for c in src.fixed), default=RED_JOKER_VALUE)
    fixed_codes = {c.code for c in src.fixed}
    high_codes = {c.code for c in high}
    total = 0
    for m in range(value, min(low_fixed, max(VALUES)) + 1):
        at_least_m = sum(1 for c in high if c.value >= m)
        code = f"{m}{suit}"
        if code in fixed_codes:  # then m is the fixed cards' lowest: every drawn card must be at least m
            total += _c(at_least_m, src.draw)
        elif code in high_codes:  # drawn, with the rest at least m
            total += _c(at_least_m - 1, src.draw - 1)
    return with_red + total


def chance(src: FlipSource, modifier: int, value: int, suit: str | None = None) -> Fraction:
    """The chance a flip with net `modifier` (−3 … +3) reaches "at least `value`" [in `suit`]."""
    if not -MAX_MODIFIER <= modifier <= MAX_MODIFIER:
        raise Refusal(f"a fate modifier is at most {MAX_MODIFIER} ⊞ or ⊟ after cancelling")
    if value <= 0:
        value = 1  # any card but the Black Joker: every other value is at least 1
    count = count_minus(src, value, suit) if modifier < 0 else count_plus(src, value, suit)
    return Fraction(count, src.ways)


def chance_of(src: FlipSource, code: str) -> Fraction:
    """The chance that the card `code` (``RJ``, ``BJ``) is among the flipped cards."""
    if any(c.code == code for c in src.fixed):
        return Fraction(1)
    if not any(c.code == code for c in src.pool):
        return Fraction(0)
    return Fraction(src.draw, len(src.pool))


def cards_for(modifier: int) -> int:
    """Cards a flip turns over: one, plus one per ⊞ or ⊟ (docs/rules/ttb.md#s2-2-3)."""
    return 1 + abs(modifier)


# --- the table of the next flip ---------------------------------------------------------------------


@dataclass(frozen=True)
class FlipOdds:
    """The next flip with one net modifier: the chance of at least each value, by suit, and the Jokers."""

    modifier: int
    reshuffles: bool
    #: value → chance of at least that value (1 … 13).
    at_least: dict[int, Fraction]
    #: suit letter → value → chance of at least that value in that suit (the Red Joker is every suit).
    by_suit: dict[str, dict[int, Fraction]]
    red_joker: Fraction
    black_joker: Fraction


def flip_odds(deck: Sequence[Card], discards: Sequence[Card], modifier: int) -> FlipOdds:
    src = source(deck, discards, cards_for(modifier))
    return FlipOdds(
        modifier,
        src.reshuffles,
        {v: chance(src, modifier, v) for v in VALUES},
        {s: {v: chance(src, modifier, v, s) for v in VALUES} for s in SUITS},
        chance_of(src, RED_JOKER),
        chance_of(src, BLACK_JOKER),
    )


# --- a duel against a TN, straight and with a cheat ------------------------------------------------


@dataclass(frozen=True)
class DuelOdds:
    """A duel's chance against a TN (docs/rules/ttb.md#s2-2-5: card value + acting value ≥ TN), straight and
    if the Fated cheats with a card from the Control Hand (docs/rules/ttb.md#s2-2-4)."""

    tn: int
    av: int
    modifier: int
    straight: Fraction
    #: None when cheating is not allowed; the reason is in `no_cheat`.
    cheat: Fraction | None
    no_cheat: str
    #: Hand cards that would pass in place of a failed flip.
    winners: tuple[str, ...]
    reshuffles: bool
    #: Cards in the hand the cheat would come from.
    hand_size: int = 0


def duel_odds(
    deck: Sequence[Card],
    discards: Sequence[Card],
    tn: int,
    av: int,
    modifier: int = 0,
    hand: Sequence[Card] | None = None,
    twist: Sequence[Card] = (),
    no_cheat: str = "",
) -> DuelOdds:
    """The chance that a flip with `modifier` plus `av` reaches `tn`, and with a cheat from `hand`.

    A cheat replaces the flipped card with a hand card (docs/rules/ttb.md#s2-2-4): allowed only without net ⊟ and when
    no Black Joker was flipped, so a cheat that passes turns every other failed flip into a pass. `hand` None
    (or a `no_cheat` reason) means the flipper may not cheat. `twist` is what a reshuffle during this flip
    would draw the flipper from (its Twist Deck, or the discards when that is empty): that card joins the
    hand before the cheat.
    """
    src = source(deck, discards, cards_for(modifier))
    need = tn - av
    straight = chance(src, modifier, need) if need <= RED_JOKER_VALUE else Fraction(0)
    reason = no_cheat
    if not reason and hand is None:
        reason = "not a Fated"
    if not reason and modifier < 0:
        reason = "no cheating under ⊟"
    if reason:
        return DuelOdds(tn, av, modifier, straight, None, reason, (), src.reshuffles)
    assert hand is not None
    winners = tuple(c.code for c in hand if not c.is_black_joker and c.value + av >= tn)
    if winners:
        hand_passes = Fraction(1)
    elif src.reshuffles and twist:
        hand_passes = Fraction(sum(1 for c in twist if c.value + av >= tn), len(twist))
    else:
        hand_passes = Fraction(0)
    no_black = 1 - chance_of(src, BLACK_JOKER)
    # A failed flip without the Black Joker is rescued by a passing hand card.
    cheat = straight + hand_passes * (no_black - straight)
    return DuelOdds(tn, av, modifier, straight, cheat, "", winners, src.reshuffles, len(hand))


# --- a damage flip: each severity, straight and with a cheat ---------------------------------------------

#: The severities of a damage flip from least to most (docs/rules/ttb-damage.md#s2-8-1 step 4), and the lowest card of
#: each.
SEVERITY_FLOORS = (("weak", 1), ("moderate", 6), ("severe", 11))


@dataclass(frozen=True)
class DamageOdds:
    """A damage flip's chances (docs/rules/ttb-damage.md#s2-8-1): no damage (the Black Joker), weak (1-5), moderate
    (6-10), severe (11-13 and the Red Joker), and the Red Joker alone (Severe plus a Severe Critical); straight, and
    if the Fated attacker cheats with its best card from the Control Hand (docs/rules/ttb.md#s2-2-4)."""

    modifier: int
    reshuffles: bool
    #: "none", "weak", "moderate", "severe" → chance; they add up to 1.
    straight: dict[str, Fraction]
    red_joker: Fraction
    #: None when no cheat is allowed; the reason is in `no_cheat`.
    cheat: dict[str, Fraction] | None
    no_cheat: str


def _all_at_least(src: FlipSource, value: int) -> int:
    """Flips with no Black Joker whose every card is at least `value`, the Red Joker counting 14: a damage
    flip under ⊟ keeps the lowest card, and the Red Joker is no exception there (docs/rules/ttb-damage.md#s2-8-1,
    decision A34)."""
    if any(_black(c) or c.value < value for c in src.fixed):
        return 0
    return _c(sum(1 for c in src.pool if not _black(c) and c.value >= value), src.draw)


def _severities(at_least: dict[str, Fraction], usable: Fraction) -> dict[str, Fraction]:
    """Each severity's chance from the chances of at least each (and of a card that deals any damage)."""
    moderate, severe = at_least["moderate"], at_least["severe"]
    return {"none": 1 - usable, "weak": usable - moderate, "moderate": moderate - severe, "severe": severe}


def damage_odds(
    deck: Sequence[Card],
    discards: Sequence[Card],
    modifier: int = 0,
    hand: Sequence[Card] | None = None,
    twist: Sequence[Card] = (),
    no_cheat: str = "",
) -> DamageOdds:
    """The chance of each severity for a damage flip with net `modifier` (1 card, plus one per ⊞ or ⊟).

    With ⊞ the attacker keeps the best card, with ⊟ the lowest (docs/rules/ttb-damage.md#s2-8-1 step 2); the Black Joker
    is forced. A cheat (only without ⊟ and off any card but the Black Joker, docs/rules/ttb.md#s2-2-4) replaces the card
    with the hand's best when that deals more; a Red Joker flipped is never bettered. `twist` is what a reshuffle during
    the flip would draw the attacker from, as in `duel_odds`.
    """
    if not -MAX_MODIFIER <= modifier <= MAX_MODIFIER:
        raise Refusal(f"a fate modifier is at most {MAX_MODIFIER} ⊞ or ⊟ after cancelling")
    src = source(deck, discards, cards_for(modifier))

    def count(value: int) -> Fraction:
        found = _all_at_least(src, value) if modifier < 0 else count_plus(src, value, None)
        return Fraction(found, src.ways)

    usable = count(1)
    at_least = {name: count(floor) for name, floor in SEVERITY_FLOORS}
    red = count(RED_JOKER_VALUE)
    straight = _severities(at_least, usable)
    reason = no_cheat or ("not a Fated" if hand is None else "no cheating under ⊟" if modifier < 0 else "")
    if reason:
        return DamageOdds(modifier, src.reshuffles, straight, red, None, reason)
    assert hand is not None
    best = max((c.value for c in hand if not c.is_black_joker and not c.is_red_joker), default=0)
    drawn = [(c.value, 1) for c in twist] if src.reshuffles and twist else [(0, 1)]
    cheated = {name: Fraction(0) for name, _ in SEVERITY_FLOORS}
    for value, ways in drawn:
        top = max(best, value)
        for name, floor in SEVERITY_FLOORS:
            # A hand card of this severity or more lifts every usable flip below it to it.
            cheated[name] += Fraction(ways, len(drawn)) * (usable if top >= floor else at_least[name])
    return DamageOdds(modifier, src.reshuffles, straight, red, _severities(cheated, usable), "")
