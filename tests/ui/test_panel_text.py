"""Issue 12, the panels' text (`PanelText`, tracker/ui/widgets/panel_text.py): after an update only the lines
that changed are wrapped, styled and repainted, and every row it draws is the row a `Static` drew from
the same text at the same width (same characters, same styles, same offsets for text selection)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.content import Content
from textual.geometry import Offset, Region
from textual.selection import Selection
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets import Static

from tests.ui.conftest import make_app
from tests.ui.test_partial_repaint import step
from tracker.ui.widgets.base import EMPHASIS
from tracker.ui.widgets.panel_text import PanelText, cut_lines


def styled(*parts: tuple[str, str]) -> Text:
    out = Text()
    for text, style in parts:
        out.append(text, style=style)
    return out


#: Texts as the panels write them, and the cases wrapping gets wrong first: words longer than the width,
#: lines longer than the width, runs of spaces, empty lines, a trailing newline, spans across a newline
#: and across a word break, a style for the whole text, tabs and wide characters.
TEXTS = {
    "turn": styled(
        ("Fighter 419\n", "bold"),
        ("General AP ", ""),
        ("●● 2", "bold"),
        ("   Combat AP ● 1\nFate Points 5\n\n", ""),
        ("walk             1 AP  \n", ""),
        ("order            1 AP  ", ""),
        ("Fighter 419 has no subordinate to Order who has yet to act this round\n", "dim"),
        ("second-wind      0 AP  ", ""),
        ("Fighter 419 is at full Wounds (10/10): Second Wind would heal nothing\n", "dim"),
    ),
    "long words": styled(
        ("supercalifragilisticexpialidocious", "bold"),
        (" antidisestablishmentarianism and a few short words", "italic"),
        ("\nPneumonoultramicroscopicsilicovolcanoconiosis", "reverse"),
    ),
    "spaces and blanks": styled(("   leading   spaces    and  runs   of them   \n\n\n", ""), ("  ", "bold"), ("x", "")),
    "across lines": styled(("one two ", ""), ("three\nfour five six seven eight", "bold"), (" nine ten", "dim")),
    "whole text style": Text("No question pending · n next · s spend · d damage · : command · ? help", style="dim"),
    "tabs and wide": styled(("a\tb\tlonger cell\t", ""), ("戦闘 トラッカー 戦闘トラッカー", "bold"), ("\n●●●● ○○", "")),
    "empty": Text(),
}
WIDTHS = (1, 3, 7, 12, 20, 33, 44, 80)


def random_text(rng: random.Random) -> Text:
    """A text of random words, spaces, newlines and emphases, as the family's blocks are put together."""
    words = ["a", "AP", "walk", "Fighter", "419", "●●", "supercalifragilistic", "—", "(10/10):", "x" * 30, "戦闘"]
    out = Text()
    for _ in range(rng.randrange(1, 40)):
        piece = rng.choice(words) + rng.choice([" ", " ", "  ", "\n", "", "\n\n"])
        out.append(piece, style=rng.choice(list(EMPHASIS.values())))
    return out


class Side(App[None]):
    """A Static and a PanelText side by side, each as wide as the test asks."""

    CSS = "Screen { layout: horizontal; } Static, PanelText { height: auto; }"

    def compose(self) -> ComposeResult:
        yield Static(id="static")
        yield PanelText(id="lines")


def rows(widget: Widget) -> list[Strip]:
    return [widget.render_line(y) for y in range(widget.size.height)]


async def compare(texts: list[Text], widths: tuple[int, ...], themes: tuple[str, ...] = ("textual-dark",)) -> None:
    """Each text at each width, in each theme (switched with the rows already drawn), drawn by both."""
    app = Side()

    async with app.run_test(size=(200, 60)) as pilot:
        static, lines = app.query_one(Static), app.query_one(PanelText)
        for width in widths:
            static.styles.width = lines.styles.width = width
            for text in texts:
                static.update(text)
                lines.show(text)
                for theme in themes:
                    app.theme = theme
                    await pilot.pause()
                    assert lines.size == static.size, (width, text.plain)
                    assert rows(lines) == rows(static), (width, text.plain, theme)
                    full = Region(0, 0, width, static.size.height)
                    assert lines.render_lines(full) == static.render_lines(full), (width, text.plain)
                    assert str(lines.render()) == str(static.render())


@pytest.mark.anyio
@pytest.mark.parametrize("name", sorted(TEXTS))
async def test_rows_are_the_rows_a_static_draws_at_every_width(name: str) -> None:
    await compare([TEXTS[name]], WIDTHS)


@pytest.mark.anyio
async def test_random_texts_wrap_as_a_static_wraps_them() -> None:
    rng = random.Random(12)
    await compare([random_text(rng) for _ in range(25)], (4, 9, 17, 40))


@pytest.mark.anyio
async def test_lines_moved_dropped_and_repeated_are_drawn_as_the_static_draws_them() -> None:
    """The same lines in another order, fewer of them, some twice: lines kept, moved and shared (equal lines
    share their wrapping) are drawn as the Static draws the whole text."""
    rng = random.Random(3)
    lines = list(TEXTS["turn"].split("\n", allow_blank=True))
    texts = []
    for _ in range(12):
        picked = rng.sample(lines, rng.randrange(1, len(lines))) + rng.sample(lines, 2)
        texts.append(Text("\n").join(picked))
    await compare(texts, (12, 30))


@pytest.mark.anyio
async def test_the_theme_colours_and_emphases_are_the_statics() -> None:
    texts = [TEXTS["turn"], TEXTS["whole text style"], TEXTS["long words"]]
    await compare(texts, (20, 44), ("textual-light", "gruvbox", "textual-dark"))


@pytest.mark.anyio
async def test_a_selection_is_drawn_and_copied_as_the_static_did() -> None:
    """While the GM selects text the rows are the Static's, highlight included, and the copy is the same;
    once the selection is gone the rows are the Static's again."""
    app = Side()
    text = TEXTS["turn"]
    selection = Selection(Offset(3, 0), Offset(10, 5))

    async with app.run_test(size=(200, 60)) as pilot:
        static, lines = app.query_one(Static), app.query_one(PanelText)
        static.styles.width = lines.styles.width = 30
        static.update(text)
        lines.show(text)
        await pilot.pause()
        plain = rows(lines)
        app.screen.selections = {static: selection, lines: selection}
        await pilot.pause()
        assert rows(lines) == rows(static) != plain
        assert lines.get_selection(selection) == static.get_selection(selection)
        app.screen.selections = {}
        await pilot.pause()
        assert rows(lines) == rows(static) == plain


def test_a_panel_text_reads_its_lines_as_rich_splits_them() -> None:
    rng = random.Random(7)
    for text in [*TEXTS.values(), *(random_text(rng) for _ in range(200))]:
        split = text.split("\n", allow_blank=True)
        assert cut_lines(text) == [(line.plain, line.style, tuple(line.spans)) for line in split]


class One(App[None]):
    CSS = "PanelText { width: 30; }"

    def compose(self) -> ComposeResult:
        yield PanelText()


def lines_of(*lines: str) -> Text:
    return Text("\n".join(lines))


BEFORE = ["Fighter 419", "walk  1 AP", "run   2 AP", "order 1 AP  Fighter 419 has no one to order", "pass  1 AP"]


class Counted:
    """Spies on the lines a PanelText has Textual draw (`Visual.to_strips`: wrapped and styled) and on its
    repaints."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.drawn: list[str] = []
        self.refreshed: list[tuple[tuple[Region, ...], bool]] = []
        to_strips, refresh = Visual.to_strips, PanelText.refresh

        def counted_to_strips(widget: Widget, visual: Visual, *args: Any, **kwargs: Any) -> list[Strip]:
            if isinstance(widget, PanelText) and isinstance(visual, Content):
                self.drawn.append(visual.plain)
            return to_strips(widget, visual, *args, **kwargs)

        def counted_refresh(widget: PanelText, *regions: Region, **kwargs: bool) -> PanelText:
            self.refreshed.append((regions, kwargs.get("layout", False)))
            return refresh(widget, *regions, **kwargs)

        monkeypatch.setattr(Visual, "to_strips", counted_to_strips)
        monkeypatch.setattr(PanelText, "refresh", counted_refresh)


@pytest.mark.anyio
@pytest.mark.perf
async def test_an_unchanged_line_keeps_its_rows_and_a_changed_one_alone_repaints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two lines change, the rows keep their number: the other lines keep the very rows drawn before
    (nothing wraps or styles them again), only the changed lines' rows are repainted, and no layout."""
    app = One()

    async with app.run_test(size=(60, 20)) as pilot:
        body = app.query_one(PanelText)
        body.show(lines_of(*BEFORE))
        await pilot.pause()
        assert body.size.height == 6  # the order line wraps to two rows
        before = rows(body)
        counted = Counted(monkeypatch)
        changed = [*BEFORE]
        changed[0] = "Fighter 349"
        changed[3] = "order 1 AP  Fighter 349 has no one to order"
        body.show(lines_of(*changed))
        await pilot.pause()
        after = rows(body)
        assert sorted(counted.drawn) == sorted([changed[0], changed[3]])
        assert counted.refreshed == [((Region(0, 0, 30, 1), Region(0, 3, 30, 2)), False)]
        for y in (1, 2, 5):
            assert after[y] is before[y]
        assert all(after[y] is not before[y] for y in (0, 3, 4))
        assert "Fighter 349" in after[0].text and "Fighter 349" in after[3].text


@pytest.mark.anyio
@pytest.mark.perf
async def test_a_line_more_draws_only_the_new_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line put in above the others (a turn with Fate Points) has Textual draw that line only: the lines it
    moves down keep the rows drawn before (given their new place in the text), and the rows are still the
    Static's."""
    app = Side()

    async with app.run_test(size=(200, 60)) as pilot:
        static, lines = app.query_one(Static), app.query_one(PanelText)
        static.styles.width = lines.styles.width = 30
        for text in (lines_of(*BEFORE), lines_of(BEFORE[0], "Fate Points 3", *BEFORE[1:])):
            if text.plain.count("\n") > len(BEFORE) - 1:
                counted = Counted(monkeypatch)
            static.update(text)
            lines.show(text)
            await pilot.pause()
            assert rows(lines) == rows(static)
        assert counted.drawn == ["Fate Points 3"]
        assert counted.refreshed[0] == ((), True)  # a row more: laid out again


@pytest.mark.anyio
@pytest.mark.perf
async def test_rows_that_move_are_repainted_and_a_new_height_is_laid_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line that wraps to one row more while another wraps to one row less moves the lines between them:
    their rows are repainted too. A text with more rows asks for a layout (its height is its rows)."""
    app = One()

    async with app.run_test(size=(60, 20)) as pilot:
        body = app.query_one(PanelText)
        body.show(lines_of(*BEFORE))
        await pilot.pause()
        refreshed = Counted(monkeypatch).refreshed
        moved = [*BEFORE]
        moved[1] = "walk  1 AP  and a reason long enough to wrap"
        moved[3] = "order 1 AP"
        body.show(lines_of(*moved))
        await pilot.pause()
        assert refreshed == [((Region(0, 1, 30, 4),), False)]
        refreshed.clear()
        body.show(lines_of(*moved, "one line more"))
        await pilot.pause()
        assert refreshed[0] == ((), True)  # (Textual repaints it whole again once its size changed)
        assert body.size.height == 7
        refreshed.clear()
        body.show(lines_of(*moved, "one line more"))
        assert refreshed == []  # the same text: nothing to repaint


@pytest.mark.anyio
@pytest.mark.perf
async def test_next_repaints_the_turn_panels_changed_lines_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the GM screen a `next` between two turns whose text keeps its lines repaints the Turn panel's
    lines that name the new combatant, not its whole text (a turn with a line more or less is laid out
    again, as before)."""
    app = make_app(tmp_path, "brawl.toml")
    refreshed: list[tuple[Region, ...]] = []
    refresh = PanelText.refresh

    def counted(self: PanelText, *regions: Region, **kwargs: bool) -> PanelText:
        if self.has_class("panel-body") and self.parent is not None and self.parent.id == "turn":
            refreshed.append(regions)
        return refresh(self, *regions, **kwargs)

    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        for _ in range(3):  # start (the tie answered), then on to Sofia Ramos's turn
            await step(pilot, app, "n")
        body = app.screen.query_one("#turn").query_one(".panel-body", PanelText)
        before = body.text.plain.splitlines()
        monkeypatch.setattr(PanelText, "refresh", counted)
        await step(pilot, app, "n")
        after = body.text.plain.splitlines()
        # Ash Kettering's turn: his name where Sofia's was, in as many lines.
        assert before[0] != after[0] and len(before) == len(after)
        assert refreshed, "the Turn panel was not repainted"
        assert all(refreshed), "a `next` repainted the Turn panel's whole text"
        assert sum(r.height for regions in refreshed for r in regions) < body.size.height / 2
