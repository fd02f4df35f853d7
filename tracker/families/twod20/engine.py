"""The 2d20 engine object: the shared `Engine` plus the profile, the zone map and the lookups 2d20 rules use."""

from __future__ import annotations

from tracker.engine.kernel import Engine
from tracker.engine.language.commands import VerbTable
from tracker.families.twod20.records.file import TwoD20File
from tracker.families.twod20.records.sheet import TwoD20Combatant
from tracker.families.twod20.records.state import Fighter, TwoD20State
from tracker.families.twod20.tables.profiles import Profile, resolve_profile
from tracker.families.twod20.zones import AttackDifficulty, ZoneMap


class TwoD20Engine(Engine[TwoD20File, TwoD20Combatant, Fighter, TwoD20State]):
    """One 2d20 encounter's setup and live state, with its profile and zone map; the rule modules act on it."""

    PLAY = "the scene"

    def __init__(self, setup: TwoD20File, state: TwoD20State, verbs: VerbTable) -> None:
        super().__init__(setup, state, verbs)
        self.profile: Profile = resolve_profile(setup.encounter.profile or "srd", setup.settings.overrides())
        self.zones = ZoneMap(setup.zones)
        self.order_rule = setup.encounter.action_order or "alternating"

    def can_take_turn(self, name: str) -> bool:
        """The dead, the unconscious, the mentally broken [004:L1874] and those who left take no turns; the
        Defeated still do (one Free Action) [004:L1872], except a Defeated or Dying NPC unless the table says
        so (`out_of_turns`)."""
        a = self.fighter(name)
        gone = a.dead or a.unconscious or a.broken
        return not gone and name not in self.st.left and not self.out_of_turns(name)

    def out_of_turns(self, name: str) -> bool:
        """A Defeated or Dying NPC: the hand-over never offers it (profile ``defeated_npcs_act`` off)."""
        a = self.fighter(name)
        return (a.defeated or a.dying) and not self.sheet(name).pc and not self.profile.defeated_npcs_act

    def in_reach_of_enemy(self, name: str) -> list[str]:
        out = []
        for x, y in self.st.reach:
            other = y if x == name else x if y == name else None
            if other and self.enemies(name, other) and not self.fighter(other).dead:
                out.append(other)
        return out

    def tracks(self, name: str) -> dict[str, int]:
        """Each stress track's maximum after Fatigue (−1 per point on the first track,
        docs/rules/2d20-harm.md#s3-10-3)."""
        sheet = self.sheets[name]
        base = {self.profile.default_track: sheet.stress} if isinstance(sheet.stress, int) else dict(sheet.stress)
        fatigue = self.fighter(name).fatigue
        first = next(iter(base))
        base[first] = max(0, base[first] - fatigue)
        return base

    @property
    def pool_name(self) -> str:
        return self.profile.gm_pool.title()


def attack_check(
    eng: TwoD20Engine, attacker: str, target: str, weapon_range: str | None, kind: str = "ranged"
) -> AttackDifficulty:
    """The range category and Difficulty from `attacker` to `target`, each modifier in its notes (C37): the
    one count of `tracker.families.twod20.skill_test`, which the attack's roll makes too."""
    from tracker.families.twod20.attack_test import attack_difficulty_for

    return attack_difficulty_for(eng, attacker, target, weapon_range, kind)


def range_report(eng: TwoD20Engine, attacker: str, target: str, weapon_range: str | None, kind: str = "ranged") -> str:
    """What the screens show: the range category and Difficulty from `attacker` to `target` (C37)."""
    result = attack_check(eng, attacker, target, weapon_range, kind)
    notes = "; ".join(result.notes)
    return f"{result.range.title()} range, Difficulty {result.difficulty}" + (f" ({notes})" if notes else "")
