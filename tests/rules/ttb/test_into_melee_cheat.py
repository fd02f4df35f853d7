"""Shooting into an engagement in the attack flow: "a Fated attacker may cheat these flips" [000:L294]."""

from __future__ import annotations

import pytest

from tests.conftest import pending, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session

PISTOL = {"name": "Pistol", "kind": "projectile", "range": 12, "damage": "1/2/4"}


def table(hand: list[str], settings: str = "") -> Session:
    """Sofia shoots at the Thug, in melee with Ash (her ally)."""
    sofia = combatant("Sofia", kind="fated", initiative=20, skills={"pistol": 2}, weapons=[PISTOL], hand=hand)
    ash = combatant("Ash", kind="fated", initiative=10, side="players", hand=["13R"])
    thug = combatant("Thug", rank_value=5, defense=4, wounds=9)
    s = session_from(sofia + ash + thug, settings=settings)
    return run(s, "initiative Sofia 9", "initiative Ash 5", "start", "engage Ash Thug")


def top(s: Session, *codes: str) -> None:
    deck = ttb_state(s).deck
    for code in reversed(codes):
        deck.remove(code)
        deck.append(code)


def test_a_fated_attacker_may_cheat_the_flips_onto_the_declared_target() -> None:
    """[000:L294]: the lowest card is hit; Sofia plays a hand card in place of one flip and the shot goes to the
    Thug after all (the played card goes to her Twist discards)."""
    s = table(["2T", "12M"])
    run(s, "attack Sofia shoot Thug Pistol")
    top(s, "9R", "4C")  # Thug 9, Ash 4: Ash would be hit
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "into_melee_cheat"
    assert p.options == ["2T Thug", "12M Ash", "no"]
    before = dump(s.state)
    with pytest.raises(Refusal):
        s.execute("answer 12M Thug")  # 12 on the Thug would not put the shot on it
    assert dump(s.state) == before
    run(s, "answer 12M Ash")
    assert pending(ttb_state(s)).question.startswith("Sofia attacks Thug")
    assert ttb_state(s).fighters["Sofia"].twist_discards == ["12M"]


def test_declining_keeps_the_flips_and_no_offer_after_a_black_joker() -> None:
    """[000:L294] ``answer no`` keeps the flips; after the Black Joker no cheat [000:L156-159]."""
    s = table(["2T"])
    run(s, "attack Sofia shoot Thug Pistol")
    top(s, "9R", "4C")
    run(s, "answer flip", "answer no")
    assert pending(ttb_state(s)).question.startswith("Sofia attacks Ash")
    s = table(["2T"])
    run(s, "attack Sofia shoot Thug Pistol")
    top(s, "9R", "BJ")
    run(s, "answer flip")
    assert pending(ttb_state(s)).question.startswith("Sofia attacks Ash")


def test_no_offer_when_the_table_cheats_at_the_table() -> None:
    """``[settings] offer_cheat = false``: no offer (docs/reference/language.md "Cheating Fate")."""
    s = table(["2T"], settings="offer_cheat = false")
    run(s, "attack Sofia shoot Thug Pistol")
    top(s, "9R", "4C")
    run(s, "answer flip")
    assert pending(ttb_state(s)).question.startswith("Sofia attacks Ash")
