"""Suit triggers declared after a duel [000:L67 "Declare triggers", after cheating; 001:L41-43]
(docs/reference/language.md ``trigger``).

A trigger is an ability that fires when its suit is in the duel's final total: the card's suit (the Red Joker's
any one suit, the Black Joker none [000:L152-159]) and the suits on the acting value (the sheet's ``suits``,
[000:L55]). The suit is not spent; one trigger per duel; each trigger once per turn; declared after cheating,
at the player's wish [001:L42-43]. The tracker records which card each duel ended with (`note`, called where a
duel's card is final), so ``trigger NAME 'TEXT' [suit=S]`` is checked against it and refused when the suit is
not in the total. The effect is the GM's to resolve: its text is kept in the log and in JSON ``triggers``.

When the tracker knows no card for NAME's last duel (the table gave ``pass``/``fail``, a Fatemaster character
compared without a card, a Fated vs Fated flip), ``suit=`` is required and taken as the table says.
"""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate.cards import SUIT_SYMBOL, SUITS, Card, parse_card
from tracker.families.ttb.records.state import DuelCard, Trigger

_SUIT_WORDS = {
    **{letter.casefold(): letter for letter in SUITS},
    **{name.casefold(): letter for letter, name in SUITS.items()},
    **{name.casefold().rstrip("s"): letter for letter, name in SUITS.items()},
    **{symbol: letter for letter, symbol in SUIT_SYMBOL.items()},
}


def note(eng: TTBEngine, who: str | None, card: Card | None, kind: str, skill: str = "") -> None:
    """A duel's card is final (after any cheat): it is the one a trigger of `who` is declared on."""
    if not who or who not in eng.sheets:
        eng.st.last_duel = []
        return
    eng.st.last_duel = [DuelCard(who=who, card=card.code if card else None, skill=skill, kind=kind)]


def suit_of(text: str) -> str:
    letter = _SUIT_WORDS.get(text.strip().casefold())
    if letter is None:
        raise Refusal(f"suit={text}: give Rams, Crows, Tomes or Masks (R, C, T, M)")
    return letter


def _named(letter: str) -> str:
    return f"{SUIT_SYMBOL[letter]} {SUITS[letter]}"


def command(eng: TTBEngine, cmd: Command) -> None:
    """``trigger NAME 'TEXT' [suit=S]``: checked against NAME's last duel, then recorded."""
    who = eng.living(cmd.args[0])
    text = " ".join(cmd.args[1:]).strip()
    if not text:
        raise Refusal("name the trigger: trigger NAME 'TEXT' [suit=S]")
    wanted = suit_of(cmd.options["suit"]) if "suit" in cmd.options else None
    st = eng.st
    duel = next((d for d in st.last_duel if d.who == who), None)
    if duel is not None and duel.triggered:
        raise Refusal(f"{who} already declared '{duel.triggered}' on this duel: one trigger per duel")
    turn = st.active if st.phase == "turn" else None
    for t in st.triggers:
        if t.who == who and t.text.casefold() == text.casefold() and t.round == st.round and t.turn == turn:
            raise Refusal(f"{who} used '{t.text}' this turn already: each trigger once per turn")
    card = parse_card(duel.card) if duel is not None and duel.card else None
    suit, whence = _suit(eng, who, duel, card, wanted)
    if duel is None:
        duel = DuelCard(who=who)
        st.last_duel.append(duel)
    duel.triggered = text
    st.triggers.append(
        Trigger(who=who, text=text, suit=suit, card=card.code if card else None, round=st.round, turn=turn)
    )
    eng.log(f"{who} declares a trigger: {text} ({_named(suit)}{whence})", kind="result")


def _suit(eng: TTBEngine, who: str, duel: DuelCard | None, card: Card | None, wanted: str | None) -> tuple[str, str]:
    """The suit the trigger uses and where it comes from; refused when it is not in the final total."""
    if card is None:
        if wanted is None:
            what = "the duel the table resolved" if duel is not None else f"no duel of {who}'s the tracker flipped"
            raise Refusal(f"{what}: give the suit in the total, suit=Rams|Crows|Tomes|Masks")
        return wanted, ", the table's duel"
    skill = duel.skill if duel is not None else ""
    aspect = eng.sheet(who).suits.get(skill, "") if skill else ""
    if card.is_red_joker:
        # The Red Joker counts as any one suit of the player's choice [000:L152].
        if wanted is None and not aspect:
            raise Refusal("the Red Joker is any one suit: give suit=Rams|Crows|Tomes|Masks")
        suit = wanted or aspect[0]
        return suit, " in the Red Joker" if wanted or not aspect else f" on {skill.title()}"
    have = ([card.suit] if card.suit and not card.is_black_joker else []) + list(aspect)
    shown = card.short() + (f" + {skill.title()} {''.join(SUIT_SYMBOL[s] for s in aspect)}" if aspect else "")
    if not have:
        raise Refusal(f"{who}'s total ({shown}) has no suit: no trigger")
    if wanted is None:
        return have[0], f" in {shown}"
    if wanted not in have:
        raise Refusal(f"{who}'s total ({shown}) has no {SUITS[wanted]}: that trigger does not fire")
    return wanted, f" in {shown}"


def clear(eng: TTBEngine) -> None:
    """End of Dramatic Time: the duels and triggers of the fight are done."""
    eng.st.last_duel = []
    eng.st.triggers = []
