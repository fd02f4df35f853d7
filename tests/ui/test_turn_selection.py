"""The GM screen's selection follows the active combatant at every turn start, even when the new turn is the
same combatant's again (docs/rules/ttb-conditions.md#s2-7-2 Reactivate: an extra turn right after its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.test_screen import main_screen
from tracker.engine.log import LogEntry
from tracker.store.opening import load_session
from tracker.ui.app import TrackerApp
from tracker.ui.screens.marks import same_turn, turn_mark
from tracker.ui.widgets.order_table import OrderTable

DUO = """\
[encounter]
name = "Two in a row"
system = "ttb"
seed = 5

[[combatants]]
name = "Guild Thug"
rank_value = 5
initiative = 6
wounds = 5

[[combatants]]
name = "Guild Bruiser"
rank_value = 5
initiative = 1
wounds = 5
conditions = { reactivate = true }
"""


@pytest.mark.anyio
async def test_a_reactivate_turn_brings_the_selection_back_to_its_combatant(tmp_path: Path) -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Reactivate, docs/rules/ttb-lifecycle.md#s2-11 round_end: the Bruiser's extra
    turn follows its own last turn of the round; a GM who moved the cursor to the Thug during that turn sees it return
    to the Bruiser with the new turn, as any turn start does."""
    path = tmp_path / "duo.toml"
    path.write_text(DUO, encoding="utf-8")
    app = TrackerApp(load_session(path), path)

    async with app.run_test(size=(120, 40)) as pilot:
        screen = main_screen(app)
        table = screen.query_one("#order-table", OrderTable)
        for line in ("start", "next"):
            app.session.execute(line)
            app.bump()
            await pilot.pause()
        assert app.session.state.active == "Guild Bruiser"
        assert screen.selected == "Guild Bruiser"
        table.focus()
        while table.selected() != "Guild Thug":
            await pilot.press("up")
        assert screen.selected == "Guild Thug"
        for line in ("next", "answer yes"):
            app.session.execute(line)
        app.bump()  # both in one go, as a viewer following the file may see them
        await pilot.pause()
        assert app.session.state.active == "Guild Bruiser" and app.session.state.round == 1
        assert screen.selected == "Guild Bruiser" and table.selected() == "Guild Bruiser"


def test_the_turn_mark_tells_two_turns_of_one_combatant_apart() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Reactivate: a turn is the run of log entries written under its actor, so the
    extra turn after an actorless round end is a new turn; a turn that fills the whole kept log (its opening entry
    dropped: the state keeps the latest 200) stays the same turn."""
    first = [LogEntry(round=1, actor="B", text="B's turn"), LogEntry(round=1, actor="B", text="B walks")]
    between = [LogEntry(round=1, text="round 1 ends"), LogEntry(round=1, text="? B holds Reactivate")]
    again = [LogEntry(round=1, actor="B", text="B's turn (Reactivate extra turn)")]
    before = turn_mark(1, "B", first, 10)
    now = turn_mark(1, "B", first + between + again, 13)
    assert before == (1, "B", 8) and now == (1, "B", 12)
    assert not same_turn(before, now, 13 - 5)
    assert same_turn(now, turn_mark(1, "B", [*first, *between, *again, again[0]], 14), 14 - 6)
    # Only the turn's own entries are kept: the mark moves with the log, yet it is the same turn.
    long = [LogEntry(round=1, actor="B", text="B walks")] * 3
    assert same_turn(turn_mark(1, "B", long, 300), turn_mark(1, "B", long, 301), 301 - 3)
