"""The log: every event, grouped by round and turn, automatic effects included.

It appends only the lines written since it last looked (the state counts every line ever logged),
into a `RichLog` with a line limit (ARCHITECTURE.md practice 9).
"""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import RichLog

from tracker.rules.log import LogEntry
from tracker.rules.session import Session
from tracker.ui.widgets.base import Panel


class LogPanel(Panel):
    DEFAULT_CSS = "LogPanel > RichLog { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield RichLog(max_lines=2000, wrap=True, markup=False)

    def on_mount(self) -> None:
        self._seen = 0
        #: (round, actor) of the last entry shown: a new pair starts a new heading.
        self._group: tuple[int, str | None] | None = None
        super().on_mount()

    def show(self, session: Session) -> None:
        st = session.state
        view = self.query_one(RichLog)
        if st.logged < self._seen:  # an undo went back: start again from what the state keeps
            view.clear()
            self._seen = st.logged - len(st.log)
            self._group = None
        new = st.logged - self._seen
        if new <= 0:
            return
        parts: list[Text | Padding] = []
        entry: LogEntry
        for entry in st.log[-new:] if new <= len(st.log) else st.log:
            if (entry.round, entry.actor) != self._group:
                self._group = (entry.round, entry.actor)
                title = f"Round {entry.round}" + (f" · {entry.actor}" if entry.actor else "")
                if entry.round != 0:
                    parts.append(Text(title, style="bold underline"))
            # Padding keeps wrapped lines indented under their event; the table's questions stand apart.
            style = "italic" if entry.kind == "prompt" else ""
            parts.append(Padding(Text(entry.text, style=style), (0, 0, 0, 2)))
        view.write(Group(*parts))  # one write: one refresh of the log however many lines came
        self._seen = st.logged
