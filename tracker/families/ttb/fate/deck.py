"""The Fate Deck, Twist Decks and Control Hands (docs/rules/ttb.md#s2-2).

Every flip draws from the shared Fate Deck through `flip`, which reshuffles the discards when the deck
runs out; each reshuffle (and the GM's manual one) has every Fated draw one Twist card (decision A22).
Hands over five cards settle at the end of the action through a discard prompt (decision A23).
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.engine import rng
from tracker.engine.errors import Refusal
from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.fate.cards import Card, parse_card
from tracker.present.words import counted

HAND_LIMIT = 5
MAX_FLIP = 10


def card_of(code: str) -> Card:
    return parse_card(code)


def flipped_or_taken(eng: TTBEngine, value: str) -> Card:
    """The card an answer names: the next one flipped for ``flip``, else the card typed, taken from the deck."""
    if value.casefold() == "flip":
        return flip(eng, 1)[0]
    return take(eng, value)


def flip(eng: TTBEngine, count: int = 1, why: str = "") -> list[Card]:
    """Flip `count` cards from the Fate Deck; they end in the discard pile."""
    if not 1 <= count <= MAX_FLIP:
        raise Refusal(f"flip 1 to {MAX_FLIP} cards at a time")
    st = eng.st
    for _ in range(count):
        if not st.deck:
            reshuffle(eng, "the Fate Deck ran out")
        st.table.append(st.deck.pop())
    cards = [card_of(c) for c in st.table]
    st.discards.extend(st.table)
    st.table.clear()
    if why:
        eng.log(f"{why}: flipped {', '.join(c.label() for c in cards)}", kind="result")
    return cards


def take(eng: TTBEngine, text: str) -> Card:
    """Use a card the GM names instead of a tracker flip; it leaves the deck if the deck holds it."""
    card = parse_card(text)
    st = eng.st
    code = card.code
    if card.suit is None and not (card.is_red_joker or card.is_black_joker):
        code = next((c for c in reversed(st.deck) if parse_card(c).value == card.value), code)
        card = parse_card(code)
    if code in st.deck:
        st.deck.remove(code)
        st.discards.append(code)
    return card


def reshuffle(eng: TTBEngine, why: str) -> None:
    """Shuffle the discards into a new Fate Deck; every Fated draws one Twist card (docs/rules/ttb.md#s2-2-1)."""
    st = eng.st
    st.deck = st.discards + st.deck
    st.discards = []
    rng.shuffle(st, st.deck)
    st.reshuffles += 1
    eng.log(f"Fate Deck reshuffled ({why}): {counted(len(st.deck), 'card')}")
    for name in eng.present_names():
        if eng.sheet(name).fated and not st.fighters[name].dead:
            draw_twist(eng, name, "the reshuffle")


def shuffle_unseen(eng: TTBEngine) -> None:
    """A new branch of the future (the first command after an undo): the Fate Deck's undrawn cards and each
    Twist Deck are shuffled anew, unlogged. No one has seen their order, so nothing the table knows changes,
    but what an undone flip showed is no longer the known top of the deck (docs/guide/shared-box.md)."""
    st = eng.st
    rng.shuffle(st, st.deck)
    for f in st.fighters.values():
        if f.twist_deck:
            rng.shuffle(st, f.twist_deck)


def redeal_hands(eng: TTBEngine, names: Sequence[str]) -> None:
    """Control Hands nobody asking has seen (a fight's odds for the players): each goes back into its Twist
    Deck, which is shuffled, and as many cards are drawn again, unlogged: the hand's size is known, its cards
    are not."""
    st = eng.st
    for name in names:
        f = st.fighters.get(name)
        if f is None or not f.hand:
            continue
        held = len(f.hand)
        # Sorted before the shuffle: the cards' order then says nothing of which were in the hand.
        f.twist_deck[:] = sorted([*f.twist_deck, *f.hand])
        f.hand.clear()
        rng.shuffle(st, f.twist_deck)
        f.hand.extend(f.twist_deck.pop() for _ in range(held))


def draw_twist(eng: TTBEngine, name: str, why: str) -> None:
    """Draw one Twist card into the Control Hand; over five cards, a discard is queued (A23)."""
    f = eng.fighter(name)
    if not eng.sheet(name).fated:
        # A Fatemaster character that would draw a Twist card gains a Fate Point instead [000:L392].
        f.fate_points += 1
        eng.log(f"{name} gains 1 Fate Point instead of a Twist card ({why})")
        return
    if not f.twist_deck:
        if not f.twist_discards:
            eng.log(f"{name} has no Twist cards left to draw")
            return
        f.twist_deck = list(f.twist_discards)
        f.twist_discards = []
        rng.shuffle(eng.st, f.twist_deck)
        eng.log(f"{name}'s Twist Deck is reshuffled")
    f.hand.append(f.twist_deck.pop())
    eng.log(f"{name} draws a Twist card ({why}): {len(f.hand)} in hand")
    over = len(f.hand) - HAND_LIMIT
    if over > 0:
        f.pending_discard = over
        eng.push(step("settle_hand", name))


def discard_from_hand(eng: TTBEngine, name: str, text: str) -> str:
    """Discard a named card from a Control Hand into its Twist discard pile."""
    f = eng.fighter(name)
    wanted = parse_card(text)
    for code in f.hand:
        c = parse_card(code)
        if c.code == wanted.code or (wanted.suit is None and c.value == wanted.value):
            f.hand.remove(code)
            f.twist_discards.append(code)
            return code
    raise Refusal(f"{name}'s Control Hand has no {text} (hand: {', '.join(f.hand) or 'empty'})")


def settle_hand(eng: TTBEngine, name: str) -> None:
    """Ask which card to discard while the hand is over five (the player chooses, [001:L40])."""
    f = eng.fighter(name)
    if f.pending_discard <= 0 or len(f.hand) <= HAND_LIMIT:
        f.pending_discard = 0
        return
    eng.ask(
        "hand_discard",
        f"{name}'s Control Hand holds {len(f.hand)} cards (max {HAND_LIMIT}): which card is discarded?",
        list(f.hand),
        who=name,
        labels=[parse_card(c).short() for c in f.hand],
    )


def end_discard_offer(eng: TTBEngine, name: str) -> None:
    """End of Dramatic Time: a Fated may discard any cards, then refills to three ([000:L172], A23b)."""
    hand = eng.fighter(name).hand
    if not hand:
        refill_hand(eng, name)
        return
    eng.ask(
        "end_discard",
        f"End of Dramatic Time: which cards does {name} discard before refilling to 3? (e.g. {hand[0]}, or none)",
        [*hand, "none"],
        who=name,
        labels=[*(parse_card(c).short() for c in hand), "none"],
    )


def end_discards(eng: TTBEngine, name: str, value: str) -> list[str]:
    """The hand cards an ``end_discard`` answer names (``9R,3M``, ``9R 3M`` or ``none``); refuses a card
    not in the hand, before anything changes."""
    words = [w for w in value.replace(",", " ").split() if w]
    if [w.casefold() for w in words] in (["none"], ["no"]):
        return []
    if not words:
        raise Refusal("answer the cards to discard (e.g. 9R,3M) or none")
    hand = list(eng.fighter(name).hand)
    out = []
    for w in words:
        wanted = parse_card(w)
        code = next(
            (c for c in hand if c == wanted.code or (wanted.suit is None and parse_card(c).value == wanted.value)), None
        )
        if code is None:
            raise Refusal(f"{name}'s Control Hand has no {w} (hand: {', '.join(eng.fighter(name).hand)})")
        hand.remove(code)
        out.append(code)
    return out


def refill_hand(eng: TTBEngine, name: str, to: int = 3) -> None:
    """End of Dramatic Time: refill the Control Hand to three (decision A23b)."""
    f = eng.fighter(name)
    while len(f.hand) < to and (f.twist_deck or f.twist_discards):
        draw_twist(eng, name, "end of Dramatic Time")
