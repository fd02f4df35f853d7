"""The Story tab and the story screens: kept out of start-up, following every accepted
command (and undo), and the players' story without anything GM-only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from textual.pilot import Pilot
from textual.widgets import TabbedContent

from tests.conftest import pinned
from tests.ui.conftest import EXAMPLES, make_app
from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text
from tracker.ui.app import TrackerApp

if TYPE_CHECKING:
    from tracker.ui.widgets.story import StoryPanel

#: The first frame of the GM screen, then the Story tab: which plotting modules are loaded when.
PROBE = textwrap.dedent(
    """\
    import asyncio, json, sys
    from pathlib import Path
    from tracker.families.session import Session
    from tracker.store import files
    from tracker.ui.app import TrackerApp

    def plotting():
        return sorted(m for m in sys.modules if m.split(".")[0] in ("textual_plotext", "plotext")
                      or m == "tracker.ui.widgets.story")

    async def main():
        path = Path(sys.argv[1])
        app = TrackerApp(Session(files.load(path)), path)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            first = plotting()
            app.screen.query_one("#side").active = "tab-story"
            await pilot.pause()
            print(json.dumps({"first": first, "story": plotting()}), file=sys.stderr)

    asyncio.run(main())
    """
)


@pytest.mark.perf
def test_the_story_tab_is_not_in_the_first_frames_imports(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "TRACKER_CONFIG_DIR": str(tmp_path / "config")},
    )
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report["first"] == []
    assert "textual_plotext" in report["story"] and "tracker.ui.widgets.story" in report["story"]


async def _started_story_tab(app: TrackerApp, pilot: Pilot[None]) -> StoryPanel:
    """The duel started with Sofia first, and the GM screen's Story tab open."""
    from tracker.ui.widgets.story import StoryPanel

    assert app.submit("initiative Sofia 9") is None
    assert app.submit("start") is None
    app.screen.query_one("#side", TabbedContent).active = "tab-story"
    await pilot.pause()
    return app.screen.query_one(StoryPanel)


@pytest.mark.anyio
async def test_the_story_tab_follows_commands_and_undo(tmp_path: Path) -> None:
    app = make_app(tmp_path, "duel.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        panel = await _started_story_tab(app, pilot)
        assert panel.story is not None and panel.story.steps == 2
        assert app.submit("damage Enforcer 3") is None
        await pilot.pause()
        assert panel.story is not None and panel.story.steps == 3
        assert [(h.target, h.damage) for h in panel.story.rounds[-1].hits] == [("Guild Enforcer", 2)]
        await pilot.press("u")
        await pilot.pause()
        assert panel.story is not None and panel.story.steps == 2
        assert not panel.story.rounds or not panel.story.rounds[-1].hits


@pytest.mark.anyio
async def test_the_full_screen_story_opens_with_S_and_closes_with_escape(tmp_path: Path) -> None:
    app = make_app(tmp_path, "duel.toml")

    from tracker.ui.screens.story import StoryScreen

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("S")
        await pilot.pause()
        assert isinstance(app.screen, StoryScreen) and not app.screen.player
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StoryScreen)


@pytest.mark.anyio
async def test_the_players_story_follows_the_file_and_hides_gm_only(tmp_path: Path) -> None:
    """`s` in ``tracker view --player``: the story as the players may see it, live."""
    path = tmp_path / "brawl.toml"
    path.write_text(pinned((EXAMPLES / "brawl.toml").read_text(encoding="utf-8")), encoding="utf-8")
    session = Session(files.load(path))
    steps = [step.do for step in session.setup.demo]
    for line in steps[:16]:  # up to Rotten Belle's (gm_only) strike on Marguerite
        session.execute(line)
    files.write_text(path, encounter_text(session))
    app = TrackerApp.viewer(path, player=True)

    from tracker.ui.screens.story import StoryScreen
    from tracker.ui.widgets.story import StoryPanel

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StoryScreen) and app.screen.player
        panel = app.screen.query_one(StoryPanel)
        story = panel.story
        assert story is not None and story.player and story.steps == 16
        assert "Rotten Belle" not in repr(story)
        [hit] = [h for r in story.rounds for h in r.hits if h.target == "Marguerite Bell"]
        assert (hit.by, hit.damage) == (None, 2)
        for line in steps[16:20]:
            session.execute(line)
        files.write_text(path, encounter_text(session))
        for _ in range(100):
            await pilot.pause(0.05)
            if panel.story is not None and panel.story.steps == 20:
                break
        assert panel.story is not None and panel.story.steps == 20


@pytest.mark.anyio
async def test_the_story_tab_draws_the_partys_chance_round_by_round_once_the_worker_has_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GM's Story tab asks the screen's worker for the party's chance before the fight, at each round's
    start and now (`tracker.playouts.timeline`), and draws it as a line under the others; the turning
    points are where it jumps."""
    from textual_plotext import PlotextPlot

    monkeypatch.delenv("TRACKER_NO_FIGHT_ODDS", raising=False)
    app = make_app(tmp_path, "duel.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        panel = await _started_story_tab(app, pilot)
        for _ in range(300):  # the worker process starts, then plays 100 runs a moment
            await pilot.pause(0.1)
            if panel.story is not None and panel.story.odds:
                break
        story = panel.story
        assert story is not None and [label for label, _ in story.odds] == ["before", "R1"]
        assert all(0 <= percent <= 100 for _, percent in story.odds)
        assert panel.query_one("#story-odds", PlotextPlot).display
        legend = str(panel.query_one("#story-odds-legend").render())
        assert "The chance the players win, round by round" in legend
