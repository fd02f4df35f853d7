"""The scene's traits and tasks on the players' screens: what the whole table knows of the scene reaches a
seat's own screen and the watching players' view [004:L205-215], nothing GM-only with it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from tests.table.fakes import Host, Seats, copy_example, me, on_loop
from tracker.table.server import TableServer
from tracker.ui.remote import RemoteApp
from tracker.ui.widgets.text_panel import TextPanel

TRAIT = "Trait on the scene: 'Alarm blaring'"
TASK = "Task Defuse the bomb: Stress 0/8, 0/2 Breakthroughs"


def _host(tmp_path: Path) -> tuple[Path, Host]:
    path = copy_example(tmp_path, "srd_bomb_clock.toml")
    host = Host(path)
    for line in ("trait scene 'Alarm blaring'", "task 'Defuse the bomb' stress=8 breakthroughs=2 clock=3", "start"):
        host.submit(line)
    host.submit("pick Ada")
    return path, host


async def _read_until(
    pilot: Pilot[None], app: App[None], screen: str, read: Callable[[Screen[object]], str], needle: str
) -> str:
    """What `read` finds on the screen named `screen` once it holds `needle` (or after three seconds)."""
    shown = ""
    for _ in range(60):
        await pilot.pause(0.05)
        if type(app.screen).__name__ == screen:
            shown = read(app.screen)
            if needle in shown:
                break
    return shown


def _sheet(screen: Screen[object]) -> str:
    return "".join(span.text for span in screen.query_one("#play-sheet", TextPanel).block)


def _static(name: str) -> Callable[[Screen[object]], str]:
    return lambda screen: str(screen.query_one(name, Static).render())


@on_loop
async def test_a_seat_reads_the_scenes_traits_and_tasks_under_its_sheet(tmp_path: Path) -> None:
    path, host = _host(tmp_path)
    server = TableServer(path, host, Seats({me(): ("Ada Vance",)}))
    assert await server.open() is None
    app = RemoteApp(path, mode="play")
    async with app.run_test(size=(100, 30)) as pilot:
        sheet = await _read_until(pilot, app, "PlayScreen", _sheet, TRAIT)
        assert "The scene" in sheet and TRAIT in sheet and TASK in sheet, sheet
    await server.close()


@on_loop
async def test_the_watching_players_view_lists_the_scenes_traits_and_tasks(tmp_path: Path) -> None:
    path, host = _host(tmp_path)
    server = TableServer(path, host, Seats({}))
    assert await server.open() is None
    app = RemoteApp(path, mode="view")
    async with app.run_test(size=(100, 30)) as pilot:
        shown = await _read_until(pilot, app, "PlayerScreen", _static("#player-notes"), TRAIT)
        assert TRAIT in shown and TASK in shown, shown
    await server.close()


def _odds_host(tmp_path: Path, shown: bool) -> tuple[Path, Host]:
    tmp_path.mkdir()
    path = copy_example(tmp_path, "duel.toml")
    path.write_text(
        path.read_text(encoding="utf-8") + f"\n[settings]\nfight_odds_for_players = {str(shown).lower()}\n",
        encoding="utf-8",
    )
    host = Host(path)
    host.submit("start")
    host.players_fight_odds = "the party wins 64 % · Sofia falls in 1 of 3"  # type: ignore[attr-defined]
    return path, host


async def _sofias_seat(path: Path, host: Host) -> tuple[TableServer, RemoteApp]:
    """The table open with this account seated as Sofia Ramos, and the seat's app (not yet running)."""
    server = TableServer(path, host, Seats({me(): ("Sofia Ramos",)}))
    assert await server.open() is None
    return server, RemoteApp(path, mode="play")


@on_loop
async def test_a_seat_sees_the_players_odds_line_only_where_the_gm_lets_it(tmp_path: Path) -> None:
    """docs/reference/cli.md "fight_odds_for_players": the line the GM's process works out from what the players
    know reaches a seat's title with the setting on, and nothing of it with the setting off."""
    for shown in (True, False):
        server, app = await _sofias_seat(*_odds_host(tmp_path / str(shown), shown))
        async with app.run_test(size=(120, 30)) as pilot:
            title = await _read_until(pilot, app, "PlayScreen", _static("#play-title"), "Round 1")
            assert "Round 1" in title, title
            assert ("the party wins 64 %" in title) is shown, title
        await server.close()


@on_loop
async def test_a_seats_title_drops_the_odds_figures_whole_on_a_narrow_screen(tmp_path: Path) -> None:
    """At 80 columns the seat's one-line title has no room for every figure: those that do not fit are
    dropped whole, never cut mid-word ("about 4" for "about 4 rounds"), the chance itself last."""
    path, host = _odds_host(tmp_path / "narrow", True)
    host.players_fight_odds = "the party wins 64 % · Sofia falls in 1 of 3 · about 4 rounds"  # type: ignore[attr-defined]
    server, app = await _sofias_seat(path, host)
    async with app.run_test(size=(80, 24)) as pilot:
        title = await _read_until(pilot, app, "PlayScreen", _static("#play-title"), "Round 1")
        assert "the party wins 64 %" in title, title
        assert "about 4 rounds" not in title and "about" not in title, title
        assert title.rstrip().endswith(("64 %", "1 of 3")), title
        await pilot.resize_terminal(160, 24)
        title = await _read_until(pilot, app, "PlayScreen", _static("#play-title"), "about 4 rounds")
        assert "the party wins 64 % · Sofia falls in 1 of 3 · about 4 rounds" in title, title
    await server.close()
