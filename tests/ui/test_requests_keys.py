"""The GM's side of players' requests (docs/guide/seating.md): listed above the question, `A` approves and `D`
denies the oldest, and neither waits for the question to be answered."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Static

from tests.ui.conftest import make_app


def _requests_line(app: App[None]) -> Static:
    return app.screen.query_one("#requests", Static)


@pytest.mark.anyio
async def test_a_and_d_decide_the_oldest_request_even_while_a_question_waits(tmp_path: Path) -> None:
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(100, 30)) as pilot:
        assert not _requests_line(app).display  # nothing waits: no line, no keys
        assert app.screen.check_action("decide", ("approve",)) is False
        for line in ("start", "request alice Sofia damage Guild 2", "request alice Sofia heal Sofia 1"):
            assert app.submit(line) is None
        await pilot.pause()
        shown = str(_requests_line(app).render())
        assert _requests_line(app).display
        assert "#1 alice (Sofia Ramos): damage Guild 2 (+1 more) · A approve · D deny" in shown
        wounds = app.session.rules.state.fighters["Guild Enforcer"].wounds  # type: ignore[attr-defined]
        await pilot.press("A")
        await pilot.pause()
        assert app.session.history.commands[-1] == "approve"
        assert app.session.rules.state.fighters["Guild Enforcer"].wounds < wounds  # type: ignore[attr-defined]
        assert "#2 alice (Sofia Ramos): heal Sofia 1 · A approve" in str(_requests_line(app).render())
        assert app.submit("attack Sofia strike Guild") is None  # a question now waits (the duel)
        await pilot.pause()
        assert app.session.state.prompt is not None
        await pilot.press("D")
        await pilot.pause()
        assert app.session.history.commands[-1] == "deny" and not app.session.state.requests
        assert app.session.state.prompt is not None  # the question still waits, untouched
        assert not _requests_line(app).display
