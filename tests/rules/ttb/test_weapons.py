"""Weapons from the file (docs/reference/language.md "Weapons (TTB)"; docs/rules/ttb-damage.md#s2-8-1 [000:L95-99];
decision A2)."""

from __future__ import annotations

import pytest

from tests.conftest import pending, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.engine.errors import Refusal
from tracker.families.session import Session

SABRE = {"name": "Sabre", "kind": "melee", "range": 1, "damage": "2/3/5"}
PISTOL = {"name": "Pistol", "kind": "projectile", "range": 12, "damage": "1/2/4", "reload": 1, "capacity": 1}


def table() -> Session:
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"melee": 3}, weapons=[SABRE, PISTOL], melee_range=1
    )
    return run(
        session_from(sofia + combatant("Thug", rank_value=5, defense=4, wounds=9)), "initiative Sofia 9", "start"
    )


def top(s: Session, *codes: str) -> None:
    deck = ttb_state(s).deck
    for code in reversed(codes):
        deck.remove(code)
        deck.append(code)


def test_strike_with_a_target_asks_the_attack_duel_then_flips_the_weapons_damage() -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 1 (A2 [000:L95-99]): `pass 1` is one Margin → no modifier; the Sabre's
    2/3/5."""
    s = table()
    run(s, "spend Sofia strike Thug")
    p = pending(ttb_state(s))
    assert p.kind == "attack" and "Sabre (2/3/5)" in p.question and "TN 9" in p.question
    top(s, "12T")
    run(s, "answer pass 1")
    assert ttb_state(s).fighters["Thug"].wounds == 9 - 5
    assert any("damage flip vs Thug: 12♣" in e.text for e in ttb_state(s).log)


def test_attack_flip_uses_the_exact_difference_and_a_miss_does_nothing() -> None:
    """docs/rules/ttb-damage.md#s2-8-1: a tracker flip knows D exactly (D 1-5 ⊟ flips two cards, the lowest is kept)."""
    s = table()
    run(s, "spend Sofia strike Thug")
    top(s, "8R", "13C", "2M")
    run(s, "answer flip")  # 8 + 3 = 11 vs TN 9: D = 2 → ⊟
    prompt = ttb_state(s).prompt
    if prompt is not None and prompt.kind == "cheat":  # a hand card would add a Margin: keep the flip
        run(s, "answer no")
    assert ttb_state(s).fighters["Thug"].wounds == 9 - 2
    s = table()
    run(s, "spend Sofia strike Thug", "answer fail")
    assert ttb_state(s).fighters["Thug"].wounds == 9


def test_shoot_uses_the_first_projectile_weapon_counts_the_shot_and_refuses_when_empty() -> None:
    """CONTRACT §3 "Weapons (TTB)": shoot uses the first projectile weapon; shots are tracked."""
    s = table()
    run(s, "spend Sofia shoot Thug")
    p = pending(ttb_state(s))
    assert p.kind == "attack" and "Pistol (1/2/4)" in p.question
    run(s, "answer fail")
    assert ttb_state(s).fighters["Sofia"].shots["Pistol"] == 0
    with pytest.raises(Refusal, match="empty"):
        s.execute("spend Sofia shoot Thug")


def test_strike_without_a_target_works_as_before() -> None:
    s = table()
    run(s, "spend Sofia strike")
    assert ttb_state(s).prompt is None


def test_named_weapon_and_charge_asks_two_attacks() -> None:
    """docs/rules/ttb-turns.md#s2-5 Charge: two melee attacks, each its own duel."""
    s = table()
    run(s, "spend Sofia strike Thug Pistol")
    assert "Pistol" in pending(ttb_state(s)).question
    s = table()
    run(s, "spend Sofia charge Thug", "answer fail")
    assert pending(ttb_state(s)).kind == "attack"
    run(s, "answer fail")
    assert ttb_state(s).prompt is None
