"""The turn at the table, on the GM's screen: what the table has is what the GM sees.

A toast never covers the question or the command line, and each command's toast replaces the ones before;
the order panel's round line is never cut; each turn starts the Turn panel at its top; the unfocused
command line reads as a hint, not a field; ``gm_only`` combatants are marked on the GM's screens (the
players never see them); the Fate Deck tab shows every Control Hand, card by card, as the tab opens.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static, TabbedContent

from tests.ui.conftest import make_app
from tracker.families.ttb.fate.cards import parse_card
from tracker.ui.app import TrackerApp
from tracker.ui.widgets.command import CommandLine
from tracker.ui.widgets.initiative import InitiativePanel
from tracker.ui.widgets.order_table import OrderTable
from tracker.ui.widgets.panel_text import PanelText
from tracker.ui.widgets.prompt import PromptBar
from tracker.ui.widgets.text_panel import TextPanel

#: The duel up to Sofia's attack flip: `3` flips it (a 5♣ fails TN 11), a Result toast comes up and the
#: cheat offer waits.
DUEL_TO_THE_FLIP = ("initiative Sofia 9", "start", "spend Sofia charge Enforcer", "answer pass 1")


def screen_text(app: TrackerApp) -> str:
    """Everything on screen, as one line of words."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", app.export_screenshot())).replace("\xa0", " ")
    return re.sub(r"\s+", " ", text)


def toasts(app: TrackerApp) -> list[Widget]:
    """The toasts on screen (Textual's rack is a child of the screen)."""
    rack = app.screen.get_child_by_id("textual-toastrack")
    return [w for w in rack.walk_children(Widget) if type(w).__name__ == "Toast"]


def combatant(app: TrackerApp, name: str) -> dict[str, object]:
    """`name` as the JSON state (docs/reference/json-state.md) has them."""
    found = [c for c in app.session.rules.state_json()["combatants"] if isinstance(c, dict) and c["name"] == name]  # type: ignore[union-attr]
    return found[0]


def hand_of(app: TrackerApp, name: str) -> list[str]:
    """A Fated's Control Hand, as the JSON state writes its cards (``10M``)."""
    cards = combatant(app, name)["hand_cards"]
    assert isinstance(cards, list)
    return [str(c) for c in cards]


def messages(app: TrackerApp) -> list[str]:
    return [n.message for n in app._notifications]


async def type_line(pilot: Pilot[None], line: str) -> None:
    """`:` then the line and Enter, as a GM types it."""
    await pilot.press("colon", *[c if c != " " else "space" for c in line], "enter")
    await pilot.pause()


@pytest.mark.anyio
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_toast_stands_above_the_question_and_the_command_line(tmp_path: Path, size: tuple[int, int]) -> None:
    """A flip's Result toast and the cheat offer come together: the toast sits above the prompt bar, the
    command line and the footer, and the whole question is on screen."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=size, notifications=True) as pilot:
        for line in DUEL_TO_THE_FLIP:
            assert app.submit(line) is None
        await pilot.pause()
        await pilot.press("3")  # flip
        await pilot.pause()
        await pilot.pause()
        assert app.session.state.prompt is not None and app.session.state.prompt.kind == "cheat"
        shown = toasts(app)
        assert shown, messages(app)
        bar = app.screen.query_one(PromptBar).region
        for toast in shown:
            assert toast.region.bottom <= bar.y, (toast.region, bar)
            assert not toast.region.overlaps(app.screen.query_one(CommandLine).region)
        question = app.session.state.prompt.question
        body = str(app.screen.query_one("#prompt-body", PanelText).render())
        assert question in body.replace("\n", " ")
        assert app.screen.query_one(PromptBar).region.height >= body.count("\n") + 1
        assert question in screen_text(app)


@pytest.mark.anyio
async def test_toasts_follow_a_taller_prompt_bar(tmp_path: Path) -> None:
    """A question with more options makes the bar taller: a toast shown after it still stands above it."""
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for line in ("initiative Sofia 10", "initiative Ash 8", "initiative Marguerite 5"):
            assert app.submit(line) is None
        await pilot.press("n")  # start: the tie question (two options, two lines of question)
        await pilot.pause()
        await type_line(pilot, "flip 1")  # a Result toast while the question waits
        await pilot.pause()
        assert app.session.state.prompt is not None
        bar = app.screen.query_one(PromptBar).region
        assert bar.height >= 3
        shown = toasts(app)
        assert shown
        assert all(toast.region.bottom <= bar.y for toast in shown)


@pytest.mark.anyio
async def test_a_refusal_toast_goes_when_the_next_command_goes_through(tmp_path: Path) -> None:
    """A refused ``move ada boathose`` must not still be up after ``move ada warehouse`` went through."""
    app = make_app(tmp_path, "firefight_infinity.toml")

    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for line in ("start", "pick Lt"):
            assert app.submit(line) is None
        await type_line(pilot, "move Lt boathose")
        assert any("boathose" in m for m in messages(app))
        assert toasts(app)
        # The refused line stays selected on the command line: typing replaces it.
        await pilot.press(*[c if c != " " else "space" for c in "move Lt Concourse"], "enter")
        await pilot.pause()
        assert combatant(app, "Lt. Ishikawa")["zone"] == "Concourse"
        assert not any("boathose" in m for m in messages(app)), messages(app)
        assert not toasts(app)


@pytest.mark.anyio
async def test_a_newer_result_replaces_the_older_toast(tmp_path: Path) -> None:
    """Two flips in a row: one toast, the second flip's."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await type_line(pilot, "flip 1")
        first = messages(app)
        await type_line(pilot, "flip 1")
        second = messages(app)
        assert len(first) == 1 and len(second) == 1, (first, second)
        assert first != second
        assert len(toasts(app)) == 1


@pytest.mark.anyio
async def test_the_same_refusal_again_keeps_its_one_toast(tmp_path: Path) -> None:
    """``n`` pressed three times while a question waits: one refusal toast, not a stack and not none."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for line in DUEL_TO_THE_FLIP:
            assert app.submit(line) is None
        await pilot.press("n", "n", "n")
        await pilot.pause()
        assert len(messages(app)) == 1, messages(app)


def round_line_parts(app: TrackerApp) -> tuple[str, str, bool]:
    panel = app.screen.query_one("#order", InitiativePanel)
    own = panel.query_one("#order-round", Static)
    return str(panel.border_title or ""), str(own.render()), own.display


@pytest.mark.anyio
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_round_line_too_long_for_the_border_gets_a_line_of_its_own(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """ "players kept last: an enemy acts before they keep again" says who acts next: whole, inside the panel
    when the border cannot hold it; back in the border when the line is short again."""
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=size) as pilot:
        for line in ("start", "pick Ada", "next", "keep Brann threat"):
            assert app.submit(line) is None
        await pilot.pause()
        line = app.session.presenter.order().round_line
        assert "kept last: an enemy acts before they keep again" in line
        title, own, shown = round_line_parts(app)
        assert shown and title == ""
        assert own == line
        static = app.screen.query_one("#order-round", Static)
        inside = static.content_region.width
        assert static.region.height >= -(-len(line) // inside)  # wrapped whole, not cut
        words = screen_text(app)
        assert all(word in words for word in line.split())
        assert app.submit("undo") is None
        await pilot.pause()
        title, own, shown = round_line_parts(app)
        assert not shown and title == app.session.presenter.order().round_line


@pytest.mark.anyio
async def test_each_new_turn_starts_the_turn_panel_at_its_top(tmp_path: Path) -> None:
    """The Turn panel scrolled down one actor's actions shows the next actor's name and AP when the turn passes."""
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        for line in ("initiative Sofia 10", "initiative Ash 8", "initiative Marguerite 5", "start", "answer Belle"):
            assert app.submit(line) is None
        panel = app.screen.query_one("#turn", TextPanel)
        for _ in range(40):  # a loaded machine may take a few refreshes to lay the new turn's list out
            await pilot.pause(0.05)
            if panel.max_scroll_y > 0:
                break
        assert panel.max_scroll_y > 0  # the action list is longer than the panel at 80×24
        await pilot.press("pagedown")
        await pilot.pause()
        assert panel.scroll_y > 0
        before = app.session.state.active
        await pilot.press("n")
        await pilot.pause()
        assert app.session.state.active != before
        assert panel.scroll_y == 0
        assert f" {app.session.state.active} General AP" in screen_text(app)


@pytest.mark.anyio
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_unfocused_command_line_reads_as_a_hint(tmp_path: Path, size: tuple[int, int]) -> None:
    """Unfocused: dim words saying how to start, no field's frame; `:` makes it the field with its example;
    Esc leaves it, a hint again."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        line = app.screen.query_one(CommandLine)
        hint = "press : to type a command"
        assert not line.has_focus
        assert line.placeholder == hint
        assert line.styles.border_top[0] in ("", "none", "blank")
        assert line.styles.background == app.screen.styles.background
        text = screen_text(app)
        assert hint in text and "damage thug 4" not in text
        await pilot.press("colon")
        await pilot.pause()
        assert line.has_focus
        assert "damage thug 4" in line.placeholder
        assert line.styles.background != app.screen.styles.background
        if size[1] >= 36:
            assert line.styles.border_top[0] == "tall"
        await pilot.press("escape")
        await pilot.pause()
        assert not line.has_focus and line.placeholder == hint


@pytest.mark.anyio
async def test_gm_only_combatants_are_marked_on_the_gm_screen(tmp_path: Path) -> None:
    """Rotten Belle (``gm_only``) says "GM only" in her row, in words; other rows do not."""
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(OrderTable)
        lines = [table.render_line(y).text for y in range(1 + len(table.keys))]
        belle = next(line for line in lines if "Rotten Belle" in line)
        assert "GM only" in belle
        assert sum("GM only" in line for line in lines) == 1
        # The mark stays through commands that change her row, and is not stacked.
        assert app.submit("add Belle burning 2") is None
        await pilot.pause()
        lines = [table.render_line(y).text for y in range(1 + len(table.keys))]
        belle = next(line for line in lines if "Rotten Belle" in line)
        assert belle.count("GM only") == 1 and "burning 2" in belle


@pytest.mark.anyio
async def test_the_fate_deck_tab_shows_every_hand_as_it_opens_at_80x24(tmp_path: Path) -> None:
    """Each Fated's cards, as the log writes them (``10♦``), are in view when the tab opens."""
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        for line in ("initiative Sofia 10", "initiative Ash 8", "initiative Marguerite 5", "start", "answer Belle"):
            assert app.submit(line) is None
        app.screen.query_one("#side", TabbedContent).active = "tab-resources"
        await pilot.pause()
        await pilot.pause()
        panel = app.screen.query_one("#resources", TextPanel)
        assert panel.scroll_y == 0
        text = screen_text(app)
        for name in ("Sofia Ramos", "Ash Kettering", "Marguerite Bell"):
            hand = hand_of(app, name)
            assert hand, name
            cards = " ".join(parse_card(c).short() for c in hand)
            assert f"{name}: {cards}" in text, (name, cards, text)
        assert not re.search(r"\b\d+[RCTM]\b", text)  # no card in letters anywhere on screen
        visible = Region(0, 0, app.screen.size.width, app.screen.size.height)
        assert visible.contains_region(panel.region)


@pytest.mark.anyio
async def test_cards_a_prompt_offers_read_as_the_log_writes_them(tmp_path: Path) -> None:
    """The cheat offer: "flipped 5♣: cheat with …" offers 10♦ and 8♠, not 10M and 8C; the key still answers."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        for line in (*DUEL_TO_THE_FLIP, "answer flip"):
            assert app.submit(line) is None
        await pilot.pause()
        prompt = app.session.state.prompt
        assert prompt is not None and prompt.kind == "cheat"
        body = str(app.screen.query_one("#prompt-body", PanelText).render())
        offered = [o for o in prompt.options if o != "no"]
        for code in offered:
            assert parse_card(code).short() in body
            assert f" {code} " not in body
        await pilot.press("1")
        await pilot.pause()
        assert app.session.state.prompt is None or app.session.state.prompt.kind != "cheat"
        assert any(offered[0] in line for line in app.session.history.commands[-1:])


@pytest.mark.anyio
async def test_the_player_view_shows_neither_the_mark_nor_the_hands(tmp_path: Path) -> None:
    """The players' screen leaves ``gm_only`` combatants out altogether (no "GM only" to see) and shows no
    Control Hand."""
    app = make_app(tmp_path, "brawl.toml")
    for line in ("initiative Sofia 10", "initiative Ash 8", "initiative Marguerite 5", "start", "answer Belle"):
        assert app.submit(line) is None
    from tracker.store import files
    from tracker.store.save import encounter_text

    files.write_text(app.path, encounter_text(app.session))
    hands = {name: hand_of(app, name) for name in ("Sofia Ramos", "Ash Kettering")}
    viewer = TrackerApp.viewer(app.path, player=True)

    async with viewer.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(viewer)
        assert "Sofia Ramos" in text
        assert "GM only" not in text and "Rotten Belle" not in text
        for hand in hands.values():
            assert " ".join(parse_card(c).short() for c in hand) not in text
            assert not any(parse_card(c).short() in text for c in hand if c not in ("RJ", "BJ"))
