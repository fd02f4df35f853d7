"""Every modifier in play reaches the duel the tracker flips (`tracker.families.ttb.duel`): docs/rules/ttb.md#s2-2-3
(⊞/⊟: cards flipped, the card kept, cancelling, the cap of 3), docs/rules/ttb.md#s2-2-4 (no cheat under ⊟ or after the
Black Joker), docs/rules/ttb-conditions.md#s2-7-2 (the conditions' modifiers), docs/rules/ttb-damage.md#s2-9 (cover,
platforms, shooting into an engagement), each test naming the seed line of its rule."""

from __future__ import annotations

import pytest

from tests.conftest import pending, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.engine.errors import Refusal
from tracker.families.presenter import option_labels
from tracker.families.session import Session

SABRE = {"name": "Sabre", "kind": "melee", "range": 1, "damage": "2/3/5"}
PISTOL = {"name": "Pistol", "kind": "projectile", "range": 12, "damage": "1/2/4", "reload": 1, "capacity": 6}


def table(*conditions: str, hand: tuple[str, ...] = ("13R", "12C"), settings: str = "") -> Session:
    """Sofia (Fated, Melee 3, Pistol 2, a strong hand) against the Thug (Defense 4, Rank 5: TN 9) and the
    Ghoul (Defense 2, Rank 3: TN 5), engaged with the Thug; then each `conditions` line (``add …``)."""
    sofia = combatant(
        "Sofia",
        kind="fated",
        initiative=20,
        wounds=8,
        defense=5,
        skills={"melee": 3, "pistol": 2},
        weapons=[SABRE, PISTOL],
        melee_range=1,
        hand=list(hand),
    )
    foes = combatant("Thug", rank_value=5, defense=4, wounds=9, skills={"melee": 2}, weapons=[SABRE])
    foes += combatant("Ghoul", rank_value=3, defense=2, wounds=6)
    s = run(session_from(sofia + foes, settings=settings), "initiative Sofia 9", "start", "engage Sofia Thug")
    return run(s, *conditions)


def top(s: Session, *codes: str) -> None:
    """Put `codes` on top of the Fate Deck, the first flipped first."""
    deck = ttb_state(s).deck
    for code in reversed(codes):
        if code in deck:
            deck.remove(code)
        else:
            ttb_state(s).discards.remove(code)
        deck.append(code)


def log(s: Session) -> list[str]:
    return [e.text for e in ttb_state(s).log]


def duel_question(s: Session) -> str:
    p = pending(ttb_state(s))
    assert p.kind == "attack", p.kind
    return p.question


def test_dazed_and_blind_reach_the_flip_and_forbid_the_cheat() -> None:
    """Dazed: +2 TN on every action [000:L330-332]; Blind: ⊟⊟ on actions needing sight, most attacks
    [000:L314-316]; ⊟ flips one more card each and keeps the lowest [000:L87]; no cheating under ⊟
    [000:L63-65, L87-89], even with a hand card that would pass."""
    s = table("add Sofia dazed", "add Sofia blind")
    run(s, "attack Sofia strike Thug Sabre")
    q = duel_question(s)
    assert "Melee 3 vs TN 11 (Defense 4 + Rank 5, Dazed +2)" in q
    assert "with ⊟⊟ (⊟⊟ Blind), 3 cards, no cheat" in q
    top(s, "12R", "3M", "9T")
    s.execute("answer flip")
    assert any("flips 12♥, 3♦, 9♣ → 3♦ (3 of Masks) + Melee 3 = 6 vs TN 11: fail" in t for t in log(s))
    assert ttb_state(s).prompt is None  # no cheat offer: the 13♥ in the hand stays there
    assert "13R" in ttb_state(s).fighters["Sofia"].hand


def test_the_red_joker_is_used_despite_minus_and_the_black_joker_forced_despite_plus() -> None:
    """The Red Joker may be used regardless of ⊟ [000:L152-154]; the Black Joker must be used even with ⊞
    [000:L156-159]: a Focused +1 flip with the Black Joker fails and offers no cheat."""
    s = table("add Sofia blind")
    run(s, "attack Sofia strike Thug Sabre")
    top(s, "2R", "RJ", "1C")
    s.execute("answer flip")
    assert any("→ Red Joker + Melee 3 = 17 vs TN 9: pass" in t for t in log(s))
    s = table("add Sofia focused")
    run(s, "attack Sofia strike Thug Sabre")
    top(s, "13R", "BJ")
    s.execute("answer flip")
    assert any("→ Black Joker" in t and "fail" in t for t in log(s))
    assert ttb_state(s).prompt is None  # no cheat after the Black Joker [000:L65]


def test_focused_is_spent_on_the_declared_duel_for_plus_per_point() -> None:
    """Focused: ⊞ per point on the duel it is spent on (max ⊞⊞⊞), and it ends [000:L344]."""
    s = table("add Sofia focused 4")
    run(s, "attack Sofia strike Thug Sabre")
    assert "with ⊞⊞⊞ (⊞⊞⊞ Focused +4), 4 cards" in duel_question(s)
    assert "focused" not in ttb_state(s).fighters["Sofia"].conditions
    top(s, "1R", "2R", "11T", "3R")
    s.execute("answer flip")
    assert any("flips 1♥, 2♥, 11♣, 3♥ → 11♣ (11 of Tomes) + Melee 3 = 14 vs TN 9: pass" in t for t in log(s))


def test_a_defensive_fatemaster_target_gives_the_fated_the_opposite_modifier() -> None:
    """Defensive: ⊞ per point to Defense duels [000:L336]; a Fatemaster character flips no card
    (docs/rules/ttb.md#s2-2-5), so its ⊞ reaches the Fated's flip as ⊟ (setting ``fatemaster_modifiers = "reverse"``);
    ``"ignore"`` drops it."""
    s = table("add Thug defensive 2")
    run(s, "attack Sofia strike Thug Sabre")
    assert "with ⊟⊟ (⊟⊟ Defensive +2 (Thug)), 3 cards, no cheat" in duel_question(s)
    s = table("add Thug defensive 2", settings='fatemaster_modifiers = "ignore"')
    run(s, "attack Sofia strike Thug Sabre")
    assert "Defensive" not in duel_question(s) and "TN 9" in duel_question(s)


def test_a_fated_defender_flips_defense_with_its_own_modifiers() -> None:
    """A Fatemaster's attack on a Fated: the Fated flips Defense (docs/rules/ttb.md#s2-2-5) with Defensive's ⊞
    [000:L336] and keeps its best card [000:L83]; Prone is ⊟ on Defense against melee [000:L194]."""
    s = table("add Sofia defensive 1")
    run(s, "next")  # the Thug's turn
    s.execute("attack Thug strike Sofia Sabre")
    q = duel_question(s)
    assert "Defense 5 vs TN 7 (Thug's Melee 2 + Rank 5) with ⊞ (⊞ Defensive +1), 2 cards" in q
    top(s, "1R", "8C")
    s.execute("answer flip")
    assert any("Sofia flips 1♥, 8♠ → 8♠ (8 of Crows) + Defense 5 = 13 vs TN 7: defends" in t for t in log(s))
    s = table("add Sofia prone")
    run(s, "next", "attack Thug strike Sofia Sabre")
    assert "with ⊟ (⊟ Prone), 2 cards, no cheat" in duel_question(s)


def test_prone_against_projectiles_and_cover_and_the_platform() -> None:
    """Prone: ⊞ on Defense flips against projectile attacks [000:L192-194], so ⊟ to the Fated shooting a
    Prone Fatemaster character; soft cover ⊟ on projectile attack flips, hard cover on attack and damage flips
    [000:L296-300]; an unstable platform ⊟ on projectile attack flips [000:L302-304]."""
    s = table("disengage Sofia Thug", "add Ghoul prone", "add Ghoul hard_cover", "add Sofia unstable")
    run(s, "attack Sofia shoot Ghoul Pistol")
    q = duel_question(s)
    for part in ("⊟ Prone (Ghoul)", "⊟ Ghoul in hard cover", "⊟ unstable platform"):
        assert part in q
    assert "with ⊟⊟⊟" in q
    top(s, "13R", "13C", "13T", "13M", "1R")
    s.execute("answer flip")  # 13 + Pistol 2 = 15 vs TN 5: a hit by 10, no accuracy modifier
    p = pending(ttb_state(s))
    assert p.kind == "damage_flip" and "with ⊟ (⊟ Ghoul in hard cover)" in p.question
    s = table("disengage Sofia Thug", "add Ghoul cover")
    run(s, "attack Sofia shoot Ghoul Pistol")
    assert "⊟ Ghoul in soft cover" in duel_question(s)


def test_impose_hinders_attacks_on_anyone_but_the_imposer() -> None:
    """Impose: ⊟ + ⊟ per Margin of Success on any attack that does not target the Imposer [000:L250]."""
    s = table()
    run(s, "next", "spend Thug impose Sofia", "answer pass 1", "next", "next")
    assert ttb_state(s).active == "Sofia"
    s.execute("attack Sofia strike Ghoul Sabre")
    assert "⊟⊟ Imposed on by Thug" in duel_question(s)
    run(s, "undo", "attack Sofia strike Thug Sabre")
    assert "Imposed" not in duel_question(s)


def test_trick_helps_the_tricker_attack_and_damage() -> None:
    """Trick: ⊞ to attack and damage flips against the target [000:L262]."""
    s = table()
    run(s, "spend Sofia trick Thug", "answer pass", "attack Sofia strike Thug Sabre")
    assert "⊞ Trick on Thug" in duel_question(s)
    top(s, "13R", "13C")
    s.execute("answer flip")
    offer = ttb_state(s).prompt
    if offer is not None and offer.kind == "cheat":
        s.execute("answer no")
    p = pending(ttb_state(s))
    # 13 + 3 = 16 vs TN 9: by 7, no accuracy modifier; Trick adds ⊞.
    assert p.kind == "damage_flip" and "with ⊞ (⊞ Trick on Thug)" in p.question


def test_a_useless_arm_hinders_its_attacks() -> None:
    """Useless Limb (arm): ⊟⊟ on duels that need that arm, here its attacks [000:L384]."""
    s = table("add Sofia useless_arm")
    run(s, "attack Sofia strike Thug Sabre")
    assert "⊟⊟ Useless arm" in duel_question(s)


def test_plus_and_minus_cancel_and_are_capped_at_three() -> None:
    """⊞ and ⊟ cancel one for one; after cancelling each side is capped at 3 [001:L30-31]."""
    s = table("add Sofia blind", "add Sofia focused 1")
    run(s, "attack Sofia strike Thug Sabre")
    assert "with ⊟ (⊞ Focused +1, ⊟⊟ Blind), 2 cards" in duel_question(s)
    s = table("add Sofia blind", "add Sofia useless_arm")
    run(s, "attack Sofia strike Thug Sabre")
    assert "with ⊟⊟⊟ (⊟⊟ Blind, ⊟⊟ Useless arm; at most 3), 4 cards" in duel_question(s)


def test_the_gms_own_modifiers_reach_the_duel_and_bad_ones_are_refused() -> None:
    """The GM's own ⊞/⊟ and TN for whatever the table rules (docs/rules/ttb.md#s2-2-3): ``+``, ``--``, ``tn=+2``; a word
    of both signs or past the cap is refused before anything is paid."""
    s = table()
    run(s, "attack Sofia strike Thug Sabre -- tn=+2")
    q = duel_question(s)
    assert "TN 11 (Defense 4 + Rank 5, GM +2)" in q and "⊟⊟ GM" in q
    s = table()
    for bad in ("+-", "++++", "tn=x"):
        with pytest.raises(Refusal):
            s.execute(f"attack Sofia strike Thug Sabre {bad}")
    assert ttb_state(s).fighters["Sofia"].combat_ap == 1  # nothing paid


def test_the_target_list_odds_count_the_modifiers() -> None:
    """The odds the target list shows come from the same duel the flip makes: Blind's ⊟⊟ lowers them."""
    plain = table("disengage Sofia Thug")
    run(plain, "attack Sofia strike")
    blind = table("disengage Sofia Thug", "add Sofia blind")
    run(blind, "attack Sofia strike")

    def thug(x: Session) -> int:
        p = pending(ttb_state(x))
        label = option_labels(p)[p.options.index("Thug")]
        return int(label.split("% to hit")[0].rsplit(" ", 1)[1])

    assert thug(blind) < thug(plain)
    p = pending(ttb_state(blind))
    assert p.question == "Sofia strikes (⊟⊟ Blind): at whom?"  # the attacker's own, named once
    prone = table("disengage Sofia Thug", "add Thug prone")
    run(prone, "attack Sofia strike")
    p = pending(ttb_state(prone))
    assert option_labels(p)[p.options.index("Thug")].endswith(" (⊞ Prone (Thug))")  # Prone: ⊟ vs melee [000:L194]
    assert "Prone" not in option_labels(p)[p.options.index("Ghoul")]


def test_shooting_into_an_engagement_flips_for_the_target() -> None:
    """A projectile attack on an engaged target: a card for it and for each other legal target within 2 yards
    (here: in melee with it), the lowest card is hit [000:L294]; the table may name who was hit instead."""
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"pistol": 2}, weapons=[PISTOL], side="players"
    )
    sofia += 'hand = ["5R"]\n'  # no hand card puts the shot back on the Thug: no cheat offer [000:L294]
    ash = combatant("Ash", kind="fated", initiative=10, wounds=8, side="players")
    thug = combatant("Thug", rank_value=5, defense=4, wounds=9)
    s = run(session_from(sofia + ash + thug), "initiative Sofia 9", "initiative Ash 5", "start", "engage Ash Thug")
    s.execute("attack Sofia shoot Thug Pistol")
    p = pending(ttb_state(s))
    assert p.kind == "into_melee" and p.options == ["flip", "Thug", "Ash"]
    top(s, "9R", "4C")
    s.execute("answer flip")
    assert any("Thug 9♥ (9 of Rams), Ash 4♠ (4 of Crows) → Ash is hit" in t for t in log(s))
    assert pending(ttb_state(s)).question.startswith("Sofia attacks Ash")
    run(s, "undo", "answer Thug")
    assert pending(ttb_state(s)).question.startswith("Sofia attacks Thug")


def test_walking_away_from_an_unconscious_enemy_ends_the_engagement() -> None:
    """Engagement is being within range of an enemy's melee attack [000:L284]; an Unconscious enemy strikes
    no one (A21), yet the move still leaves the melee: the link ends."""
    s = table("add Thug unconscious")
    s.execute("spend Sofia walk")
    assert ttb_state(s).engagements == []


def test_a_doctor_duel_counts_dazed_focused_and_crazy() -> None:
    """The Doctor action (TN 15 [000:L320]) is an action attempted: Dazed +2 TN [000:L332]; Focused spent for
    ⊞ [000:L344]; Crazy −value to the final total of a duel with a Mental Aspect [000:L328]."""
    sofia = combatant("Sofia", kind="fated", initiative=20, wounds=8, skills={"doctor": 2}, side="players", hand=["1R"])
    ash = combatant("Ash", kind="fated", initiative=10, wounds=8, side="players")
    s = run(session_from(sofia + ash), "initiative Sofia 9", "initiative Ash 5", "start")
    run(s, "add Ash bleeding_out 2", "add Sofia dazed", "add Sofia focused", "add Sofia crazy 2")
    s.execute("spend Sofia doctor Ash")
    p = pending(ttb_state(s))
    assert p.kind == "doctor"
    assert "Doctor 2 -2 Crazy +2 vs TN 17 (15, Dazed +2) with ⊞ (⊞ Focused +1), 2 cards" in p.question
    top(s, "5R", "13T")
    s.execute("answer flip")
    assert any("→ 13♣ (13 of Tomes) + Doctor 0 = 13 vs TN 17: fail" in t for t in log(s))


def test_a_toughness_challenge_is_no_action_dazed_does_not_raise_it() -> None:
    """Dazed raises the TN of actions attempted [000:L332]; the TN 10 Toughness challenge at 0 Wounds
    [000:L418-424] resists, it is no action, so its TN stays 10."""
    s = table("add Sofia dazed")
    run(s, "damage Sofia 8 no-armor")
    p = pending(ttb_state(s))
    if p.kind == "critical":
        run(s, "answer 5R")
        p = pending(ttb_state(s))
    assert p.kind == "unconscious_check" and p.data["tn"] == 10


def test_fated_against_fated_each_side_flips_its_own_cards() -> None:
    """A Fated vs Fated attack: both flip [000:L418], each with its own modifiers: the Blind aggressor three
    cards keeping the lowest, the Defensive defender two keeping the best; the Blind aggressor may not cheat."""
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"melee": 3}, weapons=[SABRE], hand=["13R"]
    )
    mara = combatant("Mara", kind="fated", initiative=10, wounds=8, defense=4, side="rivals", hand=["1C"])
    s = run(session_from(sofia + mara), "initiative Sofia 9", "initiative Mara 5", "start", "engage Sofia Mara")
    run(s, "add Sofia blind", "add Mara defensive 1", "attack Sofia strike Mara Sabre")
    q = duel_question(s)
    assert "aggressor ⊟⊟ (⊟⊟ Blind), 3 cards; defender ⊞ (⊞ Defensive +1), 2 cards" in q
    top(s, "12R", "2M", "9T", "3C", "6M")
    s.execute("answer flip")
    assert any("Sofia flips 12♥, 2♦, 9♣ → 2♦ (2 of Masks)" in t and "Mara flips 3♠, 6♦ → 6♦" in t for t in log(s))
    offer = ttb_state(s).prompt
    assert offer is None or offer.who != "Sofia"  # no cheat for the aggressor under ⊟


def test_intoxicated_hinders_willpower_duels_and_a_useless_leg_athletics() -> None:
    """Intoxicated: ⊟ on all Willpower duels [000:L360]; Useless Limb (leg): ⊟⊟ on duels needing it, Athletics
    [000:L384]; neither reaches a duel of another skill."""
    from tests.conftest import ttb
    from tracker.families.ttb import duel

    s = table("add Sofia intoxicated", "add Sofia useless_leg")
    eng = ttb(s)
    assert duel.challenge(eng, "Sofia", "willpower", 12, "", action=False).fate == -1
    assert duel.challenge(eng, "Sofia", "athletics", 10, "", action=False).fate == -2
    assert duel.challenge(eng, "Sofia", "toughness", 10, "", action=False).fate == 0


def test_the_damage_question_names_the_accuracy_modifier() -> None:
    """The damage flip's modifier from the attack's accuracy (docs/rules/ttb-damage.md#s2-8-1, decision A2): a tie is ⊟⊟
    [001:L74], and the question says where it came from; a Fatemaster's odds against a Fated name whose cheat they
    count."""
    s = table()
    run(s, "attack Sofia strike Thug Sabre")
    top(s, "6R")  # 6 + Melee 3 = 9 vs TN 9: a tie
    s.execute("answer flip")
    offer = ttb_state(s).prompt
    if offer is not None and offer.kind == "cheat":
        s.execute("answer no")
    p = pending(ttb_state(s))
    assert p.kind == "damage_flip" and "with ⊟⊟ (⊟⊟ accuracy: a tie)" in p.question
