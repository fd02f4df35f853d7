"""A player's own screen (`tracker play`): the player view, plus what only this seat may see and do.

Everything on it comes from the seat's projection (`tracker.table.projection`), which the GM's process
makes for this account alone: the order as the players see it; this seat's characters' sheets (a TTB
Control Hand among them); the field with nothing hidden on it and the odds on the seat's turn; the
question when it is about one of the seat's characters. Keys are the GM's where they apply: ``s`` spends
from the same list (and on through the same attack flow), ``1``-``9`` and Enter answer, ``n`` ends the
seat's turn, ``:`` types any command, which the GM's process judges (some become requests the GM
approves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.widgets import Footer, Input, Static, TabbedContent, TabPane

from tracker.present.view import Block, PromptView, Span
from tracker.ui.actions import Actions
from tracker.ui.screens.acting import (
    ANSWER_FIRST,
    ANSWERS,
    BACK,
    COMMAND,
    NEXT,
    NEXT_TAB,
    PREVIOUS_TAB,
    QUIT,
    SPEND,
    STORY,
    THEME,
    ActingScreen,
    renamed,
)
from tracker.ui.screens.player import players_order
from tracker.ui.widgets.command import CommandLine, typed_line
from tracker.ui.widgets.order_table import OrderTable
from tracker.ui.widgets.prompt import PromptBar
from tracker.ui.widgets.text_panel import TextPanel

if TYPE_CHECKING:
    from tracker.table.projection import Projection
    from tracker.ui.remote import RemoteApp


#: A seat's keys: the GM's where they apply (`tracker.ui.screens.acting`), under ids of their own.
PLAY_ACTIONS = Actions(
    renamed(
        "play",
        [
            NEXT.but(title="End turn"),
            SPEND,
            COMMAND,
            *ANSWERS,
            ANSWER_FIRST,
            BACK.but(id="back", title="Back"),
            PREVIOUS_TAB,
            NEXT_TAB,
            STORY,
            THEME,
            QUIT,
        ],
    )
)


class PlayScreen(ActingScreen):
    """One seat's screen; redrawn from each projection the GM's process sends."""

    ACTIONS = PLAY_ACTIONS
    BINDINGS = PLAY_ACTIONS.bindings
    DEFAULT_CSS = """
    PlayScreen #play-title { height: 1; padding: 0 1; background: $primary 30%; text-style: bold; }
    PlayScreen #play-title.-mine { background: $success 45%; }
    PlayScreen #play-body { height: 1fr; }
    PlayScreen #play-order { width: 1fr; border: round $primary 60%; }
    PlayScreen #play-side { width: 46; }
    PlayScreen #play-side TabPane { padding: 0; }
    PlayScreen #play-legend { height: auto; color: $text-muted; }
    PlayScreen.-narrow #play-body { layout: vertical; }
    PlayScreen.-narrow #play-order { width: 1fr; height: auto; max-height: 50%; }
    PlayScreen.-narrow #play-order OrderTable { height: auto; }
    PlayScreen.-narrow #play-side { width: 1fr; height: 1fr; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]

    #: The projection shown.
    projection: var[Projection | None] = var(None, init=False)

    def compose(self) -> ComposeResult:
        yield Static(id="play-title", markup=False)
        with Horizontal(id="play-body"):
            with Vertical(id="play-order"):
                yield OrderTable(id="play-table")
                yield Static(id="play-legend", markup=False)
            with TabbedContent(id="play-side"):
                with TabPane("Sheet", id="tab-sheet"):
                    yield TextPanel(id="play-sheet")
                with TabPane("Field", id="tab-field"):
                    from tracker.ui.widgets.map_panel import MapPanel

                    yield MapPanel(id="play-map")
                with TabPane("Odds", id="tab-odds"):
                    yield TextPanel(id="play-odds")
        yield PromptBar(id="play-prompt")
        yield CommandLine(
            placeholder="a command for your character (e.g. spend Sofia walk) — Enter sends, Esc leaves",
            select_on_focus=False,
            id="play-line",
        )
        yield Footer()

    @property
    def remote(self) -> RemoteApp:
        return cast("RemoteApp", self.app)

    def on_mount(self) -> None:
        self.query_one("#play-legend", Static).display = False
        self.query_one("#play-prompt", PromptBar).idle_keys = " · on your turn: s spend · n end it · : command"
        self.projection = self.remote.projection
        self.query_one(OrderTable).focus()

    def _title(self, p: Projection) -> None:
        """The seat's one-line title: who, where, whose turn, and the odds figures that fit."""
        view = p.view
        title = Text()
        seated = ", ".join(p.seated) or "watching"
        title.append(f"{p.account} · {seated} · {view.where}")
        if view.pools:
            title.append(f" · {view.pools}")
        if p.acting:
            title.append(f" · YOUR TURN: {p.acting}", style="bold reverse")
        elif p.question is not None:
            title.append(f" · YOUR ANSWER: {p.question.about}", style="bold reverse")
        elif view.active:
            title.append(f" · {view.active}'s turn")
        if view.fight_odds:  # last: the seat's turn and question come first on a narrow screen
            title.append(self._odds_that_fit(title.plain, view.fight_odds))
        heading = self.query_one("#play-title", Static)
        heading.update(title)
        heading.set_class(p.acting is not None or p.question is not None, "-mine")

    def _odds_that_fit(self, before: str, odds: str) -> str:
        """The odds line's figures that fit after `before` on the title's one line, each dropped whole (a
        figure cut mid-word misleads: "about 4" for "about 4 rounds"), the least telling first."""
        from tracker.ui.fight_odds import odds_parts
        from tracker.ui.title import fit_title

        width = self.query_one("#play-title", Static).content_region.width or self.size.width - 2
        fitted = fit_title([(before, 1000, False), *odds_parts(odds)], width)
        return fitted[len(before) :] if fitted.startswith(before) and len(fitted) > len(before) else ""

    def on_resize(self) -> None:
        if self.projection is not None:
            self._title(self.projection)  # only the title's fit follows the width

    def rebuild(self, revision: int) -> None:
        """A new projection came (the app's `bump`): show it."""
        self.projection = self.remote.projection

    def watch_projection(self, old: Projection | None, new: Projection | None) -> None:
        if new is None:
            return
        self._show(new)
        # The bell rings when one of the seat's characters starts acting, or a question for one of them comes
        # while none acts (a duel on another's turn); not at each step of a flow the seat is driving itself.
        turn_starts = new.acting is not None and (old is None or old.acting != new.acting)
        asked = new.acting is None and new.question is not None and (old is None or old.question is None)
        for decision in new.decided:
            if old is not None and decision not in old.decided:
                self.notify(f"The GM {decision}", timeout=6, markup=False)
        if turn_starts or asked:
            self.app.bell()
            who = new.acting or (new.question.about if new.question else None) or ""
            self.notify(f"Your turn: {who}" if turn_starts else f"A question for {who}", timeout=4, markup=False)

    def _show(self, p: Projection) -> None:
        view = p.view
        self._title(p)
        columns, rows = players_order(view, p.seated)
        self.query_one(OrderTable).set_rows(columns, rows, view.active)
        sheet: Block = ()
        for n, own in enumerate(p.own):
            sheet += ((Span("\n"),) if n else ()) + own.sheet  # a blank line between two characters
        if view.notes:  # the scene's traits, tasks and challenges, under the seat's own sheets
            sheet += (Span("\n" if sheet else ""), Span("The scene\n", "bold"))
            sheet += tuple(Span(f"  {note}\n") for note in view.notes)
        self.query_one("#play-sheet", TextPanel).block = sheet
        field = self.query_one("#play-map")
        field.field_map = p.map  # type: ignore[attr-defined]
        odds = self.query_one("#play-odds", TextPanel)
        odds.odds = p.odds
        self.query_one("#play-prompt", PromptBar).prompt = self._prompt(p)

    def _prompt(self, p: Projection) -> PromptView | None:
        """The question when it is this seat's to answer; else who it waits for, as a line to read."""
        if p.question is not None:
            q = p.question
            return PromptView(q.question, q.options, q.answers, q.hint)
        if p.view.prompt:
            waits = f" (waiting for {p.waiting_on})" if p.waiting_on else ""
            return PromptView(p.view.prompt + waits, (), ())
        if p.requests:
            more = f" (and {len(p.requests) - 1} more)" if len(p.requests) > 1 else ""
            return PromptView(f"Asked the GM: {p.requests[0]}{more}; waiting for approve or deny", (), ())
        return None

    def on_order_table_legend(self, message: OrderTable.Legend) -> None:
        legend = self.query_one("#play-legend", Static)
        legend.update(message.text)
        legend.display = bool(message.text)

    # --- acting ------------------------------------------------------------------------------
    def run_line(self, line: str) -> None:
        """The seat's command goes to the GM's process, which judges it."""
        self._send(line)

    @work(group="send")
    async def _send(self, line: str) -> None:
        reply = await self.remote.send(line)
        self.app.clear_notifications()
        if "refused" in reply:
            self.notify(str(reply["refused"]), severity="error", timeout=6, markup=False)
        elif "requested" in reply:
            self.notify(f"asked the GM: {line}", timeout=4, markup=False)

    def action_next_turn(self) -> None:
        p = self.projection
        if p is None or p.acting is None:
            self.notify("It is not your turn: n ends your own turn", severity="warning", markup=False)
            return
        self.run_line("next")

    def action_spend(self) -> None:
        p = self.projection
        if p is None or p.acting is None:
            self.notify("It is not your turn: s spends on your turn", severity="warning", markup=False)
            return
        self.pick(p.acting, p.actions)

    @property
    def answers(self) -> tuple[str, ...]:
        """The question's commands, while it is this seat's to answer."""
        p = self.projection
        return p.question.answers if p is not None and p.question is not None else ()

    def action_command(self) -> None:
        self.open_line("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = typed_line(event.value)
        event.input.value = ""
        self.query_one(OrderTable).focus()
        if line:
            self.run_line(line)
