"""The keys do what the GM means — Pilot tests, one or more per thing a key should do."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from tests.ui.conftest import make_app
from tests.ui.test_screen import main_screen
from tests.ui.test_viewer import screen_text
from tracker.engine.records.record import dump
from tracker.ui.app import TrackerApp
from tracker.ui.screens.modals import ActionPicker
from tracker.ui.widgets.command import CommandLine
from tracker.ui.widgets.order_table import OrderTable
from tracker.ui.widgets.prompt import PromptBar

KEYS = {" ": "space", "'": "apostrophe", "-": "minus", "_": "underscore"}


async def type_text(pilot: Pilot[None], text: str) -> None:
    for ch in text:
        await pilot.press(KEYS.get(ch, ch))
    await pilot.pause()


def command_line(app: TrackerApp) -> CommandLine:
    return app.screen.query_one("#command-line", CommandLine)


def messages(app: TrackerApp) -> list[str]:
    return [n.message for n in app._notifications]


@pytest.mark.anyio
async def test_tab_completes_and_keeps_the_focus(tmp_path: Path) -> None:
    """Item 1: Tab accepts the grey suggestion like →; with none it stays; the next letters are typed,
    not screen keys (an `n` must not end a turn mid-typing)."""
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("colon")
        await type_text(pilot, "dam")
        await pilot.press("tab")
        line = command_line(app)
        assert line.value == "damage "
        assert app.focused is line
        await pilot.press("tab")  # no suggestion after a space: nothing happens, the focus stays
        assert line.value == "damage " and app.focused is line
        await type_text(pilot, "Cultis")
        await pilot.press("tab")
        assert line.value == "damage Cultist "
        await type_text(pilot, "n")
        assert line.value == "damage Cultist n" and app.session.state.round == 0


@pytest.mark.anyio
async def test_a_refused_line_is_kept_selected_never_glued_to_the_next(tmp_path: Path) -> None:
    """Item 2: `:pick Cultx⏎` (refused), Esc, `:pick Cultist⏎` runs `pick Cultist`, not `pick Cultxpick …`.
    The refused line stays, all selected; `:` reopens it selected, so typing replaces it."""
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")  # start: who acts first?
        await pilot.press("colon")
        await type_text(pilot, "pick Cultx")
        await pilot.press("enter")
        await pilot.pause()
        line = command_line(app)
        assert app.session.state.active is None
        assert line.value == "pick Cultx" and line.selected_text == "pick Cultx"
        await pilot.press("escape")
        assert app.focused is not line
        await pilot.press("colon")
        assert app.focused is line and line.selected_text == "pick Cultx"
        await type_text(pilot, "pick Cultist")
        assert line.value == "pick Cultist"
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state.active == "Cultist"
        assert app.session.history.commands[-1] == "pick Cultist"
        assert line.value == ""


@pytest.mark.anyio
async def test_selection_follows_the_active_combatant_at_each_turn_start(tmp_path: Path) -> None:
    """Item 3: a turn start moves the selection and the order cursor to whoever acts, so `m` prefills
    them; the GM can move away; the next turn start brings it back to the new active combatant."""
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        screen = main_screen(app)
        table = screen.query_one("#order-table", OrderTable)
        await pilot.press("n", "1")  # start, Ada Vance first
        await pilot.pause()
        assert app.session.state.active == "Ada Vance"
        assert screen.selected == "Ada Vance" and table.selected() == "Ada Vance"
        table.focus()
        while table.selected() != "Brann Okafor":
            await pilot.press("down")
        assert screen.selected == "Brann Okafor"
        await pilot.press("plus")  # a command in the same turn keeps the GM's choice
        await pilot.pause()
        assert screen.selected == "Brann Okafor" and table.selected() == "Brann Okafor"
        await pilot.press("n")  # the hand-over question
        await pilot.pause()
        shown = screen.view.prompt if screen.view else None
        assert shown is not None
        await pilot.press(str(shown.options.index("Cultist") + 1))
        await pilot.pause()
        assert app.session.state.active == "Cultist"
        assert screen.selected == "Cultist" and table.selected() == "Cultist"
        assert screen.view is not None and screen.view.focus == "Cultist"
        await pilot.press("m")
        assert command_line(app).value == "move Cultist "


@pytest.mark.anyio
async def test_remove_completes_only_the_targets_own_conditions(tmp_path: Path) -> None:
    """Item 4: `r` prefills the selected combatant; the suggester offers only conditions they have."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        app.session.execute("add 'Sofia Ramos' burning 2")
        app.bump()
        await pilot.press("r")
        line = command_line(app)
        assert line.value == "remove 'Sofia Ramos' "
        await type_text(pilot, "bl")  # Bleeding Out exists, but Sofia is not bleeding
        await pilot.press("tab")
        assert line.value == "remove 'Sofia Ramos' bl"
        await pilot.press("backspace", "backspace")
        await type_text(pilot, "b")
        await pilot.press("tab")
        assert line.value == "remove 'Sofia Ramos' burning "


@pytest.mark.anyio
async def test_undo_and_redo_say_what_they_undid(tmp_path: Path) -> None:
    """Item 4: `u` and `ctrl+y` toast the command they stepped over."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        first = app.session.state.active
        await pilot.press("d")
        await type_text(pilot, "2")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert f"Undone: damage '{first}' 2" in messages(app)
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert f"Redone: damage '{first}' 2" in messages(app)


@pytest.mark.anyio
async def test_every_hand_over_option_is_visible_at_120x40(tmp_path: Path) -> None:
    """Item 5: the prompt bar grows so every numbered option shows above the command line, also when
    the screen opens on a question already waiting (the bar is packed again once its width is known)."""
    app = make_app(tmp_path, "skirmish_srd.toml")
    for line in ("start", "pick Ada", "next"):  # resumed mid hand-over
        app.session.execute(line)

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        screen = main_screen(app)
        shown = screen.view.prompt if screen.view else None
        assert shown is not None and len(shown.options) >= 4
        text = screen_text(app)
        for i, option in enumerate(shown.options, 1):
            assert f"{i} {option}" in text, option
        bar = screen.query_one(PromptBar)
        assert bar.region.bottom <= command_line(app).region.y


@pytest.mark.anyio
async def test_action_picker_reaches_illegal_actions_and_shows_why(tmp_path: Path) -> None:
    """Item 5: legal actions first; the illegal ones are reachable with ↑↓, and choosing one shows its
    reason instead of running it."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        who = app.session.state.active
        assert who is not None
        await pilot.press("s")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, ActionPicker)
        options = picker.query_one(OptionList)
        reasons = [c.reason for c in app.session.rules.actions_for(who)]
        assert [r is None for r in reasons] == sorted((r is None for r in reasons), reverse=True)
        assert not any(options.get_option_at_index(i).disabled for i in range(options.option_count))
        await pilot.press("end")
        assert options.highlighted == options.option_count - 1
        before = dump(app.session.state)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ActionPicker)  # still open, nothing ran
        assert dump(app.session.state) == before
        last = [r for r in reasons if r][-1]
        assert last in messages(app)


@pytest.mark.anyio
async def test_flip_result_is_a_toast_and_a_waiting_question_one_notice(tmp_path: Path) -> None:
    """Item 6: a flip's result comes up as a toast as well as in the log; `n` pressed three times while
    a question waits shows its refusal once."""
    app = make_app(tmp_path, "duel.toml")

    async def drive() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("n", "colon")
            await type_text(pilot, "flip 2")
            await pilot.press("enter")
            await pilot.pause()
            results = [e.text for e in app.session.state.log if e.kind == "result"]
            assert results and results[-1].startswith("GM flip: flipped")
            assert results[-1] in messages(app)

    await drive()
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")  # start: the tie question waits
        await pilot.pause()
        assert app.session.state.prompt is not None
        before = len(messages(app))
        await pilot.press("n", "n", "n")
        await pilot.pause()
        assert len(messages(app)) == before + 1


@pytest.mark.anyio
async def test_2d20_roll_result_is_a_toast(tmp_path: Path) -> None:
    """Item 6: a 2d20 test's outcome is logged as a result and toasted."""
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n", "1", "colon")
        await type_text(pilot, "challenge 2")
        await pilot.press("enter")
        await pilot.pause()
        results = [e.text for e in app.session.state.log if e.kind == "result"]
        assert results and results[-1] in messages(app)


@pytest.mark.anyio
async def test_read_only_view_shows_no_gm_keys(tmp_path: Path) -> None:
    """Item 7: a read-only screen's prompt bar and footer name no GM key; "VIEW ONLY" is said once."""
    app = make_app(tmp_path, "duel.toml")
    app.read_only = True

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert text.count("VIEW ONLY") == 1
        assert "read-only" not in text.lower()
        for gm in ("n next", "s spend", "d damage", ": command", "Next", "Undo", "Spend", "Damage"):
            assert gm not in text, gm


@pytest.mark.anyio
async def test_a_refusal_with_brackets_is_shown_as_text_not_markup(tmp_path: Path) -> None:
    """A usage line such as "[margin=D|mod=±N]" reached the toast as Textual markup and crashed the app."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "colon", *"damage Sofia", "enter")
        await pilot.pause(0.3)
        messages = [n.message for n in app._notifications]
        assert any("[margin=D|mod=±N]" in m for m in messages), messages
        # Shown as plain text: read as markup, the toast raised MarkupError and the app exited.
        assert all(not n.markup for n in app._notifications)
        from textual.content import Content

        for note in app._notifications:
            Content(note.message)  # what the toast renders for plain text


@pytest.mark.anyio
async def test_d_names_the_acting_combatant_as_the_attacker(tmp_path: Path) -> None:
    """`d` on someone else than the actor opens ``damage TARGET from=ACTOR`` (2d20; TTB ``by=``), so the damage
    the GM finishes is the actor's in the story, not unattributed; on the actor itself, no attacker."""
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        screen = main_screen(app)
        table = screen.query_one("#order-table", OrderTable)
        await pilot.press("n", "1")  # start, Ada Vance first
        await pilot.pause()
        await pilot.press("d")
        assert command_line(app).value == "damage 'Ada Vance' "
        await pilot.press("escape")
        table.focus()
        while table.selected() != "Cultist":
            await pilot.press("down")
        await pilot.press("d")
        assert command_line(app).value == "damage Cultist from='Ada Vance' "
        await type_text(pilot, "2")
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.history.commands[-1] == "damage Cultist from='Ada Vance' 2"


@pytest.mark.anyio
async def test_a_colon_typed_again_in_the_command_line_is_not_part_of_the_command(tmp_path: Path) -> None:
    """`:` opens the line; a GM who types `:` again out of habit (``:add …``) still runs the command, where it
    was "unknown command ':add'"."""
    app = make_app(tmp_path, "skirmish_srd.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("colon")
        await pilot.press("colon")
        await type_text(pilot, "add Cultist dazed")
        assert command_line(app).value == ":add Cultist dazed"
        await pilot.press("enter")
        await pilot.pause()
        assert "dazed" in dump(app.session.rules.state)["fighters"]["Cultist"]["conditions"]
