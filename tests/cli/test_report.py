"""`tracker report FILE [--html] [--player] [-o OUT]`: the story of the fight.

Each example's ``[[demo]]`` is played with ``tracker exec --save`` on a copy, then reported; the test
works out the expected rounds and totals on its own, from the JSON state after every demo step.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tracker.cli.main import main
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.store import files
from tracker.store.save import encounter_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMOS = ["duel.toml", "brawl.toml", "skirmish_srd.toml", "firefight_infinity.toml"]


def played(tmp_path: Path, example: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of `example` with its demo steps played and saved by ``tracker exec --save``, from the demo's
    seed (the steps answer the cards it deals)."""
    target = tmp_path / example
    shutil.copy(EXAMPLES / example, target)
    setup = files.load(target)
    steps = "\n".join(step.do for step in setup.demo) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(steps))
    assert main(["exec", str(target), "--save", "--seed", str(setup.encounter.demo_seed)]) == 0
    return target


def report(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(["report", *args]) == 0
    return capsys.readouterr().out


def damage(before: Mapping[str, Any], after: Mapping[str, Any]) -> int:
    """Damage between two JSON entries of one combatant, worked out here: Wounds lost, or stress taken."""
    if "wounds" in after:
        return max(0, int(before["wounds"]) - int(after["wounds"]))
    return sum(max(0, int(v) - int(before["stress"].get(t, 0))) for t, v in after["stress"].items())


def expected(example: Path) -> tuple[dict[str, int], set[int], dict[str, str]]:
    """Damage taken per combatant, the rounds the fight reached and the final statuses, replaying the
    demo one step at a time and diffing the JSON state (docs/reference/json-state.md)."""
    setup = files.load(EXAMPLES / example.name)
    session = Session(setup, seed=setup.encounter.demo_seed)
    taken: dict[str, int] = {}
    rounds: set[int] = set()
    state = state_json(session)
    for step in setup.demo:
        session.execute(step.do)
        after = state_json(session)
        was = {c["name"]: c for c in state["combatants"]}
        for c in after["combatants"]:
            taken[c["name"]] = taken.get(c["name"], 0) + damage(was[c["name"]], c)
        rounds.add(after["round"])
        state = after
    return taken, rounds - {0}, {c["name"]: c["status"] for c in state["combatants"]}


def table_rows(markdown: str, heading: str) -> list[list[str]]:
    """The rows of the Markdown table under `heading` (header and alignment rows left out)."""
    section = markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines[2:]]


@pytest.mark.parametrize("example", DEMOS)
def test_report_of_each_demo_has_its_rounds_and_totals(
    example: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = played(tmp_path, example, monkeypatch)
    text = report(capsys, str(target))
    taken, rounds, statuses = expected(target)
    assert re.findall(r"^## Round (\d+)$", text, re.M) == [str(n) for n in sorted(rounds)]
    rows = {row[0]: row for row in table_rows(text, "Who did what")}
    for name, total in taken.items():
        assert rows[name][3] == str(total), name
        assert rows[name][6].endswith(statuses[name]), name
    # Every point of damage taken was dealt by someone or is on the "unattributed" row.
    assert sum(int(row[2]) for row in rows.values()) == sum(taken.values())


def test_the_duel_told_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The duel demo, checked against its log by hand: Sofia's charge hits twice (9 → 5 → 3 with armor
    1), Burning +2 costs her 1 (armor), the Enforcer's strike 3; Bleeding Out kills him in round 3."""
    text = report(capsys, str(played(tmp_path, "duel.toml", monkeypatch)))
    rows = {row[0]: row for row in table_rows(text, "Who did what")}
    assert rows["Sofia Ramos"][2:5] == ["6", "4", "0"]
    assert rows["Guild Enforcer"][2:5] == ["3", "6", "0"]
    assert rows["unattributed"][2] == "1"
    assert "- Sofia Ramos hits Guild Enforcer: 4 Wounds (Wounds 9 → 5)" in text
    assert "- Sofia Ramos's Burning +2 ends: Sofia Ramos's Burning ends" in text
    assert "Round 3: Guild Enforcer dies" in text
    assert "Round 2: the Fate Deck is reshuffled (54 cards)" in text
    assert "Round 1: the biggest hit: Sofia Ramos hits Guild Enforcer for 4 Wounds" in text
    assert (
        "- Sofia Ramos cheats Fate: plays 10♦ (10 of Masks) from the Control Hand in place of 5♣ (5 of Tomes)" in text
    )


@pytest.mark.parametrize(("example", "hidden"), [("brawl.toml", "Rotten Belle"), ("skirmish_srd.toml", "Cult Priest")])
def test_player_report_hides_gm_only_combatants(
    example: str,
    hidden: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = played(tmp_path, example, monkeypatch)
    gm = report(capsys, str(target))
    players = report(capsys, str(target), "--player")
    short = hidden.split()[-1]
    assert hidden in gm
    assert hidden not in players and short not in players
    assert "for the players" in players


def test_player_report_keeps_fatemaster_wounds_to_the_gm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """player_view = "descriptor" (the default): players see that the Thug was hit, not his Wounds."""
    target = played(tmp_path, "brawl.toml", monkeypatch)
    gm = report(capsys, str(target))
    players = report(capsys, str(target), "--player")
    assert "Sofia Ramos hits Guild Thug: 3 Wounds (Wounds 6 → 3)" in gm
    assert "- Sofia Ramos hits Guild Thug\n" in players
    assert "Wounds 6 → 3" not in players
    assert "Marguerite Bell takes 2 Wounds (Wounds 4 → 2)" in players  # the players' own, exactly
    rows = {row[0]: row for row in table_rows(players, "Who did what")}
    assert rows["Guild Thug"][3] == "?"
    assert rows["Sofia Ramos"][2] == "?"  # her hit's size is the Fatemaster's to know
    assert "## Fate Deck over the fight" not in players  # the Fate Deck is the GM's


def test_html_report_is_one_well_formed_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = played(tmp_path, "skirmish_srd.toml", monkeypatch)
    out = tmp_path / "story.html"
    capsys.readouterr()
    assert main(["report", str(target), "--html", "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    page = out.read_text(encoding="utf-8")

    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.open: list[str] = []
            self.seen: set[str] = set()

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.seen.add(tag)
            if tag not in ("meta", "rect", "line", "polyline", "circle", "path"):
                self.open.append(tag)

        def handle_endtag(self, tag: str) -> None:
            if tag in ("rect", "line", "polyline", "circle", "path"):
                return
            assert self.open and self.open[-1] == tag, (tag, self.open[-3:])
            self.open.pop()

    parser = Tags()
    parser.feed(page)
    assert parser.open == []
    assert {"svg", "table", "h1", "h2", "ul"} <= parser.seen
    assert page.count("<svg") == 2  # damage per round, and Momentum and Threat over the fight
    assert "Harbour Skirmish: the story of the fight" in page


def test_report_of_a_file_never_played(capsys: pytest.CaptureFixture[str]) -> None:
    text = report(capsys, str(EXAMPLES / "duel.toml"))
    assert "0 commands" in text and "the history is empty" in text


def test_report_of_a_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path / "nope.toml")]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "nope.toml" in err


def test_report_of_a_history_that_no_longer_replays_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = textwrap.dedent(
        """\
        [encounter]
        name = "Broken"
        system = "ttb"
        seed = 1

        [[combatants]]
        name = "Sofia Ramos"
        kind = "fated"
        wounds = 8
        """
    )
    target = tmp_path / "broken.toml"
    target.write_text(text, encoding="utf-8")
    # A valid played file whose history was then edited by hand: the state loads, the replay refuses.
    session = Session(files.load(target))
    session.execute("damage Sofia 3 no-armor")
    files.write_text(target, encounter_text(session))
    saved = target.read_text(encoding="utf-8")
    assert "damage Sofia 3 no-armor" in saved
    target.write_text(saved.replace("damage Sofia 3 no-armor", "damage Nobody 3"), encoding="utf-8")
    assert main(["report", str(target)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tracker: the history no longer replays at command 1") and "\n" not in err


def test_report_never_loads_textual(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Like exec and check, the report is headless: no textual, no textual-plotext."""
    target = played(tmp_path, "duel.toml", monkeypatch)
    probe = textwrap.dedent(
        """\
        import json, sys
        import tracker.cli.main
        code = tracker.cli.main.main(["report", sys.argv[1], "--html", "-o", sys.argv[2]])
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "textual_plotext", "plotext"))
        print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, str(target), str(tmp_path / "out.html")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert json.loads(proc.stderr.strip().splitlines()[-1]) == {"code": 0, "loaded": []}
