"""Snapshots of mid-fight screens at the sizes a table uses: long names, ten combatants, five
conditions on one of them, a pending question, and the three 2d20 profiles; for the GM, the read-only
and the player views.

Regenerate after an intended change with: python -m pytest tests/snapshots --snapshot-update
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import pinned
from tests.snapshots.conftest import EXAMPLES, SnapCompare, play_app
from tracker.ui.app import TrackerApp

SIZES = [(80, 24), (100, 30), (120, 40), (200, 60)]
LONG = "Lieutenant Bartholomew Hargreave-Smythe"


def app_for(
    tmp_path: Path, text: str, commands: list[str], *, read_only: bool = False, player: bool = False
) -> TrackerApp:
    return play_app(tmp_path / "fight.toml", text, commands, read_only=read_only, player=player)


def brawl() -> str:
    """The ten-strong brawl with one very long name."""
    return pinned((EXAMPLES / "brawl.toml").read_text(encoding="utf-8")).replace("Guild Lieutenant", LONG)


#: Round 1 under way: five conditions on Sofia, an engagement, and Sofia at 0 Wounds, so the
#: unconsciousness check waits for the table.
BRAWL_MIDFIGHT = [
    "initiative Sofia 10",
    "initiative Ash 8",
    "initiative Marguerite 5",
    "start",
    "answer Belle",
    "engage Sofia 'Guild Thug'",
    "add Sofia burning 2",
    "add Sofia poison 3",
    "add Sofia dazed",
    "add Sofia prone",
    "add Sofia bleeding_out 2",
    "add Ghoul burning 1",
    "spend Sofia strike",
    "damage Sofia 8 no-armor",
]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_brawl_gm(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(tmp_path, brawl(), BRAWL_MIDFIGHT), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_brawl_read_only(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(tmp_path, brawl(), BRAWL_MIDFIGHT, read_only=True), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_brawl_player(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(tmp_path, brawl(), BRAWL_MIDFIGHT, player=True), terminal_size=size)


def skirmish(profile: str = "srd") -> str:
    return (
        (EXAMPLES / "skirmish_srd.toml")
        .read_text(encoding="utf-8")
        .replace('profile = "srd"', f'profile = "{profile}"')
    )


#: Ada has shot the Cultist, the Enforcer closed in on Brann; Persistent ticks on Brann; the
#: hand-over question waits.
SKIRMISH_MIDFIGHT = [
    "start",
    "pick Ada",
    "spend Ada attack",
    "damage Cultist 4 icons=1",
    "next",
    "pick Enforcer",
    "move Enforcer Boathouse",
    "reach Enforcer Brann",
    "damage Brann 3 persistent=2",
    "add Brann prone",
    "next",
]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_skirmish_srd_gm(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(tmp_path, skirmish(), SKIRMISH_MIDFIGHT), terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_skirmish_srd_player(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(tmp_path, skirmish(), SKIRMISH_MIDFIGHT, player=True), terminal_size=size)


def test_skirmish_secret_war_gm(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(app_for(tmp_path, skirmish("secret-war"), SKIRMISH_MIDFIGHT), terminal_size=(100, 30))


FIREFIGHT_MIDFIGHT = [
    "start",
    "pick Vanguard",
    "damage Vel 4 icons=1",
    "add Vel dazed",
    "add Ishikawa persistent 2",
    "next",
]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_firefight_infinity_gm(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    text = pinned((EXAMPLES / "firefight_infinity.toml").read_text(encoding="utf-8"))
    assert snap_compare(app_for(tmp_path, text, FIREFIGHT_MIDFIGHT), terminal_size=size)


def test_firefight_infinity_player(snap_compare: SnapCompare, tmp_path: Path) -> None:
    text = pinned((EXAMPLES / "firefight_infinity.toml").read_text(encoding="utf-8"))
    assert snap_compare(app_for(tmp_path, text, FIREFIGHT_MIDFIGHT, player=True), terminal_size=(100, 30))
