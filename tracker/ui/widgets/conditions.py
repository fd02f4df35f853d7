"""Conditions of the selected (or active) combatant, with what each will do and when."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.reactive import var

from tracker.present.view import ConditionNote
from tracker.ui.widgets.base import Panel
from tracker.ui.widgets.panel_text import PanelText


class ConditionsPanel(Panel):
    DEFAULT_CSS = "ConditionsPanel { overflow-y: auto; }"

    #: Whom the panel speaks about (the selection, else the active combatant).
    subject: var[str | None] = var(None)
    #: That combatant's conditions as the family explains them.
    notes: var[tuple[ConditionNote, ...]] = var(())

    def compose(self) -> ComposeResult:
        yield PanelText(id="conditions-body")

    def watch_subject(self) -> None:
        self.redraw()

    def watch_notes(self) -> None:
        self.redraw()

    def draw(self) -> None:
        body = self.query_one("#conditions-body", PanelText)
        if self.subject is None:
            self.put(body, Text("Select a combatant in the order (↑/↓).", style="italic"))
            return
        out = Text()
        out.append(f"{self.subject}\n", style="bold")
        if not self.notes:
            out.append("No conditions.\n", style="italic")
        for note in self.notes:
            out.append(f"{note.label:<18}", style="bold")
            out.append(note.timing + "\n")
        out.append("\ni: the rule in our words", style="dim")
        self.put(body, out)
