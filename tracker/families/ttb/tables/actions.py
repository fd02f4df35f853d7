"""Through the Breach's actions with their AP costs and categories (docs/rules/ttb-turns.md#s2-4,
docs/rules/ttb-turns.md#s2-5): a table of the game's own words, apart from the legality and the paying
(`tracker.families.ttb.actions`), so the catalogue, the screens and the story read it alone."""

from __future__ import annotations

from typing import Literal, NamedTuple

Category = Literal["movement", "tactical", "combat", "condition", "fate"]


class Action(NamedTuple):
    """One catalogued action. ``cost`` None means "#": the GM gives the AP with the action."""

    title: str
    cost: int | None
    category: Category
    target: bool = False
    summary: str = ""


ACTIONS: dict[str, Action] = {
    "walk": Action("Walk", 1, "movement", summary="Move up to Walk yards."),
    "run": Action("Run", 2, "movement", summary="Move up to 2×Walk + Athletics."),
    "drop_prone": Action("Drop Prone", 1, "movement"),
    "stand_up": Action("Stand Up", 1, "movement"),
    "climb": Action("Climb", 1, "movement", summary="Easy surface, half speed."),
    "climb_hard": Action("Climb (hard surface)", 2, "movement"),
    "assist": Action("Assist", 1, "tactical", True, "Target adds your ranks to its next duel."),
    "cast": Action("Cast Spell", None, "tactical", summary="Not resisted by Df/Wp; AP set by the spell."),
    "defensive": Action("Defensive Stance", None, "tactical", summary="Discard a card: Defensive +AP spent."),
    "focus": Action("Focus", 1, "tactical", summary="Focused +1 until end of turn."),
    "impose": Action("Impose", 1, "tactical", True, "Intimidate vs Centering."),
    "manipulate": Action("Manipulate Object", 1, "tactical"),
    "order": Action("Order", 1, "tactical", True, "A subordinate acts right after this turn."),
    "pass": Action("Pass", 1, "tactical", summary="Initiative +1 from next round."),
    "ready": Action("Ready Weapon", 1, "tactical"),
    "reload": Action("Reload", None, "tactical", summary="AP towards the weapon's Reload cost."),
    "trick": Action("Trick", 1, "tactical", True, "Deceive vs Scrutiny."),
    "wait": Action("Wait", None, "tactical", summary="Named action's AP + 1; Initiative −1."),
    "strike": Action("Strike", 1, "combat", summary="One melee attack."),
    "shoot": Action("Strike (projectile)", 1, "combat", summary="One projectile attack; not while engaged."),
    "cast_resisted": Action("Cast Spell (resisted)", None, "combat"),
    "charge": Action("Charge", 2, "combat", True, "Move up to Charge yards, then two melee attacks."),
    "show": Action("Show", 1, "combat", True, "Athletics vs Athletics; push 1 yard + MoS."),
    "reduce_burning": Action("Reduce Burning", 1, "condition", True, "Burning −1 within 1 yard."),
    "doctor": Action("Doctor", 2, "condition", True, "TN 15 (20 on oneself): ends Bleeding Out."),
    "quick_action": Action("Quick Action", 0, "fate", summary="1 Fate Point: +1 General AP."),
    "recovery": Action("Recovery", 0, "fate", summary="1 Fate Point: remove one condition."),
    "second_wind": Action("Second Wind", 0, "fate", summary="1 Fate Point: heal 2."),
    "competence": Action("Competence", 0, "fate", summary="1 Fate Point: ⊞ on one duel."),
}
ALIASES = {
    "prone": "drop_prone",
    "stand": "stand_up",
    "quick": "quick_action",
    "defend": "defensive",
    "fire": "shoot",
    "attack": "strike",
    "reduce": "reduce_burning",
}
