"""Initiative and the order of a round (docs/rules/ttb-turns.md#s2-3).

Fated flip one card (never cheated) + Initiative; Fatemaster characters use Rank Value + Initiative.
Ties: a Fated beats a Fatemaster character, then the higher Speed, then the players decide, anew
each round (the engine asks at every round start while a tie stands).
"""

from __future__ import annotations

from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate import deck
from tracker.families.ttb.fate.cards import parse_card


def base_initiative(eng: TTBEngine, name: str) -> int:
    """Initiative before Pass and Wait changes."""
    sheet = eng.sheet(name)
    f = eng.fighter(name)
    if sheet.fated:
        card = parse_card(f.init_card) if f.init_card else None
        return (card.value if card else 0) + sheet.initiative
    assert sheet.rank_value is not None
    return sheet.rank_value + sheet.initiative


def recompute(eng: TTBEngine, name: str) -> None:
    f = eng.fighter(name)
    f.init = base_initiative(eng, name) + f.init_mod


def flip_initiative(eng: TTBEngine) -> None:
    """At the start of Dramatic Time: every Fated without a GM-set card flips (no cheating)."""
    for name in eng.present_names():
        sheet, f = eng.sheet(name), eng.fighter(name)
        if sheet.fated and f.init_card is None and not f.dead:
            card = deck.flip(eng, 1)[0]
            f.init_card = card.code
            eng.log(f"{name} flips {card.label()} for initiative (no cheating)")
        recompute(eng, name)


def _key(eng: TTBEngine, name: str) -> tuple[int, int, int]:
    sheet = eng.sheet(name)
    return (-eng.fighter(name).init, 0 if sheet.fated else 1, -sheet.speed)


def in_round(eng: TTBEngine, name: str) -> bool:
    """In this round's order: alive, still in the fight, and not a newcomer waiting for the next round."""
    f = eng.fighter(name)
    return not f.dead and not f.arriving and not eng.has_left(name)


def tied_groups(eng: TTBEngine) -> list[list[str]]:
    """Groups of combatants in the round the rules cannot separate (same total, kind and Speed), each in
    the file's order, the groups in acting order.

    The GM screen asks after every command, for hundreds of combatants: one pass gathers each
    key's combatants (what `_key` and `in_round` say, written out), and only the distinct keys are sorted."""
    fighters, left = eng.st.fighters, set(eng.st.left)
    groups: dict[tuple[int, int, int], list[str]] = {}
    for name, sheet in eng.sheets.items():
        f = fighters[name]
        if f.dead or f.arriving or name in left:
            continue
        groups.setdefault((-f.init, 0 if sheet.fated else 1, -sheet.speed), []).append(name)
    return [group for _, group in sorted(groups.items()) if len(group) > 1]


def run_ties(eng: TTBEngine) -> None:
    """Agenda step: ask who goes first in each unresolved tie, then build the round's order."""
    picks = eng.st.tie_picks
    for group in tied_groups(eng):
        left = [n for n in group if n not in picks]
        if len(left) > 1:
            total = eng.fighter(group[0]).init
            question = f"Initiative tie at {total} between {', '.join(left)}: who acts first this round?"
            first = as_last_round(eng, left)
            if first is None:
                eng.ask("tie", question, left)
                return
            left = [first, *(n for n in left if n != first)]
            eng.ask("tie", question, left, labels=[f"{first} · as last round", *left[1:]])
            return
    build_order(eng)


def as_last_round(eng: TTBEngine, left: list[str]) -> str | None:
    """Who of `left` acted first last round when the players answered the same tie then, else None.

    The players decide a tie anew each round (docs/rules/ttb-turns.md#s2-3-3), so the question comes back every round
    (identical minions tie every round); when last round's picks ordered all of `left` (every one picked, or all but
    the one left over), the one who went first then is offered first ("as last round", option 1)."""
    before = [n for n in eng.st.last_tie_picks if n in left]
    return before[0] if before and len(before) >= len(left) - 1 else None


def build_order(eng: TTBEngine) -> None:
    """Sort the living by initiative; players' tie picks order each tied group."""
    picks = eng.st.tie_picks

    def key(name: str) -> tuple[int, int, int, int]:
        rank = picks.index(name) if name in picks else len(picks)
        return (*_key(eng, name), rank)

    eng.st.order = sorted((n for n in eng.sheets if in_round(eng, n)), key=key)


def apply_pending_mods(eng: TTBEngine) -> None:
    """At round start, Pass (+1) and Wait (−1) from the last round take effect (decision A16)."""
    for name in eng.sheets:
        f = eng.fighter(name)
        if f.pending_init_mod:
            f.init_mod += f.pending_init_mod
            eng.log(f"{name}'s initiative {'+' if f.pending_init_mod > 0 else ''}{f.pending_init_mod} from Pass/Wait")
            f.pending_init_mod = 0
        recompute(eng, name)
