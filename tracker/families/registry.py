"""Which rule family plays a file: a registry from the file's ``system`` to the family.

The one place that picks a family. Each family is imported only when a file of its system is read, so a
Through the Breach session never loads the 2d20 rules (and the reverse); `tests/test_import_hygiene.py`
checks it.
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.families.file import EncounterFile
from tracker.families.seam import RuleFamily


def _ttb() -> RuleFamily:
    from tracker.families.ttb.family import FAMILY

    return FAMILY


def _twod20() -> RuleFamily:
    from tracker.families.twod20.family import FAMILY

    return FAMILY


#: ``system`` in ``[encounter]`` → the family (docs/reference/file-format.md).
FAMILIES: dict[str, Callable[[], RuleFamily]] = {"ttb": _ttb, "2d20": _twod20}
#: The family of a file whose ``system`` cannot be read (its errors are reported as this family's).
DEFAULT = "ttb"


def family_named(system: object) -> RuleFamily:
    """The family for a ``system`` value; the default one for anything unknown (validation says why)."""
    load = FAMILIES.get(system, FAMILIES[DEFAULT]) if isinstance(system, str) else FAMILIES[DEFAULT]
    return load()


def family_of(setup: EncounterFile) -> RuleFamily:
    """The family that plays a validated file (its ``[encounter] system``)."""
    return family_named(setup.encounter.system)
