"""The 2d20 parts of the encounter file (docs/rules/2d20.md#s3-1): combatants, zones and table settings."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from tracker.engine.records.conditions import CombatantEntry, ConditionCatalogue, known_conditions
from tracker.engine.records.model import ConditionValue, Strict, raise_located
from tracker.engine.records.record import extra_of, record
from tracker.families.twod20.dice.rolls import MAX_CHALLENGE_DICE
from tracker.families.twod20.tables.catalogue import CONDITIONS, condition_key
from tracker.families.values import Tactic

if TYPE_CHECKING:  # pydantic's markers, read by pydantic only (`tracker.engine.records.validation`)
    from pydantic import AfterValidator, Field

#: A number of Challenge Dice the tracker may roll: Cover, Morale, and the attributes and score the
#: initiative variant rolls as max(Agility, Insight)[CD] [004:L1406-1416] (bounded, README "Limits").
#: (Text, read by pydantic where a record names it, so that defining it loads no pydantic.)
DiceCount: TypeAlias = "Annotated[int, Field(ge=0, le=MAX_CHALLENGE_DICE)]"

RangeBand = Literal["reach", "close", "medium", "long", "extreme"]


@record
class TwoD20Weapon(Strict):
    """A weapon in the file (docs/reference/file-format.md): its range band says the Difficulty of a shot
    (docs/rules/index.md docs/rules/2d20-combat.md#s3-6).

    ``damage`` and ``effects`` are the weapon's profile as the table reads it (``effects`` as written in a
    damage command, e.g. ``["piercing=2", "vicious"]``); the zones panel uses the range.
    """

    name: Annotated[str, Field(min_length=1)]
    range: RangeBand = "close"
    damage: Annotated[int, Field(ge=0)] = 0
    effects: list[str] = field(default_factory=list)
    #: The most Reloads one attack may spend, each for 1 bonus Momentum, 0-6 [004:L1695-1699].
    burst: Annotated[int, Field(ge=0, le=6)] = 0
    #: Reloads the wielder carries for it (None: the table does not count them) [004:L1697].
    reloads: Annotated[int | None, Field(ge=0, le=99)] = None
    #: An "M" beside the Reloads: each attack spends 1 Reload for no benefit, within the Burst [004:L1701].
    mandatory_reload: bool = False
    #: The fixed damage before the dice: Infinity's "1+4[CD]" is ``fixed = 1``, ``damage = 4`` [003:L272-275,
    #: L556-563].
    fixed: Annotated[int, Field(ge=0, le=99)] = 0
    #: The skill the attack tests instead of its form's (a psywar technique's: Order tests Command, Rumour
    #: Lifestyle [003:L555-563]); the attribute stays the form's.
    skill: str | None = None


def _loaded(value: list[TwoD20Weapon]) -> list[TwoD20Weapon]:
    """A mandatory Reload counts within the Burst, so an "M" weapon needs a Burst of 1 or more, and Reloads
    to spend [004:L1701]."""
    raise_located(
        [
            ((n, "mandatory_reload"), f"{w.name}: an M weapon spends a Reload per attack: it needs burst and reloads")
            for n, w in enumerate(value)
            if w.mandatory_reload and (w.burst < 1 or w.reloads is None)
        ]
    )
    return value


def _known_conditions(value: dict[str, int | bool]) -> dict[str, int | bool]:
    return known_conditions(value, TwoD20Combatant.condition_catalogue())


def _rolled_at_most(value: dict[str, int | bool]) -> dict[str, int | bool]:
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


#: The effects a GM may give an instance of conditional Resistance [004:L1795-1800]; Volatile takes its X.
RESISTANCE_EFFECTS = ("sturdy", "fragile", "uncertain", "volatile")


def resistance_effects(value: list[str]) -> dict[str, int]:
    """``["sturdy", "volatile=2"]`` as {effect: X} (X 1 where the effect has none), or a ValueError naming
    what is wrong: an effect the rules do not have, Volatile without its X, one given twice."""
    found: dict[str, int] = {}
    for word in value:
        key, eq, x = word.strip().casefold().partition("=")
        if key not in RESISTANCE_EFFECTS:
            raise ValueError(f"'{word}' is not a conditional Resistance effect ({', '.join(RESISTANCE_EFFECTS)}=X)")
        if key in found:
            raise ValueError(f"'{key}' is given twice")
        if key == "volatile" and not (eq and x.isdigit() and 1 <= int(x) <= MAX_CHALLENGE_DICE):
            raise ValueError(f"Volatile takes the damage it deals: volatile=X, X 1-{MAX_CHALLENGE_DICE}[CD]")
        if key != "volatile" and eq:
            raise ValueError(f"'{key}' takes no value")
        found[key] = int(x) if key == "volatile" else 1
    return found


def _effects_valid(value: list[str]) -> list[str]:
    resistance_effects(value)
    return value


def _positive(value: int | dict[str, int]) -> int | dict[str, int]:
    values = [value] if isinstance(value, int) else list(value.values())
    if not values or any(v < 1 for v in values):
        raise ValueError("stress maxima must be 1 or more")
    return value


@record
class TwoD20Combatant(CombatantEntry):
    """One ``[[combatants]]`` entry of a 2d20 encounter."""

    name: Annotated[str, Field(min_length=1)]
    side: str | None = None
    #: minor | notable | major for NPCs; absent for a player character.
    npc_type: Literal["minor", "notable", "major"] | None = None
    attributes: dict[str, DiceCount] = field(default_factory=dict)
    skills: dict[str, int] = field(default_factory=dict)
    focuses: list[str] = field(default_factory=list)
    #: Maximum stress: one number for the profile's single track, or a table per track.
    stress: Annotated[int | dict[str, int], AfterValidator(_positive)]
    armor: Annotated[int, Field(ge=0)] = 0
    courage: Annotated[int, Field(ge=0)] = 0
    #: Infinity BTS/Security, the Firewall's soak.
    bts: Annotated[int, Field(ge=0)] = 0
    #: Standing conditional resistance dice rolled on each hit (Cover, Morale), unless the damage says.
    cover: DiceCount = 0
    morale: DiceCount = 0
    #: What the GM says of that Cover and Morale [004:L1795-1800]: "sturdy", "fragile", "uncertain",
    #: "volatile=X" (`resistance_effects`); rolled on their own so the Effects they roll are theirs.
    cover_effects: Annotated[list[str], AfterValidator(_effects_valid)] = field(default_factory=list)
    morale_effects: Annotated[list[str], AfterValidator(_effects_valid)] = field(default_factory=list)
    #: Infinity Interference: the Firewall's soak dice, as Cover is Vigour's [003:L163, L329-330].
    interference: DiceCount = 0
    zone: str | None = None
    fatigue: Annotated[int, Field(ge=0)] = 0
    #: Player meta-currency now; defaults to starting_fortune, else the profile's start (B43, B30).
    fortune: Annotated[int | None, Field(ge=0)] = None
    starting_fortune: Annotated[int | None, Field(ge=0, le=5)] = None
    harms: dict[str, int] = field(default_factory=dict)
    #: Initiative score for the "initiative" order; defaults to max(Agility, Insight).
    initiative: Annotated[int | None, Field(ge=0, le=MAX_CHALLENGE_DICE)] = None
    #: Harms that defeat this combatant; defaults to the profile's (SRD 3). The SRD's NPC chapter is
    #: missing from the seeds, so a table gives minor/notable NPCs their own number here.
    harm_capacity: Annotated[int | None, Field(ge=1)] = None
    #: The first is the one the zones panel reports ranges with (a "reach" weapon: melee).
    weapons: Annotated[list[TwoD20Weapon], AfterValidator(_loaded)] = field(default_factory=list)
    conditions: Annotated[
        dict[str, ConditionValue], AfterValidator(_known_conditions), AfterValidator(_rolled_at_most)
    ] = field(default_factory=dict)
    gm_only: bool = False
    #: How the default policy plays it in the fight's odds (docs/reference/file-format.md "tactics").
    tactics: Tactic | None = None
    notes: str = ""

    @classmethod
    def condition_catalogue(cls) -> ConditionCatalogue:
        return condition_key, CONDITIONS, ()

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


@record
class TwoD20Settings(Strict):
    """``[settings]`` of a 2d20 encounter: profile parameter overrides (docs/rules/2d20.md#s3-0)."""

    __pydantic_config__ = {"extra": "allow"}

    #: Players at their own terminals (docs/guide/seating.md) may type their results (the faces rolled, a ``roll`` of
    #: their own) rather than asking the GM: for a table that trusts its players' own dice. Not a profile
    #: parameter, so never among `overrides`.
    seats_enter_results: bool = False
    #: Read-only views show the fight's odds line too (docs/reference/cli.md "The odds of the whole fight"); the
    #: GM's screen always does. Not a profile parameter.
    fight_odds_for_players: bool = False

    def overrides(self) -> dict[str, Any]:
        return extra_of(self)
