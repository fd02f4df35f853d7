"""2d20 profiles (docs/rules/2d20.md#s3-0) as data: one `Profile` per variant, every parameter overridable.

The engine reads parameters from the profile and never asks which profile it runs (no
``if profile == …`` in the rules), so a table can mix: Infinity with SRD ranged difficulty, say.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any, Literal, get_args, get_origin, get_type_hints

from tracker.engine.errors import Refusal

Rounding = Literal["up", "down", "full"]

#: The SRD's actions (docs/rules/2d20-turns.md#s3-5-1 [004:L1448-1529]) and spends (Swift [004:L1944], Fortune
#: [004:L602-603]).
SRD_ACTIONS: tuple[str, ...] = (
    "attack", "aid", "assist", "create_advantage", "overcome", "pass", "protect", "ready", "recover", "rush",
    "skill_test", "break_free",
    "aim", "bolster", "defend", "disengage", "draw_item", "drop_prone", "stand", "interact", "movement", "prepare",
    "shift", "speak", "drop",
    "hit_the_dirt",
    "swift", "surge", "undefeated",
)  # fmt: skip
#: Infinity's actions (docs/rules/2d20-turns.md#s3-5-2 [003:L171-267]); Swift Action at the SRD cost (B8). Pass is kept
#: for the order's deferral rule (docs/rules/2d20-turns.md#s3-4 rule 6).
INFINITY_ACTIONS: tuple[str, ...] = (
    "assist", "attack", "brace", "exploit", "pass", "ready", "recover", "skill_test", "sprint", "treat", "withdraw",
    "break_free", "absterge", "draw_item", "movement", "stand", "swap_ammo", "transmit",
    "adjust", "drop", "drop_prone", "speak",
    "covering_fire", "defence", "guard", "retaliate", "return_fire",
    "access_system", "reset", "use_program", "link",
    "swift",
)  # fmt: skip
#: The Secret War sheet's Major and Minor actions (docs/rules/2d20-turns.md#s3-5-3 [002:L79-99]): no Swift Action; the
#: SRD's Free actions, Hit the Dirt and the Fortune spends stay (the sheet lists neither Free actions nor Reactions).
SECRET_WAR_ACTIONS: tuple[str, ...] = (
    "assist", "attack", "cast", "catch_breath", "command", "create_truth", "go_prone", "pass", "ready", "rush",
    "stabilise", "skill_test", "break_free",
    "aim", "draw_item", "movement", "prepare",
    "shift", "speak", "drop",
    "hit_the_dirt",
    "surge", "undefeated",
)  # fmt: skip


@dataclass(frozen=True)
class Profile:
    """The parameters that differ between the SRD, Infinity and the "Secret War" sheet."""

    name: str
    #: The GM's pool: "threat" (SRD, SW) or "heat" (Infinity) [003:L19].
    gm_pool: Literal["threat", "heat"] = "threat"
    momentum_max: int = 6
    momentum_decay: int = 1
    #: The player meta-currency: fortune, determination or infinity points.
    meta_currency: Literal["fortune", "determination", "infinity points"] = "fortune"
    meta_max: int = 5
    starting_meta: int = 3
    #: Stress tracks a combatant has when the file gives one number (the SRD's single track).
    default_track: str = "stress"
    #: Track → (harm kind, resistance field) (docs/rules/2d20.md#s3-0 Harm names; docs/rules/2d20-combat.md#s3-9
    #: resistance).
    tracks: tuple[tuple[str, str, str], ...] = (("stress", "wound", "armor"),)
    #: Harm kind suffered by mental damage on a single-track profile.
    mental_harm: Literal["trauma", "metanoia"] = "trauma"
    #: Harms of any kind that defeat (SRD 3); 0 = no such rule.
    defeat_at_harms: int = 3
    #: The complication range of a test with an untrained skill (rating 0): Infinity 2, 19-20 [003:L34-36];
    #: the SRD has no such rule (1: a 20 only).
    untrained_complication_range: int = 1
    #: Harms of one kind that kill/destroy (Infinity: 5 Wounds kill, 5 Breaches destroy) [003:L350-353].
    lethal_harms: tuple[tuple[str, int], ...] = ()
    #: Stress display: "taken" (SRD fills up) or "remaining" (Infinity depletes), decision B32.
    stress_display: Literal["taken", "remaining"] = "taken"
    ranged_base_difficulty: int = 2
    #: "table" (SRD range table) or "either_direction" (Infinity: +1 per category away), C37.
    ranged_step_rule: Literal["table", "either_direction"] = "table"
    melee_base_difficulty: int = 1
    mental_base_difficulty: int = 1
    #: Each attack form's test as "attribute+skill" (docs/rules/2d20.md#s3-0 Melee/Ranged/Mental attack rows): the
    #: odds read an attacker's TN from its sheet with them. SRD mental: Will + Talk of "Fight/Talk".
    melee_test: str = "agility+fight"
    ranged_test: str = "coordination+fight"
    mental_test: str = "will+talk"
    #: The target's test when an attack of that form is opposed, "attribute+skill", alternatives joined by
    #: "|" (the defender takes the best TN); "" when the form has none. SRD melee Coordination + Fight,
    #: mental Will + Survive [004:L1636, L1638]; Infinity's Defence reaction: melee Close Combat or
    #: Acrobatics, ranged Acrobatics, Psywar Discipline [003:L388-390].
    melee_defence: str = "coordination+fight"
    ranged_defence: str = ""
    mental_defence: str = "will+survive"
    #: The forms always opposed by the target (SRD melee and mental [004:L1636-1638]; SW [002:L119-121]).
    opposed_forms: tuple[str, ...] = ("melee", "mental")
    #: The forms a Defence (or an ally's Guard) reaction makes face-to-face (Infinity [003:L299-304]).
    defence_reaction_forms: tuple[str, ...] = ()
    #: The base Difficulty of the target's side of an opposed attack (D1 each [004:L1636; 002:L119]).
    defence_base_difficulty: int = 1
    prone_ranged_difficulty: int = 1
    prone_bonus_momentum: int = 1
    prone_hindered: bool = False
    #: Secondary Target (2 Momentum): half the rolled damage rounded up (SRD), down (Infinity), or the full
    #: damage (Secret War), before the second target's own resistance (B5).
    secondary_target: Rounding = "up"
    #: Bonus Damage: +1 damage per Momentum (Infinity [003:L358-360]) instead of +1[CD] (SRD, SW), B7.
    bonus_damage_flat: bool = False
    #: The most Momentum one attack spends on Bonus Damage; 0 = no cap but the pools (SW: 3 [002:L61, L138]).
    bonus_damage_max: int = 0
    #: The attacker's own bonus damage (docs/rules/2d20.md#s3-0 "Bonus damage"): "skill" adds [CD] equal to the skill
    #: (SRD: Fight for weapons, Talk for mental attacks [004:L1000, L1745]); "attribute" adds [CD] by the
    #: attribute's band, 9 → +1 … 16+ → +5 (Infinity [003:L276-286], SW [002:L101-109]); "none" adds nothing.
    damage_bonus: Literal["skill", "attribute", "none"] = "skill"
    #: The skill or attribute each attack form draws its bonus damage from.
    melee_damage_bonus: str = "fight"
    ranged_damage_bonus: str = "fight"
    mental_damage_bonus: str = "talk"
    #: Infowar (a hack with a ``quantronic`` program): Intelligence + Hacking against the Firewall, Defence by
    #: Hacking, bonus damage by Intelligence [003:L163, L276-286, L387]. A profile with no Firewall track
    #: refuses a hack (the SRD, Secret War).
    infowar_test: str = "intelligence+hacking"
    infowar_defence: str = "intelligence+hacking"
    infowar_damage_bonus: str = "intelligence"
    infowar_base_difficulty: int = 1
    #: Mental and infowar attacks reach Close range and are +1 Difficulty per range category beyond it
    #: (Infinity's Psywar [003:L389], skills at a distance [003:L118]; the SRD's face-to-face threat "a Range
    #: of Close" [004:L2393]); off, they pay no range.
    distance_step: bool = True
    #: A physical hit rolls its hit location on a d20 (Infinity [003:L276-285]); Called Shot picks it.
    hit_locations: bool = False
    #: Called Shot's Momentum: garbled on the screen [003:L458], 2 until the table sets it (B29).
    called_shot_cost: int = 2
    #: Inspire, a psywar spend: allies in the attacker's zone +1[CD] Morale to their next turn [003:L607, L611].
    inspire: bool = False
    #: Confidence's Morale lasts to the end of the scene (SRD [004:L1935]) or to the start of the character's
    #: next turn (Infinity [003:L361-362], SW [002:L140]), B6.
    confidence_lasts: Literal["scene", "turn"] = "scene"
    #: Spends not marked R are taken once per round by each character (B24 [004:L528]); off, once per test.
    spends_once_per_round: bool = True
    dazed_twice_staggered: bool = False
    #: Reactions: "one" per round (SRD) or "escalating" Heat cost 1, 2, 3 … (Infinity, B23).
    reactions: Literal["one", "escalating"] = "one"
    #: Harm threshold; the Scale variant raises it [004:L1975].
    harm_threshold: int = 5
    #: Literal screen reading "1 Harm per 5 stress" (B2), off by default.
    harm_per_5_stress: bool = False
    #: Stress clears at the end of the scene (SRD) or the start of the next (SW, B34).
    stress_recovery: Literal["scene_end", "scene_start"] = "scene_end"
    #: Infinity conditions with timing: Bleeding at turn start, Burning X at turn end (docs/rules/2d20-harm.md#s3-11-2).
    infinity_conditions: bool = False
    #: Initiative-scores variant: roll [CD] = max(Agility, Insight) once per scene instead
    #: (docs/rules/2d20-turns.md#s3-4).
    random_initiative: bool = False
    #: The actions `spend` and the action picker offer, in catalogue keys
    #: (docs/rules/2d20-turns.md#s3-5-1 to #s3-5-3).
    actions: tuple[str, ...] = SRD_ACTIONS
    #: Actions that are Free under this profile whatever the catalogue says (Infinity: Drop Prone [003:L171-176]).
    free_actions: tuple[str, ...] = ()
    #: "Not Drop Prone and Stand in one turn" (SRD [004:L1492]); Infinity has no such rule [003:L226].
    prone_stand_exclusive: bool = True
    #: Leaving an enemy's Reach: "disengage" (SRD: Disengage first, Movement refused) or "retaliate"
    #: (Infinity: allowed, provokes Retaliate unless Withdraw [003:L567-570], B22).
    leave_reach: Literal["disengage", "retaliate"] = "disengage"
    #: The most zones one action may cross; 0 = no limit (Infinity: Extreme range not in one action [003:L584]).
    max_move_zones: int = 0
    #: A Defeated or Dying NPC still takes its turns (one Free Action each, [004:L1872]); off, the hand-over
    #: never offers it and `pick` refuses it: the GM does not run a beaten NPC's turn (judgement,
    #: docs/rules/2d20-turns.md#s3-4).
    defeated_npcs_act: bool = False
    #: The Avoid Injury variant [004:L1996-2012]: once a scene a character may avoid a Harm it suffers, for a
    #: cost: "momentum" (2 Momentum, or 2 added to Threat; an NPC spends 2 Threat), "complication" (2 added to
    #: Threat and a Complication; an NPC spends 2 Threat and suffers one), or "off" (the SRD's own rules).
    avoid_injury: Literal["off", "momentum", "complication"] = "off"
    #: A Staggered character's Reaction also costs an Infinity Point (NPCs: 1 more Heat) [003:L444-446], B23.
    staggered_reaction_point: bool = False
    #: A readied action not triggered is lost at the character's next turn (SRD [004:L1474], Infinity) or at the
    #: end of the round (Secret War [002:L89]), B9.
    ready_lapses: Literal["next_turn", "round_end"] = "next_turn"


PROFILES: dict[str, Profile] = {
    "srd": Profile(name="srd"),
    "infinity": Profile(
        name="infinity",
        gm_pool="heat",
        meta_currency="infinity points",
        starting_meta=0,  # not in the seeds: the GM gives each player's `fortune` (B30)
        default_track="vigour",
        tracks=(("vigour", "wound", "armor"), ("resolve", "metanoia", "courage"), ("firewall", "breach", "bts")),
        mental_harm="metanoia",
        defeat_at_harms=0,
        untrained_complication_range=2,
        lethal_harms=(("wound", 5), ("breach", 5)),
        stress_display="remaining",
        ranged_base_difficulty=1,
        ranged_step_rule="either_direction",
        melee_test="agility+close_combat",
        ranged_test="coordination+ballistics",
        mental_test="personality+persuade",
        melee_defence="agility+close_combat|agility+acrobatics",
        ranged_defence="agility+acrobatics",
        mental_defence="willpower+discipline",
        opposed_forms=(),
        defence_reaction_forms=("melee", "ranged", "mental", "infowar"),
        hit_locations=True,
        inspire=True,
        prone_ranged_difficulty=2,
        prone_bonus_momentum=2,
        prone_hindered=True,
        secondary_target="down",
        bonus_damage_flat=True,
        damage_bonus="attribute",
        melee_damage_bonus="brawn",
        ranged_damage_bonus="awareness",
        mental_damage_bonus="personality",
        confidence_lasts="turn",
        dazed_twice_staggered=True,
        reactions="escalating",
        infinity_conditions=True,
        actions=INFINITY_ACTIONS,
        free_actions=("drop_prone",),
        prone_stand_exclusive=False,
        leave_reach="retaliate",
        staggered_reaction_point=True,
        max_move_zones=2,
    ),
    "secret-war": Profile(
        name="secret-war",
        ranged_base_difficulty=1,
        melee_test="agility+fighting",
        ranged_test="coordination+fighting",
        mental_test="will+academia",
        melee_defence="agility+fighting",
        mental_defence="will+resilience",
        secondary_target="full",
        bonus_damage_max=3,
        damage_bonus="attribute",
        # The sheet gives the bands, not the attributes [002:L101-109]: the SRD's Attribute Bonus Damage
        # variant names them [004:L1750] (Melee Brawn, Ranged Insight, Mental Will).
        melee_damage_bonus="brawn",
        ranged_damage_bonus="insight",
        mental_damage_bonus="will",
        confidence_lasts="turn",
        stress_recovery="scene_start",
        actions=SECRET_WAR_ACTIONS,
        ready_lapses="round_end",
    ),
}

OVERRIDABLE = {f.name for f in fields(Profile)} - {
    "name", "tracks", "lethal_harms", "actions", "free_actions", "opposed_forms", "defence_reaction_forms"
}  # fmt: skip


#: Parameters that are a Difficulty, 0 (Simple) to 5 (Daunting) [004:L373-408].
_DIFFICULTIES = (
    "ranged_base_difficulty",
    "melee_base_difficulty",
    "mental_base_difficulty",
    "prone_ranged_difficulty",
    "defence_base_difficulty",
    "infowar_base_difficulty",
)
#: The largest whole number any other parameter takes: the rules give 6 at most (the Momentum pool
#: [004:L193]), so 99 is a sane cap that still lets a table experiment (README "Limits").
MAX_PARAMETER = 99


def resolve_profile(name: str, overrides: dict[str, Any] | None = None) -> Profile:
    """The named profile with the encounter's overrides applied, each checked against its type and the
    values it may take (a track the profile has, a Difficulty 0-5 …), so that a file the checker accepts
    never breaks the engine later (``default_track = "mana"`` was a KeyError at the first mental hit)."""
    if name not in PROFILES:
        raise Refusal(f"unknown profile '{name}' (srd, infinity, secret-war)")
    base = PROFILES[name]
    if not overrides:
        return base
    clean: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in OVERRIDABLE:
            raise Refusal(f"'{key}' is not a profile parameter")
        current = getattr(base, key)
        if type(value) is not type(current):
            raise Refusal(f"profile parameter '{key}' takes a {type(current).__name__}")
        _check_value(base, key, value)
        clean[key] = value
    profile = replace(base, **clean)
    if profile.starting_meta > profile.meta_max:
        raise Refusal(f"starting_meta ({profile.starting_meta}) is above meta_max ({profile.meta_max})")
    if profile.momentum_decay > profile.momentum_max:
        raise Refusal(f"momentum_decay ({profile.momentum_decay}) is above momentum_max ({profile.momentum_max})")
    if profile.infinity_conditions and len(profile.tracks) < 2:
        raise Refusal(f"infinity_conditions needs a Resolve track (Burning hits it); profile {name} has one track")
    return profile


def _check_value(base: Profile, key: str, value: Any) -> None:
    """Refuse a value the parameter may not take (the type is already right)."""
    allowed = _literals().get(key)
    if allowed is not None and value not in allowed:
        raise Refusal(f"profile parameter '{key}' is one of {', '.join(map(str, allowed))} (not '{value}')")
    if key == "default_track":
        tracks = [t for t, _, _ in base.tracks]
        if value not in tracks:
            raise Refusal(f"profile {base.name} has no stress track '{value}' (tracks: {', '.join(tracks)})")
    if type(value) is int:
        low, high = (0, 5) if key in _DIFFICULTIES else (1 if key == "harm_threshold" else 0, MAX_PARAMETER)
        if not low <= value <= high:
            raise Refusal(f"profile parameter '{key}' runs from {low} to {high} (not {value})")


@cache
def _literals() -> dict[str, tuple[object, ...]]:
    """The values of each parameter typed as a Literal, read from `Profile` itself (one source)."""
    hints = get_type_hints(Profile)
    return {key: get_args(hint) for key, hint in hints.items() if get_origin(hint) is Literal}
