"""One family's case for the seam's conformance suite (`tests.families.test_seam_contract`): its own module,
so a family's folder under ``tests/families/`` can give its case (``contract.py``) without importing the suite."""

from __future__ import annotations

from typing import NamedTuple

from tracker.families.session import Session
from tracker.store.files import parse_text


class Case(NamedTuple):
    """One family's encounter for the contract: Kit (players), Thug (enemies) and Spy (enemies, GM-only)."""

    system: str
    text: str
    #: Lines that open play: ``start``, and whatever it asks answered.
    opening: tuple[str, ...]
    #: Lines the family accepts after ``start``, in this order, none of them asking a question.
    accepted: tuple[str, ...]
    #: The family's own top-level keys of the JSON state.
    table_keys: frozenset[str]
    #: The family's own keys of a combatant's JSON entry (some of them).
    combatant_keys: frozenset[str]
    #: For a family outside the tracker's folders: the ``TRACKER_FAMILIES`` entry that registers it.
    registers: str = ""

    def session(self) -> Session:
        return Session(parse_text(self.text, f"{self.system}.toml"), seed=7)
