"""Horror duels [000:L401-405, the rank table's horror column L417-424], driven through ``horror NAME TN [from=S]``."""

from __future__ import annotations

import pytest

from tests.conftest import pending, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session


def table(**sofia: object) -> Session:
    """Thug (Minion, Willpower 2) acts first: a horror on Sofia comes during its turn."""
    fields: dict[str, object] = {"kind": "fated", "willpower": 4, "initiative": -20, "hand": ["12R", "3M"], **sofia}
    return session_from(combatant("Sofia", **fields) + combatant("Thug", willpower=2, rank_value=5, initiative=30))


def top(s: Session, *codes: str) -> None:
    """Put `codes` on top of the Fate Deck, first flipped first."""
    deck = ttb_state(s).deck
    for code in reversed(codes):
        deck.remove(code)
        deck.append(code)


def conditions(s: Session, name: str) -> dict[str, object]:
    state = s.rules.state_json()
    combatants = state["combatants"]
    assert isinstance(combatants, list)
    entry = next(c for c in combatants if isinstance(c, dict) and c["name"] == name)
    conds = entry["conditions"]
    assert isinstance(conds, dict)
    return dict(conds)


def test_fated_fails_the_willpower_duel_and_is_paralyzed() -> None:
    """[000:L403]: a failed horror duel makes the character Paralyzed (it lasts to the end of its next turn)."""
    s = table()
    run(s, "start", "horror Sofia 12 from=Ghoul")
    p = pending(ttb_state(s))
    assert p.kind == "horror" and p.options == ["flip", "pass", "fail"]
    assert "Willpower 4 vs TN 12" in p.question
    top(s, "2R")
    run(s, "answer flip")  # 2 + 4 = 6 < 12; the hand's 12R would make 16: the cheat is offered
    assert pending(ttb_state(s)).kind == "cheat"
    run(s, "answer no")
    assert conditions(s, "Sofia").get("paralyzed") is True
    assert "horror_immune" not in conditions(s, "Sofia")
    run(s, "next")  # Sofia's turn: Paralyzed, no AP, the turn goes by (docs/rules/ttb-turns.md#s2-4)
    assert ttb_state(s).fighters["Sofia"].ap == 0


def test_paralyzed_on_its_own_turn_ends_that_turn() -> None:
    """[000:L403] with docs/rules/ttb-conditions.md#s2-7 Paralyzed [000:L364]: failing a horror duel mid-turn ends the
    turn at once."""
    s = table()
    run(s, "start", "next")
    assert ttb_state(s).active == "Sofia"
    run(s, "horror Sofia 12 from=Ghoul", "answer fail")
    assert ttb_state(s).active == "Thug"
    assert any("Sofia gains Paralyzed (horror from Ghoul)" in e.text for e in ttb_state(s).log)


def test_fated_success_gives_immunity_to_that_source_only() -> None:
    """[000:L405]: success → immune to horror duels from that source until the end of Dramatic Time (JSON
    ``conditions.horror_immune``); another source still asks its duel."""
    s = table()
    run(s, "start", "horror Sofia 12 from=Ghoul", "answer pass")
    assert conditions(s, "Sofia")["horror_immune"] == ["Ghoul"]
    assert "paralyzed" not in conditions(s, "Sofia")
    run(s, "horror Sofia 9 from=Banshee", "answer pass")
    assert conditions(s, "Sofia")["horror_immune"] == ["Ghoul", "Banshee"]


def test_horror_from_an_immune_source_is_refused_and_changes_nothing() -> None:
    """[000:L405]: a horror duel from the same source against an immune combatant: one line, nothing changed."""
    s = table()
    run(s, "start", "horror Sofia 12 from=Ghoul", "answer pass")
    before = dump(s.state)
    with pytest.raises(Refusal, match="immune to horror duels from Ghoul"):
        s.execute("horror Sofia 14 from=ghoul")
    assert dump(s.state) == before


def test_immunity_ends_with_dramatic_time() -> None:
    """[000:L405] "until end of Dramatic Time": ``end`` clears it, and the source may horrify again."""
    s = table()
    run(s, "start", "horror Sofia 12 from=Ghoul", "answer pass", "end", "answer none")
    assert "horror_immune" not in conditions(s, "Sofia")
    run(s, "start", "horror Sofia 12 from=Ghoul")
    assert pending(ttb_state(s)).kind == "horror"


def test_the_tracker_flip_adds_willpower_and_a_fated_may_cheat() -> None:
    """Rank table horror column, Fated row [000:L417]: a Willpower duel against TN; flipped like any duel, cheated
    like any duel (docs/rules/ttb.md#s2-2-4)."""
    s = table()
    run(s, "start", "horror Sofia 12 from=Ghoul")
    top(s, "3T")
    run(s, "answer flip")  # 3 + 4 = 7 fails
    run(s, "answer 12R")  # 12 + 4 = 16 passes
    assert conditions(s, "Sofia")["horror_immune"] == ["Ghoul"]
    assert any("Willpower 4 = 7 vs TN 12: fail" in e.text for e in ttb_state(s).log)


def test_intoxicated_hinders_the_willpower_duel() -> None:
    """[000:L360]: Intoxicated ⊟ on Willpower duels: the horror duel flips two cards and keeps the lower."""
    s = table()
    run(s, "start", "add Sofia intoxicated", "horror Sofia 10 from=Ghoul")
    p = pending(ttb_state(s))
    assert "⊟ Intoxicated" in p.question
    top(s, "13R", "2C")
    run(s, "answer flip")
    assert conditions(s, "Sofia").get("paralyzed") is True  # 2 + 4 kept under ⊟; no cheat under ⊟


def test_fatemaster_character_faces_half_the_tn_against_willpower_plus_rank() -> None:
    """Rank table horror column, Fatemaster rows [000:L418-424]: the Fated uses half the horror TN as acting value
    against the Fatemaster character's Willpower (+ Rank Value, its TN [000:L418]); the Fated source may cheat."""
    s = table()
    run(s, "start", "next", "horror Thug 12 from=Sofia")
    p = pending(ttb_state(s))
    assert "half the TN 6 vs TN 7" in p.question
    top(s, "1M")
    run(s, "answer flip")  # 1 + 6 = 7 ≥ 7: the horror takes hold
    assert conditions(s, "Thug").get("paralyzed") is True


def test_fatemaster_resists_a_black_joker() -> None:
    """[000:L418-424], [000:L156-159]: the horror flips the Black Joker: Thug resists, no cheat after it."""
    s = table()
    run(s, "start", "next", "horror Thug 12 from=Sofia")
    top(s, "BJ")
    run(s, "answer flip")  # the Black Joker: no cheat, Thug resists
    assert conditions(s, "Thug")["horror_immune"] == ["Sofia"]


def test_fatemaster_cheat_offer_from_the_fated_source() -> None:
    """[000:L418-424] with docs/rules/ttb.md#s2-2-4: the Fated source's hand card that makes the horror hold is
    offered."""
    s = session_from(
        combatant("Sofia", kind="fated", willpower=4, initiative=20, hand=["9R"])
        + combatant("Boss", willpower=6, rank_value=9)
    )
    run(s, "start", "horror Boss 10 from=Sofia")  # half TN 5 vs TN 15
    top(s, "2R")
    run(s, "answer flip")  # 5 + 2 = 7 < 15 and 9R makes 14: no card helps, so no offer
    assert ttb_state(s).prompt is None
    assert conditions(s, "Boss")["horror_immune"] == ["Sofia"]
    s = session_from(
        combatant("Sofia", kind="fated", willpower=4, initiative=20, hand=["11R"])
        + combatant("Boss", willpower=6, rank_value=9)
    )
    run(s, "start", "horror Boss 10 from=Sofia")
    top(s, "2R")
    run(s, "answer flip")
    p = pending(ttb_state(s))
    assert p.kind == "cheat" and p.who == "Sofia" and p.options == ["11R", "no"]
    run(s, "answer 11R")  # 11 + 5 = 16 ≥ 15: the horror holds
    assert conditions(s, "Boss").get("paralyzed") is True


def test_answers_and_bad_input() -> None:
    """The horror prompt takes pass/fail/flip like any duel; bad input is refused before anything changes."""
    s = table()
    run(s, "start")
    for line, why in (
        ("horror Nobody 10", "Nobody"),
        ("horror Sofia x", "TN"),
        ("horror Sofia 0", "at least 1"),
        ("horror Sofia 10 from=Sofia", "not a horror to itself"),
        ("horror Sofia 10 by=Thug", "by"),
    ):
        before = dump(s.state)
        with pytest.raises(Refusal, match=why):
            s.execute(line)
        assert dump(s.state) == before
    run(s, "horror Sofia 10")
    with pytest.raises(Refusal):
        s.execute("answer maybe")
    run(s, "answer fail")
    assert conditions(s, "Sofia").get("paralyzed") is True


def test_undo_takes_the_immunity_back() -> None:
    """Undo covers the horror duel: its immunity lives in the state records."""
    s = table()
    run(s, "start", "horror Sofia 12 from=Ghoul", "answer pass", "undo")
    assert "horror_immune" not in conditions(s, "Sofia")
    run(s, "redo")
    assert conditions(s, "Sofia")["horror_immune"] == ["Ghoul"]
