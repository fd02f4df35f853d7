"""The attack as one flow in the 2d20 System (docs/reference/language.md ``attack``): docs/rules/2d20.md#s3-2 (TN =
attribute + skill, bought d20s, Momentum), docs/rules/2d20.md#s3-3 (pools: costs, banking, an NPC's Threat),
docs/rules/2d20-combat.md#s3-6 (range-difficulty table, Reach), docs/rules/2d20-combat.md#s3-7 (attack sequence) and
docs/rules/2d20-combat.md#s3-8 (Challenge Dice damage,
Bonus Damage, damage effects)."""

from __future__ import annotations

import pytest

from tests.conftest import d20_state, pending, reloaded, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tracker.families.presenter import option_labels
from tracker.families.session import Session
from tracker.families.snapshot import state_json

RIFLE = {"name": "Rifle", "range": "medium", "damage": 4, "effects": ["piercing=1"]}
KNIFE = {"name": "Knife", "range": "reach", "damage": 2, "effects": ["vicious=1"]}
AXE = {"name": "Axe", "range": "reach", "damage": 3}
ATTRS = {"agility": 10, "coordination": 10, "brawn": 9, "will": 8}


def scene(threat: int = 4, momentum: int = 2) -> Session:
    """Kit (PC, TN 12 for both forms) in zone A with the Rifle and the Knife; the Thug (minor NPC, no armor)
    next door in B; the Brute (notable NPC, TN 11, an Axe) beside Kit in A."""
    return session_from(
        header(momentum=momentum, threat=threat)
        + zones("A", "B")
        + combatant(
            "Kit", attributes=ATTRS, skills={"fight": 2, "survive": 2}, stress=10, zone="A", weapons=[RIFLE, KNIFE]
        )
        + combatant("Thug", npc_type="minor", stress=10, zone="B")
        + combatant(
            "Brute", npc_type="notable", attributes=ATTRS, skills={"fight": 1}, stress=10, zone="A", weapons=[AXE]
        )
    )


def kit_attacks(threat: int = 4, momentum: int = 2) -> Session:
    return run(scene(threat, momentum), "start", "pick Kit", "attack Kit")


def test_target_first_in_reach_then_by_the_chance() -> None:
    """docs/rules/2d20-combat.md#s3-6: the Rifle (Medium) hits the Thug next door at D2 (ranged base 2, +0) and the
    Brute in Kit's own zone at D3 (+1 at Close); the Knife reaches only within the zone."""
    s = kit_attacks()
    p = pending(d20_state(s))
    assert p.kind == "attack_target" and p.options == ["Thug", "Brute"]
    labels = option_labels(p)
    assert labels[0].startswith("Thug · Medium, D2 · ") and labels[1].startswith("Brute · Close, D3")
    assert state_json(s)["prompt_options"] == ["Thug", "Brute"]
    assert d20_state(s).fighters["Kit"].majors == 1  # the Attack is a Major Action, taken when declared


def test_a_whole_attack_with_the_tables_dice() -> None:
    """docs/rules/2d20.md#s3-2: faces 1 and 5 vs TN 12 are 3 successes at D2: a pass with 1 Momentum.
    docs/rules/2d20-combat.md#s3-8: 4[CD] + 2[CD] for Kit's Fight 2 [004:L1745] + 1[CD] Bonus Damage for that Momentum;
    faces 1,2,5,6,3,3,4 → 5 damage, 2 Effects; Piercing 1 per Effect; no armor: 5 stress, one Harm
    (docs/rules/2d20-harm.md#s3-10-1). The test's Momentum was spent: the pool is unchanged."""
    s = kit_attacks()
    run(s, "answer Thug")
    p = pending(d20_state(s))
    assert p.kind == "attack_roll" and "Coordination 10 + Fight 2 = TN 12, Difficulty 2 (ranged 2)" in p.question
    assert p.options == ["roll", "roll+1", "roll+2", "roll+3"]
    assert option_labels(p)[1].startswith("3d20 for 1 Momentum · ")
    run(s, "answer 1,5")
    p = pending(d20_state(s))
    assert p.kind == "attack_damage" and "4[CD] + 2[CD] Fight (piercing=1)" in p.question
    assert "1 Momentum from the test" in p.question
    assert p.options == ["roll", "roll+1", "roll+2", "roll+3"]  # the test's 1 + the pool's 2
    run(s, "answer 1,2,5,6,3,3,4")
    st = d20_state(s)
    assert st.prompt is None
    assert st.fighters["Thug"].stress == {"stress": 5}
    assert st.momentum == 2


def test_option_one_each_time_and_the_same_dice_typed_end_the_same() -> None:
    """The tracker rolls (option 1: no bought die, no spend); typing the faces it rolled ends in the same
    fight (the tracker's roll and the table's are one rule)."""
    rolled = kit_attacks()
    while d20_state(rolled).prompt is not None:
        run(rolled, f"answer '{pending(d20_state(rolled)).options[0]}'")
    texts = [e.text for e in d20_state(rolled).log]
    test = next(t for t in texts if t.startswith("Kit tests: d20: "))
    typed = kit_attacks()
    run(typed, "answer Thug", "answer " + test.split("d20: ")[1].split(" vs")[0].replace(" ", ""))
    if "pass" in test:
        cd = next(t for t in texts if t.startswith("Kit's Rifle: "))
        faces = cd.split(": ")[1].split(" →")[0].replace("★", "").replace(" ", "")
        run(typed, f"answer {faces}")
    for key in ("fighters", "momentum", "threat"):
        assert getattr(d20_state(typed), key) == getattr(d20_state(rolled), key)


def test_a_miss_ends_the_attack() -> None:
    """docs/rules/2d20-combat.md#s3-7: a failed ranged attack does nothing further."""
    s = run(kit_attacks(), "answer Thug", "answer 20,19")
    assert d20_state(s).prompt is None and d20_state(s).fighters["Thug"].stress == {"stress": 0}
    assert "Kit's attack with the Rifle misses Thug" in [e.text for e in d20_state(s).log]


def test_bought_dice_are_paid_and_faces_must_match_them() -> None:
    """docs/rules/2d20.md#s3-2, docs/rules/2d20.md#s3-3: the 3rd d20 costs 1 Momentum; three faces are three dice. Wrong
    answers change nothing."""
    s = run(kit_attacks(), "answer Thug")
    refused(s, "answer 1,2,3,4,5,6", "faces")
    refused(s, "answer roll+4", "answer roll")
    refused(s, "answer 21,1", "not a face")
    run(s, "answer 15,16,1")
    assert d20_state(s).momentum == 1
    assert pending(d20_state(s)).kind == "attack_damage"


def test_npc_attacks_pay_threat_and_bank_unspent_momentum_as_threat() -> None:
    """docs/rules/2d20.md#s3-3: an NPC's bought d20s cost Threat (only what the pool holds is offered); its unspent
    Momentum becomes Threat. The Brute's Axe reaches Kit once they are within Reach (docs/rules/2d20-combat.md#s3-6)."""
    s = run(scene(threat=1), "start", "pick Kit", "spend Kit pass", "next", "pick Brute", "reach Brute Kit")
    run(s, "attack Brute")
    p = pending(d20_state(s))
    assert p.options == ["Kit"] and option_labels(p)[0].startswith("Kit · Close, D1 · ")
    run(s, "answer Kit")
    p = pending(d20_state(s))
    assert p.options == ["roll", "roll+1"] and "for 1 Threat" in option_labels(p)[1]
    run(s, "answer 1,1")  # 4 successes at D1: 3 Momentum
    assert d20_state(s).threat == 1
    run(s, "answer 1,2,3,4")  # the Axe's 3[CD] + 1[CD] for Fight 1, no spend: 3 damage, 3 Momentum banked
    st = d20_state(s)
    assert st.threat == 4 and st.fighters["Kit"].stress == {"stress": 3}


def test_the_weapon_is_asked_when_two_reach_and_the_flow_survives_a_restart() -> None:
    """Within Reach of the Brute, Kit's Knife and Rifle both reach it: the question names them; the saved
    state keeps the question (its options are weapons, not names)."""
    s = run(scene(), "start", "pick Kit", "reach Kit Brute", "attack Kit Brute")
    p = pending(d20_state(s))
    assert p.kind == "attack_weapon" and set(p.options) == {"Knife", "Rifle"}
    again = reloaded(s)
    run(again, "answer Knife")
    assert "with the Knife" in pending(d20_state(again)).question


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("attack Thug", "no weapon"),
        ("attack Kit Kit", "not an enemy"),
        ("attack Brute", "not Brute's"),
    ],
)
def test_refusals(line: str, why: str) -> None:
    s = run(scene(), "start", "pick Kit")
    refused(s, line, why)


def test_the_typed_spend_keeps_its_meaning() -> None:
    s = run(scene(), "start", "pick Kit", "spend Kit attack")
    assert d20_state(s).prompt is None


def test_infinity_bonus_damage_is_one_damage_per_momentum() -> None:
    """docs/rules/2d20.md#s3-0 (Momentum "Bonus Damage": Infinity +1 damage each, not a die); the test's Momentum is
    spent first and the rest banked (docs/rules/2d20.md#s3-3)."""
    stress = {"vigour": 10, "resolve": 8, "firewall": 6}
    s = session_from(
        header(profile="infinity", momentum=2, threat=4)
        + zones("A", "B")
        + combatant(
            "Kit",
            attributes={"coordination": 10},
            skills={"ballistics": 2},
            stress=stress,
            zone="A",
            weapons=[RIFLE],
        )
        + combatant("Thug", npc_type="minor", stress=stress, zone="B")
    )
    # No Defence reaction is asked [003:L299-304]: the Thug's sheet has no Agility to defend with.
    run(s, "start", "pick Kit", "attack Kit", "answer Thug", "answer 1,1")  # 4 successes at D1: 3 Momentum
    p = pending(d20_state(s))
    assert option_labels(p)[2] == "+2 damage for 2 Momentum"
    run(s, "answer roll+2")
    st = d20_state(s)
    assert st.momentum == 3  # 2 in the pool + the test's 1 left
    log = [e.text for e in st.log]
    assert any(t.startswith("Kit's Rifle: 4[CD]: ") and t.endswith("+2 Bonus Damage") for t in log)


def test_nobody_in_reach_of_the_weapon_is_refused_before_the_major_is_taken() -> None:
    """docs/rules/2d20-combat.md#s3-6: the Knife reaches within Kit's zone only; with the Brute gone, the Thug next door
    is out of it."""
    s = run(scene(), "start", "pick Kit")
    d20_state(s).fighters["Brute"].dead = True
    refused(s, "attack Kit Knife", "no enemy it can attack from A")
    assert d20_state(s).fighters["Kit"].majors == 0
