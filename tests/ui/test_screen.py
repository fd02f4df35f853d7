"""Pilot tests: whole rounds driven by keys for each system, asserting on the engine state."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widgets import Input

from tests.conftest import d20_state, ttb, ttb_state
from tests.ui.conftest import make_app
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.store import files
from tracker.ui.app import TrackerApp
from tracker.ui.screens.main import TrackerScreen
from tracker.ui.widgets.order_table import OrderTable


@pytest.mark.anyio
async def test_ttb_round_by_keys(tmp_path: Path) -> None:
    """docs/rules/ttb-lifecycle.md#s2-11 through the screen: start, spend by picker, damage by prefill, next, undo."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")  # start
        st = app.session.state
        assert st.round == 1 and st.active is not None
        first = st.active
        await pilot.press("s")  # the action picker, legal actions first: walk
        await pilot.press("enter")
        await pilot.pause()
        assert ttb_state(app.session).fighters[first].ap == 1
        await pilot.press("d")  # damage prefilled for the active combatant
        line = app.screen.query_one("#command-line", Input)
        assert line.value.startswith("damage ")
        await pilot.press("2", "enter")
        await pilot.pause()
        assert ttb_state(app.session).fighters[first].wounds < ttb(app.session).sheet(first).wounds
        await pilot.press("n")  # next turn
        assert app.session.state.active != first
        await pilot.press("n")  # back round to the first combatant: round 2
        assert app.session.state.round == 2
        await pilot.press("u")  # undo the last next
        assert app.session.state.round == 1

    # Every accepted command was on disk: the file continues where the screen was.
    reloaded = Session(files.load(app.path))
    assert dump(reloaded.state) == dump(app.session.state)


@pytest.mark.anyio
async def test_twod20_round_by_keys(tmp_path: Path) -> None:
    """docs/rules/2d20-turns.md#s3-4: start, the first-actor prompt answered with a number key, spend, hand-over,
    pools."""
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        st = app.session.state
        assert st.prompt is not None and st.prompt.kind == "pick"
        await pilot.press("1")  # the first option: Ada Vance
        assert app.session.state.active == "Ada Vance"
        await pilot.press("plus")  # Momentum +1
        assert d20_state(app.session).momentum == 2
        await pilot.press("n")  # end the turn: the hand-over question
        assert app.session.state.prompt is not None
        options = app.session.state.prompt.options
        await pilot.press(str(options.index("Cult Enforcer") + 1))
        assert app.session.state.active == "Cult Enforcer"


@pytest.mark.anyio
async def test_refused_command_shows_reason_and_changes_nothing(tmp_path: Path) -> None:
    """A refusal is one line on screen; the state and the file stay as they were."""
    app = make_app(tmp_path, "duel.toml")
    before_file = app.path.read_bytes()

    async with app.run_test(size=(100, 30)) as pilot:
        before = dump(app.session.state)
        await pilot.press("colon")
        for ch in "spend sofia run":
            await pilot.press(ch if ch != " " else "space")
        await pilot.press("enter")
        await pilot.pause()
        assert dump(app.session.state) == before
        messages = [n.message for n in app._notifications]
        assert any("Dramatic Time has not started" in m for m in messages)

    assert app.path.read_bytes() == before_file


def test_every_binding_has_a_description() -> None:
    """docs/architecture/index.md practice 8: every binding has an id and a description (footer and help)."""
    for binding in TrackerScreen.BINDINGS:
        assert isinstance(binding, Binding)
        assert binding.description, binding.key
        assert binding.id, binding.key


@pytest.mark.anyio
async def test_selection_follows_the_order_table(tmp_path: Path) -> None:
    """Moving through the order selects a combatant; the Conditions panel follows the selection."""
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one("#order-table", OrderTable)
        table.focus()
        await pilot.press("down", "down")
        screen = app.screen
        assert isinstance(screen, TrackerScreen)
        assert screen.selected == "Marguerite Bell"


@pytest.mark.anyio
async def test_failed_save_is_not_shown_as_done(tmp_path: Path) -> None:
    """docs/guide/shared-box.md: a command whose save fails is undone and reported (a read-only folder)."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(100, 30)) as pilot:
        app.path = tmp_path / "missing-folder" / "x.toml"  # the save cannot happen
        await pilot.press("n")
        await pilot.pause()
        assert app.session.state.round == 0
        assert any("not saved" in n.message for n in app._notifications)


@pytest.mark.anyio
async def test_palette_offers_only_what_makes_sense(tmp_path: Path) -> None:
    """docs/architecture/index.md practice 8: no "End the turn" before start; the prompt's answers while it waits."""
    from tracker.ui.offers import offers

    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        titles = [t for t, _, _ in offers(main_screen(app))]
        assert "Start the fight" in titles and "End the turn" not in titles and "Undo" not in titles
        await pilot.press("n")  # start: the tie prompt waits
        titles = [t for t, _, _ in offers(main_screen(app))]
        assert "Answer: Dockside Cutthroat" in titles and "End the turn" not in titles
        assert "Undo" in titles
        await pilot.press("1")
        titles = [t for t, _, _ in offers(main_screen(app))]
        assert "End the turn" in titles and "Start the fight" not in titles


@pytest.mark.anyio
async def test_full_disk_keeps_the_last_durable_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write error (ENOSPC) is reported; the command is not shown as done; the file
    on disk is still the last durable state."""
    import errno

    from tracker.store import files as store_files

    app = make_app(tmp_path, "duel.toml")
    before = app.path.read_bytes()

    def full(target: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    async with app.run_test(size=(100, 30)) as pilot:
        monkeypatch.setattr(store_files, "write_text", full)
        await pilot.press("n")
        await pilot.pause()
        assert app.session.state.round == 0
        assert any("No space left" in n.message for n in app._notifications)

    assert app.path.read_bytes() == before


@pytest.mark.anyio
async def test_theme_cycles_is_remembered_and_a_broken_theme_is_a_notice(tmp_path: Path, private_config: Path) -> None:
    """Themes: `t` cycles, the choice is kept in the config folder, a broken file is a notification."""
    from tracker.ui.config import load_config

    (private_config / "themes").mkdir(parents=True)
    (private_config / "themes" / "broken.toml").write_text('name = "broken"\nprimary = "not-a-colour"\n')
    app = make_app(tmp_path, "duel.toml")

    async def drive() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            assert app.theme == "breach-dark"
            assert any("broken" in n.message for n in app._notifications)
            await pilot.press("t")
            assert app.theme != "breach-dark"
            assert load_config()["theme"] == app.theme

    await drive()
    again = make_app(tmp_path, "duel.toml")

    async with again.run_test(size=(100, 30)):
        assert again.theme == load_config()["theme"]


@pytest.mark.anyio
async def test_q_quits(tmp_path: Path) -> None:
    """The footer's Quit key ends the app (a binding on the screen must reach the app's action)."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


def main_screen(app: TrackerApp) -> TrackerScreen:
    screen = app.screen
    assert isinstance(screen, TrackerScreen)
    return screen
