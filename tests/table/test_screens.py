"""Another account's screens on the table, driven by Textual's pilot against a GM process without a screen."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Static

from tests.table.fakes import Host, Seats, copy_example, me, on_loop
from tracker.table.server import TableServer
from tracker.ui.remote import RemoteApp
from tracker.ui.widgets.text_panel import TextPanel


async def _settle(pilot: object, server: TableServer, rounds: int = 6) -> None:
    for _ in range(rounds):
        await pilot.pause(0.05)  # type: ignore[attr-defined]


def _text(app: RemoteApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


@on_loop
async def test_the_player_view_waits_for_the_gm_then_follows_the_fight(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel.toml")
    app = RemoteApp(path, mode="view")
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot, None)  # type: ignore[arg-type]
        assert type(app.screen).__name__ == "WaitingScreen"
        assert "Waiting for the GM to open" in _text(app, "#waiting")
        host = Host(path)
        server = TableServer(path, host, Seats({}))
        assert await server.open() is None
        for _ in range(40):
            await pilot.pause(0.05)
            if type(app.screen).__name__ == "PlayerScreen":
                break
        assert type(app.screen).__name__ == "PlayerScreen"
        host.submit("start")
        server.publish()
        for _ in range(40):
            await pilot.pause(0.05)
            if "Round 1" in _text(app, "#active-name"):
                break
        assert "Sofia Ramos's turn" in _text(app, "#active-name")
        await server.close()
        for _ in range(40):
            await pilot.pause(0.05)
            if type(app.screen).__name__ == "WaitingScreen":
                break
        assert "The GM closed the fight; waiting for the GM to open" in _text(app, "#waiting")


@on_loop
async def test_a_seat_sees_its_turn_its_hand_and_ends_its_turn_with_n(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel.toml")
    host = Host(path)
    host.submit("start")
    server = TableServer(path, host, Seats({me(): ("Sofia Ramos",)}))
    assert await server.open() is None
    app = RemoteApp(path, mode="play")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(40):
            await pilot.pause(0.05)
            if type(app.screen).__name__ == "PlayScreen":
                break
        await pilot.pause(0.1)
        assert "YOUR TURN: Sofia Ramos" in _text(app, "#play-title")
        sheet = " ".join(span.text for span in app.screen.query_one("#play-sheet", TextPanel).block)
        assert "Control Hand" in sheet and "General AP" in sheet
        await pilot.press("n")
        for _ in range(40):
            await pilot.pause(0.05)
            if host.lines[-1:] == ["next"]:
                break
        assert host.lines == ["start", "next"]
        server.publish()
        for _ in range(40):
            await pilot.pause(0.05)
            if "YOUR TURN" not in _text(app, "#play-title"):
                break
        assert "YOUR TURN" not in _text(app, "#play-title")
        await pilot.press("n")  # not this seat's turn now: refused on the screen, nothing sent
        await pilot.pause(0.2)
        assert host.lines == ["start", "next"]
    await server.close()
    await asyncio.sleep(0)
