"""One 2d20 test from everything in play (`tracker.families.twod20.skill_test`), driven through the commands:
docs/rules/2d20.md#s3-2 (TN, Focus [004:L350-351], opposed tests [004:L446-451]), docs/rules/2d20-turns.md#s3-5 (Protect
[004:L1473], Swift Action [004:L1944]), docs/rules/2d20-combat.md#s3-7 (melee and mental attacks opposed
[004:L1636-1642], Infinity's Defence reaction [003:L299-304]), docs/rules/2d20-harm.md#s3-11 (Cripple [003:L538-551],
Blind [003:L399-402], Fatigued), and the property that the chance the tracker states is the frequency of its own scoring
over every face."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import d20, d20_state, pending, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tracker.families.presenter import option_labels
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.twod20.attack_test import AttackTest
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.dice.odds import opposed_odds
from tracker.families.twod20.present import odds_report
from tracker.families.twod20.skill_test import SkillTest

KNIFE = {"name": "Knife", "range": "reach", "damage": 2}
RIFLE = {"name": "Rifle", "range": "medium", "damage": 4}
SNEER = {"name": "Sneer", "range": "close", "damage": 2, "effects": ["mental"]}
ATTRS = {"agility": 10, "coordination": 9, "will": 8}
INF_STRESS = {"vigour": 10, "resolve": 8, "firewall": 6}


def srd(focuses: list[str] | None = None) -> Session:
    """Kit (PC: Agility 10 + Fight 2, a Knife, a Rifle and a Sneer) and the Thug (Coordination 9 + Fight 1,
    Will 8 + Survive 0, a Knife) and Ada in zone A; the Boss next door in B."""
    return session_from(
        header(momentum=2, threat=4)
        + zones("A", "B")
        + combatant(
            "Kit",
            attributes=ATTRS,
            skills={"fight": 2, "talk": 1},
            stress=10,
            zone="A",
            weapons=[KNIFE, RIFLE, SNEER],
            focuses=focuses or [],
        )
        + combatant("Ada", attributes=ATTRS, skills={"survive": 1}, stress=10, zone="A")
        + combatant(
            "Thug", npc_type="minor", attributes=ATTRS, skills={"fight": 1}, stress=10, zone="A", weapons=[KNIFE]
        )
        + combatant("Boss", npc_type="notable", stress=10, zone="B")
    )


def roll_question(s: Session) -> str:
    p = pending(d20_state(s))
    assert p.kind == "attack_roll"
    return p.question


def test_s3_7_srd_melee_is_opposed_and_the_question_names_both_tests() -> None:
    """[004:L1636]: Agility + Fight D1 opposed by the target's Coordination + Fight D1."""
    s = run(srd(), "start", "pick Kit", "reach Kit Thug", "attack Kit Thug Knife")
    q = roll_question(s)
    assert "Agility 10 + Fight 2 = TN 12 vs Thug: Coordination 9 + Fight 1 = TN 10" in q
    assert "Difficulty 1 each (melee 1 | defence 1)" in q
    p = pending(d20_state(s))
    assert p.data["defender"] == "Thug" and p.data["d_tn"] == 10


def test_s3_2_opposed_faces_typed_for_both_sides_active_wins_by_the_margin() -> None:
    """[004:L451]: both succeed, the higher Momentum wins less the loser's: Kit's 1,1 (4 successes at D1,
    3 Momentum) vs the Thug's 1,15 (2 successes against TN 10, 1 Momentum) → Kit hits with 2 Momentum."""
    s = run(srd(), "start", "pick Kit", "reach Kit Thug", "attack Kit Thug Knife", "answer 1,1 vs 1,15")
    p = pending(d20_state(s))
    assert p.kind == "attack_damage" and p.data["momentum"] == 2
    assert "Kit wins the opposed test with 2 Momentum" in [e.text for e in d20_state(s).log]


def test_s3_2_opposed_tie_goes_to_the_active_side_with_no_momentum() -> None:
    """[004:L451]: a tie in Momentum goes to the active character, with 0 Momentum."""
    s = run(srd(), "start", "pick Kit", "reach Kit Thug", "attack Kit Thug Knife", "answer 1,5 vs 1,5")
    assert pending(d20_state(s)).data["momentum"] == 0


def test_b12_the_winning_melee_defender_strikes_back_or_disengages() -> None:
    """B12 [004:L1640]: the target wins the opposed melee test: it inflicts its weapon's damage, or Disengages."""
    s = run(srd(), "start", "pick Kit", "reach Kit Thug", "attack Kit Thug Knife", "answer 20,19 vs 1,2")
    p = pending(d20_state(s))
    assert p.kind == "attack_counter" and p.options == ["damage", "disengage", "nothing"] and p.who == "Thug"
    run(s, "answer damage")
    p = pending(d20_state(s))
    assert p.kind == "attack_damage" and p.who == "Thug" and p.data["target"] == "Kit"
    other = run(srd(), "start", "pick Kit", "reach Kit Thug", "attack Kit Thug Knife", "answer 20,19 vs 1,2")
    run(other, "answer disengage")
    assert d20_state(other).reach == [] and d20_state(other).prompt is None


def test_b40_a_failed_mental_attack_leaves_the_target_immune_for_the_scene() -> None:
    """[004:L1638, L1642] (B40): Will + Talk vs Will + Survive; on a failure the target cannot be the target
    of a mental attack again this scene: shown in the JSON and refused with the rule's reason."""
    s = run(srd(), "start", "pick Kit", "attack Kit Thug Sneer")
    assert "Will 8 + Talk 1 = TN 9 vs Thug: Will 8 + Survive 0 = TN 8" in roll_question(s)
    run(s, "answer 20,20 vs 20,20")
    assert d20_state(s).fighters["Thug"].mental_immune
    thug = next(c for c in state_json(s)["combatants"] if c["name"] == "Thug")
    assert thug["conditions"]["mental_immune"] is True
    refused(s, "attack Kit Thug Sneer", "cannot be the target of a mental attack again this scene")
    run(s, "end")
    assert not d20_state(s).fighters["Thug"].mental_immune


def test_s3_2_focus_counts_in_the_attack_roll() -> None:
    """[004:L350-351]: with a Focus for the skill ("Fight: Knives"), each die ≤ Fight 2 scores 2: faces 2,20
    are 2 successes, where without it they would be 1."""
    s = run(srd(["Fight: Knives"]), "start", "pick Kit", "reach Kit Thug", "attack Kit Thug Knife")
    assert "TN 12, focus 2 (Fight: Knives)" in roll_question(s)
    run(s, "answer 2,20 vs 20,20")
    assert any("2 successes" in e.text for e in d20_state(s).log if e.text.startswith("Kit tests:"))


def test_s3_5_protect_swift_and_the_gms_modifier_reach_the_difficulty() -> None:
    """Protect [004:L1473] +1 on attacks against the protected ally until its next turn; a Swift Action's
    extra Major [004:L1944] +1; the GM's own +2 — each named in the question."""
    s = run(srd(), "start", "pick Kit", "spend Kit pass", "spend Kit swift", "attack Kit Boss Rifle +2")
    q = roll_question(s)
    assert "Protect" not in q  # the Boss is not the protected one
    assert "Swift Action's extra Major +1" in q and "GM +2" in q
    assert "Difficulty 5 (ranged 2; Swift Action's extra Major +1; GM +2)" in q
    assert pending(d20_state(s)).data["difficulty"] == 5


def test_s3_5_protect_on_the_target() -> None:
    """[004:L1473]: the Thug Protects itself: Kit's Rifle on it is +1, named Protect (Thug)."""
    s = run(srd(), "start", "pick Thug", "spend Thug protect", "next", "pick Kit", "attack Kit Thug Rifle")
    assert "Protect (Thug) +1" in roll_question(s)


def test_a_bad_gm_modifier_is_refused_before_anything_changes() -> None:
    """The GM's ±N runs from 1 to 5 (a Difficulty is 0-5 [004:L347]); nothing is spent on a refusal."""
    s = run(srd(), "start", "pick Kit")
    refused(s, "attack Kit Boss Rifle +9", "GM's Difficulty modifier")
    assert d20_state(s).fighters["Kit"].majors == 0


def infinity() -> Session:
    return session_from(
        header(profile="infinity", momentum=2, threat=4)
        + zones("A", "B")
        + combatant(
            "Kit",
            attributes={"coordination": 10, "agility": 9},
            skills={"ballistics": 2},
            stress=INF_STRESS,
            zone="A",
            weapons=[RIFLE],
        )
        + combatant(
            "Trooper",
            npc_type="minor",
            attributes={"agility": 9},
            skills={"acrobatics": 1},
            stress=INF_STRESS,
            zone="B",
        )
    )


def test_s3_5_2_infinity_defence_reaction_makes_the_attack_face_to_face_for_heat() -> None:
    """[003:L299-304]: the target may take the Defence reaction (Acrobatics, [003:L390]); its first reaction
    this round costs 1 Heat (B23), and the attack becomes an opposed test."""
    s = run(infinity(), "start", "pick Kit", "attack Kit Trooper")
    p = pending(d20_state(s))
    assert p.kind == "attack_reaction" and p.options == ["none", "defence"]
    assert option_labels(p)[1].startswith("Defence for 1 Heat")
    run(s, "answer defence")
    assert d20_state(s).threat == 3 and d20_state(s).fighters["Trooper"].reactions == 1
    q = roll_question(s)
    assert "vs Trooper (Defence reaction): Agility 9 + Acrobatics 1 = TN 10" in q


def test_s3_11_2_cripple_blind_and_fatigued_reach_the_test() -> None:
    """Cripple +1 on a Coordination attack [003:L538-551]; Blind +2 on a sight test [003:L399-402]; Fatigued
    +1 complication range per instance [003:L417-423]."""
    s = run(infinity(), "add Kit crippled", "add Kit fatigued 2", "add Kit blind")
    run(s, "start", "pick Kit", "attack Kit Trooper", "answer none")
    q = roll_question(s)
    assert "Crippled +1" in q and "Blind (a sight test) +2" in q
    assert "complications on 18-20 (Fatigued +2)" in q


def test_the_odds_tab_counts_the_same_test() -> None:
    """The Odds tab's chance is the opposed test's, and lists what it counted."""
    s = run(srd(), "start", "pick Kit", "reach Kit Thug", "add Kit dazed")
    t = odds_report.targets(d20(s), "Kit")
    row = next(r for r in t.rows if r.name == "Thug")
    assert row.opposed_by == "Thug" and "Dazed +1" in row.modifiers
    assert row.chances[0] == opposed_odds((12, 2, 2, None, 1), (10, 1, 2, None, 1)).active


# --- the chance the tracker states is the frequency of its own scoring -----------------------------------


def _outcomes(test: SkillTest, n: int) -> Counter[tuple[bool, int]]:
    """(passed, Momentum) of every one of the 20^n face combinations, each scored as the roll scores it."""
    scored = (test.score(faces) for faces in itertools.product(range(1, 21), repeat=n))
    return Counter((r.passed, r.momentum) for r in scored)


def _frequency(attack: AttackTest, bought: int) -> Fraction:
    """How often the attack hits over every face of both pools (independent: every pair counted once),
    settled by `opposed_outcome`, the function the flow's roll uses."""
    mine = _outcomes(attack.test, dice.BASE_DICE + bought)
    if attack.defence is None:
        return Fraction(sum(n for (passed, _), n in mine.items() if passed), 20 ** (dice.BASE_DICE + bought))
    theirs = _outcomes(attack.defence, dice.BASE_DICE)
    won = sum(
        n * k
        for (ap, am), n in mine.items()
        for (rp, rm), k in theirs.items()
        if dice.opposed_outcome(ap, am, rp, rm)[0] == "active"
    )
    return Fraction(won, 20 ** (2 * dice.BASE_DICE + bought))


def _test(who: str, data: st.DataObject) -> SkillTest:
    draw = data.draw
    return SkillTest(
        who=who,
        attribute="Agility",
        attribute_rating=draw(st.integers(4, 14)),
        skill="Fight",
        skill_rating=draw(st.integers(0, 5)),
        base=draw(st.integers(0, 3)),
        base_name="melee",
        parts=tuple(draw(st.lists(st.tuples(st.integers(-2, 3), st.sampled_from(["Dazed", "GM"])), max_size=2))),
        focus=draw(st.sampled_from(["", "Fight: Blades"])),
        complication_range=draw(st.integers(1, 5)),
    )


@settings(max_examples=25, deadline=None)
@given(data=st.data(), opposed=st.booleans(), bought=st.integers(0, 1))
def test_property_the_stated_chance_is_the_frequency_of_the_scoring(
    data: st.DataObject, opposed: bool, bought: int
) -> None:
    """docs/rules/2d20.md#s3-2: for random tests (TN, Focus, Difficulty parts, complication range, bought dice, opposed
    or not), the chance the attack test states (the target list's and the question's) equals the frequency
    of its own scoring over all 20^n faces, exactly."""
    attack = AttackTest("melee", "close", _test("Kit", data), _test("Thug", data) if opposed else None)
    assert attack.chance(bought) == _frequency(attack, bought)


def test_the_roll_question_keeps_the_numbers_of_the_test_it_states() -> None:
    """The prompt holds the TN, Difficulty, Focus and complication range of both sides of the test whose
    chance it shows; the roll reads them from there (one source)."""
    s = run(srd(["Fight: Knives"]), "start", "pick Kit", "reach Kit Thug", "add Kit dazed", "attack Kit Thug Knife")
    p = pending(d20_state(s))
    assert (p.data["tn"], p.data["difficulty"], p.data["focus"], p.data["range"]) == (12, 2, 2, 1)
    assert (p.data["d_tn"], p.data["d_difficulty"], p.data["d_range"]) == (10, 1, 1) and "d_focus" not in p.data
    chance = opposed_odds((12, 2, 2, 2, 1), (10, 1, 2, None, 1)).active
    assert option_labels(p)[0] == f"2d20 · {round(100 * chance)}%"


def test_s3_2_the_defenders_faces_are_checked_before_anything_changes() -> None:
    """The defender rolls 2d20 (no bought dice here); faces after `vs` on a lone test are refused; a refused
    answer spends nothing and draws no die."""
    s = run(srd(), "start", "pick Kit", "reach Kit Thug", "attack Kit Thug Knife")
    refused(s, "answer 1,2 vs 3,4,5", "the defender rolls 2 d20s")
    refused(s, "answer 1,2 vs 3,21", "not a face")
    run(s, "answer roll+1 vs 20,20")  # Kit buys one die (1 Momentum); the Thug's faces typed: it fails
    assert d20_state(s).momentum == 1
    lone = run(srd(), "start", "pick Kit", "attack Kit Boss Rifle")
    refused(lone, "answer 1,2 vs 3,4", "not opposed")


def test_s3_5_1_protect_ends_at_the_start_of_the_protected_ones_turn() -> None:
    """[004:L1473]: +1 Difficulty to attacks against the protected one until the start of its next turn."""
    s = run(srd(), "start", "pick Kit")
    refused(s, "spend Kit protect Thug", "enemy")
    run(s, "spend Kit protect Ada")
    assert d20_state(s).fighters["Ada"].protected_by == ["Kit"]
    run(s, "next", "pick Thug", "next", "pick Ada")
    assert d20_state(s).fighters["Ada"].protected_by == []


def test_s3_5_2_infinity_guard_an_ally_rolls_the_defence() -> None:
    """[003:L299-304]: an ally in the target's zone may Guard it: the ally's Acrobatics opposes the attack."""
    s = session_from(
        header(profile="infinity", momentum=2, threat=4)
        + zones("A", "B")
        + combatant(
            "Kit", attributes={"coordination": 10}, skills={"ballistics": 2}, stress=INF_STRESS, zone="A"
        ).replace('zone = "A"', 'zone = "A"\nweapons = [{ name = "Rifle", range = "medium", damage = 4 }]')
        + combatant("Trooper", npc_type="minor", stress=INF_STRESS, zone="B")
        + combatant(
            "Sergeant",
            npc_type="notable",
            attributes={"agility": 11},
            skills={"acrobatics": 2},
            stress=INF_STRESS,
            zone="B",
        )
    )
    run(s, "start", "pick Kit", "attack Kit Trooper")
    p = pending(d20_state(s))
    assert p.options == ["none", "guard Sergeant"]  # the Trooper's sheet has no Agility to defend with
    run(s, "answer guard Sergeant")
    assert d20_state(s).fighters["Sergeant"].reactions == 1 and d20_state(s).threat == 3
    assert "vs Sergeant (Guard reaction): Agility 11 + Acrobatics 2 = TN 13" in roll_question(s)


def test_s3_5_2_no_one_able_to_react_goes_straight_to_the_roll() -> None:
    """A target whose sheet cannot make the defence test, with no ally to Guard it, is not asked."""
    s = session_from(
        header(profile="infinity", momentum=2, threat=4)
        + zones("A", "B")
        + combatant(
            "Kit", attributes={"coordination": 10}, skills={"ballistics": 2}, stress=INF_STRESS, zone="A"
        ).replace('zone = "A"', 'zone = "A"\nweapons = [{ name = "Rifle", range = "medium", damage = 4 }]')
        + combatant("Trooper", npc_type="minor", stress=INF_STRESS, zone="B")
    )
    run(s, "start", "pick Kit", "attack Kit Trooper")
    assert pending(d20_state(s)).kind == "attack_roll"


def test_s3_7_secret_war_melee_is_opposed_agility_fighting_each() -> None:
    """[002:L119]: opposed Agility + Fighting tests by attacker and target, each with a difficulty of 1."""
    sw = {"agility": 9, "coordination": 8, "will": 7}
    s = session_from(
        header(profile="secret-war", momentum=2, threat=4)
        + zones("A")
        + combatant("Kit", attributes=sw, skills={"fighting": 3}, stress=10, zone="A", weapons=[KNIFE])
        + combatant("Thug", npc_type="minor", attributes=sw, skills={"fighting": 1}, stress=10, zone="A")
    )
    run(s, "start", "pick Kit", "reach Kit Thug", "attack Kit Thug")
    q = roll_question(s)
    assert "Agility 9 + Fighting 3 = TN 12 vs Thug: Agility 9 + Fighting 1 = TN 10 — Difficulty 1 each" in q


def test_004_l1638_a_mental_attacks_stress_goes_on_the_mental_harm() -> None:
    """A mental attack [004:L1638] deals its stress as mental damage: on the SRD's one track, its Harm is a
    Trauma and Courage resists it (docs/rules/2d20.md#s3-0 Harm names, docs/rules/2d20-harm.md#s3-10 [004:L1850])."""
    from tests.conftest import d20_state, run, session_from
    from tests.rules.twod20.scenes import combatant, header, zones

    taunt = {"name": "Taunt", "range": "close", "damage": 6, "effects": ["mental"]}
    s = session_from(
        header(momentum=0, threat=4)
        + zones("A")
        + combatant("Kit", attributes={"will": 12}, skills={"talk": 3}, stress=20, zone="A", weapons=[taunt])
        + combatant("Thug", npc_type="notable", attributes={"will": 6}, skills={"survive": 0}, stress=4, zone="A")
    )
    run(s, "start", "pick Kit", "attack Kit Thug")
    p = d20_state(s).prompt
    assert p is not None and p.kind == "attack_roll"
    run(s, "answer 1,1 vs 20,20")
    p = d20_state(s).prompt
    assert p is not None and p.kind == "attack_damage"
    run(s, "answer 2,2,2,2,2,2,2,2,2")
    thug = d20_state(s).fighters["Thug"]
    assert thug.harms.get("trauma", 0) >= 1 and not thug.harms.get("wound")
