"""The party's chance to win round by round (``tracker odds FILE --fight --by-round``, ``tracker report FILE
--odds``): the odds as they stood before the fight, at each round's start and now, drawn as a line in the
HTML report (the turning points are where it jumps)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import run, session_from
from tests.rules.ttb.fighters import combatant
from tracker.cli.main import main
from tracker.families.session import Session
from tracker.playouts.timeline import by_round, sparkline
from tracker.store.save import encounter_text


def fight() -> Session:
    """Sofia against a Thug she strikes down in round 1: from round 2 on the fight is won."""
    sofia = combatant(
        "Sofia",
        kind="fated",
        initiative=20,
        wounds=8,
        defense=5,
        skills={"melee": 3},
        weapons=[{"name": "Sabre", "kind": "melee", "damage": "2/3/5"}],
    )
    thug = combatant(
        "Thug",
        rank_value=6,
        wounds=8,
        defense=4,
        skills={"melee": 3},
        weapons=[{"name": "Club", "kind": "melee", "damage": "2/3/4"}],
    )
    return run(session_from(sofia + thug), "start")


def test_a_fight_won_in_round_one_reads_certain_from_round_two_on() -> None:
    s = fight()
    run(s, "damage Thug 20", "answer flip", "next", "next")
    while s.state.round < 2:
        run(s, "next")
    points = by_round(s, runs_each=40, seed=3, workers=1)
    assert [p.label for p in points][:2] == ["before", "R1"]
    assert points[-1].label in ("R2", "now")
    assert all(p.chance == 1.0 for p in points if p.round >= 2)
    assert sparkline(points).endswith("100 %")


def test_the_same_seed_gives_the_same_line() -> None:
    s = fight()
    run(s, "next", "next")
    assert by_round(s, runs_each=30, seed=5, workers=1) == by_round(s, runs_each=30, seed=5, workers=1)


def test_the_html_report_draws_the_line_as_svg_and_markdown_as_a_table(tmp_path: Path) -> None:
    s = fight()
    run(s, "damage Thug 20", "answer flip", "next", "next")
    path = tmp_path / "fight.toml"
    path.write_text(encounter_text(s), encoding="utf-8")
    page = tmp_path / "fight.html"
    assert main(["report", str(path), "--html", "--odds", "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "The chance the players win, round by round" in html
    svgs = re.findall(r"<svg.*?</svg>", html, re.S)
    assert svgs
    for svg in svgs:
        ET.fromstring(svg)  # well-formed XML
    note = tmp_path / "fight.md"
    assert main(["report", str(path), "--odds", "-o", str(note)]) == 0
    assert "| before | " in note.read_text(encoding="utf-8")


def test_the_players_story_has_no_odds_and_by_round_reaches_the_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = fight()
    path = tmp_path / "fight.toml"
    path.write_text(encounter_text(s), encoding="utf-8")
    assert main(["report", str(path), "--odds", "--player"]) == 2
    assert "--odds is the GM's" in capsys.readouterr().err
    assert main(["odds", str(path), "--fight", "--runs", "20", "--seed", "2", "--by-round", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["by_round"]
    assert [p["label"] for p in found] == ["before", "R1"]
    assert all(0.0 <= p["players"] <= 1.0 for p in found)
