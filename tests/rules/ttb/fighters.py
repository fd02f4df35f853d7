"""Small builders for Through the Breach test encounters, shared by the rules tests."""

from __future__ import annotations

import json

from tests.conftest import session_from
from tests.rules.tables import toml_value
from tracker.families.session import Session


def combatant(name: str, **fields: object) -> str:
    """One ``[[combatants]]`` table; a Fatemaster character gets Rank Value 5 unless told otherwise."""
    if fields.get("kind") != "fated":
        fields.setdefault("rank_value", 5)
    fields.setdefault("wounds", 6)
    lines = ["[[combatants]]", f"name = {json.dumps(name)}"]
    lines += [f"{key} = {toml_value(value)}" for key, value in fields.items()]
    return "\n".join(lines) + "\n"


def duo(first: dict[str, object] | None = None, second: dict[str, object] | None = None, settings: str = "") -> Session:
    """Combatant A acts before B (initiative 20 against 0); both Living Fatemaster Minions, 6 Wounds."""
    a = {"initiative": 20, **(first or {})}
    b = {"initiative": 0, **(second or {})}
    return session_from(combatant("A", **a) + combatant("B", **b), settings=settings)
