"""The perils a turn or a round can bring on a character (docs/rules/ttb-conditions.md#s2-7,
docs/rules/ttb-turns.md#s2-6): the duel to stay conscious while Suffocating and the damage flip while
unconscious (3/4/5, armor no help, ≤0 Wounds kills), the swim in rough water, and a hazard's damage flip;
each the answer to its prompt.
"""

from __future__ import annotations

from tracker.families.ttb import damage
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate import deck
from tracker.families.ttb.fate.cards import Card, severity_of
from tracker.families.ttb.records.state import Prompt


def suffocating_duel(eng: TTBEngine, p: Prompt, passed: bool, margins: int, diff: int | None) -> None:
    assert p.who is not None
    if passed:
        eng.log(f"{p.who} fights for breath and stays conscious")
    else:
        damage.fall_unconscious(eng, p.who, "Suffocating")


def suffocating_flip(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    suffocate(eng, p.who, deck.flipped_or_taken(eng, value))


def suffocate(eng: TTBEngine, who: str, card: Card) -> None:
    """Suffocating while unconscious: a 3/4/5 flip that armor cannot reduce; ≤0 Wounds kills."""
    sev = severity_of(card)
    amount = 0 if sev is None else (3, 4, 5)[("weak", "moderate", "severe").index(sev)]
    eng.log(f"Suffocating damage flip for {who}: {card.label()} → {amount}", kind="result")
    damage.damage(eng, who, amount, armor=False, kills_at_zero=True, why="Suffocating")


def swim(eng: TTBEngine, p: Prompt, passed: bool, margins: int, diff: int | None) -> None:
    from tracker.families.ttb.lifecycle import sink

    assert p.who is not None
    if passed:
        eng.log(f"{p.who} keeps its head above the rough water")
    else:
        sink(eng, p.who)


def hazard_flip(eng: TTBEngine, p: Prompt, value: str) -> None:
    assert p.who is not None
    card = deck.flipped_or_taken(eng, value)
    damage.damage_flip(eng, p.who, str(p.data["profile"]), 0, card.code, armor=True, taken=card)
