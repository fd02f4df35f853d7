"""The 2d20 parts of the encounter file (RULES.md §3.1): combatants, zones and table settings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from tracker.engine.records.conditions import CombatantEntry, ConditionCatalogue
from tracker.engine.records.model import ConditionValue, Strict, raise_located
from tracker.engine.records.record import Field, field_validator
from tracker.families.twod20.catalogue import CONDITIONS, condition_key
from tracker.families.twod20.dice.rolls import MAX_CHALLENGE_DICE

#: A number of Challenge Dice the tracker may roll: Cover, Morale, and the attributes and score the
#: initiative variant rolls as max(Agility, Insight)[CD] [004:L1406-1416] (bounded, README "Limits").
DiceCount = Annotated[int, Field(ge=0, le=MAX_CHALLENGE_DICE)]

RangeBand = Literal["reach", "close", "medium", "long", "extreme"]


class TwoD20Weapon(Strict):
    """A weapon in the file (CONTRACT.md §2): its range band says the Difficulty of a shot (RULES.md §3.6).

    ``damage`` and ``effects`` are the weapon's profile as the table reads it (``effects`` as written in a
    damage command, e.g. ``["piercing=2", "vicious"]``); the zones panel uses the range.
    """

    name: str = Field(min_length=1)
    range: RangeBand = "close"
    damage: int = Field(default=0, ge=0)
    effects: list[str] = Field(default_factory=list)


class TwoD20Combatant(CombatantEntry):
    """One ``[[combatants]]`` entry of a 2d20 encounter."""

    name: str = Field(min_length=1)
    side: str | None = None
    #: minor | notable | major for NPCs; absent for a player character.
    npc_type: Literal["minor", "notable", "major"] | None = None
    attributes: dict[str, DiceCount] = Field(default_factory=dict)
    skills: dict[str, int] = Field(default_factory=dict)
    focuses: list[str] = Field(default_factory=list)
    #: Maximum stress: one number for the profile's single track, or a table per track.
    stress: int | dict[str, int]
    armor: int = Field(default=0, ge=0)
    courage: int = Field(default=0, ge=0)
    #: Infinity BTS/Security, the Firewall's soak.
    bts: int = Field(default=0, ge=0)
    #: Standing conditional resistance dice rolled on each hit (Cover, Morale), unless the damage says.
    cover: DiceCount = 0
    morale: DiceCount = 0
    zone: str | None = None
    fatigue: int = Field(default=0, ge=0)
    #: Player meta-currency now; defaults to starting_fortune, else the profile's start (B43, B30).
    fortune: int | None = Field(default=None, ge=0)
    starting_fortune: int | None = Field(default=None, ge=0, le=5)
    harms: dict[str, int] = Field(default_factory=dict)
    #: Initiative score for the "initiative" order; defaults to max(Agility, Insight).
    initiative: DiceCount | None = None
    #: Harms that defeat this combatant; defaults to the profile's (SRD 3). The SRD's NPC chapter is
    #: missing from the seeds, so a table gives minor/notable NPCs their own number here.
    harm_capacity: int | None = Field(default=None, ge=1)
    #: The first is the one the zones panel reports ranges with (a "reach" weapon: melee).
    weapons: list[TwoD20Weapon] = Field(default_factory=list)
    conditions: dict[str, ConditionValue] = Field(default_factory=dict)
    gm_only: bool = False
    notes: str = ""

    @classmethod
    def condition_catalogue(cls) -> ConditionCatalogue:
        return condition_key, CONDITIONS, ()

    @field_validator("conditions")
    @classmethod
    def _rolled_at_most(cls, value: dict[str, int | bool]) -> dict[str, int | bool]:
        """Persistent X and Burning X roll X[CD]: X is bounded like every count of dice (after the shared
        check of the names, which made the keys canonical)."""
        raise_located(
            [
                ((key,), f"{CONDITIONS[key].title} X rolls X[CD]: X is at most {MAX_CHALLENGE_DICE}")
                for key, v in value.items()
                if key in CONDITIONS and CONDITIONS[key].rolls and v > MAX_CHALLENGE_DICE
            ]
        )
        return value

    @field_validator("stress")
    @classmethod
    def _positive(cls, value: int | dict[str, int]) -> int | dict[str, int]:
        values = [value] if isinstance(value, int) else list(value.values())
        if not values or any(v < 1 for v in values):
            raise ValueError("stress maxima must be 1 or more")
        return value

    @property
    def pc(self) -> bool:
        return self.npc_type is None

    @property
    def side_name(self) -> str:
        return self.side or ("players" if self.pc else "npcs")

    def initiative_score(self) -> int:
        """The initiative variant's score: max(Agility, Insight) unless given [004:L1406-1416]."""
        if self.initiative is not None:
            return self.initiative
        a = {k.casefold(): v for k, v in self.attributes.items()}
        return max(a.get("agility", 0), a.get("insight", 0), a.get("awareness", 0))

    def skill(self, name: str) -> int:
        return {k.casefold(): v for k, v in self.skills.items()}.get(name, 0)


class TwoD20Settings(Strict):
    """``[settings]`` of a 2d20 encounter: profile parameter overrides (RULES.md §3.0)."""

    extra = "allow"

    def overrides(self) -> dict[str, Any]:
        return dict(self.model_extra or {})
