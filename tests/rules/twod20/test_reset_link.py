"""Infinity's Reset and Link [003:L653-680]: Average (D1) Hacking tests through ``spend``."""

from __future__ import annotations

from tests.conftest import d20_state, pending, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tracker.families.session import Session

INTRUSION = {"name": "Intrusion", "range": "close", "fixed": 1, "damage": 2, "effects": ["quantronic"]}
MIND = {"agility": 9, "intelligence": 10, "willpower": 8, "awareness": 9}


def scene() -> Session:
    """Vel (Intelligence 10 + Hacking 2 = TN 12, Firewall 10) and the Guard (NPC, Firewall 8) in A, B next
    door; the Drone has no Firewall. Heat 6 for the Guard's reactions."""
    return session_from(
        header(profile="infinity", threat=6, momentum=0)
        + zones("A", "B")
        + combatant(
            "Vel",
            attributes=MIND,
            skills={"hacking": 2},
            stress={"vigour": 8, "firewall": 10},
            zone="A",
            weapons=[INTRUSION],
        )
        + combatant(
            "Guard", npc_type="notable", attributes=MIND, skills={"hacking": 1}, stress={"firewall": 8}, zone="A"
        )
        + combatant("Drone", npc_type="minor", attributes=MIND, stress={"vigour": 5}, zone="A")
    )


def test_reset_restores_the_firewall_and_leaves_a_comlog_penalty_less_the_momentum() -> None:
    """[003:L664-667]: a D1 Hacking test fully recovers the Firewall; comlog actions +4 Difficulty, −1 per
    Momentum: faces 1,5 vs TN 12 = 3 successes, 2 Momentum → +2."""
    s = run(scene(), "start", "pick Vel", "damage Vel 7 track=firewall", "spend Vel reset 1,5")
    vel = d20_state(s).fighters["Vel"]
    assert vel.stress["firewall"] == 0
    assert vel.conditions == {"reset": 2}
    assert vel.majors == 1


def test_the_reset_penalty_falls_each_turn_and_weighs_on_hacks() -> None:
    """[003:L667]: the penalty "also decreases by one each turn"; a hack is a comlog action: +N."""
    s = run(scene(), "start", "pick Vel", "spend Vel reset 15,15")
    assert d20_state(s).fighters["Vel"].conditions == {}  # 0 successes: failed, nothing restored
    s = run(scene(), "start", "pick Vel", "spend Vel reset 5,5")  # 2 successes: 1 Momentum → +3
    assert d20_state(s).fighters["Vel"].conditions == {"reset": 3}
    run(s, "next", "pick Guard", "next", "pick Drone", "next", "pick Vel")
    st = d20_state(s)
    assert st.fighters["Vel"].conditions == {"reset": 2}
    run(s, "attack Vel Guard Intrusion", "answer none")
    assert "Reset (comlog) +2" in pending(d20_state(s)).question


def test_reset_needs_a_firewall() -> None:
    """[003:L664-665]: nothing to reset without a Firewall: one line, nothing changed."""
    s = session_from(
        header(profile="infinity", threat=0)
        + zones("A")
        + combatant("Kit", attributes=MIND, skills={"hacking": 1}, stress={"vigour": 8}, zone="A")
        + combatant("Thug", npc_type="minor", stress={"vigour": 5}, zone="A")
    )
    run(s, "start", "pick Kit")
    refused(s, "spend Kit reset", "no Firewall")


def test_a_link_follows_the_enemy_until_the_end_of_its_turn() -> None:
    """[003:L675-678]: against an enemy moving out of Reach, a D1 Hacking test; the hacker moves with the enemy;
    the link dissolves at the end of the enemy's turn. A Reaction: Vel's first this round adds 1 Heat (6, less
    the 2 the GM paid to open with the Guard, + 1 = 5); the test's 3 Momentum is banked."""
    s = run(scene(), "start", "pick Guard", "reach Guard Vel", "spend Vel link Guard 1,1")
    st = d20_state(s)
    assert st.fighters["Vel"].linked_to == "Guard" and st.threat == 5 and st.momentum == 3
    run(s, "spend Guard movement", "move Guard B")
    assert d20_state(s).fighters["Vel"].zone == "B"
    run(s, "next")
    assert d20_state(s).fighters["Vel"].linked_to is None


def test_a_link_on_an_enemy_not_acting_is_refused() -> None:
    """The Link answers an enemy's move on its own turn [003:L675]: one line, nothing changed."""
    s = run(scene(), "start", "pick Vel")
    refused(s, "spend Vel link Guard", "a Reaction is never taken on one's own turn")
    s = run(scene(), "start", "pick Guard")
    refused(s, "spend Vel link Drone", "not acting")
    refused(s, "spend Vel link Guard 1", "give 2 faces")
