"""Infinity's hit locations [003:L276-285] and Called Shot [003:L456-460] in the attack flow's damage answer."""

from __future__ import annotations

from tests.conftest import d20_state, pending, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tracker.families.session import Session

RIFLE = {"name": "Rifle", "range": "close", "damage": 2}
TAUNT = {"name": "Taunt", "range": "close", "damage": 1, "effects": ["mental"]}
KIT = {"agility": 10, "awareness": 8, "coordination": 10, "personality": 8, "brawn": 8}


def scene(profile: str = "infinity", momentum: int = 4) -> Session:
    """Kit (Coordination 10 + Ballistics 2) with a Rifle and a Taunt; two Troopers beside it; no Heat."""
    stress = {"vigour": 20, "resolve": 20} if profile == "infinity" else 20
    skills = {"ballistics": 2, "persuade": 1} if profile == "infinity" else {"fight": 2, "talk": 1}
    return session_from(
        header(profile=profile, threat=0, momentum=momentum)
        + zones("A")
        + combatant("Kit", attributes=KIT, skills=skills, stress=stress, zone="A", weapons=[RIFLE, TAUNT])
        + combatant("Trooper", npc_type="notable", stress=stress, zone="A")
        + combatant("Second", npc_type="notable", stress=stress, zone="A")
    )


def hit(s: Session, weapon: str = "Rifle") -> Session:
    return run(s, "start", "pick Kit", f"attack Kit Trooper {weapon}", "answer 1,1")


def texts(s: Session) -> str:
    return "\n".join(e.text for e in d20_state(s).log)


def test_a_physical_hit_strikes_where_the_d20_says() -> None:
    """[003:L279-285]: 9-14 Torso; the table types the d20 (``location=11``)."""
    s = run(hit(scene()), "answer 2,2 location=11")
    assert "the hit on Trooper strikes the Torso (d20: 11)" in texts(s)


def test_the_tracker_rolls_the_location_when_none_is_typed() -> None:
    """[003:L276-285]: the seeded d20 names one of the six locations."""
    s = run(hit(scene()), "answer 2,2")
    assert "the hit on Trooper strikes the " in texts(s)


def test_a_called_shot_picks_the_location_for_its_momentum() -> None:
    """[003:L456-460]: Called Shot chooses the hit location; its cost is garbled on the screen, 2 by default
    (B29). The test's 3 Momentum (faces 1,1 on D1: 4 successes) pays it; 1 is banked."""
    s = run(hit(scene(momentum=0)), "answer 2,2 called=head")
    assert "Called Shot: the hit on Trooper strikes the Head" in texts(s)
    assert d20_state(s).momentum == 1


def test_the_called_shot_cost_is_a_setting() -> None:
    """B29: ``called_shot_cost`` sets the garbled cost."""
    s = session_from(
        header(profile="infinity", threat=0, momentum=0, settings="called_shot_cost = 1")
        + zones("A")
        + combatant("Kit", attributes=KIT, skills={"ballistics": 2}, stress={"vigour": 9}, zone="A", weapons=[RIFLE])
        + combatant("Trooper", npc_type="notable", stress={"vigour": 20}, zone="A")
    )
    run(hit(s), "answer 2,2 called=left-leg")
    assert "strikes the Left Leg" in texts(s) and d20_state(s).momentum == 2


def test_a_secondary_target_is_struck_at_a_random_location() -> None:
    """[003:L370-372]: the second target suffers half the damage "to a random hit location, if physical"."""
    s = run(hit(scene()), "answer 2,2 location=1 secondary=Second")
    assert "the hit on Trooper strikes the Head (d20: 1)" in texts(s)
    assert "the hit on Second strikes the " in texts(s)


def test_no_location_for_a_mental_attack_nor_under_the_srd() -> None:
    """Hit locations are for physical attacks [003:L372] under Infinity: a Called Shot on a Taunt, or one in an
    SRD fight, is refused in one line and changes nothing."""
    s = hit(scene(), "Taunt")
    refused(s, "answer roll called=head", "physical attack")
    srd = hit(scene("srd"))
    assert pending(d20_state(srd)).kind == "attack_damage"
    refused(srd, "answer roll called=head", "called")
    refused(srd, "answer roll location=4", "physical attack")


def test_a_bad_location_is_refused() -> None:
    """A d20 face is 1-20; a location is one of the six."""
    s = hit(scene())
    refused(s, "answer roll location=21", "1 to 20")
    refused(s, "answer roll called=tail", "hit location")
