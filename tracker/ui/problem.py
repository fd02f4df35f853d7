"""The app a browser tab shows when its screen could not open (`tracker serve`).

Kept out of `tracker.ui.app`: only a served `tracker run` or `tracker view` that fails needs it.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static


class ProblemApp(App[None]):
    """A browser tab whose screen could not open (`tracker serve`): the problem, shown where the table
    is looking; a served process's stderr reaches only the server's console, and only when it ends."""

    TITLE = "tracker"
    BINDINGS = [Binding("q", "quit", "Quit", id="problem.quit")]
    DEFAULT_CSS = """
    #problem { margin: 1 2; padding: 1 2; border: thick $error; height: auto; }
    """

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        text = "\n".join([*self.lines, "", "Fix it, then reload the page. (q quits)"])
        yield Static(text, id="problem", markup=False)
