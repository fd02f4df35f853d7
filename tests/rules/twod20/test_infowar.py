"""Infinity's infowar and psywar through the attack flow [003:L553-680]: a hack (a ``quantronic`` program) is
Intelligence + Hacking against the Firewall, soaked by BTS and Interference, its Breaches each taking a
Breach Effect; a psywar technique tests its own skill and its Metanoia takes the technique's Metanoia Effect
(docs/rules/2d20.md#s3-0, docs/rules/2d20-combat.md#s3-7, docs/rules/2d20-harm.md#s3-11-2)."""

from __future__ import annotations

from tests.conftest import d20_state, pending, reloaded, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tracker.families.presenter import option_labels
from tracker.families.session import Session
from tracker.families.snapshot import state_json

INTRUSION = {"name": "Intrusion", "range": "close", "fixed": 1, "damage": 2, "effects": ["quantronic"]}
ORDER = {"name": "Order", "range": "close", "fixed": 1, "damage": 4, "effects": ["mental"]}
INTIMIDATE = {"name": "Intimidate", "range": "close", "fixed": 1, "damage": 4, "effects": ["mental"]}
RIFLE = {"name": "Rifle", "range": "medium", "damage": 2}
VEL = {"agility": 9, "intelligence": 12, "personality": 10, "willpower": 9, "awareness": 10}
GUARD = {"agility": 9, "brawn": 10, "intelligence": 8, "willpower": 8, "personality": 8, "awareness": 9}


def scene(threat: int = 0, guard_firewall: bool = True, where: str = "A") -> Session:
    """Vel (PC hacker: Intelligence 12 + Hacking 3, Personality 10 + Command 2) in A with the Intrusion and
    the Order; the Guard (NPC, Firewall 8, BTS 1, Interference 1) in `where`; a Drone with no Firewall in A.
    No Heat: nobody can pay for a Defence reaction unless `threat` says."""
    stress = {"vigour": 10, "resolve": 9} | ({"firewall": 8} if guard_firewall else {})
    return session_from(
        header(profile="infinity", threat=threat)
        + zones("A", "B", "C")
        + combatant(
            "Vel",
            attributes=VEL,
            skills={"hacking": 3, "command": 2, "persuade": 1},
            stress={"vigour": 8, "resolve": 10, "firewall": 12},
            zone="A",
            weapons=[INTRUSION, ORDER, INTIMIDATE],
        )
        + combatant(
            "Guard",
            npc_type="notable",
            attributes=GUARD,
            skills={"hacking": 1, "discipline": 1, "resistance": 1},
            stress=stress,
            bts=1,
            interference=1,
            zone=where,
            weapons=[RIFLE],
        )
        + combatant("Drone", npc_type="minor", attributes=GUARD, stress={"vigour": 6}, zone="A")
    )


def hack(s: Session, line: str = "attack Vel Guard Intrusion") -> Session:
    return run(s, "start", "pick Vel", line)


def test_a_hack_is_intelligence_plus_hacking_at_average() -> None:
    """[003:L387, L303]: Infowar is a Hacking test, Average (D1); Hacking is governed by Intelligence
    [003:L163]: TN 12 + 3 = 15."""
    s = hack(scene())
    p = pending(d20_state(s))
    assert p.kind == "attack_roll"
    assert "Intelligence 12 + Hacking 3 = TN 15, Difficulty 1 (infowar 1)" in p.question


def test_the_hack_hits_the_firewall_soaked_by_bts_and_interference_and_each_breach_asks_its_effect() -> None:
    """[003:L272, L276-286, L329-348]: 1+2[CD] and Intelligence 12's +3[CD]; faces 2,2,2,2,2 → 10 + 1 fixed =
    11; Soak BTS 1 + Interference 1[CD] (0-2) = 1-3; 8-10 off the Firewall (8): two Breaches (5+ and the track
    emptied, docs/rules/2d20-harm.md#s3-10-1). Each Breach asks for its Breach Effect [003:L614-651]; ``remove`` ends
    one."""
    s = hack(scene())
    run(s, "answer 1,1")
    p = pending(d20_state(s))
    assert p.kind == "attack_damage" and "1+2[CD] + 3[CD] Intelligence" in p.question
    run(s, "answer 2,2,2,2,2")
    st = d20_state(s)
    guard = st.fighters["Guard"]
    assert guard.stress["firewall"] == 8
    assert "resistance bts 1 interference" in " ".join(e.text for e in st.log)
    assert guard.harms == {"breach": 2}
    p = pending(st)
    assert p.kind == "attack_breach" and "(2 to choose)" in p.question
    assert "tagged" in p.options and "none" in p.options
    run(s, "answer tagged")
    p = pending(d20_state(s))
    assert p.kind == "attack_breach" and "to choose" not in p.question
    run(s, "answer lock-connection")
    st = d20_state(s)
    assert st.prompt is None
    assert st.fighters["Guard"].conditions == {"tagged": True, "lock_connection": True}
    guard_json = next(c for c in state_json(s)["combatants"] if c["name"] == "Guard")
    assert guard_json["conditions"] == {"tagged": True, "lock_connection": True}
    assert guard_json["harms"]["breach"] == 2
    again = run(reloaded(s), "remove Guard tagged")
    assert d20_state(again).fighters["Guard"].conditions == {"lock_connection": True}


def test_a_hack_on_a_target_with_no_firewall_is_refused_and_changes_nothing() -> None:
    """[003:L344-345]: quantronic damage comes off the Firewall; with none there is nothing to hack: one line,
    nothing changed (the Attack not taken)."""
    s = run(scene(), "start", "pick Vel")
    refused(s, "attack Vel Drone Intrusion", "Drone has no Firewall")
    assert d20_state(s).fighters["Vel"].majors == 0


def test_a_system_its_breaches_have_destroyed_cannot_be_hacked_again() -> None:
    """[003:L350]: "Suffering 5 Breaches … destroys a quantronic system": there is nothing left to hack; the
    attack is refused in one line with nothing changed (the Attack not taken)."""
    s = run(scene(), "start", "pick Vel")
    for _ in range(3):
        s.execute("damage Guard 20 track=firewall ignore-soak")
    assert d20_state(s).fighters["Guard"].harms["breach"] >= 5
    refused(s, "attack Vel Guard Intrusion", "Guard's system is destroyed (5 Breaches)")
    assert d20_state(s).fighters["Vel"].majors == 0


def test_the_srd_has_no_firewall_to_hack() -> None:
    """docs/rules/2d20.md#s3-0 Stress tracks: the SRD's one Stress track, no Firewall: a hack is refused."""
    s = session_from(
        header()
        + zones("A")
        + combatant("Kit", skills={"fight": 2}, stress=10, zone="A", weapons=[INTRUSION])
        + combatant("Thug", npc_type="minor", stress=8, zone="A")
    )
    run(s, "start", "pick Kit")
    refused(s, "attack Kit Thug Intrusion", "no Firewall")


def test_a_hack_beyond_close_is_one_step_harder_per_range_category() -> None:
    """[003:L118]: a skill used at a distance is +1 Difficulty per range category beyond Close; the Intrusion
    is Reach/Close [003:L272]: the Guard next door (Medium) is D2."""
    s = hack(scene(where="B"))
    p = pending(d20_state(s))
    assert "Difficulty 2 (infowar 1; Medium range (beyond Close) +1)" in p.question


def test_the_defence_against_a_hack_is_hacking_for_heat() -> None:
    """[003:L387, L299-304]: the target's Defence reaction against Infowar is Hacking (Intelligence 8 +
    Hacking 1 = TN 9), and costs its Heat (the first reaction 1, B23)."""
    s = hack(scene(threat=3))
    p = pending(d20_state(s))
    assert p.kind == "attack_reaction" and "defence" in p.options
    run(s, "answer defence")
    st = d20_state(s)
    assert st.threat == 2
    assert "vs Guard (Defence reaction): Intelligence 8 + Hacking 1 = TN 9" in pending(st).question


def test_an_order_tests_command_and_its_metanoia_gains_or_loses_access() -> None:
    """[003:L561]: Order is a Command technique, 1+4[CD]: Personality 10 + Command 2 = TN 12. Faces 2 ×6
    (4[CD] + Personality 10's +2[CD]) → 12 + 1 = 13 on Resolve 9 (no Morale): two Metanoia, and the
    technique's Metanoia Effect, Gain/Lose Access [003:L553-603]."""
    s = hack(scene(), "attack Vel Guard Order")
    p = pending(d20_state(s))
    assert "Personality 10 + Command 2 = TN 12" in p.question
    run(s, "answer 1,1", "answer 2,2,2,2,2,2")
    st = d20_state(s)
    assert st.fighters["Guard"].harms == {"metanoia": 2}
    assert st.fighters["Guard"].conditions == {"gain_lose_access": True}
    assert st.prompt is None


def test_intimidate_tests_persuade() -> None:
    """[003:L555-563]: every technique but Order and Rumour is Persuade: Personality 10 + Persuade 1."""
    s = hack(scene(), "attack Vel Guard Intimidate")
    assert "Personality 10 + Persuade 1 = TN 11" in pending(d20_state(s)).question


def breached() -> Session:
    """Vel's hack lands two Breaches on the Guard (faces as in the test above)."""
    return run(hack(scene()), "answer 1,1", "answer 2,2,2,2,2")


def test_blind_is_a_resistance_or_tech_test_at_the_breaches_and_failing_blinds() -> None:
    """[003:L618-623]: Blind forces a Resistance or Tech test, Difficulty = current Breaches (2); Brawn 10 +
    Resistance 1 = TN 11: faces 15,18 fail → Blind, whose gain deals 3[CD] mental damage [003:L399-402]."""
    s = run(breached(), "answer blind 15,18")
    st = d20_state(s)
    assert st.fighters["Guard"].conditions.get("blind") is True
    assert "Difficulty 2" in " ".join(e.text for e in st.log if "resists Blind" in e.text)


def test_blind_avoided_by_passing_the_test_keeps_the_breach() -> None:
    """[003:L621-623]: "The target still suffers the Breach if successful, though they avoid this Breach
    Effect": faces 1,1 (4 successes) pass."""
    s = run(breached(), "answer blind 1,1")
    st = d20_state(s)
    assert "blind" not in st.fighters["Guard"].conditions
    assert st.fighters["Guard"].harms["breach"] == 2


def test_brain_blast_turns_the_breach_into_a_wound() -> None:
    """[003:L627-629]: against a target using Neural equipment, a Wound instead of a Breach."""
    s = run(breached(), "answer brain-blast", "answer none")
    assert d20_state(s).fighters["Guard"].harms == {"breach": 1, "wound": 1}


def test_dazed_twice_staggers() -> None:
    """[003:L631-633]: the Dazed Breach Effect; if already Dazed, Staggered."""
    s = run(breached(), "answer dazed", "answer dazed")
    assert d20_state(s).fighters["Guard"].conditions == {"dazed": True, "staggered": True}


def test_a_bad_breach_answer_is_refused_and_changes_nothing() -> None:
    """A Breach Effect the list lacks, or faces for an effect with no test: one line, nothing changed."""
    s = breached()
    refused(s, "answer teleport", "no Breach Effect")
    refused(s, "answer tagged 4,5", "only Blind")


def test_system_disruption_makes_the_victims_own_hack_harder() -> None:
    """[003:L645-647]: +1 Difficulty to actions with Comms Equipped or Expert gear: a hacking device is one,
    so the disrupted hacker's own hack is +1."""
    s = run(scene(), "add Vel system-disruption", "start", "pick Vel", "attack Vel Guard Intrusion")
    assert "System Disruption +1" in pending(d20_state(s)).question


def test_the_breach_question_names_each_effect_and_when_it_ends() -> None:
    """The Breach Effects with their timing [003:L614-651]: Absterge ends Lock Connection; Revoke
    Authentication is permanent. Short enough for an 80-column screen."""
    s = breached()
    labels = option_labels(pending(d20_state(s)))
    assert any(lab.startswith("Lock Connection") and "Absterge" in lab for lab in labels)
    assert any(lab.startswith("Revoke Authentication") and "permanent" in lab for lab in labels)
    assert max(map(len, labels)) < 50


def test_inspire_gives_allies_in_close_range_a_morale_die_until_their_next_turn() -> None:
    """[003:L607, L611]: Inspire, 2 Momentum on a psywar attack: allies within Close range gain +1[CD] Morale
    Soak until the start of their next turn. The Order's 3 Momentum pays it; Ada in Vel's zone gains the die,
    the Guard (an enemy) does not."""
    s = session_from(
        header(profile="infinity", threat=0, momentum=0)
        + zones("A")
        + combatant("Vel", attributes=VEL, skills={"command": 2}, stress={"resolve": 10}, zone="A", weapons=[ORDER])
        + combatant("Ada", attributes=VEL, stress={"resolve": 10}, zone="A")
        + combatant("Guard", npc_type="notable", attributes=GUARD, stress={"resolve": 20}, zone="A")
    )
    run(s, "start", "pick Vel", "attack Vel Guard Order", "answer 1,1", "answer 2,2,2,2,2,2 inspire")
    st = d20_state(s)
    assert [(g.source, g.dice, g.until) for g in st.fighters["Ada"].granted] == [("Inspire", 1, "Ada")]
    assert not st.fighters["Guard"].granted and st.momentum == 1


def test_003_l607_inspire_reaches_a_further_zone_for_each_momentum() -> None:
    """[003:L607]: "1 Momentum can be spent to affect an additional zone": ``inspire=B`` costs 3 Momentum and
    Ada in zone B gains the die too; a zone named twice, the attacker's own or an unknown one is refused,
    nothing changed."""
    s = session_from(
        header(profile="infinity", threat=0, momentum=0)
        + zones("A", "B", "C")
        + combatant("Vel", attributes=VEL, skills={"command": 2}, stress={"resolve": 10}, zone="A", weapons=[ORDER])
        + combatant("Ada", attributes=VEL, stress={"resolve": 10}, zone="B")
        + combatant("Kim", attributes=VEL, stress={"resolve": 10}, zone="C")
        + combatant("Guard", npc_type="notable", attributes=GUARD, stress={"resolve": 20}, zone="A")
    )
    run(s, "start", "pick Vel", "attack Vel Guard Order", "answer 1,1")
    for bad, why in (("inspire=B,B", "each once"), ("inspire=A", "other zones"), ("inspire=Moon", "Moon")):
        refused(s, f"answer 2,2,2,2,2,2 {bad}", why)
    run(s, "answer 2,2,2,2,2,2 inspire=B")
    st = d20_state(s)
    assert [g.source for g in st.fighters["Ada"].granted] == ["Inspire"]
    assert not st.fighters["Kim"].granted and st.momentum == 0  # the Order's 3 Momentum paid 2 + 1


def test_inspire_is_a_psywar_spend_only() -> None:
    """[003:L605-611]: Inspire is among the Psywar Momentum spends: on a hack it is refused, nothing changed."""
    s = run(hack(scene()), "answer 1,1")
    refused(s, "answer roll inspire", "psywar spend")
