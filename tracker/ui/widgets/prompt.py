"""The prompt bar: the question the rules are waiting on, each possible answer on a number key.

Every option must be visible (a GM cannot press 5 for an option hidden under the command line), so the
bar grows with its options, packed to its width and packed again when the width changes. A read-only view
shows no GM keys in it: the title already says the view is read-only.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.reactive import var

from tracker.present.view import PromptView
from tracker.ui.widgets.base import Panel
from tracker.ui.widgets.panel_text import PanelText


class PromptBar(Panel):
    #: Born idle (no question is the usual start), so drawing the idle bar restyles nothing.
    DEFAULT_CLASSES = "-idle"
    DEFAULT_CSS = """
    PromptBar { height: auto; max-height: 12; background: $warning 20%; padding: 0 1; }
    PromptBar.-idle { background: $panel; }
    """

    #: The pending question, or None.
    prompt: var[PromptView | None] = var(None)
    #: A viewer's bar: no GM keys in the idle text.
    read_only: var[bool] = var(False)
    #: The keys the idle bar names (a player's own screen has its own: `tracker.ui.screens.play`).
    idle_keys: var[str] = var(" · n next · s spend · d damage · : command · ? help")

    def compose(self) -> ComposeResult:
        yield PanelText(id="prompt-body")

    def watch_prompt(self) -> None:
        self.redraw()

    def watch_read_only(self) -> None:
        self.redraw()

    def watch_idle_keys(self) -> None:
        self.redraw()

    def on_resize(self) -> None:
        """The options are packed to the width: pack them again when it changes (and once it is known)."""
        if self.prompt is not None:
            self.redraw()

    def draw(self) -> None:
        prompt = self.prompt
        body = self.query_one("#prompt-body", PanelText)
        self.set_class(prompt is None, "-idle")
        if prompt is None:
            keys = "" if self.read_only else self.idle_keys
            self.put(body, Text(f"No question pending{keys}", style="dim"))
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
