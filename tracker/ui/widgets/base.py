"""What every panel shares: it follows the screen's `revision` and redraws from the session.

The screen bumps `revision` after each accepted command (or each file change a viewer sees); panels
are bound to it with `data_bind`, so one reactive drives every panel and nothing is kept in sync by hand.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.reactive import var
from textual.widgets import Static, TabPane

if TYPE_CHECKING:
    from tracker.rules.session import Session


class Panel(Vertical):
    """A panel: `show(session)` runs whenever the bound `revision` or `selected` changes."""

    #: Bumped by the screen after every accepted command.
    revision = var(0)
    #: The combatant the GM has selected in the order table (None: the active one).
    selected: var[str | None] = var(None)

    def session(self) -> Session:
        return self.app.session  # type: ignore[attr-defined, no-any-return]

    def data(self) -> dict[str, Any]:
        """The JSON state of this revision, computed once for all panels by the app."""
        return self.app.snapshot()  # type: ignore[attr-defined, no-any-return]

    def focus_name(self) -> str | None:
        """The selected combatant, else the active one."""
        st = self.session().state
        return self.selected or st.active

    def watch_revision(self) -> None:
        self._redraw()

    def watch_selected(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        if not self.is_mounted or self.app.session is None:  # type: ignore[attr-defined]
            return
        if self._hidden():
            # A panel in a tab that is not showing costs a layout for nothing: it catches up when shown.
            self._stale = True
            return
        self._stale = False
        # Bound reactives can fire before the panel's children are composed; on_mount redraws then.
        with contextlib.suppress(NoMatches):
            self.show(self.session())

    def _hidden(self) -> bool:
        node = self.parent
        while node is not None:
            if isinstance(node, TabPane) and not node.display:
                return True
            node = node.parent
        return not self.display

    def put(self, static: Static, content: Text) -> None:
        """Update a Static; skip the screen-wide layout when the text keeps its number of lines."""
        lines = content.plain.count("\n")
        same = getattr(static, "_tracker_lines", None) == lines
        static._tracker_lines = lines  # type: ignore[attr-defined]
        static.update(content, layout=not same)

    def catch_up(self) -> None:
        if getattr(self, "_stale", False):
            self._stale = False
            with contextlib.suppress(NoMatches):
                self.show(self.session())

    def on_mount(self) -> None:
        self._redraw()

    def show(self, session: Session) -> None:
        """Redraw from the session's state; every panel overrides it."""
