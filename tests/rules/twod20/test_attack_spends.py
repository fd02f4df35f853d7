"""The Momentum spends at the roll of a 2d20 attack, the attacker's bonus damage, and Burst and Reloads:
docs/rules/2d20.md#s3-0 (the profile rows), docs/rules/2d20.md#s3-3 (who pays), docs/rules/2d20-combat.md#s3-7 (Burst),
docs/rules/2d20-combat.md#s3-8 (damage), docs/rules/decisions.md#b5 to #b8, #b24, #b38,
driven through the attack flow with
the faces typed, so that every total is exact.

Kit (a PC, Coordination 10 + Fight 2: TN 12) shoots from zone A into zone B, where the Thug and the Goon
stand (no armor unless said). ``answer 1,1`` is the test: 4 successes at the ranged D2, so 2 Momentum.
"""

from __future__ import annotations

import pytest

from tests.conftest import d20_state, d20_view, pending, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tracker.families.presenter import option_labels
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.twod20.spends import attribute_band
from tracker.store.files import FileInvalid, parse_text

RIFLE = {"name": "Rifle", "range": "medium", "damage": 4}
SMG = {"name": "SMG", "range": "medium", "damage": 4, "burst": 2, "reloads": 3}
BOLTER = {"name": "Bolter", "range": "medium", "damage": 4, "burst": 1, "reloads": 1, "mandatory_reload": True}
INFINITY_STRESS = {"vigour": 10, "resolve": 8, "firewall": 6}


def scene(
    profile: str = "srd",
    *,
    weapons: list[dict[str, object]] | None = None,
    armor: int = 0,
    threat: int = 4,
    momentum: int = 2,
    attributes: dict[str, int] | None = None,
) -> Session:
    """Kit in A; the Thug and the Goon (minor NPCs) in B; the Brute (an NPC with an Axe) in A."""
    infinity = profile == "infinity"
    skill = {"srd": "fight", "infinity": "ballistics", "secret-war": "fighting"}[profile]
    stress: object = INFINITY_STRESS if infinity else 10
    return session_from(
        header(profile=profile, momentum=momentum, threat=threat)
        + zones("A", "B")
        + combatant(
            "Kit",
            attributes=attributes or {"coordination": 10, "agility": 10},
            skills={skill: 2, "survive": 2},
            stress=stress,
            zone="A",
            weapons=weapons or [RIFLE],
        )
        + combatant("Thug", npc_type="minor", stress=stress, zone="B", armor=armor)
        + combatant("Goon", npc_type="minor", stress=stress, zone="B")
        + combatant(
            "Brute",
            npc_type="notable",
            attributes={"agility": 10},
            skills={"fight": 1},
            stress=stress,
            zone="A",
            weapons=[{"name": "Axe", "range": "reach", "damage": 3}],
        )
    )


def hit(s: Session, test: str = "1,1") -> Session:
    """Kit attacks the Thug and the test is rolled as typed (default: 2 Momentum at D2)."""
    return run(s, "start", "pick Kit", "attack Kit Thug", f"answer {test}")


#: Kit's turn ends, the NPCs act, and Kit opens round 2.
NEXT_ROUND = ("next", "pick Thug", "next", "pick Goon", "next", "pick Brute", "next", "pick Kit")


def kit_json(s: Session) -> dict[str, object]:
    return next(c for c in state_json(s)["combatants"] if c["name"] == "Kit")


def log(s: Session) -> list[str]:
    return [e.text for e in d20_state(s).log]


# --- the attacker's own bonus damage ----------------------------------------------------------------


def test_srd_adds_fight_challenge_dice_to_the_weapon() -> None:
    """[004:L1000, L1745]: +[CD] equal to Fight on weapon attacks, named in the question; option 1 rolls the
    six dice (4 + 2)."""
    s = hit(scene())
    p = pending(d20_state(s))
    assert "the Rifle deals 4[CD] + 2[CD] Fight" in p.question
    assert option_labels(p)[0] == "4[CD] + 2[CD] Fight, no spend"
    refused(s, "answer 1,1,1,1,1", "give 6 faces or more")
    run(s, "answer 1,1,1,1,2,2")
    assert d20_state(s).fighters["Thug"].stress == {"stress": 8}


@pytest.mark.parametrize(
    ("score", "dice"), [(8, 0), (9, 1), (10, 2), (11, 2), (12, 3), (13, 3), (15, 4), (16, 5), (20, 5)]
)
def test_attribute_bonus_damage_bands(score: int, dice: int) -> None:
    """[003:L276-286; 002:L101-109]: 9 → +1, 10-11 → +2, 12-13 → +3, 14-15 → +4, 16+ → +5."""
    assert attribute_band(score) == dice


def test_infinity_ranged_bonus_damage_is_by_awareness() -> None:
    """docs/rules/2d20.md#s3-0 "Bonus damage" (Infinity: Ranged Awareness [003:L276-286]): Awareness 12 is +3[CD]."""
    s = hit(scene("infinity", attributes={"coordination": 10, "awareness": 12}))
    assert "4[CD] + 3[CD] Awareness" in pending(d20_state(s)).question


def test_secret_war_melee_bonus_damage_is_by_brawn_and_bonus_damage_is_at_most_three() -> None:
    """[002:L101-109] bands (Brawn for melee, the SRD variant's attribute [004:L1750]); Bonus Damage max 3
    [002:L61, L138]: a test with 3 Momentum and a pool of 2 still offers 3 at most (B7)."""
    s = scene(
        "secret-war", attributes={"agility": 10, "brawn": 10}, weapons=[{"name": "Club", "range": "reach", "damage": 2}]
    )
    run(s, "start", "pick Kit", "reach Kit Brute", "attack Kit Brute", "answer 1,1")
    p = pending(d20_state(s))
    assert "2[CD] + 2[CD] Brawn" in p.question
    assert p.options == ["roll", "roll+1", "roll+2", "roll+3"]
    refused(s, "answer 1,1,1,1,1,1,1,1", "give 4 faces or more")


# --- the spends -------------------------------------------------------------------------------------


def test_penetration_ignores_two_resistance_per_momentum() -> None:
    """[004:L1939] Penetration 1 R: armor 4 − 2 = 2 against 4 damage: 2 stress. Paid from the test's
    Momentum first; the other 1 is banked (docs/rules/2d20.md#s3-3)."""
    s = hit(scene(armor=4))
    run(s, "answer 1,1,1,1,3,3 penetration=1")
    st = d20_state(s)
    assert st.fighters["Thug"].stress == {"stress": 2}
    assert st.momentum == 3
    assert any("Penetration −2" in t for t in log(s))


@pytest.mark.parametrize(
    ("profile", "dice", "faces", "goon"),
    [
        ("srd", 6, "2,2,1,3,3,3", 3),  # half of 5, rounded up [004:L1942]
        ("infinity", 4, "2,2,1,3", 2),  # half, rounded down [003:L370-372]
        ("secret-war", 4, "2,2,1,3", 5),  # full effects [002:L148]
    ],
)
def test_secondary_target_by_profile(profile: str, dice: int, faces: str, goon: int) -> None:
    """B5: the second target takes its share of the rolled total (5), before its own resistance."""
    s = hit(scene(profile))
    assert int(str(pending(d20_state(s)).data["dice"])) == dice
    run(s, f"answer {faces} secondary=Goon")
    track = "vigour" if profile == "infinity" else "stress"
    assert d20_state(s).fighters["Thug"].stress[track] == 5
    assert d20_state(s).fighters["Goon"].stress[track] == goon


def test_secondary_target_must_be_another_enemy_near_the_first() -> None:
    """[004:L1942]: within Reach of the primary target (read as its zone, Reach being declared between
    enemies, B22); not the target itself. Refused with nothing spent."""
    s = hit(scene())
    refused(s, "answer roll secondary=Brute", "not within Reach of Thug")
    refused(s, "answer roll secondary=Thug", "the attack's target")


def test_reroll_damage_rerolls_the_dice_that_scored_nothing() -> None:
    """[004:L1940] Re-roll Damage (1): the blanks (3 and 4) are re-rolled; the typed faces replace them in
    order. 1,2,3,4,1,1 → 1,2,2,5,1,1: 8 damage, 1 Effect."""
    s = hit(scene())
    run(s, "answer 1,2,3,4,1,1 reroll=2,5")
    assert d20_state(s).fighters["Thug"].stress == {"stress": 8}
    assert d20_state(s).momentum == 3  # 1 of the test's 2 spent


def test_reroll_with_no_blank_costs_nothing() -> None:
    s = hit(scene())
    run(s, "answer 1,1,1,1,1,1 reroll")
    assert d20_state(s).momentum == 4
    assert any("no die scored nothing" in t for t in log(s))


def test_reroll_faces_must_match_the_blanks() -> None:
    s = hit(scene())
    refused(s, "answer 1,2,3,4,1,1 reroll=2", "re-rolls the 2 dice that scored nothing")


def test_confidence_gives_morale_until_the_end_of_the_scene_in_the_srd() -> None:
    """[004:L1935] Confidence 1 R: +1[CD] Morale each, at most 4, to the scene's end (B6); refused past 4."""
    s = hit(scene())
    refused(s, "answer roll confidence=5", "at most 4[CD]")
    run(s, "answer 1,1,1,1,1,1 confidence=2")
    granted = d20_state(s).fighters["Kit"].granted
    assert [(g.kind, g.dice, g.source, g.lasts) for g in granted] == [("morale", 2, "Confidence", "scene")]
    run(s, *NEXT_ROUND)
    assert d20_state(s).active == "Kit" and d20_state(s).fighters["Kit"].granted  # held at its next turn


def test_infinity_confidence_lasts_to_the_start_of_the_next_turn() -> None:
    """[003:L361-362] (B6): Morale Soak until the start of the character's next turn."""
    s = hit(scene("infinity"))
    run(s, "answer 1,1,1,1 confidence")
    assert d20_state(s).fighters["Kit"].granted[0].lasts == "turn"
    run(s, *NEXT_ROUND)
    assert d20_state(s).active == "Kit" and d20_state(s).fighters["Kit"].granted == []


def test_subdue_harms_are_recovered_when_the_next_scene_begins() -> None:
    """[004:L1943] Subdue (1): the Harms are temporary, recovered at the start of the next scene (B38)."""
    s = hit(scene())
    run(s, "answer 2,2,2,3,3,3 subdue")  # 6 stress: 1 Wound
    assert d20_state(s).fighters["Thug"].harms == {"wound": 1}
    assert d20_state(s).fighters["Thug"].subdued == {"wound": 1}
    run(s, "end", "start")
    assert d20_state(s).fighters["Thug"].harms == {} and d20_state(s).fighters["Thug"].subdued == {}


def test_swift_action_gives_a_major_action_at_plus_one_difficulty_once_a_round() -> None:
    """[004:L1944] Swift Action (2): another Major Action, its test +1 (recorded on Kit); once per round
    [003:L375-377] and within 2 Major Actions a round [004:L1452] (B8, B31)."""
    s = hit(scene())
    run(s, "answer 1,1,1,1,1,1 swift")
    a = d20_state(s).fighters["Kit"]
    assert a.majors_allowed == 2 and a.swift
    run(s, "attack Kit Thug")
    p = pending(d20_state(s))
    assert "Difficulty 3" in p.question and "Swift Action's extra Major +1" in p.question
    run(s, "answer 1,1")
    refused(s, "answer roll swift", "Swift Action this round already")


def test_swift_action_is_not_a_secret_war_spend() -> None:
    s = hit(scene("secret-war"))
    refused(s, "answer roll swift", "no spend named 'swift'")


def test_create_advantage_costs_two() -> None:
    """[004:L1931] Create Advantage (2): the trait is the table's; the tracker logs it and takes the cost."""
    s = hit(scene())
    run(s, "answer 1,1,1,1,1,1 advantage=high_ground")
    assert d20_state(s).momentum == 2
    assert "Kit creates an advantage: high ground" in log(s)


def test_several_spends_in_one_answer_beyond_the_test_are_paid_from_the_pool() -> None:
    """docs/rules/2d20.md#s3-3: the test's 2 Momentum first, then the pool's (2), then Threat 1:1 for a player character
    [004:L552-586]: Bonus 2 + Penetration 1 + Subdue 1 + Create Advantage 2 = 6."""
    s = hit(scene())
    run(s, "answer roll+2 penetration=1 subdue advantage")
    st = d20_state(s)
    assert st.momentum == 0 and st.threat == 6


def test_a_spend_repeated_or_taken_twice_a_round_is_refused() -> None:
    """B24 [004:L528]: spends without R are once per test, and once per round per character."""
    s = hit(scene())
    refused(s, "answer roll subdue subdue", "once per test")
    run(s, "answer 1,1,1,1,1,1 subdue swift")
    run(s, "attack Kit Thug", "answer 1,1")
    refused(s, "answer roll subdue", "Subdue this round already")


def test_npc_spends_beyond_threat_are_refused_with_nothing_spent() -> None:
    """docs/rules/2d20.md#s3-3: an NPC pays with Threat it must have. The Brute's test leaves 3 Momentum and the pool
    holds 1: Penetration 4 + Subdue 1 = 5 is too much; refused, nothing spent, no die drawn."""
    s = scene(threat=1)
    run(s, "start", "pick Kit", "spend Kit pass", "next", "pick Brute", "reach Brute Kit", "attack Brute Kit")
    run(s, "answer 1,1")
    refused(s, "answer roll penetration=4 subdue", "the spends cost 5 Momentum")
    run(s, "answer 1,1,1,1 penetration=3 subdue")
    assert d20_state(s).threat == 0


# --- Burst and Reloads ------------------------------------------------------------------------------


def test_reloads_give_bonus_momentum_kept_per_weapon() -> None:
    """[004:L1695-1699]: up to Burst Reloads before the dice, 1 bonus Momentum each; the Reloads left are
    kept on Kit (JSON ``reloads``). 1 and 20 vs TN 12 at D2: a pass with 0 Momentum, +2 bonus."""
    s = scene(weapons=[SMG])
    assert kit_json(s)["reloads"] == {"SMG": 3}
    run(s, "start", "pick Kit", "attack Kit Thug")
    refused(s, "answer 1,20 reloads=3", "Burst 2")
    run(s, "answer 1,20 reloads=2")
    p = pending(d20_state(s))
    assert "2 bonus Momentum" in p.question
    run(s, "answer 1,1,1,1,1,1 penetration=2")
    st = d20_state(s)
    assert st.momentum == 2 and st.bonus_momentum == 0  # paid with the bonus, the pool untouched
    assert kit_json(s)["reloads"] == {"SMG": 1}


def test_unspent_bonus_momentum_is_lost() -> None:
    """[004:L518, L1699]: bonus Momentum cannot be saved."""
    s = scene(weapons=[SMG])
    run(s, "start", "pick Kit", "attack Kit Thug", "answer 1,20 reloads=1", "answer 1,1,1,1,1,1")
    assert d20_state(s).momentum == 2 and d20_state(s).bonus_momentum == 0


def test_a_mandatory_reload_is_spent_for_nothing_and_refused_at_zero() -> None:
    """[004:L1701]: an M weapon spends 1 Reload each attack, without benefit; with none left, refused."""
    s = scene(weapons=[BOLTER])
    run(s, "start", "pick Kit", "attack Kit Thug", "answer 1,20")
    assert "bonus Momentum" not in pending(d20_state(s)).question
    assert d20_state(s).fighters["Kit"].reloads == {"Bolter": 0}
    run(s, "answer 1,1,1,1,1,1", "spend Kit swift", "attack Kit Thug")
    refused(s, "answer 1,20", "0 Reloads left")


def test_reloads_in_the_file_are_checked() -> None:
    """docs/rules/2d20-combat.md#s3-7: Burst is 0-6 [004:L1695]; an M weapon needs Burst and Reloads [004:L1701]."""
    base = header() + combatant("Kit", stress=10, weapons=[{"name": "Gun", "burst": 7}])
    with pytest.raises(FileInvalid, match="less than or equal to 6"):
        parse_text(base, "x")
    bad = header() + combatant("Kit", stress=10, weapons=[{"name": "Gun", "mandatory_reload": True}])
    with pytest.raises(FileInvalid, match="needs burst and reloads"):
        parse_text(bad, "x")


def test_infinity_bonus_damage_with_the_faces_typed() -> None:
    """[003:L358-360] (B7): +1 damage per Momentum, not a die, so the faces stay the weapon's and roll+N says
    the Bonus Damage: 1,1,1,1 + 2 = 6 damage."""
    s = hit(scene("infinity"))
    refused(s, "answer 1,1,1,1,1", "give 4 faces")
    run(s, "answer 1,1,1,1 roll + 2")
    assert d20_state(s).fighters["Thug"].stress["vigour"] == 6


def test_undo_takes_back_the_spends_and_the_reloads() -> None:
    """Undo replays the history (docs/rules/index.md#s1-3): the Reloads, the pools and the Harms come back as they
    were."""
    s = scene(weapons=[SMG])
    run(s, "start", "pick Kit", "attack Kit Thug", "answer 1,1 reloads=1")
    before = (d20_state(s).momentum, d20_state(s).threat, dict(d20_state(s).fighters["Kit"].reloads))
    run(s, "answer roll+2 penetration=2 subdue confidence", "undo")
    st = d20_state(s)
    assert (st.momentum, st.threat, dict(st.fighters["Kit"].reloads)) == before == (2, 4, {"SMG": 2})
    assert pending(st).kind == "attack_damage" and st.bonus_momentum == 1
    assert st.fighters["Kit"].granted == [] and st.fighters["Thug"].harms == {}


def test_the_prompt_bar_names_the_spends_and_the_reloads() -> None:
    """The screens answer by number keys; the typed spends and Reloads are in the hint, with their costs."""
    s = scene(weapons=[SMG])
    run(s, "start", "pick Kit", "attack Kit Thug")
    shown = d20_view(s).prompt_view()
    assert shown is not None and "reloads=N (Burst 2, 3 left)" in shown.hint
    run(s, "answer 1,1")
    shown = d20_view(s).prompt_view()
    assert shown is not None
    assert "penetration=N 1 each" in shown.hint and "secondary=NAME 2" in shown.hint and "swift 2" in shown.hint
    assert shown.answers[1] == "answer roll+1"


def test_a_subdue_hit_on_the_defeated_does_not_kill() -> None:
    """[004:L1943]: Subdue's Harms are temporary, so the Harm past the one that defeats (which kills,
    docs/rules/index.md docs/rules/2d20-harm.md#s3-10-2) does not; the target is not Dying either. 12 stress on a track
    of 10: 2 Wounds on 2
    held."""
    s = session_from(
        header()
        + zones("A", "B")
        + combatant("Kit", attributes={"coordination": 10}, skills={"fight": 2}, stress=10, zone="A", weapons=[RIFLE])
        + combatant("Thug", npc_type="minor", stress=10, zone="B", harms={"wound": 2})
    )
    run(s, "start", "pick Kit", "attack Kit Thug", "answer 1,1", "answer 2,2,2,2,2,2 subdue")
    thug = d20_state(s).fighters["Thug"]
    assert thug.defeated and not thug.dead and not thug.dying
    assert thug.harms == {"wound": 4} and thug.subdued == {"wound": 2}


def test_an_empty_mandatory_reload_weapon_named_is_refused_before_the_major_action() -> None:
    """[004:L1699-1701]: an M weapon with no Reload left cannot make the attack: named in `attack`, it is refused
    before the Attack (a Major Action) is taken."""
    s = scene(weapons=[BOLTER])
    run(s, "start", "pick Kit", "attack Kit Thug", "answer 1,20", "answer 1,1,1,1,1,1", "spend Kit swift")
    majors = d20_state(s).fighters["Kit"].majors
    refused(s, "attack Kit Thug Bolter", "0 Reloads left")
    assert d20_state(s).fighters["Kit"].majors == majors
