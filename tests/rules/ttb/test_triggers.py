"""Suit triggers declared after a duel [000:L67 "Declare triggers" after "Cheat Fate"; 001:L41-43], driven through
``trigger NAME 'TEXT' [suit=S]`` (docs/reference/language.md)."""

from __future__ import annotations

import pytest

from tests.conftest import pending, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json

SABRE = {"name": "Sabre", "kind": "melee", "range": 1, "damage": "2/3/5"}


def table(**sofia: object) -> Session:
    """Sofia (Fated, Melee 3) engaged with the Thug (TN 9), on her turn."""
    fields: dict[str, object] = {
        "kind": "fated",
        "initiative": 20,
        "wounds": 8,
        "skills": {"melee": 3},
        "weapons": [SABRE],
        "hand": ["4C", "2T"],
        **sofia,
    }
    s = session_from(combatant("Sofia", **fields) + combatant("Thug", rank_value=5, defense=4, wounds=9))
    return run(s, "initiative Sofia 9", "start", "engage Sofia Thug")


def top(s: Session, *codes: str) -> None:
    deck = ttb_state(s).deck
    for code in reversed(codes):
        deck.remove(code)
        deck.append(code)


def attack(s: Session, card: str) -> None:
    """Sofia strikes the Thug; the tracker flips `card` for the duel (no cheat offer: it hits)."""
    top(s, card)
    run(s, "attack Sofia strike Thug", "answer flip")


def test_trigger_in_the_flipped_suit_is_recorded_with_its_text() -> None:
    """[000:L67]: after the duel's flip, a trigger whose suit is in the total is declared; the effect is recorded
    (log and JSON ``triggers``), and it may be declared while the damage flip waits."""
    s = table()
    attack(s, "9R")
    assert pending(ttb_state(s)).kind == "damage_flip"
    run(s, "trigger Sofia 'Critical Strike: +1 damage' suit=rams")
    triggers = state_json(s)["triggers"]
    assert triggers == [
        {"who": "Sofia", "text": "Critical Strike: +1 damage", "suit": "R", "card": "9R", "round": 1, "turn": "Sofia"}
    ]
    said = "Sofia declares a trigger: Critical Strike: +1 damage (♥ Rams in 9♥)"
    assert any(said in e.text for e in ttb_state(s).log)
    assert pending(ttb_state(s)).kind == "damage_flip"  # the flow goes on


def test_trigger_whose_suit_is_not_in_the_total_is_refused() -> None:
    """[000:L67; 001:L41]: a trigger needs its suit in the final duel total."""
    s = table()
    attack(s, "9R")
    before = dump(s.state)
    with pytest.raises(Refusal, match=r"no Crows: that trigger does not fire"):
        s.execute("trigger Sofia 'Onslaught' suit=crows")
    assert dump(s.state) == before


def test_the_suit_on_the_acting_value_counts() -> None:
    """[000:L55] AV includes the Aspect's suit; [000:L67] a trigger may use it: ``suits = { melee = "C" }``."""
    s = table(suits={"melee": "C"})
    attack(s, "9R")
    run(s, "trigger Sofia 'Onslaught' suit=crows")
    assert state_json(s)["triggers"][0]["suit"] == "C"


def test_one_trigger_per_duel_and_each_once_per_turn() -> None:
    """[001:L42-43]: only one trigger per duel; a trigger can be used once per turn."""
    s = table()
    attack(s, "9R")
    run(s, "trigger Sofia 'Critical Strike' suit=R")
    with pytest.raises(Refusal, match="one trigger per duel"):
        s.execute("trigger Sofia 'Other' suit=R")
    run(s, "answer 3T")  # the damage flip
    run(s, "spend Sofia focus")  # a General AP left: the Focus, no duel
    run(s, "horror Sofia 5 from=Ghoul")
    top(s, "10R")
    run(s, "answer flip")
    with pytest.raises(Refusal, match="once per turn"):
        s.execute("trigger Sofia 'critical strike' suit=R")
    run(s, "trigger Sofia 'Steel Nerves' suit=R")
    assert [t["text"] for t in state_json(s)["triggers"]] == ["Critical Strike", "Steel Nerves"]


def test_the_cheated_card_is_the_total() -> None:
    """[000:L65-67]: triggers are declared after cheating [001:L43]: the played hand card's suit counts."""
    s = table(hand=["12M"])
    top(s, "2R")
    run(s, "attack Sofia strike Thug", "answer flip")  # 2 + 3 = 5 < 9: the hand's 12M is offered
    assert pending(ttb_state(s)).kind == "cheat"
    run(s, "answer 12M")
    with pytest.raises(Refusal, match="no Rams"):
        s.execute("trigger Sofia 'Critical Strike' suit=R")
    run(s, "trigger Sofia 'Masked' suit=masks")


def test_jokers_and_the_tables_own_result() -> None:
    """[000:L152-159]: the Red Joker is any one suit (named), the Black Joker none; a result the table typed has
    no card the tracker knows, so the trigger names its suit."""
    s = table()
    attack(s, "RJ")
    with pytest.raises(Refusal, match="Red Joker is any one suit"):
        s.execute("trigger Sofia 'Anything'")
    run(s, "trigger Sofia 'Anything' suit=tomes")
    s = table()
    top(s, "BJ")
    run(s, "attack Sofia strike Thug", "answer flip")
    with pytest.raises(Refusal, match="has no suit"):
        s.execute("trigger Sofia 'Anything' suit=tomes")
    s = table()
    run(s, "attack Sofia strike Thug", "answer pass 1")
    with pytest.raises(Refusal, match="give the suit"):
        s.execute("trigger Sofia 'Critical Strike'")
    run(s, "trigger Sofia 'Critical Strike' suit=R")
    assert state_json(s)["triggers"][0]["card"] is None


def test_bad_trigger_input_and_undo() -> None:
    """Bad input is one line and changes nothing; undo takes a declared trigger back."""
    s = table()
    attack(s, "9R")
    for line, why in (("trigger Sofia 'X' suit=hearts", "suit=hearts"), ("trigger Nobody 'X'", "Nobody")):
        with pytest.raises(Refusal, match=why):
            s.execute(line)
    run(s, "trigger Sofia 'Critical Strike'")  # the card's suit when none is named
    assert state_json(s)["triggers"][0]["suit"] == "R"
    run(s, "undo")
    assert state_json(s)["triggers"] == []
    run(s, "redo")
    assert len(state_json(s)["triggers"]) == 1
