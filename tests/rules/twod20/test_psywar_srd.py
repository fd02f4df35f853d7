"""The SRD's psychological warfare [004:L2365-2415]: a threat is a mental attack whose weapon names its medium
(face-to-face, remote, delayed, written) and the factors that make it bite (awe, evidence, status …), each
driven through the attack flow."""

from __future__ import annotations

from tests.conftest import d20_state, pending, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tracker.families.session import Session

STARE = {"name": "Stare", "range": "close", "damage": 1, "effects": ["mental", "awe"]}
CALL = {"name": "Phone call", "range": "close", "damage": 1, "effects": ["mental", "remote", "shocking"]}
NOTE = {"name": "Ransom note", "range": "close", "damage": 1, "effects": ["mental", "written", "evidence"]}
LETTER = {"name": "Letter", "range": "close", "damage": 1, "effects": ["mental", "delayed", "status"]}
PRIEST = {"agility": 8, "coordination": 8, "insight": 10, "will": 12}
ADA = {"agility": 9, "coordination": 10, "insight": 10, "will": 9}


def scene(where: str = "B") -> Session:
    """The Priest (Will 12 + Talk 3 = TN 15) in A with four threats; Ada (Will 9 + Survive 2, Courage 1) in
    `where` (A, B next door, C two zones off)."""
    return session_from(
        header(threat=4)
        + zones("A", "B", "C")
        + combatant(
            "Priest",
            npc_type="major",
            attributes=PRIEST,
            skills={"talk": 3, "survive": 1, "move": 1},
            stress=12,
            zone="A",
            weapons=[STARE, CALL, NOTE, LETTER],
        )
        + combatant("Ada", attributes=ADA, skills={"survive": 2, "move": 1}, stress=11, courage=1, zone=where)
    )


def threat(line: str, where: str = "B") -> Session:
    return run(scene(where), "start", "pick Priest", line)


def test_a_face_to_face_threat_is_a_close_range_attack_opposed_by_will_and_survive() -> None:
    """[004:L2393]: face-to-face threats are normal attacks with a Range of Close: Ada next door (Medium) is
    +1; [004:L1638] the target opposes with Will + Survive."""
    p = pending(d20_state(threat("attack Priest Ada Stare")))
    assert "Will 12 + Talk 3 = TN 15" in p.question
    assert "Medium range (beyond Close) +1" in p.question
    assert "vs Ada: Will 9 + Survive 2 = TN 11" in p.question


def test_a_remote_threat_ignores_range_for_plus_one() -> None:
    """[004:L2394]: remote threats ignore any modifiers for range, but always add +1 Difficulty: Ada two zones
    off is D2, still opposed (received live)."""
    p = pending(d20_state(threat("attack Priest Ada Phone", where="C")))
    assert "Difficulty 2 (mental 1; remote threat +1) vs 1 (defence 1)" in p.question
    assert "range (beyond Close)" not in p.question


def test_a_written_threat_is_plus_two_unopposed_with_a_wider_complication_range() -> None:
    """[004:L2396]: written threats ignore range, allow no Reaction, add +2 Difficulty and +1 to the
    Complication range."""
    p = pending(d20_state(threat("attack Priest Ada Ransom", where="C")))
    assert "Difficulty 3 (mental 1; written threat +2)" in p.question
    assert "complications on 19-20 (written +1)" in p.question
    assert "unopposed: a written threat allows no reaction" in p.question
    assert "defender" not in p.data


def test_awe_adds_two_challenge_dice_to_the_base_and_talk() -> None:
    """[004:L2403, L2407]: 1[CD] + Talk 3[CD], and an awe-inspiring threat +2[CD]."""
    s = threat("attack Priest Ada Stare", where="A")
    run(s, "answer 1,1 vs 20,20")
    p = pending(d20_state(s))
    assert p.kind == "attack_damage" and "1[CD] + 3[CD] Talk + 2[CD] awe" in p.question
    assert int(str(p.data["dice"])) == 6


def test_a_written_threat_shrugged_off_on_receipt_does_no_damage() -> None:
    """[004:L2396]: on receipt the target may attempt a Difficulty 1 Will + Survive test to avoid the damage:
    faces 1,1 pass."""
    s = threat("attack Priest Ada Ransom", where="C")
    run(s, "answer 1,1", "answer 2,2,2,2,2 receipt=1,1")
    st = d20_state(s)
    assert st.fighters["Ada"].stress == {"stress": 0}
    assert any("on receipt: no damage" in e.text for e in st.log)


def test_004_l2396_momentum_spent_on_a_delayed_threat_hardens_the_test_on_receipt() -> None:
    """[004:L2395-2396]: "Each Momentum spent by the attacker upon making the attack adds +1 to the Difficulty
    of this test": ``pressure=2`` makes it Difficulty 3; on a threat that is not delayed or written it is
    refused, nothing changed."""
    s = threat("attack Priest Ada Ransom", where="C")
    run(s, "answer 1,1", "answer 2,2,2,2,2 receipt=1,1 pressure=2")
    line = next(e.text for e in d20_state(s).log if "tests on receipt" in e.text)
    assert "Difficulty 3" in line
    live = threat("attack Priest Ada Stare", where="A")
    run(live, "answer 1,1 vs 20,20")
    refused(live, "answer roll pressure=1", "Pressure is for a delayed or written threat")


def test_a_written_threat_not_shrugged_off_lands_with_evidences_vicious() -> None:
    """[004:L2396, L2408]: faces 20,20 fail the test on receipt; evidence adds +1[CD] and Vicious 1: 1 + 3 + 1
    = 5 dice, faces 2,2,2,5,5 → 8 with 2 Effects, Vicious +2 = 10, Courage 1: 9 stress."""
    s = threat("attack Priest Ada Ransom", where="C")
    run(s, "answer 1,1")
    p = pending(d20_state(s))
    assert "1[CD] + 3[CD] Talk + 1[CD] evidence (mental, written, evidence)" in p.question
    run(s, "answer 2,2,2,5,5 receipt=20,20")
    st = d20_state(s)
    assert st.fighters["Ada"].stress == {"stress": 9}
    assert any("Vicious +2" in e.text for e in st.log)


def test_receipt_faces_for_a_live_threat_are_refused() -> None:
    """A face-to-face threat has no test on receipt: ``receipt=`` is refused in one line, nothing changed."""
    s = threat("attack Priest Ada Stare", where="A")
    run(s, "answer 1,1 vs 20,20")
    refused(s, "answer roll receipt=1,1", "delayed or written")


def test_a_shocking_threat_knocks_down_and_stuns() -> None:
    """[004:L2413]: shocking adds Knockdown and Stun: 2 Effects ≥ Ada's Move 1 and Survive 2."""
    s = threat("attack Priest Ada Phone", where="C")
    run(s, "answer 1,1 vs 20,20", "answer 2,2,2,5,5")
    ada = d20_state(s).fighters["Ada"]
    assert ada.conditions.get("prone") and ada.conditions.get("stunned")


def test_status_adds_a_die_to_a_delayed_threat_with_no_reaction() -> None:
    """[004:L2395, L2414]: delayed: +2 Difficulty, no Reaction; status or authority +1[CD]."""
    s = threat("attack Priest Ada Letter", where="C")
    p = pending(d20_state(s))
    assert "Difficulty 3 (mental 1; delayed threat +2)" in p.question and "defender" not in p.data
    run(s, "answer 1,1")
    assert "+ 1[CD] status" in pending(d20_state(s)).question
