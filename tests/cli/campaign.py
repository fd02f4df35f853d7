"""Files of a small campaign for the tests of stat blocks, parties, `tracker carry` and `tracker new`
(docs/reference/cli.md, docs/reference/file-format.md): a bestiary, a party and encounters in a temporary folder, both
families.

Every run goes through `tracker.cli.main.main` (stdin replaced), as `tests/cli/test_exec.py` does.
"""

from __future__ import annotations

import io
import json
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tracker.cli.main import main

GUILD = textwrap.dedent(
    """\
    # The Guild's people
    [bestiary]
    name = "Guild"
    system = "ttb"

    [[stat_blocks]]
    name = "Guild Thug"
    rank = "minion"
    rank_value = 5
    initiative = 2
    speed = 4
    wounds = 6

    [[stat_blocks]]
    name = "Guild Enforcer"
    rank = "enforcer"
    rank_value = 7
    initiative = 2
    wounds = 9
    armor = 1
    """
)

PARTY = textwrap.dedent(
    """\
    # The crew: shared by every fight of the campaign.
    [party]
    name = "The Crew"
    system = "ttb"

    # Our lead; her wounds are written back after each fight.
    [[combatants]]
    name = "Sofia Ramos"   # the Gunsmith
    kind = "fated"
    initiative = 3
    wounds = 8             # Wounds when fresh
    armor = 1

    # The doctor
    [[combatants]]
    name = "Ash Kettering"
    kind = "fated"
    initiative = 2
    wounds = 7
    skills = { doctor = 3 }   # stitches
    # end of Ash
    """
)

ENCOUNTER = textwrap.dedent(
    """\
    [encounter]
    name = "Docks"
    system = "ttb"
    seed = 3
    bestiary = ["bestiary/guild.toml"]
    party = "party.toml"

    [[combatants]]
    from = "Guild Thug"
    count = 3

    [[combatants]]
    from = "Guild Enforcer"
    armor = 2
    """
)

CULT = textwrap.dedent(
    """\
    [bestiary]
    name = "Cult"
    system = "2d20"

    [[stat_blocks]]
    name = "Cultist"
    npc_type = "minor"
    skills = { fight = 1 }
    stress = 6
    harm_capacity = 1

    [[stat_blocks]]
    name = "Cult Priest"
    npc_type = "major"
    attributes = { insight = 10, will = 12 }
    stress = 12
    """
)

INVESTIGATORS = textwrap.dedent(
    """\
    # The investigators
    [[combatants]]
    name = "Ada Vance"   # the lead
    attributes = { agility = 9, brawn = 8, coordination = 10, insight = 10, reason = 11, will = 9 }
    skills = { fight = 2, survive = 2 }
    stress = 11
    starting_fortune = 3

    [[combatants]]
    name = "Brann Okafor"
    attributes = { agility = 10, brawn = 11, coordination = 9, insight = 8, reason = 8, will = 10 }
    skills = { fight = 3, survive = 3 }
    stress = 14
    """
)

SCENE = textwrap.dedent(
    """\
    [encounter]
    name = "Harbour"
    system = "2d20"
    seed = 8
    profile = "srd"
    bestiary = "cult.toml"
    party = "investigators.toml"

    [[zones]]
    name = "Pier"
    adjacent = ["Yard"]
    [[zones]]
    name = "Yard"

    [[combatants]]
    from = "cultist"
    count = 2
    zone = "Yard"

    [[combatants]]
    from = "Cult Priest"
    zone = "Pier"
    """
)

PROBLEM = re.compile(r"^(?P<file>.+):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> dict[str, Any]:
        data = json.loads(self.out)
        assert isinstance(data, dict)
        return data

    def problems(self) -> list[tuple[str, int, int, str]]:
        """Every stderr line as (file, line, col, message); each must have the `FILE:LINE:COL: ` shape."""
        assert self.code != 0, (self.out, self.err)
        assert "Traceback" not in self.err + self.out
        out = []
        for raw in self.err.splitlines():
            m = PROBLEM.match(raw)
            assert m, f"not FILE:LINE:COL: {raw!r}"
            out.append((m["file"], int(m["line"]), int(m["col"]), m["message"]))
        assert out
        return out

    def one_line(self) -> str:
        """The refusal as the contract wants it: non-zero exit, one line on stderr, no traceback."""
        assert self.code != 0, self.out
        assert "Traceback" not in self.err + self.out
        lines = self.err.strip().splitlines()
        assert len(lines) == 1, self.err
        return lines[0]


def run_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str | Path, stdin: str = ""
) -> Result:
    """The command line in-process with `stdin` as input; argparse exits become exit codes."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def ttb_campaign(folder: Path, encounter: str = ENCOUNTER, guild: str = GUILD, party: str = PARTY) -> Path:
    """The TTB campaign: bestiary/guild.toml, party.toml and enc.toml in `folder`; the encounter's path."""
    write(folder, "bestiary/guild.toml", guild)
    write(folder, "party.toml", party)
    return write(folder, "enc.toml", encounter)


def d20_campaign(folder: Path, scene: str = SCENE) -> Path:
    """The 2d20 campaign: cult.toml, investigators.toml and scene.toml in `folder`; the scene's path."""
    write(folder, "cult.toml", CULT)
    write(folder, "investigators.toml", INVESTIGATORS)
    return write(folder, "scene.toml", scene)


def line_of(text: str, needle: str, nth: int = 0) -> int:
    """1-based number of the `nth` line containing `needle`."""
    hits = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return hits[nth]


def col_of(text: str, needle: str, nth: int = 0) -> int:
    """1-based column of `needle` on the `nth` line containing it."""
    return text.splitlines()[line_of(text, needle, nth) - 1].index(needle) + 1


def by_name(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in state["combatants"]}
