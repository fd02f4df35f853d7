"""The GM screen's ``join`` and ``leave`` (docs/reference/language.md): the `J` and `L` keys, the palette entries and
the command line's completion of stat block names (``join Gu`` → ``join 'Guild Thug'``, ``from=`` likewise)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import pinned
from tests.ui.conftest import EXAMPLES
from tests.ui.test_keys import command_line, type_text
from tests.ui.test_screen import main_screen
from tracker.families.session import Session
from tracker.store import files
from tracker.ui.app import TrackerApp
from tracker.ui.offers import offers

BLOCKS = """
[[stat_blocks]]
name = "Guild Thug"
rank_value = 5
side = "enemies"
wounds = 5

[[stat_blocks]]
name = "Gremlin"
rank_value = 2
wounds = 3
"""


def app_with_blocks(tmp_path: Path, example: str = "duel.toml") -> TrackerApp:
    """An example encounter with stat blocks written inline (docs/reference/file-format.md)."""
    target = tmp_path / example
    target.write_text(pinned((EXAMPLES / example).read_text(encoding="utf-8")) + BLOCKS, encoding="utf-8")
    return TrackerApp(Session(files.load(target)), target)


@pytest.mark.anyio
async def test_join_key_completes_stat_blocks_and_runs(tmp_path: Path) -> None:
    """`J` opens ``join ``; Tab completes a stat block's name (then ``from=`` values); Enter joins it."""
    app = app_with_blocks(tmp_path)

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("J")
        line = command_line(app)
        assert line.value == "join " and app.focused is line
        await type_text(pilot, "Gu")
        await pilot.press("tab")
        assert line.value == "join 'Guild Thug' "
        await type_text(pilot, "count=2")
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.rules.combatant_names()[-2:] == ["Guild Thug 1", "Guild Thug 2"]
        await pilot.press("J")
        await type_text(pilot, "Bill from=Gr")
        await pilot.press("tab")
        assert command_line(app).value == "join Bill from=Gremlin "


@pytest.mark.anyio
async def test_leave_key_prefills_the_selected_combatant(tmp_path: Path) -> None:
    """`L` prefills ``leave`` with the selected combatant, like the other prefilling keys."""
    app = app_with_blocks(tmp_path)

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        active = app.session.state.active
        assert active is not None
        await pilot.press("L")
        assert command_line(app).value.startswith("leave ")
        await pilot.press("enter")
        await pilot.pause()
        assert active in app.session.state.left


@pytest.mark.anyio
async def test_palette_offers_join_only_with_stat_blocks(tmp_path: Path) -> None:
    """docs/architecture/index.md practice 8: "Join the fight…" is offered where there are stat blocks to join from;
    "Leave the fight…" always; neither while a prompt waits for its answer."""
    from tests.ui.conftest import make_app

    with_blocks, without = app_with_blocks(tmp_path), make_app(tmp_path, "brawl.toml")

    async with with_blocks.run_test(size=(100, 30)):
        titles = [t for t, _, _ in offers(main_screen(with_blocks))]
        assert "Join the fight…" in titles and "Leave the fight…" in titles
    async with without.run_test(size=(100, 30)) as pilot:
        titles = [t for t, _, _ in offers(main_screen(without))]
        assert "Join the fight…" not in titles and "Leave the fight…" in titles
        await pilot.press("n")  # brawl: the initiative tie waits
        titles = [t for t, _, _ in offers(main_screen(without))]
        assert "Leave the fight…" not in titles
