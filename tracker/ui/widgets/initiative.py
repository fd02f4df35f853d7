"""The initiative order: who acts, who has acted, statuses, wounds or stress, AP, conditions.

Rows are keyed by name and updated cell by cell; the order column is re-sorted only when the order
itself changes (ARCHITECTURE.md practice 9: never clear and refill).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import DataTable, Static

from tracker.rules.session import Session
from tracker.ui.present import condition_list, pips, status_text
from tracker.ui.widgets.base import Panel

TTB_COLUMNS = ("▶", "Name", "Init", "Rank", "Status", "Wounds", "AP", "Conditions")
TWOD20_COLUMNS = ("▶", "Name", "Side", "Zone", "Status", "Stress", "Harms", "Conditions")


class InitiativePanel(Panel):
    """The order of the round, as a table the GM can move through to select a combatant."""

    DEFAULT_CSS = """
    InitiativePanel > #round-line { height: 1; padding: 0 1; text-style: bold; }
    InitiativePanel > DataTable { height: 1fr; }
    """

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(id="round-line")
        table: DataTable[Any] = DataTable(id="order-table", cursor_type="row", zebra_stripes=True)
        yield table

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        columns = TTB_COLUMNS if self.session().system == "ttb" else TWOD20_COLUMNS
        for col in columns:
            table.add_column(col, key=col)
        self._rows: dict[str, tuple[Any, ...]] = {}
        self._order: list[str] = []
        super().on_mount()

    def show(self, session: Session) -> None:
        data = self.data()
        table: DataTable[Any] = self.query_one(DataTable)
        columns = TTB_COLUMNS if data["system"] == "ttb" else TWOD20_COLUMNS
        order = list(data["order"])
        rest = [c["name"] for c in data["combatants"] if c["name"] not in order]
        ranking = {name: i for i, name in enumerate(order + rest)}
        for c in data["combatants"]:
            row = self._row(data, c, ranking[c["name"]])
            name = c["name"]
            old = self._rows.get(name)
            if old is None:
                table.add_row(*row, key=name)
            else:
                for col, before, after in zip(columns, old, row, strict=True):
                    if before != after:
                        table.update_cell(name, col, after)
            self._rows[name] = row
        if order + rest != self._order:
            table.sort("Name", key=lambda name: ranking.get(str(name), len(ranking)))
            self._order = order + rest
        line = self._round_line(data)
        if line != getattr(self, "_line", None):  # one fixed line: no layout needed
            self._line = line
            self.query_one("#round-line", Static).update(line, layout=False)

    def _round_line(self, data: dict[str, Any]) -> str:
        if data["phase"] == "setup":
            return "Not started: press n to start"
        parts = [f"Round {data['round']}"]
        if data["active"]:
            parts.append(f"{data['active']} acts")
        if data["system"] == "2d20":
            waiting = [c["name"] for c in data["combatants"] if not c["acted"] and c["status"] not in ("dead",)]
            parts.append(f"{len(waiting)} still to act")
        if data.get("phase") == "ended":
            parts.append("ended")
        return " · ".join(parts)

    def _row(self, data: dict[str, Any], c: dict[str, Any], rank: int) -> tuple[Any, ...]:
        active = data["active"] == c["name"]
        mark = "▶" if active else ("✓" if c["acted"] else "")
        name = Text(c["name"], style="bold" if active else "")
        status = status_text(c["status"])
        conds = condition_list(c["conditions"])
        if data["system"] == "ttb":
            ap = f"{pips(c['ap'], 2)} {pips(c['combat_ap'], 1)}" if active else ""
            rank_text = "Fated" if c["kind"] == "fated" else str(c.get("rank") or "")
            return (mark, name, str(c["initiative"]), rank_text, status,
                    f"{c['wounds']}/{c['wounds_max']}", ap, conds)
        stress = " ".join(f"{v}/{c['stress_max'][t]}" for t, v in c["stress"].items())
        harms = " ".join(f"{k[0].upper()}{v}" for k, v in c["harms"].items() if v)
        return (mark, name, c["side"], c["zone"] or "", status, stress, harms, conds)
