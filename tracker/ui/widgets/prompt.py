"""The prompt bar: the question the rules are waiting on, each possible answer on a number key."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.reactive import var
from textual.widgets import Static

from tracker.rules.view import PromptView
from tracker.ui.widgets.base import Panel


class PromptBar(Panel):
    DEFAULT_CSS = """
    PromptBar { height: auto; max-height: 4; background: $warning 20%; padding: 0 1; }
    PromptBar.-idle { background: $panel; }
    """

    #: The pending question, or None.
    prompt: var[PromptView | None] = var(None)

    def compose(self) -> ComposeResult:
        yield Static(id="prompt-body")

    def watch_prompt(self) -> None:
        self.redraw()

    def draw(self) -> None:
        prompt = self.prompt
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
        if prompt.hint:
            out.append(f"  {prompt.hint}", style="dim")
        self.put(body, out)
