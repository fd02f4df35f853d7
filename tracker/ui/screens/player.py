"""The player's screen: the order, conditions and the active turn in large type, nothing GM-only.

It reads only the family's `player_view` (a typed `PlayerView`), so whatever is hidden never reaches a widget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import DataTable, Digits, Footer, Static

from tracker.rules.words import condition_list, status_text

if TYPE_CHECKING:
    from tracker.ui.app import TrackerApp


class PlayerScreen(Screen[None]):
    """Read-only; follows the file through the app's watcher like the GM viewer."""

    BINDINGS = [
        Binding("t", "cycle_theme", "Theme", id="player.theme"),
        Binding("q", "app.quit", "Quit", id="player.quit"),
    ]
    DEFAULT_CSS = """
    PlayerScreen #player-top { height: auto; background: $primary 25%; padding: 0 1; }
    PlayerScreen #round-digits { width: auto; margin-right: 2; }
    PlayerScreen #active-name { width: 1fr; content-align: left middle; text-style: bold; height: 3; }
    PlayerScreen DataTable { height: 1fr; }
    PlayerScreen #player-prompt { height: auto; padding: 0 1; background: $warning 20%; }
    PlayerScreen.-short #round-digits { display: none; }
    """
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]

    #: Bumped by the app after every change of the file; the screen then asks for the player view.
    revision = var(0)

    def compose(self) -> ComposeResult:
        yield Static("PLAYER VIEW", id="player-label")
        with Horizontal(id="player-top"):
            yield Digits("0", id="round-digits")
            yield Static(id="active-name")
        table: DataTable[Any] = DataTable(id="player-table", cursor_type="none", zebra_stripes=True)
        yield table
        yield Static(id="player-prompt")
        yield Footer()

    def on_mount(self) -> None:
        self._rows: dict[str, tuple[Any, ...]] = {}
        self._columns: tuple[str, ...] = ()
        self.show()

    def watch_revision(self) -> None:
        if self.is_mounted:
            self.show()

    def show(self) -> None:
        app = cast("TrackerApp", self.app)
        view = app.session.engine.player_view()
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
        self.query_one("#active-name", Static).update(line)
        table: DataTable[Any] = self.query_one(DataTable)
        zones = any(row.zone for row in view.rows)
        columns = ("▶", "Name", *(("Zone",) if zones else ()), "Status", "Health", "Conditions")
        if columns != self._columns:  # a zone appeared (or the file changed family): rebuild once
            table.clear(columns=True)
            for col in columns:
                table.add_column(col, key=col)
            self._columns, self._rows = columns, {}
        seen = set()
        for row in view.rows:
            name = row.name
            seen.add(name)
            cells = (
                "▶" if row.active else ("✓" if row.acted else ""),
                Text(name, style="bold" if row.active else ""),
                *((row.zone or "",) if zones else ()),
                status_text(row.status),
                row.health,
                condition_list(dict(row.conditions), 60),
            )
            old = self._rows.get(name)
            if old is None:
                table.add_row(*cells, key=name)
            else:
                for col, before, after in zip(columns, old, cells, strict=True):
                    if before != after:
                        # Re-measure the column: a longer value ("✚ dying", ", 1 Harm") must not be cut.
                        table.update_cell(name, col, after, update_width=True)
            self._rows[name] = cells
        for name in list(self._rows):
            if name not in seen:
                table.remove_row(name)
                del self._rows[name]
        order = [r.name for r in view.rows]
        if order != getattr(self, "_order", None):
            table.sort("Name", key=lambda cell: order.index(str(cell)) if str(cell) in order else len(order))
            self._order = order
        prompt = self.query_one("#player-prompt", Static)
        prompt.update(f"? {view.prompt}" if view.prompt else "")
        prompt.display = bool(view.prompt)

    def action_cycle_theme(self) -> None:
        cast("TrackerApp", self.app).cycle_theme()
