"""The encounter file of either rule family: the family named by ``system`` validates it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.engine.errors import Invalid
from tracker.engine.records.model import History
from tracker.engine.records.record import copied, validate
from tracker.families.file import EncounterFile
from tracker.families.registry import family_named

__all__ = ["EncounterFile", "validate_document"]

#: The tables play rewrites after every command; the rest of a file is the GM's setup.
LIVE_TABLES = ("state", "history")


def validate_document(data: Mapping[str, object]) -> EncounterFile:
    """Validate parsed TOML as the family its ``[encounter]`` names (TTB when unreadable).

    The setup and the ``[history]`` are validated apart (``[state]`` is the family's to check when an engine
    resumes it): a setup is validated once and remembered (`tracker.engine.records.record`), while the live tables
    change with every command, so a fight reopened mid-play still finds its setup remembered. Every problem
    of both is reported together, each at its key, as one validation would.
    """
    header = data.get("encounter")
    system = header.get("system") if isinstance(header, Mapping) else None
    family = family_named(system)
    if not any(key in data for key in LIVE_TABLES):
        return family.validate_setup(data)
    errors: list[dict[str, Any]] = []
    setup: EncounterFile | None = None
    history: History | None = None
    try:
        setup = family.validate_setup({k: v for k, v in data.items() if k not in LIVE_TABLES})
    except Invalid as exc:
        errors += exc.errors()
    state = data.get("state")
    live_state: dict[str, object] | None = None
    if isinstance(state, Mapping):
        live_state = {str(k): v for k, v in state.items()}
    elif state is not None:
        errors.append(
            {"type": "dict_type", "loc": ("state",), "msg": "Input should be a valid dictionary", "input": state}
        )
    if data.get("history") is not None:
        try:
            history = validate(History, data["history"])
        except Invalid as exc:
            errors += [{**e, "loc": ("history", *e["loc"])} for e in exc.errors()]
    if errors or setup is None:
        raise Invalid("encounter", errors)
    return copied(setup, state=live_state, history=history)
