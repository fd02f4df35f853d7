"""Infinity's infowar and psywar as data: the Breach Effects, the psywar techniques and their Metanoia Effects
[003:L553-651], as conditions the tracker keeps like any other (docs/reference/json-state.md ``conditions``).

A Breach Effect or a Metanoia Effect is a condition on the character who suffered it: the Conditions panel
shows it with when it ends, the JSON state lists it under ``conditions``, ``remove`` ends it, and the GM may
``add`` one by hand. Those the seed says Absterge ends say so; Revoke Authentication is permanent; the rest
(and every Metanoia Effect, whose duration the screen does not give) last until the GM removes them
(docs/guide/decisions.md "Infowar and psywar").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Lingering:
    """A Breach or Metanoia Effect: its title, what it does, and when it ends."""

    title: str
    summary: str
    ends: str
    short: str


#: The Breach Effects [003:L614-651], keyed as ``answer`` and ``add`` take them. Blind and Dazed are the
#: conditions of those names (Blind after a failed Resistance or Tech test, Difficulty = current Breaches;
#: Dazed again → Staggered); Brain Blast turns the Breach into a Wound and leaves no condition.
BREACH_EFFECTS: dict[str, Lingering] = {
    "blind": Lingering("Blind", "Resistance or Tech test (D = current Breaches) or Blind", "Absterge", "Bln"),
    "brain_blast": Lingering("Brain Blast", "neural equipment: a Wound instead of the Breach", "at once", ""),
    "dazed": Lingering("Dazed", "Dazed; Staggered if already Dazed", "Absterge", "Dzd"),
    "data_manipulation": Lingering(
        "Data Manipulation", "the hacker accesses and manipulates the target's files", "the GM removes it", "DtM"
    ),
    "disable_function": Lingering(
        "Disable Function", "one program or piece of equipment ceases to function", "the GM removes it", "DsF"
    ),
    "lock_connection": Lingering("Lock Connection", "cannot disconnect from the current system", "Absterge", "Lck"),
    "revoke_authentication": Lingering(
        "Revoke Authentication", "one authentication the target held is revoked", "permanent", "Rvk"
    ),
    "system_disruption": Lingering(
        "System Disruption", "+1 Difficulty to actions with Comms Equipped or Expert gear", "the GM removes it", "SyD"
    ),
    "spoof_sniff": Lingering(
        "Spoof/Sniff", "the hacker duplicates a system ID: access to one system", "the GM removes it", "Spf"
    ),
    "tagged": Lingering("Tag", "tracked; usable as a repeater", "the GM removes it", "Tag"),
}
#: Breach Effects that are no condition of their own (Blind and Dazed are; Brain Blast is a Wound).
BREACH_CONDITIONS = tuple(k for k in BREACH_EFFECTS if k not in ("blind", "dazed", "brain_blast"))


@dataclass(frozen=True)
class Technique:
    """A psywar technique [003:L553-563]: the skill it tests (with Personality) and its Metanoia Effect."""

    skill: str
    metanoia: str


#: The psywar techniques [003:L555-563]: all 1+4[CD] mental damage. Intimidate's row is lost to the OCR
#: (L559); the one description the table has left over (L595, "Forge a friendship") is read as its effect.
TECHNIQUES: dict[str, Technique] = {
    "coax": Technique("persuade", "break_social_connection"),
    "deceive": Technique("persuade", "create_social_connection"),
    "influence": Technique("persuade", "emotional_state"),
    "intimidate": Technique("persuade", "friendship"),
    "negotiate": Technique("persuade", "gain_information"),
    "order": Technique("command", "gain_lose_access"),
    "rumour": Technique("lifestyle", "influence_belief"),
    "seduce": Technique("persuade", "monitor"),
}

#: The Metanoia Effects [003:L553-603], each its technique's; the seed gives them no duration.
METANOIA_EFFECTS: dict[str, Lingering] = {
    "break_social_connection": Lingering(
        "Break Social Connection", "a dyadic Link removed from the social network map", "the GM removes it", "BSC"
    ),
    "create_social_connection": Lingering(
        "Create Social Connection", "a dyadic link to a new social zone", "the GM removes it", "CSC"
    ),
    "emotional_state": Lingering(
        "Emotional State", "an emotion created in the target (panic, suspicion, trust …)", "the GM removes it", "Emo"
    ),
    "friendship": Lingering("Friendship", "a friendship forged with someone else", "the GM removes it", "Frn"),
    "gain_information": Lingering(
        "Gain Information", "information gained by bluff or social research", "the GM removes it", "GIn"
    ),
    "gain_lose_access": Lingering(
        "Gain/Lose Access", "access to a dyadic link gained or lost", "the GM removes it", "Acc"
    ),
    "influence_belief": Lingering("Influence Belief", "convinced that something is true", "the GM removes it", "Blf"),
    "monitor": Lingering(
        "Monitor", "the attacker learns the target's actions and movements", "the GM removes it", "Mon"
    ),
}


def technique(weapon_name: str) -> Technique | None:
    """The psywar technique a weapon's name names ("Intimidate", "Order (megaphone)"), or None."""
    head = weapon_name.casefold().replace("(", " ").split()
    return TECHNIQUES.get(head[0]) if head else None
