"""When the GM screen's actions apply and what the command palette offers for each (docs/architecture/index.md):
the `when` and `offer` halves of the actions listed in `tracker.ui.screens.bindings`.

Before `start` there is no "end the turn"; while a prompt waits, its answers come first; undo and redo
appear only when there is something to undo or redo; a read-only view offers nothing that changes the
encounter (the actions marked `changes`). The GM's verbs (damage, move, the pools, end …) come from the
family's command table and its capability flags, so each family offers only its own, with no "which
system?" question asked here.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from tracker.ui.actions import Offer

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracker.families.session import Session
    from tracker.present.view import EncounterView, PromptView
    from tracker.ui.actions import Actions

__all__ = ["Offer", "Offering", "keys_signature", "offers"]

#: Verbs offered as "+1" steps of a pool, with what the palette says of each.
POOLS = {"momentum": "the group pool", "threat": "the GM's pool"}


@runtime_checkable
class Offering(Protocol):
    """The screen whose keys and palette entries are decided here, and the actions the entries run."""

    ACTIONS: ClassVar[Actions]
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


def offers(screen: Offering) -> list[Offer]:
    """(title, help, callback) for every palette entry that applies to the current state."""
    return screen.ACTIONS.offers(screen)


def _prompt(screen: Offering) -> PromptView | None:
    """The question waiting for its answer, as the screen shows it."""
    return screen.view.prompt if screen.view else None


def _open(screen: Offering) -> bool:
    """The fight is under way and no question waits: the GM's verbs are offered."""
    return screen.session.rules.state.phase != "setup" and _prompt(screen) is None


# --- when: whether a key applies now (True shown, None greyed, False hidden) -------------------------
def has_pools(screen: Offering, args: tuple[object, ...]) -> bool:
    """A pool key only for a pool the family steps (Momentum and Threat: not in a TTB fight)."""
    return bool(args) and str(args[0]) in screen.session.family.capabilities.stepped_pools


def has_verb(screen: Offering, args: tuple[object, ...]) -> bool:
    """A prefilling key only for a verb this family has (no `move` in a TTB fight)."""
    return not args or str(args[0]) in screen.session.family.verbs


def someone_acts(screen: Offering, _args: tuple[object, ...]) -> bool | None:
    return screen.session.rules.state.active is not None or None


def requests_wait(screen: Offering, _args: tuple[object, ...]) -> bool:
    """A player's request waits (shown only then, even while a question waits)."""
    return bool(screen.session.rules.state.requests)


def has_blocks(screen: Offering, _args: tuple[object, ...]) -> bool:
    """Nothing to join from without stat blocks."""
    return bool(screen.session.rules.choices("block"))


def can_undo(screen: Offering, _args: tuple[object, ...]) -> bool | None:
    return bool(screen.session.history.commands) or None


def can_redo(screen: Offering, _args: tuple[object, ...]) -> bool | None:
    return bool(screen.session.history.undone) or None


def keys_signature(screen: Offering, view: EncounterView) -> tuple[object, ...]:
    """What the `when`s depend on that a new view can change: the footer is rebuilt only when the set of
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


# --- offer: the palette's entries for each action --------------------------------------------------
def offer_requests(screen: Offering) -> Iterator[Offer]:
    """Each player's request, to approve or to deny (the two side by side, request by request)."""
    run = screen.run_line
    for request in screen.session.rules.state.requests:
        said = f"{request.seat} ({request.as_}): {request.command}"
        yield (f"Approve #{request.id}", said, partial(run, f"approve {request.id}"))
        yield (f"Deny #{request.id}", said, partial(run, f"deny {request.id}"))


def offer_answers(screen: Offering) -> Iterator[Offer]:
    prompt = _prompt(screen)
    if prompt is not None:
        for option, line in zip(prompt.options, prompt.answers, strict=True):
            yield (f"Answer: {option}", prompt.question, partial(screen.run_line, line))


def offer_next(screen: Offering) -> Iterator[Offer]:
    """Start the fight, or end the turn, while no question waits."""
    if _prompt(screen) is not None:
        return
    st = screen.session.rules.state
    if st.phase in ("setup", "ended"):
        yield ("Start the fight", "start: initiative and the first turn", partial(screen.run_line, "start"))
    elif st.active is not None:
        yield ("End the turn", f"next: end {st.active}'s turn", partial(screen.run_line, "next"))


def offer_spend(screen: Offering) -> Iterator[Offer]:
    st = screen.session.rules.state
    if _prompt(screen) is None and st.phase not in ("setup", "ended") and st.active is not None:
        yield ("Spend…", f"pick an action for {st.active}", screen.action_spend)


def offer_prefilled(screen: Offering, verb: str) -> Iterator[Offer]:
    """ "Damage…", "Move to a zone…": the command line opens prefilled, titled from the family's verb."""
    spec = screen.session.family.verbs.get(verb)
    if _open(screen) and spec is not None and spec.title and has_verb(screen, (verb,)):
        yield (spec.title, spec.help, partial(screen.action_prefill, verb))


def offer_pool(screen: Offering, verb: str) -> Iterator[Offer]:
    """A "+1" step of a pool."""
    if _open(screen) and verb in screen.session.family.verbs and has_pools(screen, (verb,)):
        yield (f"{verb.title()} +1", POOLS[verb], partial(screen.run_line, f"{verb} +1 GM"))


def offer_end(screen: Offering) -> Iterator[Offer]:
    """End the fight (no key: a word the family's table may have)."""
    end = screen.session.family.verbs.get("end")
    if _open(screen) and screen.session.rules.state.phase != "ended" and end is not None:
        yield (end.title, end.help, partial(screen.run_line, "end"))


def offer_join(screen: Offering) -> Iterator[Offer]:
    join = screen.session.family.verbs.get("join")
    if _prompt(screen) is None and join is not None and has_blocks(screen, ()):
        yield (join.title, join.help, screen.action_join)


def offer_leave(screen: Offering) -> Iterator[Offer]:
    leave = screen.session.family.verbs.get("leave")
    if _prompt(screen) is None and leave is not None:
        yield (leave.title, leave.help, partial(screen.action_prefill, "leave"))


def offer_undo(screen: Offering) -> Iterator[Offer]:
    commands = screen.session.history.commands
    if commands:
        yield ("Undo", f"undo: {commands[-1]}", partial(screen.run_line, "undo"))


def offer_redo(screen: Offering) -> Iterator[Offer]:
    undone = screen.session.history.undone
    if undone:
        yield ("Redo", f"redo: {undone[-1]}", partial(screen.run_line, "redo"))


def offer_help(screen: Offering) -> Iterator[Offer]:
    yield ("Help", "every key and command", screen.action_help)


def offer_theme(screen: Offering) -> Iterator[Offer]:
    yield ("Cycle theme", "switch to the next theme", screen.action_cycle_theme)
