"""Resolving the pending prompt with `answer VALUE` (CONTRACT.md §3).

Each prompt kind has a resolver; after it, the engine resumes the agenda where the prompt stopped it.
Duel prompts accept ``pass``/``fail`` or ``flip``: the tracker flips from the Fate Deck and adds the
acting value from the combatant's ``skills`` (plus any Assist bonus).
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.rules import names
from tracker.rules.errors import Refusal
from tracker.rules.ttb import conditions, damage, deck, effects
from tracker.rules.ttb.cards import Card, parse_card, severity_of
from tracker.rules.ttb.core import TTBEngine, step
from tracker.rules.ttb.state import Prompt


def _card(eng: TTBEngine, value: str) -> Card:
    if value.casefold() == "flip":
        return deck.flip(eng, 1)[0]
    return deck.take(eng, value)


def _duel(eng: TTBEngine, prompt: Prompt, value: str) -> tuple[bool, int]:
    """pass/fail from the table, or a tracker flip against the prompt's TN; returns (passed, margins)."""
    words = value.split()
    word = words[0].casefold()
    if word in ("pass", "p", "yes", "success", "hit"):
        margins = int(words[1]) if len(words) > 1 and words[1].isdigit() else 0
        return True, margins
    if word in ("fail", "f", "no", "failure", "miss"):
        return False, 0
    if word == "flip" and "tn" in prompt.data:
        tn = int(str(prompt.data["tn"]))
        who = prompt.who or ""
        skill = str(prompt.data.get("skill", ""))
        av = eng.sheet(who).skills.get(skill, 0) if who else 0
        bonus = eng.fighter(who).assist if who else 0
        card = deck.flip(eng, 1)[0]
        total = card.value + av + bonus
        passed = not card.is_black_joker and total >= tn
        extra = f" + Assist {bonus}" if bonus else ""
        eng.log(
            f"{who} flips {card.label()} + {skill.title() or 'AV'} {av}{extra} = {total} vs TN {tn}: "
            f"{'pass' if passed else 'fail'}",
            kind="result",
        )
        if bonus and who:
            eng.fighter(who).assist = 0
            eng.fighter(who).assist_turns = 0
        return passed, max(0, (total - tn) // 5) if passed else 0
    allowed = "pass, fail" + (" or flip" if "tn" in prompt.data else "")
    raise Refusal(f"answer {allowed}")


def _unconscious(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    passed, _ = _duel(eng, p, value)
    if passed:
        eng.log(f"{p.who} passes the Toughness challenge and stays conscious")
    else:
        damage.fall_unconscious(eng, p.who, "failed the TN 10 Toughness challenge")


def _suffocating_duel(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    passed, _ = _duel(eng, p, value)
    if passed:
        eng.log(f"{p.who} fights for breath and stays conscious")
    else:
        damage.fall_unconscious(eng, p.who, "Suffocating")


def _suffocating_flip(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    _suffocate(eng, p.who, _card(eng, value))


def _suffocate(eng: TTBEngine, who: str, card: Card) -> None:
    """Suffocating while unconscious: a 3/4/5 flip that armor cannot reduce; ≤0 Wounds kills."""
    sev = severity_of(card)
    amount = 0 if sev is None else (3, 4, 5)[("weak", "moderate", "severe").index(sev)]
    eng.log(f"Suffocating damage flip for {who}: {card.label()} → {amount}", kind="result")
    damage.damage(eng, who, amount, armor=False, kills_at_zero=True, why="Suffocating")


def _critical(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    damage.resolve_critical(eng, p.who, str(p.data["severity"]), _card(eng, value))


def _doctor(eng: TTBEngine, p: Prompt, value: str) -> None:
    target = str(p.data["target"])
    passed, _ = _duel(eng, p, value)
    if passed and eng.fighter(target).conditions.get("bleeding_out"):
        conditions.lower(eng, target, "bleeding_out", None, f"{p.who}'s Doctor duel succeeds")
    elif not passed:
        eng.log(f"{p.who}'s Doctor duel fails: {target} is still Bleeding Out")


def _contest(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    passed, margins = _duel(eng, p, value)
    effects.resolve_contest(eng, p.kind, p.who, str(p.data["target"]), passed, margins)


def _tie(eng: TTBEngine, p: Prompt, value: str) -> None:
    chosen = names.resolve(value, p.options)
    eng.st.tie_picks.append(chosen)
    eng.log(f"{chosen} acts first among the tied this round (the players decide)")
    eng.push(step("ties"))


def _reactivate(eng: TTBEngine, p: Prompt, value: str) -> None:
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


def _strike(eng: TTBEngine, p: Prompt, value: str) -> None:
    mover = str(p.data["mover"])
    word = value.casefold()
    if word in ("hit", "h", "pass", "yes"):
        eng.log(f"{p.who}'s disengaging strike hits {mover}")
        effects.cancel_move(eng, mover)
    elif word in ("miss", "m", "fail", "no", "n", "decline", "none"):
        eng.log(f"{p.who} {'misses' if word.startswith('m') or word == 'fail' else 'makes no strike'}")
    else:
        raise Refusal("answer hit, miss or no")


def _hand_discard(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    code = deck.discard_from_hand(eng, p.who, value)
    f = eng.fighter(p.who)
    eng.log(f"{p.who} discards {code} from the Control Hand")
    if p.kind == "hand_discard":
        f.pending_discard = max(0, len(f.hand) - deck.HAND_LIMIT)
        if f.pending_discard:
            eng.push(step("settle_hand", p.who))


def _swim(eng: TTBEngine, p: Prompt, value: str) -> None:
    from tracker.rules.ttb.lifecycle import sink

    assert p.who is not None
    passed, _ = _duel(eng, p, value)
    if passed:
        eng.log(f"{p.who} keeps its head above the rough water")
    else:
        sink(eng, p.who)


def _hazard_flip(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    card = _card(eng, value)
    damage.damage_flip(eng, p.who, str(p.data["profile"]), 0, card.code, armor=True, taken=card)


RESOLVERS: dict[str, Callable[[TTBEngine, Prompt, str], None]] = {
    "swim": _swim,
    "hazard_flip": _hazard_flip,
    "unconscious_check": _unconscious,
    "suffocating_duel": _suffocating_duel,
    "suffocating_flip": _suffocating_flip,
    "critical": _critical,
    "doctor": _doctor,
    "impose": _contest,
    "trick": _contest,
    "tie": _tie,
    "reactivate": _reactivate,
    "disengaging_strike": _strike,
    "hand_discard": _hand_discard,
    "discard": _hand_discard,
}


def answer(eng: TTBEngine, value: str) -> None:
    """Resolve the pending prompt; a bad value is refused and the prompt stays."""
    prompt = eng.st.prompt
    if prompt is None:
        raise Refusal("there is no question to answer")
    _check(eng, prompt, value)
    eng.st.prompt = None
    eng.log(f"answer: {value}")
    RESOLVERS[prompt.kind](eng, prompt, value)


def _check(eng: TTBEngine, p: Prompt, value: str) -> None:
    """Refuse a bad answer before anything changes (so the prompt and the deck stay as they were)."""
    word = value.split()[0].casefold() if value.split() else ""
    if p.kind in ("critical", "suffocating_flip", "hazard_flip"):
        if word != "flip":
            parse_card(value)
    elif p.kind in ("unconscious_check", "suffocating_duel", "doctor", "impose", "trick", "swim"):
        ok = {"pass", "p", "yes", "success", "fail", "f", "no", "failure"} | ({"flip"} if "tn" in p.data else set())
        if word not in ok:
            raise Refusal(f"answer {', '.join(p.options)}")
    elif p.kind == "tie":
        names.resolve(value, p.options)
    elif p.kind == "reactivate":
        if word not in ("yes", "y", "no", "n"):
            raise Refusal("answer yes or no")
    elif p.kind == "disengaging_strike":
        if word not in ("hit", "h", "pass", "yes", "miss", "m", "fail", "no", "n", "decline", "none"):
            raise Refusal("answer hit, miss or no")
    elif p.kind in ("hand_discard", "discard"):
        wanted = parse_card(value)
        hand = eng.fighter(p.who or "").hand
        if not any(c == wanted.code or (wanted.suit is None and c.rstrip("RCTM") == str(wanted.value)) for c in hand):
            raise Refusal(f"{p.who}'s Control Hand has no {value} (hand: {', '.join(hand)})")
