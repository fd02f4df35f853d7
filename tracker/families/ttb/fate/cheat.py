"""Cheating Fate (docs/rules/ttb.md#s2-2-4, [000:L63-65, L103-105, L163]; docs/reference/language.md "Cheating Fate").

After a Fated's flip that the tracker made (a duel or challenge answered ``flip``, a Fated attacker's
damage flip), the engine offers the cards of the Control Hand that would help as a ``cheat`` prompt:
``answer CARD`` plays that card in place of the flip, ``answer no`` keeps the flip. No offer under net ⊟,
after a Black Joker, on an initiative flip, on an untrained duel, or for a card the table typed in.

Where the cards go: the flipped card is already in the Fate Deck's discard pile (every flip ends there);
the played card is a Twist card, so it goes to its owner's Twist discard pile [000:L167] (the hand is not
refilled: a Control Hand refills only at the end of Dramatic Time, decision A23b).
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.engine.errors import Refusal
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate.cards import Card, can_cheat, parse_card

KIND = "cheat"
#: Prompt data keys the cheat prompt adds to the data of the flip it interrupts.
PREFIX = "cheat_"
#: The prompt data key of what the screen writes for each option (`tracker.families.presenter.option_labels`).
LABELS = "labels"


def offer(
    eng: TTBEngine,
    who: str | None,
    flipped: Card,
    cards: list[Card],
    modifier: int,
    helps: Callable[[Card], bool],
    of: str,
    describe: Callable[[Card], str] | None = None,
    **data: str | int | bool | list[str],
) -> bool:
    """Ask whether `who` cheats `flipped`, if the rules allow it and a hand card helps; True if asked.

    The options stay the cards' codes (``10M``: what JSON and typed answers use); the screen shows each as
    what it would make (`describe`: "10♦ → 13 vs TN 11: pass"), and ``no`` as keeping the flipped card.
    """
    if not who or not eng.settings.offer_cheat or not eng.sheet(who).fated or eng.fighter(who).dead:
        return False
    if not can_cheat(cards, modifier):
        return False
    options = [code for code in eng.fighter(who).hand if helps(parse_card(code))]
    if not options:
        return False
    labels = [card_text(parse_card(code), describe) for code in options]
    fields = {k: v for k, v in data.items() if k != LABELS}
    eng.ask(
        KIND,
        f"{who} flipped {flipped.short()}: cheat with a card from the hand?",
        [*options, "no"],
        who=who,
        cheat_of=of,
        cheat_card=flipped.code,
        **fields,
        labels=[*labels, f"no: keep the {flipped.short()}"],
    )
    return True


def card_text(card: Card, describe: Callable[[Card], str] | None = None) -> str:
    """A card as the screens write it (``10♦``), with what it would make (``10♦ → 13 vs TN 11: pass``)."""
    return f"{card.short()} → {describe(card)}" if describe is not None else card.short()


def margins_text(total: int, tn: int) -> str:
    """A duel total against its TN as a cheat option says it: ``13 vs TN 11: pass``, ``16 vs TN 11: 1 Margin``."""
    if total < tn:
        return f"{total} vs TN {tn}: fail"
    margins = (total - tn) // 5
    return f"{total} vs TN {tn}: " + (f"{margins} Margin{'s' if margins > 1 else ''}" if margins else "pass")


def held(eng: TTBEngine, who: str | None, text: str) -> str | None:
    """The code of the card `text` names if `who` is a Fated holding it in the Control Hand, else None."""
    if not who or not eng.sheet(who).fated:
        return None
    wanted = parse_card(text)
    return next((c for c in eng.fighter(who).hand if c == wanted.code), None)


def play(eng: TTBEngine, who: str, code: str, instead: Card | None) -> Card:
    """Play `code` from `who`'s Control Hand in place of a flip; it goes to the Twist discard pile."""
    f = eng.fighter(who)
    if code not in f.hand:
        raise Refusal(f"{who}'s Control Hand has no {code} (hand: {', '.join(f.hand) or 'empty'})")
    f.hand.remove(code)
    f.twist_discards.append(code)
    card = parse_card(code)
    over = f" in place of {instead.label()}" if instead is not None else ""
    eng.log(f"{who} cheats Fate: plays {card.label()} from the Control Hand{over}", kind="result")
    return card


def original_data(data: dict[str, str | int | bool | list[str]]) -> dict[str, str | int | bool | list[str]]:
    """The data of the prompt the cheat offer interrupted."""
    return {k: v for k, v in data.items() if not k.startswith(PREFIX) and k != LABELS}
