"""Fate Deck cards (docs/rules/ttb.md#s2-2-1): values 1-13 in four suits plus the two Jokers.

A card is written as its value and a suit letter: ``9R`` (9 of Rams), ``13M`` (King of Masks), and the
Jokers as ``RJ`` (Red Joker, value 14, any suit) and ``BJ`` (Black Joker, value 0, no suit).
The suit letters follow the seeds: Rams (♥), Crows (♠), Tomes (♣), Masks (♦) [001:L16].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from tracker.engine.errors import Refusal

SUITS = {"R": "Rams", "C": "Crows", "T": "Tomes", "M": "Masks"}
SUIT_SYMBOL = {"R": "♥", "C": "♠", "T": "♣", "M": "♦"}
RED_JOKER = "RJ"
BLACK_JOKER = "BJ"

#: Critical-effect location by suit, docs/rules/ttb-damage.md#s2-8-2 (decision A7).
LOCATION_BY_SUIT = {"R": "Chest", "T": "Head", "C": "Arms", "M": "Legs"}

Severity = Literal["weak", "moderate", "severe"]


def full_deck() -> list[str]:
    """The 54 cards of a Fate Deck, unshuffled."""
    return [f"{v}{s}" for s in SUITS for v in range(1, 14)] + [RED_JOKER, BLACK_JOKER]


class Card(NamedTuple):
    """One card; ``suit`` is None for the Jokers and for a bare value the GM typed."""

    code: str
    value: int
    suit: str | None

    @property
    def is_red_joker(self) -> bool:
        return self.code == RED_JOKER

    @property
    def is_black_joker(self) -> bool:
        return self.code == BLACK_JOKER

    def short(self) -> str:
        """The card in a question: ``3♦``, ``Red Joker``."""
        if self.is_red_joker or self.is_black_joker or self.suit is None:
            return self.label()
        return f"{self.value}{SUIT_SYMBOL[self.suit]}"

    def label(self) -> str:
        """How the log shows the card: ``9♥ (9 of Rams)``, ``Red Joker``."""
        if self.is_red_joker:
            return "Red Joker"
        if self.is_black_joker:
            return "Black Joker"
        if self.suit is None:
            return str(self.value)
        return f"{self.value}{SUIT_SYMBOL[self.suit]} ({self.value} of {SUITS[self.suit]})"


_NAMED_VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13}


def parse_card(text: str) -> Card:
    """Read a card the GM typed: ``1``-``13``, ``9R``/``9rams``, ``K``, ``RJ``, ``BJ``.

    Every card the deck holds is read again each time its odds are counted: a card read once is remembered
    (a `Card` is immutable; a refused text is not remembered and is refused again)."""
    card = _READ.get(text)
    if card is None:
        card = _parse_card(text)
        if len(_READ) < _READ_LIMIT:
            _READ[text] = card
    return card


#: Cards read so far, by their text (the deck's codes and what was typed), at most `_READ_LIMIT`.
_READ: dict[str, Card] = {}
_READ_LIMIT = 4096


def _parse_card(text: str) -> Card:
    raw = text.strip().upper()
    if raw in (RED_JOKER, "REDJOKER", "RED"):
        return Card(RED_JOKER, 14, None)
    if raw in (BLACK_JOKER, "BLACKJOKER", "BLACK"):
        return Card(BLACK_JOKER, 0, None)
    digits = ""
    rest = raw
    while rest and rest[0] in "0123456789":
        digits, rest = digits + rest[0], rest[1:]
    if not digits and rest[:1] in _NAMED_VALUES:
        digits, rest = str(_NAMED_VALUES[rest[0]]), rest[1:]
    if not digits or len(digits) > 2:
        raise Refusal(f"'{text}' is not a card: use 1-13 (optionally with a suit R/C/T/M), RJ or BJ")
    value = int(digits)
    if not 1 <= value <= 13:
        raise Refusal(f"'{text}' is not a card: values run from 1 to 13 (RJ, BJ for the Jokers)")
    suit: str | None = None
    if rest:
        matches = [s for s, name in SUITS.items() if name.upper().startswith(rest)]
        if len(matches) != 1:
            raise Refusal(f"'{text}': unknown suit '{rest}' (R Rams, C Crows, T Tomes, M Masks)")
        suit = matches[0]
    return Card(f"{value}{suit or ''}", value, suit)


def severity_of(card: Card) -> Severity | None:
    """Damage/healing severity of a flipped card (docs/rules/ttb-damage.md#s2-8-1 step 4): None for the Black Joker."""
    if card.is_black_joker:
        return None
    if card.is_red_joker or card.value >= 11:
        return "severe"
    if card.value >= 6:
        return "moderate"
    return "weak"


def accuracy_modifier(difference: int) -> int:
    """Damage-flip modifier from attack total minus TN (docs/rules/ttb-damage.md#s2-8-1 table, decision A2).

    Positive numbers are ⊞, negative ⊟: tie ⊟⊟, 1-5 ⊟, 6-10 none, 11+ ⊞.
    """
    if difference < 0:
        raise Refusal("a damage flip needs a hit: the difference must be 0 or more")
    if difference == 0:
        return -2
    if difference <= 5:
        return -1
    if difference <= 10:
        return 0
    return 1


def band_lifted(before: int, after: int) -> bool:
    """Whether an attack that beat the TN by `before` beats it by `after` into a better damage-flip band
    (tie ⊟⊟ → ⊟ → none → ⊞, docs/rules/ttb-damage.md#s2-8-1 [000:L95-97; 001:L74-75]): a cheat that lifts the band helps
    even when the Margins stay the same (docs/rules/ttb.md#s2-2-4). Both differences are hits (0 or more)."""
    return accuracy_modifier(after) > accuracy_modifier(before)


def band_text(difference: int) -> str:
    """The damage flip's accuracy modifier for a hit by `difference`, as a cheat option says it."""
    m = accuracy_modifier(difference)
    return "no modifier" if m == 0 else ("⊞" * m if m > 0 else "⊟" * -m)


def net_modifier(plus: int, minus: int) -> int:
    """⊞ and ⊟ cancel one for one, then each side is capped at 3 (docs/rules/ttb.md#s2-2-3)."""
    return max(-3, min(3, plus - minus))


def choose(cards: list[Card], modifier: int, damage_flip: bool = False) -> Card:
    """The card a flip uses (docs/rules/ttb.md#s2-2-3, docs/rules/ttb-damage.md#s2-8-1 step 2).

    The Black Joker is always forced. With ⊞ the flipper chooses: the tracker picks the highest value.
    With ⊟ the lowest value is kept, except that the Red Joker may be used despite ⊟, and that
    exception does not apply to a damage flip (decision A34).
    """
    for card in cards:
        if card.is_black_joker:
            return card
    if modifier < 0:
        if not damage_flip:
            for card in cards:
                if card.is_red_joker:
                    return card
        return min(cards, key=lambda c: c.value)
    return max(cards, key=lambda c: c.value)


def can_cheat(cards: list[Card], modifier: int, initiative: bool = False) -> bool:
    """Cheating Fate is allowed only without ⊟, without a Black Joker, and never on initiative
    (docs/rules/ttb.md#s2-2-4)."""
    if initiative or modifier < 0:
        return False
    return not any(c.is_black_joker for c in cards)


def cheat_order(aggressor: str, aggressor_total: int, defender: str, defender_total: int) -> tuple[str, str]:
    """Fated vs Fated duel: who may cheat first (docs/rules/ttb.md#s2-2-4, [000:L418]).

    Both flip; the lower total cheats first, the defender first on a tie (the aggressor wins ties, so
    the defender is the one who needs the cheat). The tracker's flip of a Fated vs Fated attack, Impose or
    Trick (`tracker.families.ttb.fate.opposed`) offers the cheats in this order.
    """
    if aggressor_total < defender_total:
        return aggressor, defender
    return defender, aggressor


def parse_damage_profile(text: str) -> tuple[int, int, int] | None:
    """Read a weapon's ``w/m/s`` damage (``2/3/5``); None if the text is not one."""
    parts = text.split("/")
    if len(parts) != 3 or not all(p.strip().isascii() and p.strip().isdigit() and len(p.strip()) <= 3 for p in parts):
        return None
    w, m, s = (int(p) for p in parts)
    return w, m, s


def keep(cards: Sequence[Card], fate: int) -> Card:
    """The card a flip uses (docs/rules/ttb.md#s2-2-1, docs/rules/ttb.md#s2-2-3): the Black Joker is forced; with ⊟ the
    lowest, except that the Red Joker may be used despite ⊟ [000:L152-154]; otherwise the best (the flipper chooses, and
    a higher card never does worse in a duel)."""
    black = [c for c in cards if c.is_black_joker]
    if black:
        return black[0]
    red = [c for c in cards if c.is_red_joker]
    if red:
        return red[0]
    if fate < 0:
        return min(cards, key=lambda c: c.value)
    return max(cards, key=lambda c: c.value)


def shown(cards: Sequence[Card], kept: Card) -> str:
    """How a flip of several cards is logged: ``3♦, 9♠ → 9♠ (9 of Crows)``; one card as itself."""
    if len(cards) == 1:
        return kept.label()
    return f"{', '.join(c.short() for c in cards)} → {kept.label()}"
