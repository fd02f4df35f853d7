"""Every modifier reaches the test, through the outer contract (docs/reference/cli.md ``tracker exec``, ``tracker
odds``): the question names each modifier with its source, the flip turns over the cards they ask for, the odds count
them, and a modifier the rules do not allow is refused in one line with the file unchanged."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Tracker, pinned

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def copy(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.write_text(pinned((EXAMPLES / name).read_text(encoding="utf-8")), encoding="utf-8")
    return path


def test_ttb_the_question_and_the_odds_name_each_modifier(tracker: Tracker, tmp_path: Path) -> None:
    """Dazed +2 TN [000:L330-332], Blind ⊟⊟ [000:L314-316], a Fatemaster's Defensive as ⊟ to the Fated's flip
    [000:L336]: the question says so, ``tracker odds`` counts the same duel (⊟⊟⊟, no cheat [000:L87-89])."""
    duel = copy(tmp_path, "duel.toml")
    lines = "start\nadd Sofia dazed\nadd Sofia blind\nadd Guild defensive 2\nattack Sofia Guild\n"
    r = tracker("exec", duel, "--json", "--save", stdin=lines)
    assert r.code == 0, r.err
    question, before = r.json()["prompt"], r.json()["deck"]["discards"]
    assert "TN 13 (Defense 4 + Rank 7, Dazed +2)" in question
    assert "⊟⊟⊟ (⊟⊟ Blind, ⊟⊟ Defensive +2 (Guild Enforcer); at most 3), 4 cards, no cheat" in question
    o = tracker("odds", duel, "--json")
    assert o.code == 0, o.err
    d = o.json()["duel"]
    assert d["tn"] == 13 and d["modifier"] == -3 and d["cheat"] is None
    assert d["counted"] == ["Dazed +2 TN", "⊟⊟ Blind", "⊟⊟ Defensive +2 (Guild Enforcer)"]
    r = tracker("exec", duel, "--json", stdin="answer flip\n")
    assert r.code == 0 and r.json()["deck"]["discards"] == before + 4  # four cards for ⊟⊟⊟ [000:L87]


def test_ttb_a_gm_modifier_the_rules_do_not_allow_is_refused(tracker: Tracker, tmp_path: Path) -> None:
    """A fate modifier past the cap of 3 [001:L30-31] is refused in one line and nothing is saved."""
    duel = copy(tmp_path, "duel.toml")
    before = duel.read_bytes()
    r = tracker("exec", duel, "--save", stdin="start\nattack Sofia Guild ++++\n")
    assert r.code == 2 and r.err.startswith("line 2: ") and r.err.count("\n") == 1
    assert duel.read_bytes() == before
