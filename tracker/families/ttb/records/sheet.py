"""The Through the Breach parts of the encounter file (docs/rules/ttb.md#s2-1): ranks, combatants, weapons and
the table's ``[settings]``.

They live in the TTB package, not in `tracker.engine.records.model`, so that the shared file layer imports neither
family: a 2d20 encounter then never loads the TTB cards, and the two families stay independent (the
import-linter contract in pyproject.toml checks it).
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Literal

from tracker.engine.errors import Refusal
from tracker.engine.records.conditions import CombatantEntry, ConditionCatalogue, known_conditions
from tracker.engine.records.model import ConditionValue, Located, Strict, raise_located
from tracker.engine.records.record import record
from tracker.families.ttb.fate.cards import parse_card, parse_damage_profile
from tracker.families.values import Tactic

if TYPE_CHECKING:  # pydantic's markers, read by pydantic only (`tracker.engine.records.validation`)
    from pydantic import AfterValidator, Field, ValidationInfo

#: Rank bands of Fatemaster characters, docs/rules/ttb.md#s2-1 [000:L419-424].
RANKS: tuple[tuple[str, int, int, int], ...] = (
    # name, lowest rank value, highest rank value, starting Fate Points
    ("Peon", 1, 4, 0),
    ("Minion", 5, 6, 1),
    ("Enforcer", 7, 8, 2),
    ("Henchman", 9, 11, 3),
    ("Master", 12, 13, 4),
    ("Tyrant", 14, 14, 5),
)
RANK_NAMES = tuple(r[0].lower() for r in RANKS)


def rank_of(rank_value: int) -> str:
    """The rank name a Rank Value falls in (the tracker stores the value and derives the rank)."""
    for name, low, high, _ in RANKS:
        if low <= rank_value <= high:
            return name
    raise ValueError(f"Rank Value {rank_value} is outside 1-14")


def starting_fate_points(rank_value: int) -> int:
    """Fate Points a Fatemaster character starts with, by rank [000:L419-424]."""
    for _, low, high, points in RANKS:
        if low <= rank_value <= high:
            return points
    raise ValueError(f"Rank Value {rank_value} is outside 1-14")


#: Armor is at most +3, though the Fatemaster may exceed it: more is accepted with a warning (docs/rules/index.md
#: docs/rules/ttb.md#s2-1, decision A27, from 001:L123).
MAX_ARMOR = 3


def hand_problems(hand: list[str], pile: str = "a Control Hand") -> list[Located]:
    """What is wrong with a starting Control Hand (or Twist discard pile), each at its entry (docs/rules/ttb.md#s2-2-2).

    Every card must be a card; each card is in the hand once (a Twist Deck holds each card once); and no
    Joker: the Control Hand is drawn from the Twist Deck [000:L167], whose 13 cards are valued 1-13
    [001:L25], so a Joker of the Fate Deck never reaches it, nor the Twist discards.
    """
    problems: list[Located] = []
    seen: set[str] = set()
    for n, text in enumerate(hand):
        try:
            card = parse_card(text)
        except Refusal as exc:
            problems.append(((n,), str(exc)))
            continue
        if card.is_red_joker or card.is_black_joker:
            problems.append(((n,), f"{pile} never holds a Joker ('{text}'): it is drawn from the Twist Deck"))
        elif card.code in seen:
            problems.append(((n,), f"'{text}' is in the {'hand' if pile == 'a Control Hand' else 'pile'} twice"))
        seen.add(card.code)
    return problems


EndOfTurnEffect = Literal["burning", "poison", "suffocating", "bleeding_out"]
END_OF_TURN_DEFAULT: tuple[EndOfTurnEffect, ...] = ("burning", "poison", "suffocating", "bleeding_out")


def _profile(value: str) -> str:
    if parse_damage_profile(value) is None:
        raise ValueError("must be weak/moderate/severe damage, e.g. '1/2/3'")
    return value


def _all_four_once(value: list[str]) -> list[str]:
    if sorted(value) != sorted(["burning", "poison", "suffocating", "bleeding_out"]):
        raise ValueError("must list burning, poison, suffocating and bleeding_out, each once")
    return value


@record
class TTBSettings(Strict):
    """``[settings]`` for Through the Breach: every option docs/rules/decisions.md#s5-1 marks as a table choice.

    Each default is the recommended decision of docs/rules/index.md; the README lists them.
    """

    #: Combat AP per turn, spent only on Combat actions before General AP (docs/rules/ttb-turns.md#s2-4, decision A4).
    combat_ap: Annotated[int, Field(ge=0, le=3)] = 1
    #: Armor reduces condition damage such as Burning (decision A15; minimum 1 still applies).
    armor_vs_conditions: bool = True
    #: Poison on a non-Living character: "apply" with a warning, or "block" (decision A29).
    poison_non_living: Literal["apply", "block"] = "apply"
    #: Flips the rules need (critical, Suffocating damage, hazards): "prompt" the table for a card
    #: (the answer may be ``flip``), or "auto" to flip from the tracker's Fate Deck at once.
    flips: Literal["prompt", "auto"] = "prompt"
    #: Cheating Fate (docs/rules/ttb.md#s2-2-4): after a Fated's flip made by the tracker (a duel answered ``flip``, a
    #: Fated attacker's damage flip) the engine offers the hand's cards that would help. Off for tables
    #: that cheat at the table and type the final card.
    offer_cheat: bool = True
    #: Players at their own terminals (docs/guide/seating.md) may type their results (``answer pass 2``, a card, a
    #: ``flip`` of their own) rather than asking the GM: for a table that trusts its players' own cards.
    seats_enter_results: bool = False
    #: Read-only views show the fight's odds line too (docs/reference/cli.md "The odds of the whole fight"); the
    #: GM's screen always does.
    fight_odds_for_players: bool = False
    #: A Fatemaster character flips no card (docs/rules/ttb.md#s2-2-5), so the ⊞ and ⊟ its own state would give its duel
    #: (Defensive, Prone, Blind …) reach the Fated's flip against it as the opposite modifier ("reverse"), or
    #: are dropped ("ignore"). The seeds are silent (docs/guide/decisions.md).
    fatemaster_modifiers: Literal["reverse", "ignore"] = "reverse"
    #: 1E option: re-check unconsciousness at every round end while at 0 Wounds or less (decision A10).
    recheck_unconscious_each_round: bool = False
    #: A Fatemaster character that ignores critical effects, at 0 Wounds or less [000:L419]: "fights_on" (decision
    #: A35: no critical, never unconscious, it dies only where a rule says), or "toughness" (the rank table's
    #: "fail unless ignores critical effects" read as: it does not fail the check, it takes it, the TN 10
    #: Toughness challenge a Fated takes) — a fight against one can then be won (docs/guide/decisions.md).
    critical_immune_at_zero: Literal["fights_on", "toughness"] = "fights_on"
    #: Damage flip of hazardous terrain (docs/rules/ttb-turns.md#s2-6: "usually 1/2/3").
    hazard_damage: Annotated[str, AfterValidator(_profile)] = "1/2/3"
    #: TN of the Athletics challenge for swimming in rough water (docs/rules/ttb-turns.md#s2-6; the seeds give no
    #: number).
    rough_water_tn: Annotated[int, Field(ge=1)] = 10
    #: Order of end-of-turn effects (decision A14); expiries always run last.
    end_of_turn_order: Annotated[list[EndOfTurnEffect], AfterValidator(_all_four_once)] = field(
        default_factory=lambda: list(END_OF_TURN_DEFAULT)
    )


def _wms(value: str) -> str:
    if parse_damage_profile(value) is None:
        raise ValueError("damage must be weak/moderate/severe, e.g. '2/3/5'")
    return value


@record
class Weapon(Strict):
    """A readied weapon (docs/rules/ttb.md#s2-1 ``readied_weapons``)."""

    name: Annotated[str, Field(min_length=1)]
    kind: Literal["melee", "projectile"] = "melee"
    range: Annotated[int, Field(ge=0)] = 1
    damage: Annotated[str, AfterValidator(_wms)] = "1/2/3"
    #: AP needed to reload (0: never needs reloading); AP may be spread over turns (docs/rules/ttb-turns.md#s2-5
    #: Reload).
    reload: Annotated[int, Field(ge=0)] = 0
    #: Shots before a reload is needed; absent means the tracker does not count shots.
    capacity: Annotated[int | None, Field(ge=1)] = None
    #: The skill of the attack duel the tracker flips (`answer flip`): its acting value is read from the
    #: combatant's ``skills``; default "melee" for melee weapons and "pistol" for projectile ones.
    skill: str | None = None
    #: Blast icons [000:L130]: every character within 2 yards of the primary target per icon suffers the
    #: damage one level lower, with no flip (docs/reference/language.md "Blast, Pulse and Aura").
    blast: Annotated[int, Field(ge=0, le=5)] = 0

    def attack_skill(self) -> str:
        """The ``skills`` key of this weapon's attack duel."""
        return (self.skill or ("melee" if self.kind == "melee" else "pistol")).casefold()


@record
class TwistSuits(Strict):
    """A Twist Deck described by the character's suit choices (13 cards, values 1-13) [001:L25]."""

    defining: Literal["rams", "crows", "tomes", "masks"] = "rams"
    ascendant: Literal["rams", "crows", "tomes", "masks"] = "crows"
    center: Literal["rams", "crows", "tomes", "masks"] = "tomes"
    descendant: Literal["rams", "crows", "tomes", "masks"] = "masks"

    def cards(self) -> list[str]:
        """Defining suit on 1, 5, 9, 13; ascendant 2, 6, 10; center 3, 7, 11; descendant 4, 8, 12."""
        by_slot = [self.defining, self.ascendant, self.center, self.descendant]
        return [f"{v}{by_slot[(v - 1) % 4][0].upper()}" for v in range(1, 14)]


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except Refusal:
        return False
    return True


def _rank_band(value: int | None, info: ValidationInfo) -> int | None:
    """A Rank Value must fall in its rank's band when the rank is named (decision A26)."""
    rank = info.data.get("rank")
    if value is not None and rank is not None:
        for title, low, high, _ in RANKS:
            if title.lower() == rank and not low <= value <= high:
                band = f"{low}-{high}" if low != high else f"{low}"
                raise ValueError(f"a {title} has Rank Value {band}, not {value}")
    return value


def _real_cards(value: list[str] | None) -> list[str] | None:
    """A bad card in the hand is a problem of the file at that entry, not a refusal at start."""
    raise_located(hand_problems(value or []))
    return value


def _real_discards(value: list[str] | None) -> list[str] | None:
    raise_located(hand_problems(value or [], "the Twist discard pile"))
    return value


def _suit_letters(value: dict[str, str]) -> dict[str, str]:
    """Each skill's suits as letters (``R``, ``C``, ``T``, ``M``; several for several suits)."""
    for skill, suits in value.items():
        letters = suits.strip().upper()
        if not letters or any(c not in "RCTM" for c in letters):
            raise ValueError(f"suits.{skill} = '{suits}': give suit letters R (Rams), C (Crows), T (Tomes), M (Masks)")
    return {k.casefold(): v.strip().upper() for k, v in value.items()}


def _known_conditions(value: dict[str, int | bool]) -> dict[str, int | bool]:
    return known_conditions(value, TTBCombatant.condition_catalogue())


@record
class TTBCombatant(CombatantEntry):
    """One ``[[combatants]]`` entry for Through the Breach (docs/rules/ttb.md#s2-1)."""

    name: Annotated[str, Field(min_length=1)]
    side: str | None = None
    kind: Literal["fated", "fatemaster"] = "fatemaster"
    #: Optional: when given, rank_value must fall in its band (Minion 5-6 …), decision A26.
    rank: Literal["peon", "minion", "enforcer", "henchman", "master", "tyrant"] | None = None
    rank_value: Annotated[int | None, Field(ge=1, le=14), AfterValidator(_rank_band)] = None
    initiative: int = 0
    speed: int = 0
    wounds: Annotated[int, Field(ge=1)]
    #: Wounds left at the start of the fight when not all of them (docs/rules/ttb.md#s2-1 ``wounds_current``, which
    #: may be 0 or less): what ``tracker carry`` writes for a party member hurt in an earlier fight.
    wounds_left: int | None = None
    defense: int = 0
    willpower: int = 0
    #: Walk in yards. Absent: unknown to the tracker, and the log says "up to its Walk" instead of
    #: presenting a default as the character's stat (`tracker.families.ttb.movement.distance`).
    walk: Annotated[int | None, Field(ge=0)] = None
    #: Charge in yards; "--" (written as the string) means the character cannot Charge.
    charge: int | Literal["--"] = 5
    height: Annotated[int, Field(ge=0)] = 2
    armor: Annotated[int, Field(ge=0)] = 0
    living: bool = True
    subordinate: bool = False
    #: Who may Order this subordinate (docs/rules/ttb-turns.md#s2-5 Order); any character may when absent.
    controller: str | None = None
    fate_points: Annotated[int | None, Field(ge=0)] = None
    #: Readied melee weapon's engagement range in yards; 0 means no melee weapon readied.
    melee_range: Annotated[int, Field(ge=0)] = 1
    twist_deck: TwistSuits | list[str] | None = None
    #: The Control Hand at the start; absent means "draw 3 at the start of Dramatic Time".
    hand: Annotated[list[str] | None, AfterValidator(_real_cards)] = None
    #: The Twist discard pile at the start (docs/rules/ttb.md#s2-1 ``twist_discard``): what ``tracker carry`` writes for
    #: a Fated whose played and discarded Twist cards stay out of the Twist Deck until it runs out [001:L36].
    twist_discard: Annotated[list[str] | None, AfterValidator(_real_discards)] = None
    #: Acting values the tracker adds when the GM answers a duel prompt with ``flip``.
    skills: dict[str, int] = field(default_factory=dict)
    #: The suits on a skill's acting value (AV = ranks + Aspect, suits included [000:L55]): a trigger may
    #: use them as it uses the card's suit [000:L67]; e.g. ``suits = { melee = "R" }``.
    suits: Annotated[dict[str, str], AfterValidator(_suit_letters)] = field(default_factory=dict)
    weapons: list[Weapon] = field(default_factory=list)
    ignores_critical_effects: bool = False
    surprised: bool = False
    base_general_ap: Annotated[int, Field(ge=0, le=5)] = 2
    conditions: Annotated[dict[str, ConditionValue], AfterValidator(_known_conditions)] = field(default_factory=dict)
    gm_only: bool = False
    #: How the default policy plays it in the fight's odds (docs/reference/file-format.md "tactics").
    tactics: Tactic | None = None
    notes: str = ""

    @classmethod
    def condition_catalogue(cls) -> ConditionCatalogue:
        from tracker.families.ttb.tables.catalogue import CONDITIONS, STATES, condition_key

        return condition_key, CONDITIONS, STATES

    def check(self) -> None:
        """The sheet as a whole: conditions for the living, wounds left, what each kind of character has."""
        self._living_only()
        self._wounds_left()
        self._kind_rules()

    def _living_only(self) -> None:
        """Bleeding Out, Intoxicated and Suffocating only affect Living characters (docs/rules/ttb-conditions.md#s2-7-1,
        C2).

        Reported at the ``conditions`` key (the errors of a model validator carry their key: `located`)."""
        from tracker.families.ttb.tables.catalogue import CONDITIONS

        if not self.living:
            held = [CONDITIONS[k].title for k in self.conditions if k in CONDITIONS and CONDITIONS[k].living == "only"]
            if held:
                verb = "affects" if len(held) == 1 else "affect"
                message = f"{', '.join(held)} only {verb} Living characters; {self.name} has living = false"
                raise_located([(("conditions",), message)])

    def _wounds_left(self) -> None:
        """Wounds left never exceed the Wounds (healing stops at the maximum, docs/rules/ttb-damage.md#s2-8-3, A38)."""
        if self.wounds_left is not None and self.wounds_left > self.wounds:
            raise_located([(("wounds_left",), f"wounds_left is {self.wounds_left}, above wounds ({self.wounds})")])

    def _kind_rules(self) -> None:
        """Rank is for Fatemaster characters, the Control Hand for Fated ones; each problem at its key
        (a missing rank_value at the combatant's header)."""
        problems: list[Located] = []
        if self.kind == "fatemaster":
            if self.rank_value is None:
                problems.append(((), "a Fatemaster character needs rank_value (Peon 1-4 … Tyrant 14)"))
        else:
            if self.rank_value is not None or self.rank is not None:
                key = "rank_value" if self.rank_value is not None else "rank"
                problems.append(
                    ((key,), "rank and rank_value are for Fatemaster characters; Fated flip for initiative")
                )
            if self.fate_points is not None:
                problems.append(
                    (("fate_points",), "fate_points are for Fatemaster characters (Fated have a Control Hand)")
                )
            if self.twist_discard and self.hand:
                held = {parse_card(c).code for c in self.hand if _is_card(c)}
                for n, text in enumerate(self.twist_discard):
                    if _is_card(text) and parse_card(text).code in held:
                        problems.append((("twist_discard", n), f"'{text}' is in the hand: a card is in one pile"))
        if self.kind == "fatemaster" and self.twist_discard is not None:
            problems.append((("twist_discard",), "twist_discard is for Fated characters (they have a Twist Deck)"))
        raise_located(problems)

    @property
    def fated(self) -> bool:
        return self.kind == "fated"

    @property
    def side_name(self) -> str:
        return self.side or ("players" if self.fated else "fatemaster")

    def rank_title(self) -> str | None:
        return None if self.rank_value is None else rank_of(self.rank_value)

    def enforcer_or_higher(self) -> bool:
        """Fate Point abilities are for non-subordinate Enforcers and up [000:L394]."""
        return self.rank_value is not None and self.rank_value >= 7 and not self.subordinate

    def twist_cards(self) -> list[str]:
        if isinstance(self.twist_deck, list):
            return list(self.twist_deck)
        return (self.twist_deck or TwistSuits()).cards()
