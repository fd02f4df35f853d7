"""What the start-up work (deferred loads, the memo) must not change: the screen looks and behaves as if nothing waited.

The GM screen is born with its breakpoint classes (so Textual styles it once), it is the app's first
screen (not pushed over an empty one), its hidden tabs' panels are mounted just after the first frame,
and the theme is chosen (without Textual's watcher) before the stylesheet is parsed. These tests check
the result is the screen a GM would have had without those shortcuts.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet
from textual.filter import ANSIToTruecolor
from textual.geometry import Size
from textual.pilot import Pilot
from textual.widgets import Static, TabbedContent

from tests.conftest import pinned
from tests.ui.conftest import EXAMPLES, make_app
from tracker.store.save import load_session
from tracker.ui.app import TrackerApp
from tracker.ui.screens.main import TrackerScreen
from tracker.ui.screens.marks import breakpoint_classes
from tracker.ui.widgets.base import Panel
from tracker.ui.widgets.conditions import ConditionsPanel
from tracker.ui.widgets.log import LogPanel
from tracker.ui.widgets.order_table import OrderTable
from tracker.ui.widgets.text_panel import TextPanel

BANDS = {"-narrow", "-wide", "-short", "-tall"}


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("size", "expected"),
    [((120, 40), {"-wide", "-tall"}), ((100, 30), {"-narrow", "-short"}), ((110, 36), {"-wide", "-tall"})],
)
async def test_the_screen_is_born_with_the_classes_textual_gives_it(
    tmp_path: Path, size: tuple[int, int], expected: set[str]
) -> None:
    """The classes at construction are the ones Textual's own breakpoints set on the first resize."""
    assert (
        set(breakpoint_classes(Size(*size), TrackerScreen.HORIZONTAL_BREAKPOINTS, TrackerScreen.VERTICAL_BREAKPOINTS))
        == expected
    )
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TrackerScreen)
        assert set(app.screen.classes) & BANDS == expected
        await pilot.resize_terminal(100 if size[0] >= 110 else 120, 30 if size[1] >= 36 else 40)
        await pilot.pause()
        assert set(app.screen.classes) & BANDS != expected  # Textual still moves them on a resize


@pytest.mark.anyio
async def test_hidden_tabs_are_there_once_the_first_frame_is_up(tmp_path: Path) -> None:
    """Every tab's panel is mounted right after the first frame, with the current view, and shows it
    when its tab is opened."""
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")  # start: the log has entries, the turn and conditions something to say
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TrackerScreen)
        assert len(screen.query(ConditionsPanel)) == 1
        assert {p.id for p in screen.query(TextPanel)} >= {"turn", "field", "resources"}
        assert len(screen.query(LogPanel)) == 2  # the Log tab's and the strip's
        tabs = screen.query_one("#side", TabbedContent)
        for pane in ("tab-conditions", "tab-field", "tab-resources", "tab-log"):
            tabs.active = pane
            await pilot.pause()
            assert all(p.is_mounted and p.display for p in tabs.get_pane(pane).query(Panel))


@pytest.mark.anyio
async def test_the_chosen_theme_colours_the_first_frame(tmp_path: Path, private_config: Path) -> None:
    """The theme picked before the stylesheet is parsed is the one the CSS variables come from."""
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.theme == "breach-dark"
        ours = app.current_theme.to_color_system().generate()["primary"]
        default = app.get_theme("textual-dark")
        assert default is not None and default.to_color_system().generate()["primary"] != ours
        assert app.stylesheet._variables["primary"] == ours


@pytest.mark.anyio
@pytest.mark.parametrize("theme", ["breach-dark", "parchment-light", "textual-light", "high-contrast"])
async def test_a_theme_chosen_at_start_is_the_one_textual_would_have_set(tmp_path: Path, theme: str) -> None:
    """The app sets its starting theme without Textual's watcher (which would parse the CSS again for the
    first frame); the app must end up as if the watcher had run: the same theme classes, CSS variables
    and ANSI colour filter as when the same theme is set on the running app."""
    target = tmp_path / "brawl.toml"
    target.write_text(pinned((EXAMPLES / "brawl.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = TrackerApp(load_session(target), target, theme=theme)

    def looks(app: TrackerApp) -> tuple[object, ...]:
        shown = {c for c in app.classes if c.startswith("-theme-") or c in ("-dark-mode", "-light-mode")}
        ansi = [(f.enabled, f._terminal_theme) for f in app._filters if isinstance(f, ANSIToTruecolor)]
        return shown, dict(app.stylesheet._variables), ansi

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        at_start = looks(app)
        app.theme = "textual-dark" if theme != "textual-dark" else "textual-light"
        await pilot.pause()
        app.theme = theme  # Textual's own way, watcher and all
        await pilot.pause()
        assert looks(app) == at_start
        assert app.theme == theme


@pytest.mark.anyio
async def test_the_first_frame_parses_the_stylesheets_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12 (start-up): nothing before the first frame makes Textual re-parse every stylesheet (a
    theme set the usual way, a theme set once the app runs); a later theme change still does."""
    reparsed: list[int] = []
    original = Stylesheet.reparse

    def counted(self: Stylesheet) -> None:
        reparsed.append(1)
        original(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert reparsed == []
        app.theme = "parchment-light"
        await pilot.pause()
        assert reparsed == [1]


@pytest.mark.parametrize("player", [False, True])
def test_the_main_screen_is_the_only_one_and_ready_with_the_app(tmp_path: Path, player: bool) -> None:
    """The GM's (or the players') screen is the app's first screen, not pushed over an empty one (one
    screen to style and lay out for the first frame), and it is mounted by the time the app is ready,
    as a pushed screen was: what runs first (a pilot, a notice) finds its widgets."""
    target = tmp_path / "brawl.toml"
    target.write_text(pinned((EXAMPLES / "brawl.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = TrackerApp(load_session(target), target, player=player)
    seen: list[object] = []

    async def at_ready(pilot: Pilot[object]) -> None:
        screen = pilot.app.screen
        seen.extend([len(pilot.app.screen_stack), type(screen).__name__, screen.is_mounted])
        seen.append(len(screen.query("#side" if not player else "#player-table")))
        pilot.app.exit()

    app.run(headless=True, size=(120, 40), auto_pilot=at_ready)
    assert seen == [1, "PlayerScreen" if player else "TrackerScreen", True, 1]


def test_the_collector_is_paused_until_the_first_frame_is_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No garbage collection while the first frame is built; the collector is back on once it is out, with
    the app running, and after an app that quit before its first frame."""
    assert gc.isenabled()
    seen: dict[str, bool] = {}
    original = TrackerApp._after_first_frame

    def after(self: TrackerApp) -> None:
        seen["before"] = gc.isenabled()
        original(self)
        seen["after"] = gc.isenabled()

    monkeypatch.setattr(TrackerApp, "_after_first_frame", after)

    async def look(pilot: Pilot[object]) -> None:
        await pilot.pause()
        seen["running"] = gc.isenabled()
        pilot.app.exit()

    make_app(tmp_path, "brawl.toml").run(headless=True, size=(120, 40), auto_pilot=look)
    assert seen == {"before": False, "after": True, "running": True}
    assert gc.isenabled()

    async def quit_at_once(pilot: Pilot[object]) -> None:
        pilot.app.exit()

    make_app(tmp_path, "duel.toml").run(headless=True, size=(120, 40), auto_pilot=quit_at_once)
    assert gc.isenabled()


@pytest.mark.perf
@pytest.mark.parametrize("example", ["brawl.toml", "skirmish_srd.toml"])
def test_the_first_frame_shows_the_title_and_the_order(tmp_path: Path, example: str) -> None:
    """Issue 12 measures the start-up to the frame that shows the encounter: the very first frame the app
    writes already has the title line and the order table's rows, as every later one does."""
    app = make_app(tmp_path, example)
    frames: list[tuple[str, int]] = []
    display = app._display

    def recording(*args: Any, **kwargs: Any) -> None:
        if not frames:
            screen = app.screen
            frames.append((str(screen.query_one("#title", Static).render()), len(screen.query_one(OrderTable).keys)))
        display(*args, **kwargs)

    app._display = recording  # type: ignore[method-assign]
    later: list[tuple[str, int]] = []

    async def settled(pilot: Pilot[object]) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        later.append((str(screen.query_one("#title", Static).render()), len(screen.query_one(OrderTable).keys)))
        pilot.app.exit()

    app.run(headless=True, size=(120, 40), auto_pilot=settled)
    assert frames == later
    assert app.session.setup.encounter.name in frames[0][0] and frames[0][1] > 0
