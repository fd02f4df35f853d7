"""The Through the Breach encounter file (docs/reference/file-format.md, docs/rules/ttb.md#s2-1): header, settings,
combatants.

Mirrors `tracker.families.twod20.records.file`; the registry (`tracker.families.registry`) picks one of
the two by ``system``. A record only: it imports nothing of the family's rules or presentation.
"""

from __future__ import annotations

from dataclasses import field

from tracker.engine.records.model import Located, name_clashes, raise_located
from tracker.engine.records.record import record
from tracker.families.file import EncounterFile
from tracker.families.ttb.records.sheet import MAX_ARMOR, TTBCombatant, TTBSettings


@record
class TTBFile(EncounterFile):
    """A Through the Breach encounter file."""

    settings: TTBSettings = field(default_factory=TTBSettings)
    combatants: list[TTBCombatant] = field(default_factory=list)
    #: Stat blocks a ``[[combatants]]`` entry (``from = NAME``) or ``join`` may name
    #: (docs/reference/file-format.md): the
    #: ``[[stat_blocks]]`` of the ``[encounter] bestiary`` files, gathered by the loader, or written inline.
    stat_blocks: list[TTBCombatant] = field(default_factory=list)

    def check(self) -> None:
        """Names, and the header's system; each problem at its key."""
        problems = name_clashes(self.combatants)
        problems += self.seat_problems([c.name for c in self.combatants])
        if self.encounter.system != "ttb":
            problems.append((("encounter", "system"), "this file is not a Through the Breach encounter"))
        raise_located(problems)

    def warnings(self) -> list[Located]:
        """Armor above +3: allowed, since the Fatemaster may exceed the maximum, but worth a second look
        (docs/rules/ttb.md#s2-1 ``armor``, decision A27: "``armor`` accepts more, with a warning")."""
        return [
            (
                ("combatants", n, "armor"),
                f"{c.name} has Armor +{c.armor}, above the usual maximum of +{MAX_ARMOR} "
                "(allowed: the Fatemaster may exceed it)",
            )
            for n, c in enumerate(self.combatants)
            if c.armor > MAX_ARMOR
        ]
