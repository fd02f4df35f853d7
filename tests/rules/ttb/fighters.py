"""Small builders for Through the Breach test encounters, shared by the rules tests."""

from __future__ import annotations

import json

from tests.conftest import session_from
from tracker.families.session import Session


def combatant(name: str, **fields: object) -> str:
    """One ``[[combatants]]`` table; a Fatemaster character gets Rank Value 5 unless told otherwise."""
    if fields.get("kind") != "fated":
        fields.setdefault("rank_value", 5)
    fields.setdefault("wounds", 6)
    lines = ["[[combatants]]", f"name = {json.dumps(name)}"]
    lines += [f"{key} = {_toml(value)}" for key, value in fields.items()]
    return "\n".join(lines) + "\n"


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)


def duo(first: dict[str, object] | None = None, second: dict[str, object] | None = None, settings: str = "") -> Session:
    """Combatant A acts before B (initiative 20 against 0); both Living Fatemaster Minions, 6 Wounds."""
    a = {"initiative": 20, **(first or {})}
    b = {"initiative": 0, **(second or {})}
    return session_from(combatant("A", **a) + combatant("B", **b), settings=settings)
