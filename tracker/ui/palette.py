"""The command palette offers only what makes sense now (ARCHITECTURE.md practice 8).

Before `start` there is no "end the turn"; while a prompt waits, its answers come first; undo and
redo appear only when there is something to undo or redo.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider


def offers(screen: Any) -> list[tuple[str, str, Callable[[], Any]]]:
    """(title, help, callback) for every command that applies to the current state."""
    app = screen.app
    session = app.session
    st = session.state
    out: list[tuple[str, str, Callable[[], Any]]] = []
    if screen.read_only:
        return [
            ("Help", "every key and command", screen.action_help),
            ("Cycle theme", "switch to the next theme", screen.action_cycle_theme),
        ]
    if st.prompt is not None:
        from tracker.ui.widgets.prompt import answer_line

        for option in st.prompt.options:
            line = answer_line(session, option)
            out.append((f"Answer: {option}", st.prompt.question, partial(screen.run_line, line)))
    elif st.phase in ("setup", "ended"):
        out.append(("Start the fight", "start: initiative and the first turn", partial(screen.run_line, "start")))
    elif st.active is not None:
        out.append(("End the turn", f"next: end {st.active}'s turn", partial(screen.run_line, "next")))
        out.append(("Spend…", f"pick an action for {st.active}", screen.action_spend))
    if st.phase not in ("setup",) and st.prompt is None:
        out.append(("Damage…", "damage the selected combatant", partial(screen.action_prefill, "damage")))
        out.append(("Heal…", "heal the selected combatant", partial(screen.action_prefill, "heal")))
        out.append(("Add a condition…", "add a condition", partial(screen.action_prefill, "add")))
        out.append(("Remove a condition…", "remove a condition", partial(screen.action_prefill, "remove")))
        if session.system == "2d20":
            out.append(("Move to a zone…", "move the selected combatant", partial(screen.action_prefill, "move")))
            out.append(("Momentum +1", "the group pool", partial(screen.run_line, "momentum +1 GM")))
            out.append(("Threat +1", "the GM's pool", partial(screen.run_line, "threat +1 GM")))
        if st.phase != "ended":
            out.append(
                (
                    "End Dramatic Time" if session.system == "ttb" else "End the scene",
                    "end",
                    partial(screen.run_line, "end"),
                )
            )
    if session.history.commands:
        out.append(("Undo", f"undo: {session.history.commands[-1]}", partial(screen.run_line, "undo")))
    if session.history.undone:
        out.append(("Redo", f"redo: {session.history.undone[-1]}", partial(screen.run_line, "redo")))
    out.append(("Help", "every key and command", screen.action_help))
    out.append(("Cycle theme", "switch to the next theme", screen.action_cycle_theme))
    return out


class TrackerCommands(Provider):
    """Palette entries built from `offers` each time the palette opens."""

    async def discover(self) -> Hits:
        for title, text, callback in offers(self.screen):
            yield DiscoveryHit(title, callback, help=text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, text, callback in offers(self.screen):
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=text)
