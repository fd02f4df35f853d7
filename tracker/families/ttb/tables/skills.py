"""The skills a Through the Breach encounter knows, and a typed skill resolved among them (docs/rules/ttb.md#s2-1).

A skill is named the one way every name is (`tracker.engine.names.resolve`: any case, a unique prefix):
one the encounter does not know is refused, naming the known ones, rather than read as an untrained skill.
Known are the skills the rules themselves duel with, each weapon's attack skill, and every skill on a sheet.
"""

from __future__ import annotations

from tracker.engine import names
from tracker.families.ttb.engine import TTBEngine

#: The skills the rules duel with (docs/rules/ttb.md#s2-1 ``skills``; docs/rules/ttb-turns.md#s2-5 Impose, Trick,
#: Doctor, Show; docs/rules/ttb-turns.md#s2-6 and docs/rules/ttb-conditions.md#s2-7 challenges) and the weapons' default
#: attack skills.
RULE_SKILLS = (
    "athletics",
    "centering",
    "deceive",
    "doctor",
    "intimidate",
    "melee",
    "notice",
    "pistol",
    "scrutiny",
    "toughness",
)


def known(eng: TTBEngine) -> list[str]:
    """Every skill the encounter knows, lower case, sorted."""
    found = set(RULE_SKILLS)
    for sheet in eng.sheets.values():
        found.update(k.casefold() for k in sheet.skills)
        found.update(w.attack_skill() for w in sheet.weapons)
    return sorted(found)


def skill_key(eng: TTBEngine, text: str) -> str:
    """The known skill `text` names (lower case); a one-line Refusal naming the known ones otherwise."""
    return names.resolve(text.strip(), known(eng), what="skill")
