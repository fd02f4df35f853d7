"""The JSON state of docs/reference/json-state.md (what ``tracker exec --json`` prints), as the family builds it."""

from __future__ import annotations

from typing import Any

from tracker.families.session import Session


def state_json(session: Session) -> dict[str, Any]:
    """The state as the contract names it; extra keys are additions, never changes of meaning.

    Typed loosely on purpose: callers (tests, ``json.dumps``) index the JSON data freely.
    """
    return dict(session.rules.state_json())
