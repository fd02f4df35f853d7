"""The rule families a session can run, behind one small interface.

Each family provides a fresh state from the setup, its engine over a state, `apply` for one command,
and the validation of a saved ``[state]``; the session does the rest (history, undo, redo).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tracker.rules.commands import Command


@dataclass(frozen=True)
class Family:
    name: str
    new_state: Callable[[Any, int], Any]
    make_engine: Callable[[Any, Any], Any]
    apply: Callable[[Any, Command], None]
    load_state: Callable[[dict[str, Any]], Any]


def family_of(setup: Any) -> Family:
    """The family that runs `setup` (imported lazily: a TTB session never loads the 2d20 rules)."""
    if setup.encounter.system == "2d20":
        from tracker.rules.twod20 import engine as twod20
        from tracker.rules.twod20.state import TwoD20State

        return Family("2d20", twod20.new_state, twod20.make_engine, twod20.apply, TwoD20State.model_validate)
    from tracker.rules.ttb import engine as ttb
    from tracker.rules.ttb.state import TTBState

    return Family("ttb", ttb.new_state, ttb.make_engine, ttb.apply, TTBState.model_validate)
