"""Snapshot tests of the GM screen for both systems at 80×24 and 120×40, and of each modal.

Regenerate after an intended change with: python -m pytest tests/snapshots --snapshot-update
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import pinned
from tests.snapshots.conftest import EXAMPLES, SnapCompare, play_app
from tracker.ui.app import TrackerApp


def app_for(tmp_path: Path, example: str, commands: list[str]) -> TrackerApp:
    text = pinned((EXAMPLES / example).read_text(encoding="utf-8"))
    return play_app(tmp_path / example, text, commands)


TTB_MIDFIGHT = [
    "initiative Sofia 10",
    "initiative Ash 8",
    "initiative Marguerite 5",
    "start",
    "answer Belle",
    "engage Sofia 'Guild Thug'",
    "add Ash bleeding_out 3",
    "add Marguerite burning 2",
    "spend Sofia strike",
]
TWOD20_MIDFIGHT = [
    "start",
    "pick Ada",
    "spend Ada attack",
    "damage Cultist 4 icons=1",
    "next",
    "pick Enforcer",
    "move Enforcer Boathouse",
    "reach Enforcer Brann",
]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_ttb_main_screen(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(tmp_path, "brawl.toml", TTB_MIDFIGHT), terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_twod20_main_screen(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(tmp_path, "skirmish_srd.toml", TWOD20_MIDFIGHT), terminal_size=size)


@pytest.mark.parametrize(
    ("keys", "name"),
    [(["question_mark"], "help"), (["i"], "rule"), (["s"], "spend")],
)
def test_modals(snap_compare: SnapCompare, tmp_path: Path, keys: list[str], name: str) -> None:
    app: Any = app_for(tmp_path, "brawl.toml", [*TTB_MIDFIGHT, "add Sofia burning 2"])
    assert snap_compare(app, terminal_size=(100, 30), press=keys)


def test_question_whole_under_a_toast(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """80×24, the duel's attack flipped by its key (`3`): the flip's Result toast stands above the prompt bar,
    and the cheat offer that waits (10♦, 8♠ or no) is whole on screen, as is the hint on the command line."""
    app = app_for(
        tmp_path, "duel.toml", ["initiative Sofia 9", "start", "spend Sofia charge Enforcer", "answer pass 1"]
    )
    assert snap_compare(app, terminal_size=(80, 24), press=["3"])
