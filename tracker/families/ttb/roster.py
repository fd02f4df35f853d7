"""Who is in a Through the Breach fight: a combatant's record as it enters, ``join`` and ``leave``
(docs/reference/language.md; docs/rules/ttb.md#s2-2-2, docs/rules/ttb-turns.md#s2-3).

Decisions (README "Joining and leaving"):

* A newcomer joining while Dramatic Time runs flips its initiative at once (a Fated: one card from the Fate
  Deck, never cheated, docs/rules/ttb-turns.md#s2-3; a Fatemaster character: Rank Value + Initiative) and enters the
order from the
  **next round**: this round's order was settled at its start. ``initiative NAME CARD`` replaces the flipped
  card as it does for anyone.
* A Fated newcomer without a ``hand`` draws its Control Hand of three Twist cards as at the start of
  Dramatic Time (docs/rules/ttb.md#s2-2-2, [000:L169]). Before ``start`` (or after ``end``) a newcomer simply waits for
the
  next ``start``, which flips and draws for it like everyone else.
* ``leave`` on the combatant whose turn is open ends that turn without its end-of-turn effects (it is gone),
  and the fight goes on as after ``next``; an Ordered subordinate still takes its turn next
(docs/rules/ttb-turns.md#s2-3 Order).
"""

from __future__ import annotations

from tracker.engine import rng
from tracker.engine.arrivals import arrivals, depart
from tracker.engine.language.commands import Command
from tracker.engine.records.record import copied
from tracker.families.ttb import initiative
from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.fate import deck
from tracker.families.ttb.fate.cards import parse_card
from tracker.families.ttb.records.sheet import TTBCombatant, starting_fate_points
from tracker.families.ttb.records.state import Fighter, TTBState

#: Cards a Fated draws into its Control Hand at the start of Dramatic Time (docs/rules/ttb.md#s2-2-2, [000:L169]).
STARTING_HAND = 3


def fighter_for(st: TTBState, sheet: TTBCombatant) -> Fighter:
    """A combatant's live record as it enters the fight: full Wounds, its sheet's conditions, a Fatemaster's
    Fate Points by rank, a Fated's starting hand, Twist discards and shuffled Twist Deck (the suits' cards in
    neither pile, shuffled from `st`'s randomness)."""
    f = Fighter(wounds=sheet.wounds if sheet.wounds_left is None else sheet.wounds_left)
    for key, value in sheet.conditions.items():
        if key == "unconscious":
            f.unconscious = True
            f.conditions["prone"] = True
        else:
            f.conditions[key] = value
    if not sheet.fated:
        assert sheet.rank_value is not None
        f.fate_points = sheet.fate_points if sheet.fate_points is not None else starting_fate_points(sheet.rank_value)
    else:
        f.hand = [parse_card(c).code for c in (sheet.hand or [])]
        f.twist_discards = [parse_card(c).code for c in (sheet.twist_discard or [])]
        out = {*f.hand, *f.twist_discards}
        twist = [c for c in sheet.twist_cards() if c not in out]
        rng.shuffle(st, twist)
        f.twist_deck = twist
    f.shots = {w.name: w.capacity for w in sheet.weapons if w.capacity}
    return f


def playing(eng: TTBEngine) -> bool:
    """Dramatic Time runs: between ``start`` and ``end``."""
    return eng.st.phase in ("turn", "between")


def join(eng: TTBEngine, cmd: Command) -> None:
    """``join NAME [from=BLOCK] [count=N] [side=S]``: newcomers from a stat block (docs/reference/language.md)."""
    st = eng.st
    coming = arrivals(eng, cmd)
    stalled = playing(eng) and st.active is None and not st.agenda and not st.after_turn
    for arrival in coming:
        block = arrival.block
        sheet = copied(block, deep=True, name=arrival.name, side=arrival.side or block.side)
        name = sheet.name
        st.fighters[name] = fighter_for(st, sheet)
        st.joined.append(sheet)
        eng.sheets[name] = sheet
        source = "" if name == block.name else f" ({block.name})"
        eng.log(f"{name}{source} joins the fight on the side of the {eng.side(name)}")
        if playing(eng):
            _enter_mid_fight(eng, name)
        else:
            initiative.recompute(eng, name)
    if stalled:
        # Play had stopped with nobody left to fight; it goes on with the newcomers from the next round.
        eng.push(step("advance"))


def _enter_mid_fight(eng: TTBEngine, name: str) -> None:
    """Control Hand, the initiative flip, surprise; out of this round's order (the module's decisions)."""
    sheet, f = eng.sheet(name), eng.fighter(name)
    if sheet.fated:
        if sheet.hand is None:
            for _ in range(STARTING_HAND):
                deck.draw_twist(eng, name, "joining Dramatic Time")
        card = deck.flip(eng, 1)[0]
        f.init_card = card.code
        eng.log(f"{name} flips {card.label()} for initiative (no cheating)")
    if sheet.surprised:
        f.first_turn_slow = True
    initiative.recompute(eng, name)
    f.arriving = True
    eng.log(f"{name} has initiative {f.init} and enters the order from round {eng.st.round + 1}")


def leave(eng: TTBEngine, text: str) -> None:
    """``leave NAME``: out of the order and its engagements; an open turn of its own passes on."""
    st = eng.st
    name = depart(eng, text)
    f = eng.fighter(name)
    f.arriving = False
    st.engagements = [pair for pair in st.engagements if name not in pair]
    st.effects = [e for e in st.effects if name not in (e.owner, e.target)]
    st.tie_picks = [n for n in st.tie_picks if n != name]
    st.last_tie_picks = [n for n in st.last_tie_picks if n != name]
    for other in st.fighters.values():
        if other.ordered == name:
            other.ordered = None
    if st.phase != "turn" or st.active != name:
        return
    sub = f.ordered
    f.ordered = None
    f.ap = 0
    f.combat_ap = 0
    f.acted = True
    st.active = None
    st.extra_turn = False
    eng.log(f"{name}'s turn ends as it leaves (no end-of-turn effects)")
    eng.close_turn(name, effects=False)
    if sub is not None and not eng.fighter(sub).dead and not eng.has_left(sub):
        eng.fighter(sub).acted = True
        eng.push(step("turn_start", sub, "ordered"))
