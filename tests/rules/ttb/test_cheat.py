"""Cheating Fate (docs/rules/ttb.md#s2-2-4 [000:L63-65, L103-105, L163]; docs/reference/language.md "Cheating Fate")."""

from __future__ import annotations

import pytest

from tests.conftest import pending, reloaded, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.presenter import option_labels
from tracker.families.session import Session
from tracker.families.ttb.fate.cards import cheat_order, full_deck

SOFIA = {"kind": "fated", "wounds": 3, "skills": {"toughness": 2}, "hand": ["12R", "4M"]}


def table(settings: str = "", **sofia: object) -> Session:
    return session_from(combatant("Sofia", **{**SOFIA, **sofia}) + combatant("Thug", rank_value=5), settings=settings)


def top(s: Session, *codes: str) -> None:
    """Put `codes` on top of the Fate Deck (the next flips), first flipped first; still the 54 cards."""
    deck = ttb_state(s).deck
    for code in reversed(codes):
        deck.remove(code)
        deck.append(code)


def to_toughness(s: Session) -> None:
    run(s, "damage Sofia 5 no-armor", "answer 5R")
    assert pending(ttb_state(s)).kind == "unconscious_check"


def cards54(s: Session) -> None:
    st = ttb_state(s)
    assert sorted([*st.deck, *st.discards, *st.table]) == sorted(full_deck())


def test_toughness_flip_offers_the_hand_cards_that_win_and_a_cheat_passes() -> None:
    """docs/rules/ttb.md#s2-2-4 [000:L65]: a Fated who flipped a failing card may play a winning hand card instead."""
    s = table()
    to_toughness(s)
    top(s, "3M")
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "cheat"
    assert p.question == "Sofia flipped 3♦: cheat with a card from the hand?"
    assert p.options == ["12R", "no"]  # 4M + 2 = 6 still fails: it does not help
    run(s, "answer 12R")
    f = ttb_state(s).fighters["Sofia"]
    assert not f.unconscious
    assert f.hand == ["4M"] and f.twist_discards == ["12R"]
    assert "3M" in ttb_state(s).discards
    cards54(s)
    assert any("cheats Fate: plays 12♥" in e.text for e in ttb_state(s).log)


def test_answer_no_keeps_the_flip() -> None:
    """docs/rules/ttb.md#s2-2-4: declining the offer keeps the flipped card (the challenge fails)."""
    s = table()
    to_toughness(s)
    top(s, "3M")
    run(s, "answer flip", "answer no")
    assert ttb_state(s).fighters["Sofia"].unconscious
    assert ttb_state(s).fighters["Sofia"].hand == ["12R", "4M"]


def test_a_card_that_does_not_help_or_is_not_held_is_refused_and_changes_nothing() -> None:
    s = table()
    to_toughness(s)
    top(s, "3M")
    run(s, "answer flip")
    before = dump(ttb_state(s))
    for bad in ("answer 4M", "answer 9T", "answer maybe"):
        with pytest.raises(Refusal):
            s.execute(bad)
        assert dump(ttb_state(s)) == before


def test_no_offer_when_the_flip_already_wins_or_after_a_black_joker() -> None:
    """docs/rules/ttb.md#s2-2-4 [000:L65]: no Black Joker; and nothing to offer when no hand card does better."""
    for card in ("BJ", "13T"):
        s = table()
        to_toughness(s)
        top(s, card)
        run(s, "answer flip")
        prompt = ttb_state(s).prompt
        assert prompt is None or prompt.kind != "cheat"


def test_offer_cheat_false_turns_the_offer_off() -> None:
    """CONTRACT §3 "Cheating Fate": `[settings] offer_cheat = false`."""
    s = table(settings="offer_cheat = false")
    to_toughness(s)
    top(s, "3M")
    run(s, "answer flip")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).fighters["Sofia"].unconscious


def test_untrained_duel_is_not_cheated() -> None:
    """docs/rules/ttb.md#s2-2-4: an untrained skill duel (no acting value for the skill) cannot be cheated [001:L19,
    L26]."""
    s = table(skills={"doctor": 1})
    to_toughness(s)
    top(s, "3M")
    run(s, "answer flip")
    assert ttb_state(s).prompt is None


def test_fated_attackers_damage_flip_offers_a_better_card() -> None:
    """docs/rules/ttb.md#s2-2-4 and docs/rules/ttb-damage.md#s2-8-1 step 3 [000:L103-105]: a Fated attacker may cheat
    its damage flip."""
    s = table(wounds=8)
    top(s, "2C")
    run(s, "damage Thug 2/3/5 by=Sofia")
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.options == ["12R", "no"]
    run(s, "answer 12R")
    assert ttb_state(s).fighters["Thug"].wounds == 6 - 5
    cards54(s)


def test_no_damage_cheat_under_net_minus_or_for_a_typed_card_or_a_fm_attacker() -> None:
    """docs/rules/ttb.md#s2-2-4 [000:L65, L87-89]: no cheat under ⊟; a typed card is final (CONTRACT §3)."""
    s = table(wounds=8)
    top(s, "2C", "3C")
    run(s, "damage Thug 2/3/5 by=Sofia mod=-1")
    assert ttb_state(s).prompt is None
    run(s, "damage Thug 2/3/5 by=Sofia card=1T")
    assert ttb_state(s).prompt is None
    top(s, "2T")
    run(s, "damage Sofia 2/3/5 by=Thug")
    assert ttb_state(s).prompt is None


def test_typed_card_held_in_the_attackers_hand_is_played_from_the_hand() -> None:
    """docs/rules/ttb.md#s2-2-4 [000:L163]: `card=12R` by a Fated holding the 12R plays it from the hand, not the
    deck."""
    s = table(wounds=8)
    deck_before = list(ttb_state(s).deck)
    run(s, "damage Thug 2/3/5 by=Sofia card=12R")
    assert ttb_state(s).deck == deck_before
    assert ttb_state(s).fighters["Sofia"].hand == ["4M"]
    assert ttb_state(s).fighters["Thug"].wounds == 1


def test_initiative_flips_are_never_offered() -> None:
    """docs/rules/ttb.md#s2-2-4 / docs/rules/ttb-turns.md#s2-3 [000:L34]: no cheat on an initiative flip."""
    s = table(wounds=8)
    run(s, "start")
    prompt = ttb_state(s).prompt
    assert prompt is None or prompt.kind != "cheat"


def test_fated_vs_fated_lower_total_cheats_first_defender_on_a_tie() -> None:
    """docs/rules/ttb.md#s2-2-4 [000:L418]: Fated vs Fated, the lower total cheats first, the defender first on a
    tie."""
    assert cheat_order("A", 9, "D", 12) == ("A", "D")
    assert cheat_order("A", 12, "D", 9) == ("D", "A")
    assert cheat_order("A", 10, "D", 10) == ("D", "A")


# --- Fated vs Fated duels (docs/rules/ttb.md#s2-2-4 last point, [000:L418]) ------------------------------------

SABRE = {"name": "Sabre", "kind": "melee", "range": 1, "damage": "2/3/5"}


def rivals(sofia_hand: list[str], mara_hand: list[str]) -> Session:
    """Sofia (Melee 3) attacks Mara (Defense 4); both Fated with a Control Hand."""
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"melee": 3}, weapons=[SABRE], hand=sofia_hand
    )
    mara = combatant("Mara", kind="fated", initiative=1, wounds=8, defense=4, hand=mara_hand)
    return run(
        session_from(sofia + mara), "initiative Sofia 9", "initiative Mara 2", "start", "spend Sofia strike Mara"
    )


def test_fated_vs_fated_attack_offers_flip_and_both_flip() -> None:
    """docs/rules/ttb.md#s2-2-4 [000:L418]: against a Fated there is no Fatemaster TN; the tracker flips for both
    sides."""
    s = rivals([], [])
    p = pending(ttb_state(s))
    assert p.kind == "attack" and "flip" in p.options and "both flip: Melee vs Defense" in p.question
    top(s, "10R", "5M")  # Sofia 10 + 3 = 13, Mara 5 + 4 = 9: a hit, 0 Margins (D 4)
    run(s, "answer flip")
    assert any(
        "Sofia flips 10♥ (10 of Rams) + Melee 3 = 13; Mara flips 5♦ (5 of Masks) + Defense 4 = 9" in e.text
        for e in ttb_state(s).log
    )
    assert ttb_state(s).fighters["Mara"].wounds == 8 - 3  # D 4 → ⊟ on the 2/3/5 flip (docs/rules/ttb-damage.md#s2-8-1)
    cards54(s)


def test_the_lower_total_cheats_first_then_the_other_answers() -> None:
    """docs/rules/ttb.md#s2-2-4 [000:L418]: Sofia (lower total) is offered first; after her cheat, Mara may answer
    it."""
    s = rivals(["13T"], ["13C"])
    top(s, "6R", "8M")  # Sofia 6 + 3 = 9 vs Mara 8 + 4 = 12: Sofia is behind, so she cheats first
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.who == "Sofia" and p.options == ["13T", "no"]
    run(s, "answer 13T")  # 13 + 3 = 16 vs 12: now Mara is behind and may answer
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.who == "Mara" and p.options == ["13C", "no"]
    run(s, "answer 13C")  # 13 + 4 = 17 vs 16: the attack misses
    cards54(s)
    f = ttb_state(s).fighters
    assert f["Sofia"].twist_discards == ["13T"] and f["Mara"].twist_discards == ["13C"]
    assert f["Mara"].wounds == 8
    assert any("Sofia's attack with the Sabre misses Mara" in e.text for e in ttb_state(s).log)


def test_each_side_cheats_at_most_once_and_no_answers_the_offer() -> None:
    """docs/rules/ttb.md#s2-2-4: after both have had their chance the duel resolves; `no` keeps the flip."""
    s = rivals(["13T"], ["13C"])
    top(s, "6R", "8M")
    run(s, "answer flip", "answer no")  # Sofia keeps 9 vs 12: a miss, Mara need not cheat
    assert ttb_state(s).prompt is None
    assert ttb_state(s).fighters["Mara"].hand == ["13C"]
    assert ttb_state(s).fighters["Sofia"].hand == ["13T"]


def test_a_duel_waiting_on_a_cheat_survives_a_restart() -> None:
    """Durability: the duel's progress rides in the prompt, so a restart mid-duel resumes it exactly."""
    s = rivals(["13T"], ["13C"])
    top(s, "6R", "8M")
    run(s, "answer flip")
    again = reloaded(s)
    assert dump(again.state) == dump(s.state)
    run(s, "answer 13T", "answer 13C")
    run(again, "answer 13T", "answer 13C")
    assert dump(again.state) == dump(s.state)
    assert ttb_state(s).fighters["Mara"].wounds == 8


# --- Impose and Trick between two Fated (docs/rules/ttb-turns.md#s2-5 Impose, Trick; docs/rules/ttb.md#s2-2-4 last
# point)


def schemers(sofia_hand: list[str], mara_hand: list[str], mara_skills: dict[str, int] | None = None) -> Session:
    """Sofia (Intimidate 3, Deceive 2) and Mara (Centering 4, Scrutiny 1), both Fated, Sofia's turn."""
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"intimidate": 3, "deceive": 2}, hand=sofia_hand
    )
    skills = {"centering": 4, "scrutiny": 1} if mara_skills is None else mara_skills
    mara = combatant("Mara", kind="fated", initiative=1, wounds=8, defense=2, skills=skills, hand=mara_hand)
    return run(session_from(sofia + mara), "initiative Sofia 9", "initiative Mara 2", "start")


def test_impose_between_fated_offers_flip_and_both_flip() -> None:
    """docs/rules/ttb-turns.md#s2-5 Impose (Intimidate vs Centering [000:L250]) with docs/rules/ttb.md#s2-2-4
    [000:L418]: between two Fated the tracker flips both sides, the acting values from ``skills``; the Margins count on
    the difference."""
    s = run(schemers([], []), "spend Sofia impose Mara")
    p = pending(ttb_state(s))
    assert p.kind == "impose" and p.options == ["pass", "fail", "flip"]
    assert "both flip: Intimidate vs Centering" in p.question
    top(s, "13R", "2M")  # Sofia 13 + 3 = 16, Mara 2 + 4 = 6: a pass by 10, 2 Margins
    run(s, "answer flip")
    log = [e.text for e in ttb_state(s).log]
    assert any(
        "Sofia flips 13♥ (13 of Rams) + Intimidate 3 = 16; Mara flips 2♦ (2 of Masks) + Centering 4 = 6" in t
        for t in log
    )
    [effect] = ttb_state(s).effects
    assert (effect.kind, effect.owner, effect.target, effect.magnitude) == ("impose", "Sofia", "Mara", 3)
    cards54(s)


def test_trick_between_fated_the_lower_total_cheats_first() -> None:
    """docs/rules/ttb-turns.md#s2-5 Trick (Deceive vs Scrutiny [000:L262]), docs/rules/ttb.md#s2-2-4 [000:L418]: the
    lower total is offered the cheat first, then the other answers knowing that card; the target winning means no
    Trick."""
    s = run(schemers(["13T"], ["13C"]), "spend Sofia trick Mara")
    top(s, "5R", "9M")  # Sofia 5 + 2 = 7 vs Mara 9 + 1 = 10: Sofia is behind, so she cheats first
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.who == "Sofia" and p.options == ["13T", "no"]
    run(s, "answer 13T")  # 13 + 2 = 15 vs 10: now Mara is behind
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.who == "Mara" and p.options == ["13C", "no"]
    assert p.data["labels"] == ["13♠ → 14 vs 15: pass, 0 Margins", "no: keep the 9♦"]  # a contest passes or fails
    run(s, "answer 13C")  # 13 + 1 = 14 vs 15: Sofia still passes
    assert [e.kind for e in ttb_state(s).effects] == ["trick"]
    cards54(s)


def test_an_untrained_defender_may_not_cheat_the_contest() -> None:
    """docs/rules/ttb.md#s2-2-4 [001:L19, L26]: no acting value for the resisting skill, no cheating: Mara (no
    Centering) is never offered her hand, and the Impose stands on the flips."""
    s = run(schemers([], ["13C"], mara_skills={}), "spend Sofia impose Mara")
    top(s, "9R", "5M")  # Sofia 9 + 3 = 12 vs Mara 5 + 0 = 5
    run(s, "answer flip")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).fighters["Mara"].hand == ["13C"]
    assert [e.kind for e in ttb_state(s).effects] == ["impose"]


def test_impose_on_a_fatemaster_still_takes_the_tables_answer() -> None:
    """docs/rules/ttb-turns.md#s2-5 Impose: against a Fatemaster character the tracker has no opposed flip; pass or
    fail."""
    sofia = combatant("Sofia", kind="fated", initiative=20, wounds=8, skills={"intimidate": 3})
    thug = combatant("Thug", rank_value=5, initiative=1, wounds=5)
    s = run(session_from(sofia + thug), "initiative Sofia 9", "start", "spend Sofia impose Thug")
    assert pending(ttb_state(s)).options == ["pass", "fail"]
    run(s, "answer pass 1")
    assert [e.magnitude for e in ttb_state(s).effects] == [2]


# --- A cheat that lifts the damage flip's band (docs/rules/ttb.md#s2-2-4, docs/rules/ttb-damage.md#s2-8-1 [000:L65,
# L95-97; 001:L74-75])


def thug_fight(hand: list[str]) -> Session:
    """Sofia (Fated, Melee 3) strikes the Thug (Defense 4 + Rank Value 5: TN 9) with `hand` as her Control Hand."""
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"melee": 3}, weapons=[SABRE], hand=hand, melee_range=1
    )
    thug = combatant("Thug", rank_value=5, defense=4, wounds=9)
    s = run(session_from(sofia + thug), "initiative Sofia 9", "start", "engage Sofia Thug")
    return run(s, "spend Sofia strike Thug")


def test_a_cheat_that_lifts_the_damage_band_with_the_same_margins_is_offered() -> None:
    """docs/rules/ttb.md#s2-2-4 and docs/rules/ttb-damage.md#s2-8-1 [000:L65, L95-97; 001:L74-75]: a tie (⊟⊟) and a
    1-point hit (⊟) both have 0 Margins, yet the card that makes the tie a 1-point hit lifts the damage flip a band, so
    it helps and is offered."""
    s = thug_fight(["7R", "6M"])
    top(s, "6R", "12T")  # 6 + 3 = 9 vs TN 9: a tie, 0 Margins, damage ⊟⊟
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.options == ["7R", "no"]  # 7 + 3 = 10: still 0 Margins, but ⊟ (6M: a tie again)
    assert option_labels(p)[0] == "7♥ → 10 vs TN 9: pass, damage ⊟ rather than ⊟⊟"
    run(s, "answer 7R")
    assert any("damage flip vs Thug with ⊟:" in e.text for e in ttb_state(s).log)


def test_a_card_from_a_five_point_hit_to_six_lifts_the_band_with_one_margin_each() -> None:
    """docs/rules/ttb-damage.md#s2-8-1 [000:L95-97]: a 5-point hit (1 Margin, ⊟) and a 6-point hit (1 Margin, no
    modifier): the cheat helps."""
    s = thug_fight(["12R"])
    top(s, "11R", "12T")  # 11 + 3 = 14 vs TN 9: 5 points, 1 Margin, ⊟
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.options == ["12R", "no"]  # 12 + 3 = 15: 6 points, 1 Margin, no modifier


def test_the_same_band_and_margins_is_no_help() -> None:
    """docs/rules/ttb.md#s2-2-4: a card that changes neither the Margins nor the damage band does not help (no
    offer)."""
    s = thug_fight(["8R"])
    top(s, "7R", "12T")  # 7 + 3 = 10: 1 point, ⊟; 8 + 3 = 11: 2 points, still ⊟ and 0 Margins
    run(s, "answer flip")
    assert ttb_state(s).prompt is None or pending(ttb_state(s)).kind != "cheat"
    assert ttb_state(s).fighters["Sofia"].hand == ["8R"]


def test_fated_vs_fated_the_defender_cheats_to_drop_the_band_with_the_same_margins() -> None:
    """docs/rules/ttb.md#s2-2-4 [000:L418] and docs/rules/ttb-damage.md#s2-8-1 [000:L95-97]: the defender's card that
    turns the aggressor's 1-point hit (⊟) into a tie (⊟⊟) leaves 0 Margins but lowers the damage band, so the defender
    is offered it."""
    s = rivals([], ["8M"])
    top(s, "9R", "7M")  # Sofia 9 + 3 = 12 vs Mara 7 + 4 = 11: 1 point, ⊟
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.who == "Mara" and p.options == ["8M", "no"]  # 8 + 4 = 12: a tie, ⊟⊟
    assert option_labels(p)[0] == "8♦ → 12 vs 12: hit, 0 Margins, damage ⊟⊟ rather than ⊟"


def test_fated_vs_fated_the_aggressor_cheats_a_tie_into_a_one_point_hit() -> None:
    """docs/rules/ttb.md#s2-2-4 and docs/rules/ttb-damage.md#s2-8-1: the aggressor's card that lifts a tie (⊟⊟) to a
    1-point hit (⊟) is offered."""
    s = rivals(["10R"], [])
    top(s, "9R", "8M")  # Sofia 9 + 3 = 12 vs Mara 8 + 4 = 12: a tie, the aggressor hits with ⊟⊟
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.who == "Sofia" and p.options == ["10R", "no"]
