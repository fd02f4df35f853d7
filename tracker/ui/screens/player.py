"""The player's screen: the order, conditions and the active turn in large type, nothing GM-only.

It reads only the family's `player_view` (a typed `PlayerView`), so whatever is hidden never reaches a widget.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Digits, Footer, Static

from tracker.present.view import OrderRow, PlayerView
from tracker.present.words import status_text
from tracker.ui.actions import Actions
from tracker.ui.screens.acting import QUIT, STORY, THEME, ActingScreen, renamed
from tracker.ui.screens.following import FollowingScreen
from tracker.ui.widgets.order_table import OrderTable

if TYPE_CHECKING:
    from tracker.ui.host import Host


#: The player view's keys: the story the players may see, the theme, quit.
PLAYER_ACTIONS = Actions(renamed("player", [STORY.but(keys="s"), THEME.but(show=True), QUIT]))


class PlayerScreen(ActingScreen, FollowingScreen):
    """Read-only; follows the file through the app's watcher like the GM viewer."""

    ACTIONS = PLAYER_ACTIONS
    BINDINGS = PLAYER_ACTIONS.bindings
    DEFAULT_CSS = """
    PlayerScreen #player-top { height: auto; background: $primary 25%; padding: 0 1; }
    PlayerScreen #round-digits { width: auto; margin-right: 2; }
    PlayerScreen #active-name { width: 1fr; content-align: left middle; text-style: bold; height: 3; }
    PlayerScreen OrderTable { height: 1fr; }
    PlayerScreen #player-legend { height: auto; padding: 0 1; color: $text-muted; }
    PlayerScreen #player-prompt { height: auto; padding: 0 1; background: $warning 20%; }
    PlayerScreen #player-notes { height: auto; max-height: 6; padding: 0 1; }
    PlayerScreen.-short #round-digits { display: none; }
    """
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]

    def compose(self) -> ComposeResult:
        yield Static("PLAYER VIEW", id="player-label")
        with Horizontal(id="player-top"):
            yield Digits("0", id="round-digits")
            yield Static(id="active-name")
        yield OrderTable(id="player-table")
        yield Static(id="player-legend", markup=False)
        yield Static(id="player-notes", markup=False)
        yield Static(id="player-prompt", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#player-legend", Static).display = False
        self.show()

    def rebuild(self, revision: int) -> None:
        """A new revision of the file (the app's `bump`): show it."""
        self.revision = revision

    def watch_revision(self) -> None:
        if self.is_mounted:
            self.show()

    def show(self) -> None:
        app = cast("Host", self.app)
        view = app.player_view()
        if not view.fight_odds:
            view = view._replace(fight_odds=self._local_odds(app))
        digits = self.query_one(Digits)
        digits.update(str(view.round))
        digits.display = view.round > 0  # no "Round 0" before the fight
        who = view.active
        line = Text()
        line.append(f"{view.name}\n", style="dim")
        line.append(f"{view.where} · ", style="bold")
        if view.pools:
            line.append(f"{view.pools} · ", style="bold")
        line.append(f"{who}'s turn" if who else "waiting", style="bold reverse" if who else "italic")
        if view.fight_odds:
            line.append(f" · {view.fight_odds}")
        self.query_one("#active-name", Static).update(line)
        # The same table as the GM's order: it re-measures on every update and never cuts a cell silently.
        columns, rows = players_order(view)
        self.query_one(OrderTable).set_rows(columns, rows, who)
        notes = self.query_one("#player-notes", Static)
        notes.update("\n".join(view.notes))
        notes.display = bool(view.notes)
        prompt = self.query_one("#player-prompt", Static)
        prompt.update(f"? {view.prompt}" if view.prompt else "")
        prompt.display = bool(view.prompt)

    def _local_odds(self, app: Host) -> str:
        """On the GM's box (`tracker view --player` by the file's owner) the screen works out the players' line
        itself, from what they know, where the GM lets them see it; over the table it comes with the view."""
        session = getattr(app, "session", None)
        if session is None or not session.rules.fight_odds_for_players():
            return ""
        from tracker.ui import fight_odds

        line = fight_odds.players_line_of(self, self.show)
        line.ask(session, self.revision)
        return line.text

    def on_unmount(self) -> None:
        from tracker.ui import fight_odds

        line = getattr(self, "_fight_odds_players", None)
        if isinstance(line, fight_odds.FightOddsLine):
            line.close()

    def on_order_table_legend(self, message: OrderTable.Legend) -> None:
        legend = self.query_one("#player-legend", Static)
        legend.update(message.text)
        legend.display = bool(message.text)


def players_order(view: PlayerView, mine: Collection[str] = ()) -> tuple[tuple[str, ...], list[OrderRow]]:
    """The order table's columns and rows for the players' view; `mine`: a seat's own characters, marked ★
    (`tracker play`). The Zone column only where someone stands in a zone."""
    zones = any(row.zone for row in view.rows)
    columns = ("▶", "Name", *(("Zone",) if zones else ()), "Status", "Health", "Conditions")
    rows = [
        OrderRow(
            row.name,
            (
                "▶" if row.active else ("✓" if row.acted else ""),
                row.name + (" ★" if row.name in mine else ""),
                *((row.zone or "",) if zones else ()),
                status_text(row.status),
                row.health,
            ),
            row.status in ("dead", "unconscious", "defeated"),
            row.tags,
        )
        for row in view.rows
    ]
    return columns, rows
