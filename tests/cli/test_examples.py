"""Every shipped encounter is valid and its demo plays to the end (issue 2, 3 and 5: examples with demos)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker import cli

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "examples").glob("*.toml")) + sorted((ROOT / "tracker" / "data").glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_example_checks_clean(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(path)]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("path", [p for p in FILES if "starter" not in p.name], ids=lambda p: p.name)
def test_example_demo_plays_to_the_end(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--text", str(path)]) == 0, capsys.readouterr().err


def test_check_takes_several_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", *map(str, FILES)]) == 0
    assert capsys.readouterr().out.count(": ok") == len(FILES)
