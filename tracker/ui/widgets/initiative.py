"""The initiative order: who acts, who has acted, statuses, wounds or stress, AP, conditions.

Rows are keyed by name and updated cell by cell; the order column is re-sorted only when the order
itself changes (ARCHITECTURE.md practice 9: never clear and refill).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Static

from tracker.rules.session import Session
from tracker.ui.present import condition_list, pips, status_text
from tracker.ui.widgets.base import Panel
from tracker.ui.widgets.order_table import OrderTable

TTB_COLUMNS = ("▶", "Name", "Init", "Rank", "Status", "Wounds", "AP", "Conditions")
TWOD20_COLUMNS = ("▶", "Name", "Side", "Zone", "Status", "Stress", "Harms", "Conditions")


class InitiativePanel(Panel):
    """The order of the round, as a table the GM can move through to select a combatant."""

    DEFAULT_CSS = """
    InitiativePanel > #round-line { height: 1; padding: 0 1; text-style: bold; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="round-line")
        yield OrderTable(id="order-table")

    def show(self, session: Session) -> None:
        data = self.data()
        columns = TTB_COLUMNS if data["system"] == "ttb" else TWOD20_COLUMNS
        order = list(data["order"])
        rest = [c["name"] for c in data["combatants"] if c["name"] not in order]
        rows = {c["name"]: self._row(data, c) for c in data["combatants"]}
        down = {c["name"] for c in data["combatants"] if c["status"] in ("dead", "unconscious", "defeated")}
        self.query_one(OrderTable).set_rows(columns, order + rest, rows, data["active"], down)
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
            if data["kept_by"]:
                parts.append(f"{data['kept_by']} kept last: an enemy acts before they keep again")
        if data.get("phase") == "ended":
            parts.append("ended")
        return " · ".join(parts)

    def _row(self, data: dict[str, Any], c: dict[str, Any]) -> tuple[str, ...]:
        active = data["active"] == c["name"]
        mark = "▶" if active else ("✓" if c["acted"] else "")
        status = status_text(c["status"])
        conds = condition_list(c["conditions"], 48)
        if data["system"] == "ttb":
            ap = f"{pips(c['ap'], 2)} {pips(c['combat_ap'], 1)}" if active else ""
            rank_text = "Fated" if c["kind"] == "fated" else str(c.get("rank") or "")
            init = str(c["initiative"])
            if c["initiative_change"]:
                init += f"→{c['initiative'] + c['initiative_change']}"  # Pass/Wait from next round
            if c["name"] in data["tied"]:
                init += " ="  # tied: the table decides each round
            return (mark, c["name"], init, rank_text, status, f"{c['wounds']}/{c['wounds_max']}", ap, conds)
        stress = " ".join(f"{v}/{c['stress_max'][t]}" for t, v in c["stress"].items())
        harms = " ".join(f"{k[0].upper()}{v}" for k, v in c["harms"].items() if v)
        return (mark, c["name"], c["side"], c["zone"] or "", status, stress, harms, conds)
