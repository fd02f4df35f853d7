"""A bare Textual app with the same kinds of widgets as the GM screen and nothing behind them.

The yardstick of bench_startup: a DataTable of N rows, a few Statics, a RichLog, Header and Footer.
`n` rewrites one table cell ("tick 1", "tick 2" …), the least a keypress can repaint.
Run by the bench as its own process: python bench/bare_app.py [rows]
"""

from __future__ import annotations

import sys
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.widgets import DataTable, Footer, Header, RichLog, Static

COLUMNS = ("▶", "Name", "Init", "Rank", "Status", "Wounds", "AP", "Conditions")


class BareApp(App[None]):
    """Header, a table of `rows` fighters beside a side panel, a log strip and the footer."""

    TITLE = "Bare brawl"
    BINDINGS = [("n", "tick", "Next"), ("q", "quit", "Quit")]

    def __init__(self, rows: int) -> None:
        super().__init__()
        self.rows = rows
        self.ticks = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            table: DataTable[Any] = DataTable(id="order")
            yield table
            with Vertical():
                yield Static("Turn", id="turn")
                yield Static("Conditions", id="conditions")
                yield Static("Melee", id="melee")
        yield RichLog(id="log")
        yield Static("prompt", id="prompt")
        yield Footer()

    def on_mount(self) -> None:
        table: DataTable[Any] = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        for i in range(self.rows):
            table.add_row("", f"Fighter {i:03d}", str(i % 5), "Minion", "● ok", "6/6", "", "dazed", key=str(i))
        self.query_one(RichLog).write("Round 1 begins")

    def action_tick(self) -> None:
        self.ticks += 1
        table: DataTable[Any] = self.query_one(DataTable)
        table.update_cell_at(Coordinate(0, 7), f"tick {self.ticks}")


if __name__ == "__main__":
    BareApp(int(sys.argv[1]) if len(sys.argv) > 1 else 20).run()
