"""Which rule family plays a file: a registry from the file's ``system`` to the family.

The one place that picks a family (docs/architecture/writing-a-family.md). A family is a folder whose
``family`` module holds ``FAMILY``, a `RuleFamily`; the registry names each built-in one by where it lives,
and imports it only when a file of its system is read, so a Through the Breach session never loads the
2d20 rules (and the reverse); `tests/test_import_hygiene.py` checks it.

A family that lives outside the tracker's own folders (a group's house rules, the toy family of the
tests) registers through the environment: ``TRACKER_FAMILIES="pkg.family:FAMILY"`` (several separated by
commas). Those are read, and imported, only when a ``system`` names no built-in family or when every
family is listed (``tracker new --system``): a start that opens a built-in family's file never pays for
them, nor scans installed packages for plug-ins.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping

from tracker.engine.errors import Refusal
from tracker.families.file import EncounterFile
from tracker.families.seam import RuleFamily

#: ``system`` in ``[encounter]`` → where its family is, ``module:attribute`` (docs/reference/file-format.md).
BUILT_IN: dict[str, str] = {
    "ttb": "tracker.families.ttb.family:FAMILY",
    "2d20": "tracker.families.twod20.family:FAMILY",
}
#: The family of a file whose ``system`` cannot be read (its errors are reported as this family's).
DEFAULT = "ttb"
#: The environment variable naming the families registered from outside (``module:attribute``, comma-separated).
ENVIRONMENT = "TRACKER_FAMILIES"


def load(where: str) -> RuleFamily:
    """The family at ``module:attribute`` (the module imported now, once); Refusal when it is not one."""
    module_name, _, attribute = where.strip().partition(":")
    try:
        __import__(module_name)
        found = getattr(sys.modules[module_name], attribute or "FAMILY")
    except (ImportError, AttributeError) as exc:
        raise Refusal(f"{ENVIRONMENT}: cannot load the rule family '{where.strip()}' ({exc})") from None
    if not isinstance(found, RuleFamily):
        raise Refusal(f"{ENVIRONMENT}: '{where.strip()}' is not a rule family")
    return found


_loaded: dict[str, RuleFamily] = {}
#: The families registered through the environment, by name, as last read (with the text they were read from).
_outside: tuple[str, dict[str, RuleFamily]] = ("", {})


def registered() -> dict[str, RuleFamily]:
    """The families the environment registers, by their ``system`` name (read again when it changes)."""
    global _outside
    text = os.environ.get(ENVIRONMENT, "")
    if text != _outside[0]:
        found: dict[str, RuleFamily] = {}
        for where in filter(None, (part.strip() for part in text.split(","))):
            family = load(where)
            found.setdefault(family.name, family)
        _outside = (text, found)
    return _outside[1]


def family_named(system: object) -> RuleFamily:
    """The family for a ``system`` value; the default one for anything unknown (validation says why)."""
    if not isinstance(system, str) or system not in BUILT_IN:
        outside = registered() if isinstance(system, str) else {}
        if isinstance(system, str) and system in outside:
            return outside[system]
        system = DEFAULT
    family = _loaded.get(system)
    if family is None:
        family = _loaded[system] = load(BUILT_IN[system])
    return family


def family_of(setup: EncounterFile) -> RuleFamily:
    """The family that plays a validated file (its ``[encounter] system``)."""
    return family_named(setup.encounter.system)


def systems() -> list[str]:
    """Every family's ``system`` name: the built-in ones, then those the environment registers."""
    return [*BUILT_IN, *(name for name in registered() if name not in BUILT_IN)]


class _Families(Mapping[str, RuleFamily]):
    """Every family by its ``system`` name, as a mapping the store reads (``system in FAMILIES``); a look-up
    imports only the family asked for."""

    def __getitem__(self, system: str) -> RuleFamily:
        if system not in BUILT_IN and system not in registered():
            raise KeyError(system)
        return family_named(system)

    def __contains__(self, system: object) -> bool:
        return isinstance(system, str) and (system in BUILT_IN or system in registered())

    def __iter__(self) -> Iterator[str]:
        return iter(systems())

    def __len__(self) -> int:
        return len(systems())


#: ``system`` → the family, for every family the tracker knows now.
FAMILIES: Mapping[str, RuleFamily] = _Families()
