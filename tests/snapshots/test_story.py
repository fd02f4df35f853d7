"""Snapshots of the story of the fight: the GM's Story tab, the full-screen story (``S``),
and the players' story (``s`` in ``tracker view --player``), each after a whole demo.

Regenerate after an intended change with: python -m pytest tests/snapshots --snapshot-update
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import pinned
from tests.snapshots.conftest import EXAMPLES, SnapCompare, play_app
from tracker.store import files
from tracker.ui.app import TrackerApp

#: From the Turn tab, "." five times reaches the Story tab.
TO_STORY = ["full_stop"] * 5


def demo_app(tmp_path: Path, example: str, *, player: bool = False) -> TrackerApp:
    """The app on `example` with its whole [[demo]] played."""
    text = pinned((EXAMPLES / example).read_text(encoding="utf-8"))
    steps = [step.do for step in files.parse_text(text, example).demo]
    return play_app(tmp_path / example, text, steps, player=player)


@pytest.mark.parametrize("size", [(100, 30), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_story_tab(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(demo_app(tmp_path, "brawl.toml"), terminal_size=size, press=TO_STORY)


def test_story_full_screen_2d20(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(demo_app(tmp_path, "skirmish_srd.toml"), terminal_size=(80, 24), press=["S"])


def test_players_story(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """No Rotten Belle (gm_only), no Fate Deck, the Fatemaster's Wounds as hits without numbers."""
    assert snap_compare(demo_app(tmp_path, "brawl.toml", player=True), terminal_size=(100, 30), press=["s"])
