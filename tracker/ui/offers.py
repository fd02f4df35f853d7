"""What the GM screen offers now, decided in one place (docs/architecture/index.md): which of its keys
apply (the footer, ``?`` help and Textual's `check_action` ask `allows`) and which entries the command
palette lists (`offers`).

Before `start` there is no "end the turn"; while a prompt waits, its answers come first; undo and redo
appear only when there is something to undo or redo; a read-only view offers nothing that changes the
encounter. The GM's verbs (damage, move, the pools, end …) come from the family's command table and its
capability flags, so each family offers only its own, with no "which system?" question asked here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tracker.families.session import Session
    from tracker.present.view import EncounterView, PromptView

#: (title, help, callback): one palette entry.
Offer = tuple[str, str, Callable[[], object]]

#: Keys that change the encounter: a read-only view refuses them.
GM_ONLY_ACTIONS = {
    "next_turn",
    "undo",
    "redo",
    "spend",
    "prefill",
    "pool",
    "command",
    "answer",
    "answer_first",
    "join",
    "decide",
}
#: Verbs offered as "Damage…", "Move to a zone…": the command line opens prefilled.
PREFILLED = ("damage", "heal", "add", "remove", "move")
#: Verbs offered as "+1" steps of a pool.
POOLS = (("momentum", "the group pool"), ("threat", "the GM's pool"))


@runtime_checkable
class Offering(Protocol):
    """The screen whose keys and palette entries are decided here, and the actions the entries run."""

    read_only: bool

    @property
    def session(self) -> Session: ...

    @property
    def typing(self) -> bool:
        """The command line has the keyboard (Enter runs the typed line, not the first answer)."""
        ...

    @property
    def view(self) -> EncounterView | None: ...

    def run_line(self, line: str) -> None: ...

    def action_spend(self) -> None: ...

    def action_prefill(self, verb: str) -> None: ...

    def action_join(self) -> None: ...

    def action_help(self) -> None: ...

    def action_cycle_theme(self) -> None: ...


def _prompt(screen: Offering) -> PromptView | None:
    """The question waiting for its answer, as the screen shows it."""
    return screen.view.prompt if screen.view else None


def allows(screen: Offering, action: str, parameters: tuple[object, ...]) -> bool | None:
    """Whether a key's action applies now: True shown and usable, None shown greyed out, False hidden."""
    if screen.read_only and action in GM_ONLY_ACTIONS:
        return False
    session = screen.session
    family = session.family
    if action == "pool" and (not parameters or str(parameters[0]) not in family.capabilities.stepped_pools):
        return False  # no such pool in this family (a TTB fight has neither Momentum nor a GM pool)
    if action == "prefill" and parameters and str(parameters[0]) not in family.verbs:
        return False  # a verb this family does not have (move in a TTB fight)
    st = session.rules.state
    if action == "answer":
        shown = _prompt(screen)
        return shown is not None and int(str(parameters[0])) <= len(shown.answers)
    if action == "answer_first":
        # Enter takes the tracker's default (option 1) while a question waits and nothing is being typed;
        # otherwise the key goes on to the focused widget (the command line, the order table).
        shown = _prompt(screen)
        return shown is not None and bool(shown.answers) and not screen.typing
    if action == "spend":
        return st.active is not None or None
    if action == "decide":
        return bool(st.requests)  # a player's request waits (shown only then, even while a question waits)
    if action == "join":
        return bool(session.rules.choices("block"))  # nothing to join from without stat blocks
    if action == "undo":
        return bool(session.history.commands) or None
    if action == "redo":
        return bool(session.history.undone) or None
    return True


def keys_signature(screen: Offering, view: EncounterView) -> tuple[object, ...]:
    """What `allows` depends on that a new view can change: the footer is rebuilt only when the set of
    usable keys can have changed."""
    history = screen.session.history
    return (
        view.phase,
        view.header.active is None,
        view.prompt,
        bool(history.commands),
        bool(history.undone),
        bool(view.requests),
    )


def offers(screen: Offering) -> list[Offer]:
    """(title, help, callback) for every palette entry that applies to the current state."""
    general: list[Offer] = [
        ("Help", "every key and command", screen.action_help),
        ("Cycle theme", "switch to the next theme", screen.action_cycle_theme),
    ]
    if screen.read_only:
        return general
    session = screen.session
    verbs = session.family.verbs
    st = session.rules.state
    prompt = _prompt(screen)
    run = screen.run_line
    out: list[Offer] = []
    for request in st.requests:
        said = f"{request.seat} ({request.as_}): {request.command}"
        out.append((f"Approve #{request.id}", said, partial(run, f"approve {request.id}")))
        out.append((f"Deny #{request.id}", said, partial(run, f"deny {request.id}")))
    if prompt is not None:
        for option, line in zip(prompt.options, prompt.answers, strict=True):
            out.append((f"Answer: {option}", prompt.question, partial(run, line)))
    elif st.phase in ("setup", "ended"):
        out.append(("Start the fight", "start: initiative and the first turn", partial(run, "start")))
    elif st.active is not None:
        out.append(("End the turn", f"next: end {st.active}'s turn", partial(run, "next")))
        out.append(("Spend…", f"pick an action for {st.active}", screen.action_spend))
    if st.phase != "setup" and prompt is None:
        for verb in PREFILLED:
            spec = verbs.get(verb)
            if spec is not None and spec.title and allows(screen, "prefill", (verb,)):
                out.append((spec.title, spec.help, partial(screen.action_prefill, verb)))
        for verb, text in POOLS:
            if verb in verbs and allows(screen, "pool", (verb, 1)):
                out.append((f"{verb.title()} +1", text, partial(run, f"{verb} +1 GM")))
        end = verbs.get("end")
        if st.phase != "ended" and end is not None:
            out.append((end.title, end.help, partial(run, "end")))
    join, leave = verbs.get("join"), verbs.get("leave")
    if prompt is None and join is not None and allows(screen, "join", ()):
        out.append((join.title, join.help, screen.action_join))
    if prompt is None and leave is not None:
        out.append((leave.title, leave.help, partial(screen.action_prefill, "leave")))
    if allows(screen, "undo", ()):
        out.append(("Undo", f"undo: {session.history.commands[-1]}", partial(run, "undo")))
    if allows(screen, "redo", ()):
        out.append(("Redo", f"redo: {session.history.undone[-1]}", partial(run, "redo")))
    return out + general
