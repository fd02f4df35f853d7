"""Blasts, Pulses and Auras [000:L122-130; 001:L119], through the attack flow, ``damage … blast=N``, ``pulse`` and
``aura`` (docs/reference/language.md "Blast, Pulse and Aura")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import example_session, pending, run, session_from, ttb, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.ttb.records.file import TTBFile

GRENADE = {"name": "Grenade", "kind": "projectile", "range": 8, "damage": "2/3/4", "blast": 1}


def table() -> Session:
    """Sofia (Fated) throws; the Thug (TN 9) is in melee with Bob (Fated); the Ghoul has Armor +1."""
    s = session_from(
        combatant("Sofia", kind="fated", initiative=20, skills={"pistol": 3}, weapons=[GRENADE], hand=["1C"])
        + combatant("Thug", defense=4, wounds=9, initiative=2)
        + combatant("Ghoul", defense=2, wounds=6, armor=1)
        + combatant("Bob", kind="fated", wounds=5, side="players")
    )
    return run(s, "initiative Sofia 9", "initiative Bob 1", "start", "engage Thug Bob")


def top(s: Session, *codes: str) -> None:
    deck = ttb_state(s).deck
    for code in reversed(codes):
        deck.remove(code)
        deck.append(code)


def wounds(s: Session) -> dict[str, int]:
    return {n: f.wounds for n, f in ttb_state(s).fighters.items()}


def test_blast_in_the_attack_flow_hits_each_one_caught_one_level_lower() -> None:
    """[000:L130]: full damage to the primary target, then every character within 2 yards per blast icon suffers
    damage one level less; no flip [001:L119]; each through its own armor."""
    s = table()
    top(s, "10R", "12T")
    run(s, "attack Sofia shoot Thug", "answer Thug", "answer flip", "answer flip")  # ⊟: 12♣, 8♦ → moderate 3
    p = pending(ttb_state(s))
    assert p.kind == "area" and "within 2 yards of Thug (weak 2 each, no flip)" in p.question
    assert p.options == ["Bob", "none"]  # in melee with the Thug: within its engagement range
    deck_before = len(ttb_state(s).deck)
    run(s, "answer Ghoul, Bob")
    assert wounds(s) == {"Sofia": 6, "Thug": 6, "Ghoul": 5, "Bob": 3}  # Ghoul: 2 − 1 armor; Bob: 2
    assert len(ttb_state(s).deck) == deck_before  # no flip for the blast


def test_blast_by_the_damage_command_and_a_weak_primary() -> None:
    """[000:L130]: ``damage NAME W/M/S blast=N`` (2 yards per icon); a Weak primary hit has no lower level."""
    s = table()
    run(s, "damage Thug 2/3/4 card=13R blast=2")
    p = pending(ttb_state(s))
    assert "within 4 yards of Thug (moderate 3 each" in p.question
    run(s, "answer none")
    assert wounds(s)["Thug"] == 5
    run(s, "damage Thug 2/3/4 card=3R blast=1")
    assert ttb_state(s).prompt is None
    assert any("Weak on Thug, nothing one level lower" in e.text for e in ttb_state(s).log)


def test_blast_answer_refuses_the_primary_and_strangers() -> None:
    """The area's answer names those caught; the primary target is not caught twice, and a bad name changes
    nothing."""
    s = table()
    run(s, "damage Thug 2/3/4 card=13R blast=1")
    before = dump(s.state)
    for bad in ("answer Thug", "answer Zed"):
        with pytest.raises(Refusal):
            s.execute(bad)
        assert dump(s.state) == before


def test_pulse_reaches_everyone_in_range_but_its_centre() -> None:
    """[000:L126]: a Pulse radiates from a point; centred on a character, it does not affect that character.
    Each one caught takes the damage through its own armor, and gains the condition."""
    s = table()
    run(s, "pulse Thug 3 2 burning+1 on=Ghoul,Bob")
    assert wounds(s)["Ghoul"] == 5 and wounds(s)["Bob"] == 3 and wounds(s)["Thug"] == 9
    assert ttb_state(s).fighters["Bob"].conditions["burning"] == 1
    with pytest.raises(Refusal, match="centre"):
        s.execute("pulse Thug 3 2 on=Thug")


def test_pulse_damage_profile_flips_for_each_and_asks_who_is_in_range() -> None:
    """[000:L126]: each one caught gets its own damage flip."""
    s = table()
    run(s, "pulse Thug 2 1/2/3")
    assert pending(ttb_state(s)).options == ["Bob", "none"]
    top(s, "13R", "1C")
    run(s, "answer Bob, Ghoul")  # Bob flips 13 (severe 3), the Ghoul 1 (weak 1, armor: still 1)
    assert wounds(s)["Bob"] == 2 and wounds(s)["Ghoul"] == 5


def test_aura_affects_its_centre_and_those_inside_at_their_turn_end_until_it_ends() -> None:
    """[000:L128]: an Aura emanates continually and affects the character it is centred on; JSON ``auras``; it
    ends with ``aura SOURCE off`` or the end of Dramatic Time."""
    s = table()
    run(s, "aura Sofia 2 1 on=Bob")
    assert state_json(s)["auras"] == [{"source": "Sofia", "yards": 2, "effect": ["1"], "inside": ["Sofia", "Bob"]}]
    run(s, "next")  # Sofia's turn ends inside her own aura
    assert wounds(s)["Sofia"] == 5
    run(s, "aura Sofia on=none", "next", "next", "next")  # the Thug, the Ghoul, then Bob, no longer inside
    assert wounds(s)["Bob"] == 5
    run(s, "aura Sofia off")
    assert state_json(s)["auras"] == []
    run(s, "aura Sofia 2 dazed on=Bob", "end")
    assert state_json(s)["auras"] == []


def test_area_bad_input_is_refused_before_anything_changes() -> None:
    """One line, nothing changed: no effect, a bad condition, an aura that is not there."""
    s = table()
    before = dump(s.state)
    for line, why in (
        ("pulse Thug 3 on=Bob", "usage"),
        ("pulse Thug 3 sparkles", "sparkles"),
        ("pulse Thug 3 2/3/4 5", "one damage"),
        ("aura Thug off", "no aura"),
        ("aura Thug on=Bob", "no aura"),
        ("damage Thug 3 blast=1", "blast="),
    ):
        with pytest.raises(Refusal, match=why):
            s.execute(line)
        assert dump(s.state) == before


def test_undo_takes_an_aura_back() -> None:
    """The aura lives in the state records: undo and redo replay it."""
    s = table()
    run(s, "aura Sofia 2 1 on=Bob", "undo")
    assert state_json(s)["auras"] == []
    run(s, "redo")
    assert len(state_json(s)["auras"]) == 1


def test_the_horror_and_blast_example_plays_its_horror_duels_and_its_blast() -> None:
    """examples/ttb_horror_blast.toml: its demo through the command language: the horror duels [000:L401-405],
    the grenade's blast [000:L130], a trigger [000:L67] and an Ongoing Challenge [000:L407-415]."""
    path = Path(__file__).resolve().parents[3] / "examples" / "ttb_horror_blast.toml"
    s = example_session(path)
    setup = ttb(s).setup
    assert isinstance(setup, TTBFile)
    run(s, *(d.do for d in setup.demo))
    st = ttb_state(s)
    assert st.fighters["Sofia Ramos"].horror_immune == ["Grave Spirit"]
    assert st.fighters["Guild Thug"].wounds == 2 and st.fighters["Guild Guard"].wounds == 4
    assert [t.text for t in st.triggers] == ["Shrapnel: the Thug gains Slow"]
    assert st.challenges[0].successes == 2
