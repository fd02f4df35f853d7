"""``join`` / ``leave`` through ``tracker exec --json [--save]`` (docs/reference/cli.md, docs/reference/language.md
Joining, docs/reference/json-state.md ``"left": true``).

The newcomers live in the saved ``[state]``: a second ``tracker exec`` on the saved file sees them, undoes them,
and a refused join exits 2 leaving the file byte for byte.
"""

from __future__ import annotations

import io
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.test_exec import Result, one_line_error
from tracker.cli.main import main

Exec = Callable[..., Result]

ENCOUNTER = textwrap.dedent(
    """\
    [encounter]
    name = "Pier"
    system = "2d20"
    seed = 4
    action_order = "alternating"
    threat = 3

    [[zones]]
    name = "Pier"

    [[combatants]]
    name = "Kit"
    stress = 10
    zone = "Pier"

    [[combatants]]
    name = "Guild Thug 3"
    npc_type = "minor"
    side = "enemies"
    stress = 5
    zone = "Pier"

    [[stat_blocks]]
    name = "Guild Thug"
    npc_type = "minor"
    side = "enemies"
    stress = 5
    """
)


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Exec:
    """The command line in-process with `stdin` as input (as in `tests.cli.test_exec`)."""

    def run(*args: str | Path, stdin: str = "") -> Result:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture
def pier(tmp_path: Path) -> Path:
    path = tmp_path / "pier.toml"
    path.write_text(ENCOUNTER, encoding="utf-8")
    return path


def test_join_and_leave_in_the_json_state(cli: Exec, pier: Path) -> None:
    """docs/reference/language.md Joining ("Guild Thug 3" exists: Guild Thug 4, 5), docs/rules/2d20.md#s3-3 [004:L585]
    (1 Threat per minor NPC), §4 (``"left": true``, not in ``order``)."""
    result = cli("exec", pier, "--json", stdin="start\npick Kit\njoin thug count=2 zone=pier\nleave 'guild thug 4'\n")
    assert result.code == 0, result.err
    state = result.json()
    by_name = {c["name"]: c for c in state["combatants"]}
    assert list(by_name) == ["Kit", "Guild Thug 3", "Guild Thug 4", "Guild Thug 5"]
    assert state["pools"]["threat"] == 1
    assert by_name["Guild Thug 4"]["left"] is True and by_name["Guild Thug 5"]["left"] is False
    assert by_name["Guild Thug 5"]["zone"] == "Pier"
    assert "Guild Thug 4" not in state["order"]


def test_pools_before_start_in_the_json_state(cli: Exec, pier: Path) -> None:
    """docs/reference/language.md "Pools before start": the file's pools, changed by ``threat +1`` before ``start``."""
    assert cli("exec", pier, "--json", stdin="").json()["pools"] == {"momentum": 0, "threat": 3}
    assert cli("exec", pier, "--json", stdin="threat +1\nstart\n").json()["pools"] == {"momentum": 0, "threat": 4}


def test_saved_newcomers_survive_a_restart_and_undo(cli: Exec, pier: Path) -> None:
    """docs/reference/file-format.md: joined combatants live in ``[state]``; a restart shows them and undo takes them
    back."""
    first = cli("exec", pier, "--json", "--save", stdin="start\npick Kit\njoin thug count=1\n")
    assert first.code == 0, first.err
    again = cli("exec", pier, "--json", stdin="")
    assert again.json() == first.json()
    undone = cli("exec", pier, "--json", stdin="undo\n").json()
    assert [c["name"] for c in undone["combatants"]] == ["Kit", "Guild Thug 3"]
    assert undone["pools"]["threat"] == 3


def test_a_refused_join_exits_2_and_leaves_the_file(cli: Exec, pier: Path) -> None:
    """docs/reference/cli.md: a refused command stops ``exec`` with ``line N: reason``; with ``--save`` the file is
    unchanged. Four minors cost 4 Threat and the pool holds 3 [004:L585]."""
    before = pier.read_bytes()
    result = cli("exec", pier, "--save", stdin="start\npick Kit\njoin thug count=4\n")
    assert result.code == 2
    assert one_line_error(result).startswith("line 3: Reinforcements cost 4 Threat")
    assert pier.read_bytes() == before
