"""What the Fate Deck panel and ``tracker odds`` show of the odds (`tracker.families.ttb.fate.odds` computes them).

The next flip from the cards actually left: at least each value 1-13 for a plain flip and with ⊞, ⊞⊞,
⊟, ⊟⊟, by suit for a plain flip, and the Jokers; then the duel the table is asked about (a pending
duel prompt the tracker can flip, or ``--tn`` on the command line): straight, and if the Fated cheats
with the Control Hand (docs/rules/ttb.md#s2-2-4); and a damage flip's severities (docs/rules/ttb-damage.md#s2-8-1): for
a plain flip under the table, and for a pending damage flip with its modifier, straight and if the Fated attacker
cheats. Both read the same numbers, so the screen and the command line never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from tracker.families.ttb import answers, effects
from tracker.families.ttb.damage import resists_blind
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate import opposed
from tracker.families.ttb.fate.cards import SUIT_SYMBOL, SUITS, Card, parse_card
from tracker.families.ttb.fate.odds import (
    MODIFIERS,
    VALUES,
    DamageOdds,
    DuelOdds,
    FlipOdds,
    cards_of,
    damage_odds,
    duel_odds,
    flip_odds,
)
from tracker.families.ttb.fate.opposed_odds import OpposedOdds, opposed_odds
from tracker.families.ttb.records.state import Prompt
from tracker.families.values import JSONObject
from tracker.present import view
from tracker.present.words import percent

#: How each net modifier is written in the table's row labels.
GLYPHS = {0: "flip", 1: "⊞", 2: "⊞⊞", 3: "⊞⊞⊞", -1: "⊟", -2: "⊟⊟", -3: "⊟⊟⊟"}


def chance_of(p: Fraction) -> float:
    return float(p)


def _deck(eng: TTBEngine) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    return cards_of(eng.st.deck), cards_of(eng.st.discards)


#: Whose cards the one reading the odds knows: None for the GM (every hand and Twist Deck); a seat's own
#: characters for a player, so a seat's odds come from what that seat knows (docs/guide/seating.md): another
#: Fated's Control Hand and Twist Deck are unknown to it, and the odds then count no cheat from them.
Knows = frozenset[str] | None


def _knows(seat: Knows, who: str) -> bool:
    return seat is None or who in seat


def _twist(eng: TTBEngine, who: str, seat: Knows = None) -> tuple[Card, ...]:
    """What a reshuffle would draw `who` a Twist card from (docs/rules/ttb.md#s2-2-1): the Twist Deck, or its
    discards."""
    f = eng.fighter(who)
    if not eng.sheet(who).fated or f.dead or not _knows(seat, who):
        return ()
    return cards_of(f.twist_deck or f.twist_discards)


def _hand(eng: TTBEngine, who: str, seat: Knows = None) -> tuple[Card, ...] | None:
    """The Control Hand `who` may cheat with, or None (a Fatemaster character has none; a hand the reader
    does not know)."""
    if not eng.sheet(who).fated or eng.fighter(who).dead or not _knows(seat, who):
        return None
    return cards_of(eng.fighter(who).hand)


def _unseen(eng: TTBEngine, who: str | None, seat: Knows) -> str:
    """Why the odds count no cheat from `who`'s hand for this reader ("" when they may)."""
    if who and eng.sheet(who).fated and not _knows(seat, who):
        return f"{who}'s hand is theirs to know"
    return ""


# --- the question: a duel to show --------------------------------------------------------------------


def _counted(p: Prompt, key: str = "counted") -> str:
    """The modifiers the duel counted, as its odds line lists them (`tracker.families.ttb.duel`)."""
    counted = p.data.get(key)
    return f" [{', '.join(counted)}]" if isinstance(counted, list) and counted else ""


def listed(eng: TTBEngine, key: str) -> list[str]:
    counted = eng.st.prompt.data.get(key) if eng.st.prompt is not None else None
    return [str(c) for c in counted] if isinstance(counted, list) else []


def pending_duel(eng: TTBEngine) -> tuple[str, int, int, str, str, int] | None:
    """The pending duel prompt the tracker could flip against a TN: (who, TN, acting value, what the value
    is with the modifiers counted, why no cheat, the net Fate Modifier), as `answers._duel_answer` would flip
    it; None when no such duel waits."""
    p = eng.st.prompt
    if p is None or p.kind == "cheat" or "tn" not in p.data or not answers.flippable(p) or not p.who:
        return None
    if effects.COMPARED in p.data:  # Fatemaster against Fatemaster: no card, nothing to count
        return None
    fate = int(str(p.data.get("fate", 0)))
    minus = "no cheating under ⊟" if fate < 0 else ""
    if effects.DEFENDER in p.data:  # a Fatemaster's attack the Fated defends: its Defense flip
        defender = str(p.data[effects.DEFENDER])
        dv = eng.sheet(defender).defense
        return defender, int(str(p.data["tn"])), dv, f"Defense {dv}{_counted(p)}", minus, fate
    who = p.who
    skill = str(p.data.get("skill", ""))
    sheet = eng.sheet(who)
    bonus = int(str(p.data["bonus"])) if "bonus" in p.data else eng.fighter(who).assist
    av = sheet.skills.get(skill, 0) + bonus
    label = f"{skill.title() or 'AV'} {sheet.skills.get(skill, 0)}" + (f" {bonus:+d}" if bonus else "")
    untrained = "" if skill in sheet.skills else f"untrained in {skill.title()}: no cheating"
    return who, int(str(p.data["tn"])), av, label + _counted(p), untrained or minus, fate


def pending_opposed(eng: TTBEngine) -> tuple[str, str, int, int, str] | None:
    """A pending Fated vs Fated duel: (aggressor, defender, acting value, the defender's (Defense, or the skill
    it resists an Impose or a Trick with), the skill), each with the totals' changes the duel counted."""
    p = eng.st.prompt
    if p is None or p.kind == "cheat" or opposed.MARK not in p.data or not p.who:
        return None
    who, target = p.who, str(p.data["target"])
    skill = str(p.data.get("skill", ""))
    _, _, bonus_a, bonus_d = opposed.fates(p.data)
    av = eng.sheet(who).skills.get(skill, 0) + eng.fighter(who).assist + bonus_a
    return who, target, av, opposed.defence(eng, target, p.data)[0] + bonus_d, skill


def duel_for(
    eng: TTBEngine, who: str | None, tn: int, av: int, modifier: int, no_cheat: str, seat: Knows = None
) -> DuelOdds:
    deck, discards = _deck(eng)
    hand = _hand(eng, who, seat) if who else None
    twist = _twist(eng, who, seat) if who else ()
    return duel_odds(deck, discards, tn, av, modifier, hand, twist, no_cheat or _unseen(eng, who, seat))


def resisted(eng: TTBEngine) -> tuple[str, bool]:
    """What the defender of the pending Fated vs Fated duel flips with (Defense, or the skill an Impose or a
    Trick is resisted with) and whether it may cheat (not untrained in that skill, docs/rules/ttb.md#s2-2-4 [001:L19,
    L26])."""
    p = eng.st.prompt
    resist = str(p.data.get("resist", "")) if p is not None else ""
    if not resist or p is None:
        return "Defense", True
    return resist.title(), resist in eng.sheet(str(p.data["target"])).skills


def opposed_for(eng: TTBEngine, who: str, target: str, av: int, dv: int, skill: str, seat: Knows = None) -> OpposedOdds:
    deck, discards = _deck(eng)
    p = eng.st.prompt
    fa, fd, _, _ = opposed.fates(p.data) if p is not None else (0, 0, 0, 0)
    # An untrained side may not cheat (docs/rules/ttb.md#s2-2-4 [001:L19, L26]), nor one under net ⊟ [000:L87-89].
    trained = skill in eng.sheet(who).skills and fa >= 0
    defender_trained = resisted(eng)[1] and fd >= 0
    blind = p is not None and not p.data.get("resist") and resists_blind(eng, target)
    return opposed_odds(
        deck,
        discards,
        av,
        dv,
        _hand(eng, who, seat) if trained else None,
        None if blind else _hand(eng, target, seat) if defender_trained else None,
        _twist(eng, who, seat),
        _twist(eng, target, seat),
        fa=fa,
        fd=fd,
        blind=blind,
    )


def duel_line(who: str | None, label: str, odds: DuelOdds) -> str:
    """``Sofia Ramos, TN 12 with Melee 5: 38 % straight, 61 % cheating with 10♦ or 13♥``."""
    mod = f" {GLYPHS[odds.modifier]}" if odds.modifier else ""
    head = f"{who + ', ' if who else ''}TN {odds.tn} with {label}{mod}"
    text = f"{head}: {percent(odds.straight, True)} straight"
    if odds.cheat is not None and odds.cheat > odds.straight:
        cards = [parse_card(c).short() for c in odds.winners]
        with_cards = ", ".join(cards[:-1]) + f" or {cards[-1]}" if len(cards) > 1 else "".join(cards)
        text += f", {percent(odds.cheat, True)} cheating" + (f" with {with_cards}" if cards else "")
    elif odds.cheat is not None:
        text += "; cheating cannot help: " + ("no card in the hand passes" if odds.hand_size else "the hand is empty")
    elif who and odds.no_cheat:
        text += f" ({odds.no_cheat})"
    if odds.reshuffles:
        text += "; the flip reshuffles the deck"
    return text


def opposed_line(
    who: str, target: str, av: int, dv: int, skill: str, odds: OpposedOdds, against: str = "Defense"
) -> str:
    """``Sofia vs Ash: Melee 3 vs Defense 5 — 45 % straight, 60 % if both cheat`` (``vs Centering 2`` when an
    Impose is resisted)."""
    text = (
        f"{who} vs {target}: {skill.title() or 'AV'} {av} vs {against} {dv} — {percent(odds.straight, True)} straight"
    )
    if odds.aggressor_cheats is not None:
        text += f", {percent(odds.aggressor_cheats, True)} if {who} cheats"
    if odds.both_cheat is not None:
        text += f", {percent(odds.both_cheat, True)} if both cheat"
    if odds.reshuffles:
        text += "; the flips reshuffle the deck"
    return text


# --- a damage flip -------------------------------------------------------------------------------------

#: How a damage line names each severity, in the order it lists them.
SEVERITY_WORDS = (("none", "none"), ("weak", "weak"), ("moderate", "mod"), ("severe", "severe"))


def pending_damage(eng: TTBEngine) -> tuple[str, str, int] | None:
    """A pending damage flip the tracker can make: (the attacker, the target, the net modifier)."""
    from tracker.families.ttb import attack

    p = eng.st.prompt
    if p is None or p.kind != attack.DAMAGE or not p.who:
        return None
    return p.who, str(p.data["target"]), int(str(p.data.get("modifier", 0)))


def damage_for(eng: TTBEngine, who: str | None, modifier: int, seat: Knows = None) -> DamageOdds:
    deck, discards = _deck(eng)
    hand = _hand(eng, who, seat) if who else None
    twist = _twist(eng, who, seat) if who else ()
    return damage_odds(deck, discards, modifier, hand, twist, _unseen(eng, who, seat))


def _severity_text(chances: Mapping[str, Fraction]) -> str:
    return " · ".join(f"{word} {percent(chances[key], True)}" for key, word in SEVERITY_WORDS)


def damage_line(label: str, odds: DamageOdds) -> str:
    """``Damage flip: none 2 % · weak 37 % · mod 37 % · severe 24 % (RJ 2 %)``, then if the attacker
    cheats: ``; cheating: … ``."""
    text = f"{label}: {_severity_text(odds.straight)} (RJ {percent(odds.red_joker, True)})"
    if odds.cheat is not None:
        text += f"; cheating: {_severity_text(odds.cheat)}"
    elif odds.no_cheat and odds.no_cheat != "not a Fated":
        text += f"; {odds.no_cheat}"
    if odds.reshuffles:
        text += "; the flip reshuffles the deck"
    return text


def damage_label(modifier: int, who: str | None = None, target: str | None = None) -> str:
    """``Damage flip`` for a plain flip, ``Sofia's damage flip on Mara ⊟`` for a pending one."""
    glyph = "" if modifier == 0 else f" {GLYPHS[modifier]}"
    if who is None:
        return f"Damage flip{glyph}"
    return f"{who}'s damage flip on {target}{glyph}"


def damage_json(who: str | None, odds: DamageOdds) -> JSONObject:
    return {
        "who": who,
        "modifier": odds.modifier,
        "straight": {k: chance_of(v) for k, v in odds.straight.items()},
        "red_joker": chance_of(odds.red_joker),
        "cheat": None if odds.cheat is None else {k: chance_of(v) for k, v in odds.cheat.items()},
        "no_cheat": odds.no_cheat or None,
        "reshuffles": odds.reshuffles,
    }


# --- the table of the next flip ----------------------------------------------------------------------


def flips(eng: TTBEngine) -> dict[int, FlipOdds]:
    deck, discards = _deck(eng)
    return {m: flip_odds(deck, discards, m) for m in MODIFIERS}


def table(eng: TTBEngine, table_flips: Mapping[int, FlipOdds], duels: list[str]) -> view.OddsView:
    """The next flip as the panel shows it: ≥ 1-13 and the Jokers across, one row per modifier, then one
    per suit; the duels the table is asked about above it."""
    st = eng.st
    plain = table_flips[0]
    rows = [
        view.OddsRow(
            GLYPHS[m],
            (*(percent(f.at_least[v]) for v in VALUES), percent(f.red_joker), percent(f.black_joker)),
        )
        for m, f in table_flips.items()
    ]
    rows += [view.OddsRow(SUIT_SYMBOL[s], (*(percent(plain.by_suit[s][v]) for v in VALUES), "", "")) for s in SUITS]
    left = f"{len(st.deck)} cards left" if st.deck else "the deck is empty: the flip reshuffles"
    head = view.BlockWriter()
    for line in duels:
        head.line(line)
    notes = view.BlockWriter()
    notes.line("RJ, BJ: a Joker among the cards · ♥♠♣♦: one card of that suit (or the Red Joker)", "dim")
    notes.line(damage_line(damage_label(0), damage_for(eng, None, 0)))
    columns = (*(str(v) for v in VALUES), "RJ", "BJ")
    title = f"Next flip, % at least · {left}"
    return view.OddsView(title, "≥", columns, tuple(rows), notes.block(), True, head.block())


def panel(eng: TTBEngine, seat: Knows = None) -> view.OddsView:
    """The Fate Deck panel's odds: the next flip, and the duel the table is asked about, if any."""
    notes = []
    duel = pending_duel(eng)
    if duel is not None:
        who, tn, av, label, untrained, fate = duel
        notes.append(duel_line(who, label, duel_for(eng, who, tn, av, fate, untrained, seat)))
    fight = pending_opposed(eng)
    if fight is not None:
        who, target, av, dv, skill = fight
        odds = opposed_for(eng, who, target, av, dv, skill, seat)
        notes.append(opposed_line(who, target, av, dv, skill, odds, resisted(eng)[0]))
    hit = pending_damage(eng)
    if hit is not None:
        attacker, target, modifier = hit
        notes.append(damage_line(damage_label(modifier, attacker, target), damage_for(eng, attacker, modifier, seat)))
    return table(eng, flips(eng), notes)
