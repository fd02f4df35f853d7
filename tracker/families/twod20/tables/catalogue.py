"""2d20 conditions and states (docs/rules/2d20-harm.md#s3-11) as data: SRD states and the Infinity conditions.

Effects that are not conditions in the rules but matter at the table (a Stun waiting for the next
turn, Persistent damage still to tick) are listed too, so ``add``/``remove`` and the JSON state treat
them alike (docs/reference/json-state.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from tracker.engine import names
from tracker.families.twod20.tables.quantronic import BREACH_CONDITIONS, BREACH_EFFECTS, METANOIA_EFFECTS


@dataclass(frozen=True)
class TwoD20Condition:
    title: str
    valued: bool = False
    #: Only under profiles with Infinity's conditions (docs/rules/2d20-harm.md#s3-11-2).
    infinity_only: bool = False
    summary: str = ""
    #: The heading of the rules reference that has this rule, as the `i` screen names it to the GM:
    #: "Conditions" (docs/rules/2d20-harm.md#s3-11) unless said otherwise.
    section: str = "Conditions"
    #: Its value X is a number of Challenge Dice rolled (Persistent X, Burning X): at most
    #: `tracker.families.twod20.dice.rolls.MAX_CHALLENGE_DICE`, in a file, a command or a saved state.
    rolls: bool = False


CONDITIONS: dict[str, TwoD20Condition] = {
    "prone": TwoD20Condition("Prone", summary="Ranged from Medium+ harder; melee gains bonus Momentum. Stand (Minor)."),
    "stunned": TwoD20Condition(
        "Stunned", summary="No actions on its next turn; does not stack.", section="Damage and its effects"
    ),
    "snared": TwoD20Condition(
        "Snared", True, summary="Only breaking free (Difficulty = value).", section="Damage and its effects"
    ),
    "persistent": TwoD20Condition(
        "Persistent",
        valued=True,
        summary="X[CD] at the end of each own turn, one tick per Effect.",
        section="Damage and its effects",
        rolls=True,
    ),
    "bleeding": TwoD20Condition("Bleeding", infinity_only=True, summary="3[CD] ignoring Soak at turn start."),
    "blind": TwoD20Condition("Blind", infinity_only=True, summary="3[CD] mental on gain; sight tests +2."),
    "burning": TwoD20Condition(
        "Burning",
        True,
        infinity_only=True,
        summary="X[CD] physical and mental at turn end, for its rounds.",
        rolls=True,
    ),
    "checked": TwoD20Condition("Checked", infinity_only=True, summary="Movement halted in one direction."),
    "crippled": TwoD20Condition(
        "Crippled",
        infinity_only=True,
        summary="Wound Effect: +1 Difficulty to Agility-, Brawn- and Coordination-based attacks [003:L538-551].",
    ),
    "drowning": TwoD20Condition(
        "Drowning", True, infinity_only=True, summary="Resistance test at turn start (Difficulty = value, +1 a turn)."
    ),
    "dazed": TwoD20Condition("Dazed", summary="Tests +1 Difficulty; Dazed again → Staggered (Infinity)."),
    "deafened": TwoD20Condition("Deafened", infinity_only=True, summary="3[CD] mental on gain; hearing tests +2."),
    "fatigued": TwoD20Condition(
        "Fatigued", True, infinity_only=True, summary="+1 complication range per instance; not Absterge."
    ),
    "helpless": TwoD20Condition("Helpless", infinity_only=True, summary="No Reactions; Exploit −1 Difficulty."),
    "hindered": TwoD20Condition("Hindered", summary="Moves one zone fewer; no free movement."),
    "marked": TwoD20Condition("Marked", infinity_only=True, summary="Attackers may reroll d20s against it."),
    "staggered": TwoD20Condition(
        "Staggered", infinity_only=True, summary="1 Momentum to take a Standard Action; Reactions cost more."
    ),
    "stuck": TwoD20Condition("Stuck", infinity_only=True, summary="Cannot move from its place."),
    "unconscious": TwoD20Condition("Unconscious", summary="No actions; Helpless."),
}


#: What outlasts the scene (``tracker carry`` writes it to the party file, README "Campaigns"): the conditions
#: docs/rules/2d20-harm.md#s3-11 ends only by treatment or rest. Infinity's Bleeding, Blind, Dazed and Deafened end by
#: Absterge [003:L396-416, L541-546]; Fatigued needs 8 hours' rest [003:L417-423]; Staggered comes of a second
#: Dazed and the seed gives it no end [003:L444-446], so it lasts until the GM removes it. Not carried: Prone,
#: Stunned, Snared, Persistent and Burning end within the fight [004:L1492; docs/rules/2d20-combat.md#s3-8]; Checked,
#: Helpless, Hindered, Marked and Stuck describe this fight's situation; Unconscious comes of a non-lethal Defeat, whose
#: Harms go at the end of the scene [004:L1964], or of Fatigue, which is carried itself [004:L1896].
LASTING = frozenset({"bleeding", "blind", "dazed", "deafened", "fatigued", "staggered"})


def condition_key(text: str) -> str:
    key = names.normalise(text)
    aliases = {"stun": "stunned", "snare": "snared", "fatigue": "fatigued", "stagger": "staggered"}
    return names.resolve(aliases.get(key, key), CONDITIONS, what="condition")


#: When each effect acts, in the GM's words (docs/rules/2d20-combat.md#s3-8, docs/rules/2d20-harm.md#s3-11).
TIMING = {
    "persistent": "end of turn: X[CD] per instance ({v} tick(s) left)",
    "burning": "end of turn: {v}[CD] to Vigour and Resolve",
    "bleeding": "start of turn: 3[CD] ignoring Soak",
    "stunned": "no actions on its next turn",
    "prone": "ranged from Medium+ harder; melee gains Momentum; Stand (Minor)",
    "dazed": "+1 Difficulty; again → Staggered (Infinity)",
    "staggered": "1 Momentum per Standard Action",
    "snared": "only breaking free (Difficulty {v})",
}

#: Short forms for the order table when its Conditions column is narrow (the table shows a legend).
SHORT = {
    "prone": "Prn",
    "stunned": "Stn",
    "snared": "Snr",
    "persistent": "Per",
    "bleeding": "Bld",
    "blind": "Bln",
    "burning": "Brn",
    "checked": "Chk",
    "crippled": "Crp",
    "dazed": "Dzd",
    "deafened": "Dfn",
    "fatigued": "Ftg",
    "helpless": "Hlp",
    "hindered": "Hnd",
    "marked": "Mrk",
    "staggered": "Stg",
    "stuck": "Stk",
    "unconscious": "Unc",
}


# Infinity's Breach and Metanoia Effects are conditions of their own [003:L553-651], and so is the penalty a
# Reset leaves on comlog and AR actions [003:L664-667] (`tracker.families.twod20.tables.quantronic`).
for _key, _fx in [*((k, BREACH_EFFECTS[k]) for k in BREACH_CONDITIONS), *METANOIA_EFFECTS.items()]:
    _what = "Breach Effect" if _key in BREACH_EFFECTS else "Metanoia Effect"
    CONDITIONS[_key] = TwoD20Condition(_fx.title, infinity_only=True, summary=f"{_what}: {_fx.summary}.")
    TIMING[_key] = f"until {_fx.ends}" if _fx.ends != "permanent" else "permanent"
    SHORT[_key] = _fx.short
CONDITIONS["reset"] = TwoD20Condition(
    "Reset", True, infinity_only=True, summary="Comlog and AR actions +N Difficulty; −1 at each of its turns."
)
TIMING["reset"] = "+{v} Difficulty to comlog/AR actions; −1 at the start of each own turn"
SHORT["reset"] = "Rst"
