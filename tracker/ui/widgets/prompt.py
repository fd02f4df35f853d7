"""The prompt bar: the question the rules are waiting on, each possible answer on a number key."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from tracker.rules.session import Session
from tracker.ui.widgets.base import Panel


def answer_line(session: Session, option: str) -> str:
    """The command one prompt option stands for: `answer` for TTB, `pick` for the 2d20 hand-over."""
    prompt = session.state.prompt
    if prompt is not None and prompt.kind in ("pick", "round"):
        return f"pick '{option}'"
    return f"answer '{option}'" if " " in option else f"answer {option}"


class PromptBar(Panel):
    DEFAULT_CSS = """
    PromptBar { height: auto; max-height: 4; background: $warning 20%; padding: 0 1; }
    PromptBar.-idle { background: $panel; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="prompt-body")

    def show(self, session: Session) -> None:
        prompt = session.state.prompt
        body = self.query_one("#prompt-body", Static)
        self.set_class(prompt is None, "-idle")
        if prompt is None:
            self.put(body, Text("No question pending · n next · s spend · d damage · : command · ? help", style="dim"))
            return
        out = Text()
        out.append("? ", style="bold")
        out.append(prompt.question + "\n", style="bold")
        # Options are packed line by line so a name never breaks across two lines.
        width = max(20, self.size.width - 2)
        used = 0
        for i, option in enumerate(prompt.options[:9], 1):
            chunk = len(f" {i}   {option}  ")
            if used and used + chunk > width:
                out.append("\n")
                used = 0
            out.append(f" {i} ", style="reverse")
            out.append(f" {option}  ")
            used += chunk
        if prompt.kind in ("critical", "suffocating_flip", "hazard_flip", "hand_discard", "discard"):
            out.append("  or type a card: answer 9R", style="dim")
        if "keep NAME" in prompt.question:
            out.append("  (type keep NAME to keep the initiative)", style="dim")
        self.put(body, out)
