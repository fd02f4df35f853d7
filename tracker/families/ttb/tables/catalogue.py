"""The Through the Breach condition catalogue (docs/rules/ttb-conditions.md#s2-7-2) as data.

Kept free of engine code so the file model can validate ``conditions = {...}`` against it.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from tracker.engine import names


class ConditionRule(NamedTuple):
    """What the engine needs to know about one condition."""

    title: str
    valued: bool
    #: "only": refused on non-Living characters; "generally": Poison's softer rule (decision A29).
    living: Literal["only", "generally", None] = None
    #: "turn_end": ends at the owner's turn end (A11); "turn_start": at the owner's next turn start.
    expires: Literal["turn_end", "turn_start", None] = None
    cancels: str | None = None
    summary: str = ""
    #: The heading of the rules reference that has this rule, as the `i` screen names it to the GM:
    #: "Conditions" (docs/rules/ttb-conditions.md#s2-7-2) unless said otherwise.
    section: str = "Conditions"


CONDITIONS: dict[str, ConditionRule] = {
    "bleeding_out": ConditionRule(
        "Bleeding Out", True, "only", summary="+1 at the end of each own turn; dies at +10. Doctor (2 AP) ends it."
    ),
    "burning": ConditionRule("Burning", True, summary="At own turn end: damage equal to the value, then Burning ends."),
    "crazy": ConditionRule("Crazy", True, summary="−value to duels with a Mental Aspect."),
    "dazed": ConditionRule("Dazed", False, summary="+2 TN on every action."),
    "defensive": ConditionRule(
        "Defensive", True, expires="turn_start", summary="⊞ per point on Defense duels (max ⊞⊞⊞)."
    ),
    "fast": ConditionRule("Fast", False, expires="turn_end", cancels="slow", summary="+1 General AP."),
    "focused": ConditionRule(
        "Focused", True, expires="turn_end", summary="Spend on an action for ⊞ per point (max ⊞⊞⊞)."
    ),
    "intoxicated": ConditionRule(
        "Intoxicated", False, "only", summary="⊟ on Willpower duels; gaining it again gives Poison +1."
    ),
    "paralyzed": ConditionRule(
        "Paralyzed",
        False,
        expires="turn_end",
        cancels="reactivate",
        summary="No AP and no actions; gained mid-turn, the turn ends at once.",
    ),
    "poison": ConditionRule("Poison", True, "generally", summary="At own turn end: 1 damage, then −1."),
    "reactivate": ConditionRule(
        "Reactivate", False, cancels="paralyzed", summary="At the end of the round: one extra turn."
    ),
    "slow": ConditionRule("Slow", False, expires="turn_end", cancels="fast", summary="−1 General AP (minimum 1)."),
    "suffocating": ConditionRule(
        "Suffocating",
        True,
        "only",
        summary="At own turn end: Toughness duel vs TN = value, or if unconscious a 3/4/5 flip, no armor.",
    ),
    "useless_arm": ConditionRule("Useless Limb (arm)", False, summary="⊟⊟ on duels that need the arm."),
    "useless_leg": ConditionRule(
        "Useless Limb (leg)", False, summary="Walk −2 (min 1); no Run or Charge; ⊟⊟ on duels needing it."
    ),
    "blind": ConditionRule("Blind", False, summary="⊟⊟ on actions that need sight."),
    "prone": ConditionRule(
        "Prone", False, summary="⊞ on Defense vs projectiles, ⊟ vs melee. Stand Up (1 AP) ends it.", section="Actions"
    ),
    "swimming": ConditionRule("Swimming", False, summary="No Charge.", section="Movement hazards"),
    "hazardous": ConditionRule(
        "In hazardous terrain",
        False,
        summary="A damage flip after moving or at turn end; then immune till next turn.",
        section="Movement hazards",
    ),
    "rough_water": ConditionRule(
        "Swimming in rough water",
        False,
        summary="Athletics at turn start; failure: Suffocating +1, turn ends.",
        section="Movement hazards",
    ),
    "cover": ConditionRule(
        "In soft cover",
        False,
        summary="⊟ on projectile attack flips against it.",
        section="Engagement, shooting, cover",
    ),
    "hard_cover": ConditionRule(
        "In hard cover",
        False,
        summary="⊟ on projectile attack and damage flips against it.",
        section="Engagement, shooting, cover",
    ),
    "unstable": ConditionRule(
        "On an unstable platform",
        False,
        summary="⊟ on its projectile attack flips.",
        section="Engagement, shooting, cover",
    ),
    "flying": ConditionRule(
        "Flying",
        False,
        summary="Ignores terrain; unstable platform for projectile attacks.",
        section="Movement hazards",
    ),
}

#: Conditions taken by `add`/`remove` that are really states of the combatant.
STATES = {"unconscious"}

#: What outlasts the fight (``tracker carry`` writes it to the party file, README "Campaigns"): the conditions
#: whose end in docs/rules/ttb-conditions.md#s2-7-2 is neither a turn or round event nor the fight's own ground or
#: posture. Bleeding Out ends by a Doctor action or death [000:L320]; Crazy by a Centering duel at the start of a day
#: [000:L328]; Dazed with its source, or after six hours' sleep [000:L332, L178]; Intoxicated after 10
#: minutes [000:L360]; the Useless Limbs when healed [000:L384]; Blind with its source [000:L316]; and the
#: Unconscious state only by healing to 1 Wound [000:L354]. Not carried: Burning and Poison run down on the
#: character's own turn ends [000:L324, L368], Defensive, Fast, Focused, Paralyzed, Reactivate and Slow end
#: with a turn or round, Prone with a Stand Up, and Suffocating, Swimming, rough water, hazardous ground and
#: Flying belong to this fight's ground (docs/rules/ttb-turns.md#s2-6).
LASTING = frozenset(
    {"bleeding_out", "crazy", "dazed", "intoxicated", "useless_arm", "useless_leg", "blind", "unconscious"}
)


def condition_key(text: str) -> str:
    """Resolve a typed condition name (any case, spaces or hyphens, unique prefix)."""
    key = names.normalise(text)
    aliases = {"bleeding": "bleeding_out", "useless_limb": "useless_arm", "poisoned": "poison"}
    key = aliases.get(key, key)
    return names.resolve(key, [*CONDITIONS, *STATES], what="condition")


#: When each condition acts, in the GM's words (docs/rules/ttb-conditions.md#s2-7-2, docs/rules/ttb-lifecycle.md#s2-11).
TIMING = {
    "burning": "end of turn: {v} damage (armor applies), then ends",
    "poison": "end of turn: 1 damage, then −1",
    "bleeding_out": "end of turn: +1; dies at +10 (now +{v})",
    "suffocating": "end of turn: Toughness duel vs TN {v} (unconscious: 3/4/5, no armor)",
    "defensive": "⊞ on Defense duels (max ⊞⊞⊞) until its next turn starts",
    "fast": "+1 General AP; ends at the end of its turn",
    "slow": "−1 General AP (min 1); ends at the end of its turn",
    "focused": "spend for ⊞ per point; ends at the end of its turn",
    "paralyzed": "no AP, no actions; ends at the end of its turn",
    "reactivate": "round end: may take one extra turn",
    "dazed": "+2 TN on every action",
    "intoxicated": "⊟ on Willpower duels; again → Poison +1",
    "crazy": "−{v} to Mental duels",
    "prone": "⊞ Defense vs projectiles, ⊟ vs melee; Stand Up 1 AP",
    "blind": "⊟⊟ on actions that need sight",
    "useless_arm": "⊟⊟ on duels needing the arm",
    "useless_leg": "Walk −2, no Run or Charge",
    "hazardous": "damage flip after moving or at turn end",
    "rough_water": "turn start: Athletics or Suffocating +1",
    "swimming": "no Charge",
    "flying": "ignores terrain; unstable platform",
}

#: Short forms for the order table when its Conditions column is narrow (the table shows a legend).
SHORT = {
    "bleeding_out": "Bld",
    "burning": "Brn",
    "crazy": "Crz",
    "dazed": "Dzd",
    "defensive": "Def",
    "fast": "Fst",
    "focused": "Foc",
    "intoxicated": "Itx",
    "paralyzed": "Par",
    "poison": "Psn",
    "reactivate": "Rea",
    "slow": "Slw",
    "suffocating": "Suf",
    "useless_arm": "UAr",
    "useless_leg": "ULg",
    "blind": "Bln",
    "prone": "Prn",
    "swimming": "Swm",
    "hazardous": "Haz",
    "rough_water": "Rgh",
    "flying": "Fly",
    "waiting": "Wt",
    "assisted": "Ast",
    "imposed_by": "ImpBy",
    "tricked_by": "TrkBy",
}
