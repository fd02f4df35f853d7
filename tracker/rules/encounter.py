"""The encounter file of either rule family: the family named by ``system`` validates it."""

from __future__ import annotations

from collections.abc import Mapping

from tracker.rules.families import family_named
from tracker.rules.family import EncounterFile

__all__ = ["EncounterFile", "validate_document"]


def validate_document(data: Mapping[str, object]) -> EncounterFile:
    """Validate parsed TOML as the family its ``[encounter]`` names (TTB when unreadable)."""
    header = data.get("encounter")
    system = header.get("system") if isinstance(header, Mapping) else None
    return family_named(system).validate_setup(data)
