"""`tracker check FILE` (docs/reference/cli.md, docs/reference/file-format.md): exit 0 when valid; else exit 1, one
`FILE:LINE:COL: message` a problem.

Each invalid case names the line the GM has to fix; the positions come from `tracker.store.tomlpos`
(or from the TOML parser for a syntax error).
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import textwrap
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tracker.cli.main import main

VALID = textwrap.dedent(
    """\
    [encounter]
    name = "Checked"
    system = "ttb"
    seed = 3

    [[combatants]]
    name = "Sofia Ramos"
    kind = "fated"
    wounds = 8
    conditions = { dazed = true }

    [[combatants]]
    name = "Guild Thug"
    rank = "minion"
    rank_value = 5
    wounds = 5
    conditions = { burning = 2 }

    [[demo]]
    do = "start"
    say = "Steel is drawn."

    [[demo]]
    do = "add thug burning"
    """
)

PROBLEM = re.compile(r"^(?P<file>.+):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def check(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    def run(path: Path) -> Result:
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        try:
            code = main(["check", str(path)])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def write(tmp_path: Path, text: str, name: str = "enc.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(result: Result, path: Path) -> list[tuple[int, int, str]]:
    """Every stderr line as (line, col, message); each must have the `FILE:LINE:COL: ` shape."""
    assert result.code == 1, (result.out, result.err)
    assert "Traceback" not in result.err + result.out
    out = []
    for raw in result.err.splitlines():
        m = PROBLEM.match(raw)
        assert m, f"not FILE:LINE:COL: {raw!r}"
        assert m["file"] == str(path)
        out.append((int(m["line"]), int(m["col"]), m["message"]))
    assert out
    return out


def line_of(text: str, needle: str, nth: int = 0) -> int:
    """1-based number of the `nth` line containing `needle`."""
    hits = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return hits[nth]


def test_valid_file_exits_0(check: Any, tmp_path: Path) -> None:
    path = write(tmp_path, VALID)
    result = check(path)
    assert result.code == 0, result.err
    assert result.err == ""
    assert str(path) in result.out


@pytest.mark.parametrize("name", ["brawl.toml", "duel.toml"])
def test_shipped_examples_are_valid(check: Any, name: str) -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / name
    if not path.exists():
        pytest.skip(f"{name} is not in this checkout")
    result = check(path)
    assert result.code == 0, result.err


def test_builtin_demo_and_starter_are_valid(check: Any, tmp_path: Path) -> None:
    for name in ("demo.toml", "starter_ttb.toml"):
        text = resources.files("tracker").joinpath(f"data/{name}").read_text(encoding="utf-8")
        result = check(write(tmp_path, text, name))
        assert result.code == 0, (name, result.err)


def test_unknown_key_points_at_its_line(check: Any, tmp_path: Path) -> None:
    text = VALID.replace("rank_value = 5\n", 'rank_value = 5\nfavourite_colour = "red"\n')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "favourite_colour"), 1)
    assert "unknown key 'favourite_colour'" in message


def test_unknown_key_in_the_encounter_table(check: Any, tmp_path: Path) -> None:
    text = VALID.replace('name = "Checked"', 'name = "Checked"\nsedd = 4')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "sedd"), 1)
    assert "sedd" in message


def test_unknown_key_in_an_inline_table_points_at_the_key(check: Any, tmp_path: Path) -> None:
    text = VALID.replace("wounds = 8\n", 'wounds = 8\ntwist_deck = { defining = "rams", bogus = 1 }\n')
    path = write(tmp_path, text)
    found = problems(check(path), path)
    line = line_of(text, "bogus")
    assert (line, text.splitlines()[line - 1].index("bogus") + 1, "unknown key 'bogus'") in found


def test_unknown_key_in_an_array_of_inline_tables_points_at_its_line(check: Any, tmp_path: Path) -> None:
    text = VALID.replace("wounds = 5\n", 'wounds = 5\nweapons = [{ name = "Cleaver", edge = 2 }]\n')
    path = write(tmp_path, text)
    [(line, _, message)] = problems(check(path), path)
    assert line == line_of(text, "Cleaver")
    assert message == "unknown key 'edge'"


def test_wrong_type(check: Any, tmp_path: Path) -> None:
    text = VALID.replace("wounds = 5", 'wounds = "five"')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, 'wounds = "five"'), 1)
    assert "wounds" in message and "five" in message


def test_condition_value_of_the_wrong_type(check: Any, tmp_path: Path) -> None:
    text = VALID.replace("burning = 2", 'burning = "hot"')
    path = write(tmp_path, text)
    found = problems(check(path), path)
    assert {line for line, _, _ in found} == {line_of(text, 'burning = "hot"')}


def test_minion_with_rank_value_9(check: Any, tmp_path: Path) -> None:
    text = VALID.replace("rank_value = 5", "rank_value = 9")
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "rank_value = 9"), 1)
    assert "Minion" in message and "5-6" in message


def test_fated_with_rank_value(check: Any, tmp_path: Path) -> None:
    text = VALID.replace('kind = "fated"', 'kind = "fated"\nrank_value = 4')
    path = write(tmp_path, text)
    [(line, _, message)] = problems(check(path), path)
    # The entry's header or the offending key: either way inside Sofia's table.
    assert line in (line_of(text, "[[combatants]]"), line_of(text, "rank_value = 4"))
    assert "rank_value" in message


def test_fatemaster_without_rank_value(check: Any, tmp_path: Path) -> None:
    text = VALID.replace('rank = "minion"\nrank_value = 5\n', "")
    path = write(tmp_path, text)
    [(line, _, message)] = problems(check(path), path)
    assert line == line_of(text, "[[combatants]]", 1)
    assert "rank_value" in message


def test_malformed_toml_reports_the_parsers_position(check: Any, tmp_path: Path) -> None:
    text = VALID.replace('system = "ttb"', "system = ttb")
    path = write(tmp_path, text)
    with pytest.raises(tomllib.TOMLDecodeError) as info:
        tomllib.loads(text)
    where = re.search(r"at line (\d+), column (\d+)", str(info.value))
    assert where is not None
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (int(where[1]), int(where[2]))
    assert line == line_of(text, "system = ttb")
    assert message.startswith("TOML syntax")


def test_bad_condition_name(check: Any, tmp_path: Path) -> None:
    text = VALID.replace("dazed = true", "onfire = true")
    path = write(tmp_path, text)
    [(line, _, message)] = problems(check(path), path)
    assert line == line_of(text, "onfire")
    assert "onfire" in message


def test_demo_step_that_would_be_refused(check: Any, tmp_path: Path) -> None:
    text = VALID + '\n[[demo]]\ndo = "spend Nobody walk"\n'
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "spend Nobody walk"), 1)
    assert "demo step 3" in message and "Nobody" in message


def test_several_problems_one_line_each_in_file_order(check: Any, tmp_path: Path) -> None:
    text = (
        VALID.replace("wounds = 8", "wounds = 0")
        .replace("rank_value = 5", "rank_value = 9")
        .replace("seed = 3", 'seed = 3\nmood = "grim"')
    )
    path = write(tmp_path, text)
    found = problems(check(path), path)
    lines = [line for line, _, _ in found]
    assert lines == sorted(lines)
    assert set(lines) == {line_of(text, "mood"), line_of(text, "wounds = 0"), line_of(text, "rank_value = 9")}


def test_missing_file(check: Any, tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (1, 1) and "no such file" in message


def test_a_saved_file_is_valid_and_a_broken_history_is_reported(
    check: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, VALID)
    monkeypatch.setattr(sys, "stdin", io.StringIO("start\nflip 2\n"))
    assert main(["exec", str(path), "--save"]) == 0
    capsys.readouterr()
    assert check(path).code == 0
    text = path.read_text(encoding="utf-8")
    broken = text.replace('"flip 2"', '"spend Nobody walk"')
    assert broken != text
    path.write_text(broken, encoding="utf-8")
    found = problems(check(path), path)
    assert any("replay" in message for _, _, message in found), found


def test_subprocess_reports_without_traceback(tmp_path: Path) -> None:
    good = write(tmp_path, VALID, "good.toml")
    bad = write(tmp_path, VALID.replace("rank_value = 5", "rank_value = 9").replace("dazed", "dizzy"), "bad.toml")
    ok = subprocess.run(
        [sys.executable, "-m", "tracker", "check", str(good)], capture_output=True, text=True, timeout=60, check=False
    )
    assert ok.returncode == 0, ok.stderr
    failed = subprocess.run(
        [sys.executable, "-m", "tracker", "check", str(bad)], capture_output=True, text=True, timeout=60, check=False
    )
    assert failed.returncode == 1
    assert "Traceback" not in failed.stderr + failed.stdout
    lines = failed.stderr.strip().splitlines()
    assert len(lines) == 2
    assert all(PROBLEM.match(line) and line.startswith(f"{bad}:") for line in lines), lines


def test_a_multi_line_string_holding_table_lines_does_not_move_a_problems_line(check: Any, tmp_path: Path) -> None:
    """docs/reference/cli.md ``tracker check``: ``FILE:LINE:COL`` is where the bad value stands, also after a multi-line
    string whose text holds a ``[[combatants]]`` line and a ``key = value`` line (text, not TOML structure)."""
    note = 'notes = """\nMet at the docks.\n[[combatants]]\nwounds = 1\n"""\n'
    text = VALID.replace('kind = "fated"\n', 'kind = "fated"\n' + note).replace("rank_value = 5\n", "rank_value = 99\n")
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "rank_value = 99"), 1), message


def test_the_parsers_width_is_the_terminals_as_shutil_finds_it(monkeypatch: Any) -> None:
    """docs/reference/cli.md: ``--help`` wraps at the terminal's width, found without importing `shutil` (which
    brings the bz2 and lzma compressors) at every start: the same width `shutil.get_terminal_size` gives."""
    import shutil

    from tracker.cli.common import terminal_columns

    for columns in ("57", "200"):
        monkeypatch.setenv("COLUMNS", columns)
        assert terminal_columns() == shutil.get_terminal_size().columns == int(columns)
    monkeypatch.delenv("COLUMNS")
    assert terminal_columns() == shutil.get_terminal_size().columns
