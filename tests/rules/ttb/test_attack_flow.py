"""The attack as one flow (docs/reference/language.md ``attack``): docs/rules/ttb-turns.md#s2-5 (Strike, Charge,
projectile attacks), docs/rules/ttb-damage.md#s2-9 (who a Strike reaches: the engaged), docs/rules/ttb.md#s2-2-5 (the
duel vs TN = Defense + Rank Value), docs/rules/ttb.md#s2-2-4 (cheating the flip) and docs/rules/ttb-damage.md#s2-8-1
(the damage flip with the
weapon's profile and the accuracy modifier)."""

from __future__ import annotations

import pytest

from tests.conftest import pending, reloaded, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.engine.errors import Refusal
from tracker.families.presenter import option_labels
from tracker.families.session import Session
from tracker.families.snapshot import state_json

SABRE = {"name": "Sabre", "kind": "melee", "range": 1, "damage": "2/3/5"}
KNIFE = {"name": "Knife", "kind": "melee", "range": 1, "damage": "1/2/3"}
PISTOL = {"name": "Pistol", "kind": "projectile", "range": 12, "damage": "1/2/4", "reload": 1, "capacity": 1}


def table(*weapons: dict[str, object], engaged: bool = True) -> Session:
    """Sofia (Fated, Melee 3) against the Thug (TN 9) and the Ghoul (TN 5); engaged with the Thug."""
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"melee": 3}, weapons=list(weapons), melee_range=1
    )
    foes = combatant("Thug", rank_value=5, defense=4, wounds=9) + combatant("Ghoul", rank_value=3, defense=2, wounds=6)
    s = run(session_from(sofia + foes), "initiative Sofia 9", "start")
    return run(s, "engage Sofia Thug") if engaged else s


def top(s: Session, *codes: str) -> None:
    """Put `codes` on top of the Fate Deck, the first flipped first."""
    deck = ttb_state(s).deck
    for code in reversed(codes):
        deck.remove(code)
        deck.append(code)


def answer_1(s: Session) -> None:
    """What key 1 does: answer with the first option."""
    s.execute(f"answer '{pending(ttb_state(s)).options[0]}'")


def test_strike_asks_the_target_engaged_first_with_the_odds() -> None:
    """docs/rules/ttb-damage.md#s2-9: a Strike reaches the engaged, so the Thug comes first although the Ghoul is easier
    (docs/rules/ttb.md#s2-2-5)."""
    s = run(table(SABRE), "attack Sofia strike")
    p = pending(ttb_state(s))
    assert p.kind == "attack_target" and p.question == "Sofia strikes: at whom?"
    assert p.options == ["Thug", "Ghoul"]
    labels = option_labels(p)
    assert labels[0].startswith("Thug · engaged, ") and "% to hit" in labels[0]
    assert labels[1].startswith("Ghoul · not engaged, ")
    # JSON keeps the answers as typed commands take them.
    assert state_json(s)["prompt_options"] == ["Thug", "Ghoul"]
    # the Strike is paid when declared (docs/rules/ttb-turns.md#s2-4)
    assert ttb_state(s).fighters["Sofia"].combat_ap == 0


def test_option_one_each_time_plays_a_whole_attack() -> None:
    """docs/rules/ttb-damage.md#s2-8-1: target, weapon, the tracker's flip (12 + Melee 3 = 15 vs TN 9: D 6, no
    modifier), the damage flip (12♣: severe 5) — each the first option."""
    s = run(table(SABRE, KNIFE), "attack Sofia")
    answer_1(s)  # the Thug
    p = pending(ttb_state(s))
    assert p.kind == "attack_weapon" and option_labels(p) == ("Sabre (2/3/5)", "Knife (1/2/3)")
    answer_1(s)  # the Sabre
    p = pending(ttb_state(s))
    assert p.kind == "attack" and p.options[0] == "flip" and "TN 9" in p.question
    top(s, "12R", "12T")
    answer_1(s)  # the tracker flips: 15 vs 9, one Margin; no hand card makes two
    p = pending(ttb_state(s))
    assert p.kind == "damage_flip" and p.options == ["flip"] and "Sabre (2/3/5)" in p.question
    answer_1(s)
    assert ttb_state(s).prompt is None
    assert ttb_state(s).fighters["Thug"].wounds == 9 - 5


def test_the_tables_results_typed_end_the_same() -> None:
    """A table that flips real cards types them: `pass 1` (the middle of the band: no modifier) and the
    damage card; the Thug ends as the tracker's flips left it."""
    flipped = run(table(SABRE), "attack Sofia strike Thug")
    top(flipped, "12R", "12T")
    run(flipped, "answer flip", "answer flip")
    typed = run(table(SABRE), "attack Sofia strike Thug", "answer pass 1", "answer 12T")
    for s in (flipped, typed):
        assert ttb_state(s).prompt is None
        assert ttb_state(s).fighters["Thug"].wounds == 9 - 5
        assert "damage flip vs Thug: 12♣ (12 of Tomes), severe 5" in [e.text for e in ttb_state(s).log]


def test_a_miss_ends_the_attack_and_the_typed_spend_keeps_its_meaning() -> None:
    """docs/rules/ttb-damage.md#s2-8-1: only a hit flips for damage. `spend NAME strike` without a target still only
    declares it."""
    s = run(table(SABRE), "attack Sofia", "answer Thug", "answer fail")
    assert ttb_state(s).prompt is None and ttb_state(s).fighters["Thug"].wounds == 9
    s = run(table(SABRE), "spend Sofia strike")
    assert ttb_state(s).prompt is None


def test_the_cheat_offer_comes_in_the_flow() -> None:
    """docs/rules/ttb.md#s2-2-4: the tracker's flip for a Fated may be cheated; declining keeps the flip and the damage
    follows."""
    s = run(table(SABRE), "attack Sofia", "answer Thug")
    top(s, "6R", "12T")  # 6 + 3 = 9 vs TN 9: a hit with no Margin
    hand = ttb_state(s).fighters["Sofia"].hand
    hand[:] = ["13M"]  # 13 + 3 = 16: a Margin more
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.options == ["13M", "no"]
    assert p.question == "Sofia flipped 6♥: cheat with a card from the hand?"
    assert option_labels(p) == ("13♦ → 16 vs TN 9: 1 Margin", "no: keep the 6♥")
    run(s, "answer 13M")
    assert "answer: 13♦" in [e.text for e in ttb_state(s).log]
    assert pending(ttb_state(s)).kind == "damage_flip"
    run(s, "answer flip")
    assert ttb_state(s).fighters["Thug"].wounds == 9 - 5  # D 7: no modifier, 12♣ severe


def test_charge_asks_any_foe_engages_it_and_makes_two_attacks() -> None:
    """docs/rules/ttb-turns.md#s2-5 Charge: not while engaged; the target ends engaged; two melee attacks."""
    s = run(table(SABRE, engaged=False), "attack Sofia charge")
    p = pending(ttb_state(s))
    assert p.kind == "attack_target" and set(p.options) == {"Thug", "Ghoul"}
    run(s, "answer Ghoul")
    assert ["Ghoul", "Sofia"] in ttb_state(s).engagements
    run(s, "answer fail")
    assert pending(ttb_state(s)).kind == "attack"
    run(s, "answer fail")
    assert ttb_state(s).prompt is None


def test_shoot_with_one_weapon_asks_no_weapon_and_counts_the_shot() -> None:
    """docs/rules/ttb-turns.md#s2-5: a projectile attack, not while engaged (docs/rules/ttb-damage.md#s2-9); the only
    projectile weapon is used."""
    with pytest.raises(Refusal, match="engaged"):
        table(SABRE, PISTOL).execute("attack Sofia shoot")
    s = run(table(SABRE, PISTOL, engaged=False), "attack Sofia shoot", "answer Ghoul")
    p = pending(ttb_state(s))
    assert p.kind == "attack" and "Pistol (1/2/4)" in p.question
    assert ttb_state(s).fighters["Sofia"].shots["Pistol"] == 0


def test_an_attack_needs_a_weapon_of_its_kind() -> None:
    with pytest.raises(Refusal, match="no projectile weapon"):
        table(SABRE, engaged=False).execute("attack Sofia shoot")


def test_the_flow_survives_a_restart_and_undo() -> None:
    """Every question is a pending prompt saved with the state; undo steps back one answer."""
    s = run(table(SABRE, KNIFE), "attack Sofia", "answer Thug")
    again = reloaded(s)
    assert pending(ttb_state(again)).kind == "attack_weapon"
    run(again, "answer Knife")
    assert "Knife (1/2/3)" in pending(ttb_state(again)).question
    run(again, "undo")
    assert pending(ttb_state(again)).kind == "attack_weapon"


def test_the_damage_cheat_offer_says_what_each_card_deals() -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 4 and docs/rules/ttb.md#s2-2-4: a Fated attacker's damage flip may be
    cheated; each card with its damage."""
    s = run(table(SABRE), "attack Sofia", "answer Thug", "answer pass 1")
    top(s, "2R")
    ttb_state(s).fighters["Sofia"].hand[:] = ["8C", "RJ"]
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.question == "Sofia flipped 2♥: cheat with a card from the hand?"
    assert option_labels(p) == ("8♠ → moderate 3", "Red Joker → severe 5 + Severe Critical", "no: keep the 2♥")
    assert state_json(s)["prompt_options"] == ["8C", "RJ", "no"]
    run(s, "answer 8C")
    assert ttb_state(s).fighters["Thug"].wounds == 9 - 3


CLUB = {"name": "Club", "kind": "melee", "range": 1, "damage": "2/3/4"}


def thug_attacks() -> Session:
    """The Thug's turn (Rank Value 5, Melee 2: TN 7 for Sofia's Defense 3), engaged with Sofia."""
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, defense=3, skills={"melee": 3}, weapons=[SABRE], melee_range=1
    )
    thug = combatant("Thug", rank_value=5, defense=4, wounds=9, skills={"melee": 2}, weapons=[CLUB], melee_range=1)
    s = run(session_from(sofia + thug), "initiative Sofia 9", "start", "engage Sofia Thug", "next")
    return run(s, "attack Thug")


def test_a_fatemaster_attack_the_fated_defends_and_may_cheat() -> None:
    """docs/rules/ttb.md#s2-2-5: against a Fatemaster character the Fated flips Defense vs TN = acting value + Rank
    Value; docs/rules/ttb.md#s2-2-4: it may cheat a failed flip; docs/rules/ttb-damage.md#s2-8-1: the attack hits by how
    far
    the Defense fell short."""
    s = thug_attacks()
    p = pending(ttb_state(s))
    assert p.options == ["Sofia"] and option_labels(p)[0].startswith("Sofia · engaged, ")
    run(s, "answer Sofia")
    p = pending(ttb_state(s))
    assert p.options[0] == "flip" and "Sofia defends: Defense vs TN 7" in p.question
    top(s, "2R")
    ttb_state(s).fighters["Sofia"].hand[:] = ["9M"]
    run(s, "answer flip")  # 2 + 3 = 5 vs 7: the Defense fails
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.who == "Sofia"
    assert option_labels(p) == ("9♦ → 12 vs TN 7: defends", "no: keep the 2♥")
    again = reloaded(s)
    run(s, "answer 9M")
    assert ttb_state(s).prompt is None and ttb_state(s).fighters["Sofia"].wounds == 8
    assert "Thug's attack with the Club misses Sofia" in [e.text for e in ttb_state(s).log]
    run(again, "answer no")  # short by 2: ⊟ on the damage flip; the table's card is final
    assert "with ⊟" in pending(ttb_state(again)).question
    run(again, "answer 12T")
    assert ttb_state(again).fighters["Sofia"].wounds == 8 - 4


def test_fatemaster_against_fatemaster_needs_no_card() -> None:
    """docs/rules/ttb.md#s2-2-5: Fatemaster against Fatemaster, the higher acting value + Rank Value wins, the aggressor
    on a tie: Melee 2 + Rank 5 = 7 against Defense 2 + Rank 3 = 5 hits by 2, so ⊟ on the damage flip
    (docs/rules/ttb-damage.md#s2-8-1)."""
    thug = combatant(
        "Thug", rank_value=5, initiative=9, skills={"melee": 2}, weapons=[CLUB], melee_range=1, side="guild"
    )
    ghoul = combatant("Ghoul", rank_value=3, defense=2, wounds=6, side="dead")
    s = run(session_from(thug + ghoul), "start", "engage Thug Ghoul", "attack Thug", "answer Ghoul")
    p = pending(ttb_state(s))
    assert p.options[0] == "flip" and "no card: 7 vs 5" in p.question
    assert option_labels(p)[0] == "flip: the tracker compares · 100% to hit"
    deck = list(ttb_state(s).deck)
    run(s, "answer flip")
    assert ttb_state(s).deck == deck  # no card was flipped
    assert "with ⊟" in pending(ttb_state(s)).question


def test_no_enemy_left_is_refused_before_the_ap_are_paid() -> None:
    s = table(SABRE, engaged=False)
    for foe in ("Thug", "Ghoul"):
        ttb_state(s).fighters[foe].dead = True
    with pytest.raises(Refusal, match="no enemy left"):
        s.execute("attack Sofia")
    assert ttb_state(s).fighters["Sofia"].combat_ap == 1
