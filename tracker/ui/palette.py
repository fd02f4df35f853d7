"""The command palette offers only what makes sense now (ARCHITECTURE.md practice 8).

Before `start` there is no "end the turn"; while a prompt waits, its answers come first; undo and
redo appear only when there is something to undo or redo. The entries for the GM's verbs (damage,
move, the pools, end …) come from the family's command table, so each family offers only its own.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from tracker.ui.screens.main import TrackerScreen

Offer = tuple[str, str, Callable[[], object]]

#: Verbs offered as "Damage…", "Move to a zone…": the command line opens prefilled.
PREFILLED = ("damage", "heal", "add", "remove", "move")
#: Verbs offered as "+1" steps of a pool.
POOLS = (("momentum", "the group pool"), ("threat", "the GM's pool"))


def offers(screen: TrackerScreen) -> list[Offer]:
    """(title, help, callback) for every command that applies to the current state."""
    session = screen.session
    verbs = session.family.verbs
    st = session.rules.state
    prompt = screen.view.prompt if screen.view else None
    out: list[Offer] = []
    if screen.read_only:
        return [
            ("Help", "every key and command", screen.action_help),
            ("Cycle theme", "switch to the next theme", screen.action_cycle_theme),
        ]
    if prompt is not None:
        for option, line in zip(prompt.options, prompt.answers, strict=True):
            out.append((f"Answer: {option}", prompt.question, partial(screen.run_line, line)))
    elif st.phase in ("setup", "ended"):
        out.append(("Start the fight", "start: initiative and the first turn", partial(screen.run_line, "start")))
    elif st.active is not None:
        out.append(("End the turn", f"next: end {st.active}'s turn", partial(screen.run_line, "next")))
        out.append(("Spend…", f"pick an action for {st.active}", screen.action_spend))
    if st.phase != "setup" and prompt is None:
        for verb in PREFILLED:
            spec = verbs.get(verb)
            if spec is not None and spec.title:
                out.append((spec.title, spec.help, partial(screen.action_prefill, verb)))
        for verb, text in POOLS if session.family.capabilities.pools else ():
            if verb in verbs:
                out.append((f"{verb.title()} +1", text, partial(screen.run_line, f"{verb} +1 GM")))
        end = verbs.get("end")
        if st.phase != "ended" and end is not None:
            out.append((end.title, end.help, partial(screen.run_line, "end")))
    join, leave = verbs.get("join"), verbs.get("leave")
    if prompt is None and join is not None and session.rules.choices("block"):
        out.append((join.title, join.help, screen.action_join))
    if prompt is None and leave is not None:
        out.append((leave.title, leave.help, partial(screen.action_prefill, "leave")))
    if session.history.commands:
        out.append(("Undo", f"undo: {session.history.commands[-1]}", partial(screen.run_line, "undo")))
    if session.history.undone:
        out.append(("Redo", f"redo: {session.history.undone[-1]}", partial(screen.run_line, "redo")))
    out.append(("Help", "every key and command", screen.action_help))
    out.append(("Cycle theme", "switch to the next theme", screen.action_cycle_theme))
    return out


class TrackerCommands(Provider):
    """Palette entries built from `offers` each time the palette opens."""

    def _offers(self) -> list[Offer]:
        from tracker.ui.screens.main import TrackerScreen

        return offers(self.screen) if isinstance(self.screen, TrackerScreen) else []

    async def discover(self) -> Hits:
        for title, text, callback in self._offers():
            yield DiscoveryHit(title, callback, help=text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, text, callback in self._offers():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=text)
