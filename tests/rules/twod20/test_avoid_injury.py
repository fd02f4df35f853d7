"""The Avoid Injury variant [004:L1996-2012] (profile parameter ``avoid_injury``): once a scene a character
may avoid a Harm it suffers, for a cost; minor NPCs never may, notable NPCs once, major NPCs as often as they
like; off by default (the SRD's own rules). Declared with the damage (`damage NAME N avoid`, or ``avoid`` in
the attack flow's damage answer); refused in one line with nothing changed where it may not be."""

from __future__ import annotations

from tests.conftest import d20, d20_state, pending, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.twod20 import spends

PISTOL = {"name": "Pistol", "range": "close", "damage": 4}
KIT = {"agility": 10, "coordination": 10, "insight": 9}


def scene(variant: str = "momentum", momentum: int = 2, threat: int = 4) -> Session:
    """Kit (a PC) and three NPCs, one of each type, all in zone A, Stress 10 each (a Harm at 5+ stress)."""
    settings = f'avoid_injury = "{variant}"' if variant else ""
    return session_from(
        header(momentum=momentum, threat=threat, settings=settings)
        + zones("A")
        + combatant("Kit", attributes=KIT, skills={"fight": 2}, stress=10, zone="A", weapons=[PISTOL])
        + combatant("Mook", npc_type="minor", stress=10, zone="A")
        + combatant("Brute", npc_type="notable", stress=10, zone="A")
        + combatant("Boss", npc_type="major", stress=10, zone="A")
    )


def harms(s: Session, name: str) -> int:
    return sum(d20_state(s).fighters[name].harms.values())


def logged(s: Session, text: str) -> bool:
    return any(text in e.text for e in d20_state(s).log)


def test_004_l2008_a_pc_avoids_a_harm_once_a_scene_for_2_momentum() -> None:
    """[004:L2000, L2008]: the stress stays, the Harm is not suffered, 2 Momentum are spent; a second time in
    the same scene is refused; the scene's end gives it back."""
    s = run(scene(), "start", "pick Kit")
    run(s, "damage Kit 6 ignore-soak avoid")
    kit = d20_state(s).fighters["Kit"]
    assert kit.stress["stress"] == 6 and harms(s, "Kit") == 0
    assert d20_state(s).momentum == 0
    assert logged(s, "Kit Avoids Injury: 1 Wound not suffered")
    kit_json = next(c for c in state_json(s)["combatants"] if c["name"] == "Kit")
    assert kit_json["avoided_injuries"] == 1
    refused(s, "damage Kit 6 ignore-soak avoid", "Kit has Avoided Injury once this scene already")
    run(s, "end", "start", "pick Kit")
    run(s, "damage Kit 6 ignore-soak avoid")
    assert harms(s, "Kit") == 0 and d20_state(s).fighters["Kit"].avoided == 1


def test_004_l2008_with_no_momentum_the_pc_adds_2_threat() -> None:
    """[004:L2008]: "spends 2 Momentum or adds 2 to Threat"."""
    s = run(scene(momentum=0), "start", "pick Kit")
    run(s, "damage Kit 6 ignore-soak avoid")
    assert harms(s, "Kit") == 0 and d20_state(s).threat == 6


def test_004_l2000_minor_never_notable_once_major_always_and_npcs_spend_threat() -> None:
    """[004:L2000]: minor NPCs cannot Avoid Injury, notable NPCs once, major NPCs as many times as they wish;
    an NPC spends 2 Threat and must have it."""
    s = run(scene(threat=6), "start", "pick Kit")
    refused(s, "damage Mook 6 ignore-soak avoid", "minor NPCs cannot Avoid Injury")
    run(s, "damage Brute 6 ignore-soak avoid")
    assert harms(s, "Brute") == 0 and d20_state(s).threat == 4
    refused(s, "damage Brute 6 ignore-soak avoid", "once this scene already")
    run(s, "damage Boss 6 ignore-soak avoid", "damage Boss 6 ignore-soak avoid")
    assert harms(s, "Boss") == 0 and d20_state(s).threat == 0
    refused(s, "damage Boss 6 ignore-soak avoid", "Avoid Injury costs 2 Threat; the pool holds 0")


def test_004_l2009_the_complication_cost_adds_2_threat_and_a_complication() -> None:
    """[004:L2009]: the second cost: the character adds 2 to Threat and suffers a Complication (an NPC spends
    2 Threat and suffers one); a PC's 2 go to Threat even with Momentum in the pool."""
    s = run(scene(variant="complication"), "start", "pick Kit")
    run(s, "damage Kit 6 ignore-soak avoid")
    assert harms(s, "Kit") == 0
    assert (d20_state(s).momentum, d20_state(s).threat) == (2, 6)
    assert logged(s, "Kit Avoids Injury: 1 Wound not suffered and suffers a Complication")


def test_the_variant_off_refuses_avoid_and_a_hit_with_no_harm_pays_nothing() -> None:
    """Off by default (the SRD's own Harm rules [004:L1850-1854]): ``avoid`` is refused, nothing changed. On,
    a hit that brings no Harm costs nothing and uses nothing up."""
    s = run(scene(variant=""), "start", "pick Kit")
    refused(s, "damage Kit 6 ignore-soak avoid", "Avoid Injury is a variant this encounter does not use")
    assert all("avoided_injuries" not in c for c in state_json(s)["combatants"])
    on = run(scene(), "start", "pick Kit")
    run(on, "damage Kit 3 ignore-soak avoid")
    assert d20_state(on).momentum == 2 and d20_state(on).fighters["Kit"].avoided == 0


def test_the_attack_flows_damage_answer_takes_avoid_for_the_target() -> None:
    """The attack flow's damage question takes ``avoid`` beside the spends: the target's side pays, not the
    attacker's; the question's hint names it while the variant is on."""
    s = run(scene(threat=4), "start", "pick Kit", "attack Kit Boss Pistol", "answer 1,2")
    p = pending(d20_state(s))
    assert p.kind == "attack_damage" and "avoid: the target Avoids Injury" in spends.hint(d20(s))
    refused(s, "answer 6,6,6,6,6,6 avoid location=3", "a hit location is for a physical attack")
    run(s, "answer 6,6,6,6,6,6 avoid")
    assert harms(s, "Boss") == 0 and logged(s, "Boss Avoids Injury")
    assert d20_state(s).threat == 2  # 4, less the Boss's own 2: the attacker pays nothing for it
