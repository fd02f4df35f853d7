"""Another account's screen (`tracker view FILE --player`, `tracker play FILE`) driven against a table in the
same event loop: it waits for the GM, shows what the GM's process publishes, and waits again when the GM goes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Digits, Static

from tests.table.fakes import copy_example, me, on_loop, table
from tracker.ui.remote import RemoteApp
from tracker.ui.screens.player import PlayerScreen
from tracker.ui.screens.waiting import WaitingScreen


async def until(condition: Callable[[], bool], pilot: Pilot[Any], seconds: float = 5.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return True
        await pilot.pause(0.05)
    return condition()


def shown_round(app: RemoteApp) -> str | None:
    """The round the player screen shows in large type (None before the fight starts: no "Round 0")."""
    digits = app.screen.query_one("#round-digits", Digits)
    return digits.value if digits.display else None


def waiting_text(app: RemoteApp) -> str:
    """What the waiting screen says ("" while it is not up, or not composed yet)."""
    if not isinstance(app.screen, WaitingScreen):
        return ""
    found = app.screen.query("#waiting")
    return str(found.first(Static).content) if found else ""


@on_loop
async def test_a_remote_viewer_waits_follows_each_command_and_waits_again(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "brawl.toml")
    app = RemoteApp(path, mode="view")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await until(lambda: "Waiting" in waiting_text(app), pilot)
        assert f"Waiting for the GM to open {path}" in waiting_text(app)
        async with table(path, {}) as (host, server):
            assert await until(lambda: isinstance(app.screen, PlayerScreen), pilot)
            assert not any(isinstance(s, WaitingScreen) for s in app.screen_stack)
            assert await until(lambda: shown_round(app) is None, pilot)  # once the screen has drawn its view
            assert server.connected() == [me()]
            for line, round_ in (("start", "1"), ("answer Belle", "1")):
                assert host.submit(line) is None
                server.publish()
                assert await until(lambda r=round_: shown_round(app) == r, pilot), line  # type: ignore[misc]
            active = host.session.state.active
            assert active == "Marguerite Bell"  # the tie answered, the first turn is on every screen
            assert await until(lambda: active in str(app.screen.query_one("#active-name", Static).content), pilot)
            for _ in range(40):  # on to round 2, answering each question with its first answer
                if host.session.state.round == 2:
                    break
                prompt = host.session.state.prompt
                assert host.submit("next" if prompt is None else f"answer '{prompt.options[0]}'") is None
            server.publish()
            assert await until(lambda: shown_round(app) == "2", pilot)
        # The GM quits: the waiting screen goes over the last state, which stays under it.
        assert await until(lambda: "The GM closed the fight" in waiting_text(app), pilot)
        assert any(isinstance(s, PlayerScreen) for s in app.screen_stack)
        async with table(path, {}) as (host, server):  # the GM opens it again: the saved round 2
            assert await until(lambda: isinstance(app.screen, PlayerScreen), pilot)
            assert shown_round(app) == "2"
            assert sum(isinstance(s, PlayerScreen) for s in app.screen_stack) == 1
            assert not any(isinstance(s, WaitingScreen) for s in app.screen_stack)
        await pilot.press("q")


@on_loop
async def test_a_seat_refused_by_the_gm_ends_with_the_reason(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "brawl.toml")
    app = RemoteApp(path, mode="play")
    async with table(path, {}), app.run_test(size=(80, 24)) as pilot:
        assert await until(lambda: app.refused is not None, pilot)
    assert app.refused is not None and "has no seat" in app.refused
    assert app.return_code == 1
