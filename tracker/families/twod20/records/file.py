"""The 2d20 encounter file: profile, zones and combatants (docs/reference/file-format.md, docs/rules/2d20.md#s3).

Kept apart from the TTB models so that a Through the Breach file never pays for building these. A record
only: it imports nothing of the family's rules or presentation (the registry picks the family by ``system``).
"""

from __future__ import annotations

from dataclasses import field

from tracker.engine.errors import Refusal
from tracker.engine.names import resolve
from tracker.engine.records.model import Located, located, name_clashes, raise_located
from tracker.engine.records.record import record
from tracker.families.file import EncounterFile
from tracker.families.twod20.records.scene import TwoD20Header, Zone
from tracker.families.twod20.records.sheet import TwoD20Combatant, TwoD20Settings
from tracker.families.twod20.tables.profiles import resolve_profile


@record
class TwoD20File(EncounterFile):
    """A 2d20 encounter file: profile, zones and combatants (docs/reference/file-format.md, docs/rules/2d20.md#s3)."""

    encounter: TwoD20Header
    settings: TwoD20Settings = field(default_factory=TwoD20Settings)
    zones: list[Zone] = field(default_factory=list)
    combatants: list[TwoD20Combatant] = field(default_factory=list)
    #: Stat blocks a ``[[combatants]]`` entry (``from = NAME``) or ``join`` may name
    #: (docs/reference/file-format.md): the
    #: ``[[stat_blocks]]`` of the ``[encounter] bestiary`` files, gathered by the loader, or written inline.
    stat_blocks: list[TwoD20Combatant] = field(default_factory=list)

    def check(self) -> None:
        """Names, profile parameters, zones, stress tracks and Harms agree; each problem at its key."""
        problems = name_clashes(self.combatants)
        problems += self.seat_problems([c.name for c in self.combatants])
        try:
            profile = resolve_profile(self.encounter.profile or "srd", self.settings.overrides())
        except Refusal as exc:
            # Each parameter at fault at its key; parameters wrong only together, at [settings].
            raise located([*problems, *(self._profile_problems() or [(("settings",), str(exc))])]) from None
        tracks = {t for t, _, _ in profile.tracks}
        zones = [z.name for z in self.zones]
        seen: set[str] = set()
        for n, z in enumerate(self.zones):
            # Zones are named case-insensitively (`move NAME ZONE`), so "Pier" and "pier" are one name.
            if z.name.casefold() in seen:
                problems.append((("zones", n, "name"), f"two zones are named '{z.name}'"))
            seen.add(z.name.casefold())
        placed: dict[tuple[int, int], str] = {}
        for n, z in enumerate(self.zones):
            if z.at is None:
                continue
            if z.at in placed:
                col, row = z.at
                problems.append(
                    (("zones", n, "at"), f"zones '{placed[z.at]}' and '{z.name}' are both at [{col}, {row}] on the map")
                )
            placed.setdefault(z.at, z.name)
        for n, z in enumerate(self.zones):
            for k, other in enumerate(z.adjacent):
                if other not in zones:
                    problems.append(
                        (("zones", n, "adjacent", k), f"zone '{z.name}' is adjacent to '{other}', which is not a zone")
                    )
        harm_kinds = {h for _, h, _ in profile.tracks} | {profile.mental_harm}
        for n, c in enumerate(self.combatants):
            if isinstance(c.stress, dict):
                for track in sorted(set(c.stress) - tracks):
                    problems.append(
                        (
                            ("combatants", n, "stress", track),
                            f"{c.name}: no stress track '{track}' in profile "
                            f"{profile.name} (tracks: {', '.join(sorted(tracks))})",
                        )
                    )
            for kind in sorted(set(c.harms) - harm_kinds):
                problems.append(
                    (
                        ("combatants", n, "harms", kind),
                        f"{c.name}: unknown harm '{kind}' (kinds: {', '.join(sorted(harm_kinds))})",
                    )
                )
            if c.zone is not None:
                where = ("combatants", n, "zone")
                if not zones:
                    problems.append((where, f"{c.name} is in zone '{c.zone}' but the encounter has no [[zones]]"))
                else:
                    try:
                        resolve(c.zone, zones, what="zone")
                    except Refusal as exc:
                        problems.append((where, f"{c.name}: {exc}"))
        raise_located(problems)

    def warnings(self) -> list[Located]:
        """A combatant with no ``npc_type`` plays as a player character (Momentum, Fortune; docs/rules/2d20.md#s3-1). On
        a side that is not the players' (a side holding NPCs, or a ``side`` other than "players") that is
        probably a forgotten ``npc_type``: allowed, but worth a second look."""
        npc_sides = {c.side_name for c in self.combatants if not c.pc}
        return [
            (
                ("combatants", n, "side" if c.side else "name"),
                f"{c.name} is on side '{c.side_name}' but has no npc_type, so it plays as a player character "
                "(give npc_type = minor, notable or major for an NPC)",
            )
            for n, c in enumerate(self.combatants)
            if c.pc and (c.side_name in npc_sides or c.side_name != "players")
        ]

    def _profile_problems(self) -> list[Located]:
        """Why the profile does not resolve, at the ``[settings]`` parameter at fault (else at ``profile``)."""
        name = self.encounter.profile or "srd"
        try:
            resolve_profile(name)
        except Refusal as exc:
            return [(("encounter", "profile"), str(exc))]
        problems: list[Located] = []
        for key, value in self.settings.overrides().items():
            try:
                resolve_profile(name, {key: value})
            except Refusal as exc:
                problems.append((("settings", key), str(exc)))
        return problems
