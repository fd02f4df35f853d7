"""The encounter file of any rule family: the family named by ``system`` validates it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.engine.errors import Invalid
from tracker.engine.records.model import History
from tracker.engine.records.record import copied, validate
from tracker.families.file import EncounterFile
from tracker.families.registry import DEFAULT, FAMILIES, family_named, systems

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
    errors: list[dict[str, Any]] = []
    if isinstance(header, Mapping) and "system" in header and system not in FAMILIES:
        # The names are the registry's, so the header's model takes any text; the rest of the file is
        # checked as the default family's, as though it named that one.
        errors.append(unknown_system(system, systems()))
        data = {**data, "encounter": {**header, "system": DEFAULT}}
    family = family_named(system)
    if not errors and not any(key in data for key in LIVE_TABLES):
        return family.validate_setup(data)
    setup: EncounterFile | None = None
    history: History | None = None
    try:
        setup = family.validate_setup({k: v for k, v in data.items() if k not in LIVE_TABLES})
        if errors:
            setup = None
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


def unknown_system(value: object, known: list[str]) -> dict[str, Any]:
    """The error for a ``system`` no family has, in pydantic's words for a value outside a Literal (what the
    store words as "encounter.system: must be 'ttb' or '2d20'")."""
    names = [repr(name) for name in known]
    expected = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return {
        "type": "literal_error",
        "loc": ("encounter", "system"),
        "msg": f"Input should be {expected}",
        "input": value,
        "ctx": {"expected": expected},
    }
