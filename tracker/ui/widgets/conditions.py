"""Conditions of the selected (or active) combatant, with what each will do and when."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from tracker.rules.session import Session
from tracker.ui.present import timing
from tracker.ui.widgets.base import Panel


class ConditionsPanel(Panel):
    DEFAULT_CSS = "ConditionsPanel { overflow-y: auto; }"

    def compose(self) -> ComposeResult:
        yield Static(id="conditions-body")

    def show(self, session: Session) -> None:
        body = self.query_one("#conditions-body", Static)
        who = self.focus_name()
        if who is None:
            self.put(body, Text("Select a combatant in the order (↑/↓).", style="italic"))
            return
        conditions = dict(session.state.fighters[who].conditions)
        out = Text()
        out.append(f"{who}\n", style="bold")
        if not conditions:
            out.append("No conditions.\n", style="italic")
        for key, value in conditions.items():
            label = key.replace("_", " ").title() + ("" if value is True else f" +{value}")
            out.append(f"{label:<18}", style="bold")
            out.append(timing(session.system, key, value) + "\n")
        out.append("\ni: the rule in our words", style="dim")
        self.put(body, out)
