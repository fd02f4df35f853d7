"""Every shipped encounter is valid and its demo plays to the end (examples with demos)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
#: Every shipped file `tracker check` takes: encounters, the campaign's encounters and party, the bestiaries.
FILES = [
    *sorted((ROOT / "examples").glob("*.toml")),
    *sorted((ROOT / "examples" / "campaign").glob("*.toml")),
    *sorted((ROOT / "examples" / "bestiary").glob("*.toml")),
    *sorted((ROOT / "tracker" / "data").glob("*.toml")),
]
#: The encounters with a [[demo]] script (not the starters, bestiaries or party files).
DEMOS = [p for p in FILES if "starter" not in p.name and p.parent.name != "bestiary" and p.name != "party.toml"]


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_example_checks_clean(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(path)]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.name)
def test_example_demo_plays_to_the_end(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--text", str(path)]) == 0, capsys.readouterr().err


def test_check_takes_several_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", *map(str, FILES)]) == 0
    assert capsys.readouterr().out.count(": ok") == len(FILES)


def test_duel_demo_shows_a_cheat(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 10 item 9, docs/rules/ttb.md#s2-2-4 [000:L63-65]: the duel demo shows Sofia cheating Fate from her hand."""
    assert cli.main(["demo", "--text", str(ROOT / "examples" / "duel.toml")]) == 0
    out = capsys.readouterr().out
    assert "flipped 5♣: cheat with a card from the hand?" in out
    assert "Sofia Ramos cheats Fate: plays 10♦ (10 of Masks) from the Control Hand" in out
