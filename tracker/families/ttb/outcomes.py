"""What an answered question does in Through the Breach, beyond the duel's own flip (`tracker.families.ttb.answers`
routes each prompt kind here): an attack duel's hit or miss, the Toughness challenge, a Doctor or a contest,
a critical's flip, the players' pick of a tie, a Reactivate turn taken or declined, a disengaging strike, and
the cards a Control Hand discards."""

from __future__ import annotations

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.families.ttb import conditions, damage, effects, movement
from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.fate import deck
from tracker.families.ttb.records.state import Prompt


def unconscious_check(eng: TTBEngine, p: Prompt, passed: bool, margins: int, diff: int | None) -> None:
    assert p.who is not None
    if passed:
        eng.log(f"{p.who} passes the Toughness challenge and stays conscious")
    else:
        damage.fall_unconscious(eng, p.who, "failed the TN 10 Toughness challenge")


def attack_duel(eng: TTBEngine, p: Prompt, passed: bool, margins: int, diff: int | None) -> None:
    """An attack duel's result: a hit makes the weapon's damage flip (docs/rules/ttb-damage.md#s2-8-1)."""
    assert p.who is not None
    target, weapon = str(p.data["target"]), str(p.data["weapon"])
    effects.resolve_attack(eng, p.who, target, weapon, passed, margins, diff, bool(p.data.get("guided")))


def critical(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    damage.resolve_critical(eng, p.who, str(p.data["severity"]), deck.flipped_or_taken(eng, value))


def doctor(eng: TTBEngine, p: Prompt, passed: bool, margins: int, diff: int | None) -> None:
    target = str(p.data["target"])
    if passed and eng.fighter(target).conditions.get("bleeding_out"):
        conditions.lower(eng, target, "bleeding_out", None, f"{p.who}'s Doctor duel succeeds")
    elif not passed:
        eng.log(f"{p.who}'s Doctor duel fails: {target} is still Bleeding Out")


def contest(eng: TTBEngine, p: Prompt, passed: bool, margins: int, diff: int | None) -> None:
    assert p.who is not None
    effects.resolve_contest(eng, p.kind, p.who, str(p.data["target"]), passed, margins)


def tie(eng: TTBEngine, p: Prompt, value: str) -> None:
    chosen = names.resolve(value, p.options)
    eng.st.tie_picks.append(chosen)
    eng.log(f"{chosen} acts first among the tied this round (the players decide)")
    eng.push(step("ties"))


def reactivate(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    word = value.casefold()
    if word not in ("yes", "y", "no", "n"):
        raise Refusal("answer yes or no")
    f = eng.fighter(p.who)
    f.conditions.pop("reactivate", None)
    if word.startswith("y"):
        eng.log(f"{p.who} takes its Reactivate turn; Reactivate ends")
        eng.push(step("turn_start", p.who, "extra"))
    else:
        eng.log(f"{p.who} declines its Reactivate turn; Reactivate ends")


def disengaging_strike(eng: TTBEngine, p: Prompt, value: str) -> None:
    mover = str(p.data["mover"])
    word = value.casefold()
    if word in ("hit", "h", "pass", "yes"):
        eng.log(f"{p.who}'s disengaging strike hits {mover}")
        movement.cancel_move(eng, mover)
    elif word in ("miss", "m", "fail", "no", "n", "decline", "none"):
        eng.log(f"{p.who} {'misses' if word.startswith('m') or word == 'fail' else 'makes no strike'}")
    else:
        raise Refusal("answer hit, miss or no")


def hand_discard(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    code = deck.discard_from_hand(eng, p.who, value)
    f = eng.fighter(p.who)
    eng.log(f"{p.who} discards {code} from the Control Hand")
    if p.kind == "hand_discard":
        f.pending_discard = max(0, len(f.hand) - deck.HAND_LIMIT)
        if f.pending_discard:
            eng.push(step("settle_hand", p.who))


def end_discard(eng: TTBEngine, p: Prompt, value: str) -> None:
    """End of Dramatic Time: discard the named cards, then refill to three (docs/rules/ttb.md#s2-2-2, A23b)."""
    assert p.who is not None
    codes = deck.end_discards(eng, p.who, value)
    for code in codes:
        deck.discard_from_hand(eng, p.who, code)
    eng.log(f"{p.who} discards {', '.join(codes) if codes else 'nothing'} at the end of Dramatic Time")
    deck.refill_hand(eng, p.who)
