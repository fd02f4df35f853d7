"""Infinity's infowar and psywar in the attack flow's test (docs/reference/language.md; [003:L553-680]).

A hack is an attack with a program whose effects say ``quantronic``: Intelligence + Hacking at Average (D1)
against a target within Close range (+1 Difficulty per range category beyond, as any skill used at a
distance [003:L118]), face-to-face with the target's Hacking if it takes the Defence reaction, bonus damage
by Intelligence, soaked by BTS and Interference, and its stress comes off the Firewall; its Harm is a
Breach [003:L163, L272, L276-286, L327-348, L387]. A target with no Firewall cannot be hacked: the attack
is refused before anything changes. What the Breaches bring is `tracker.families.twod20.breaches`.

A psywar attack is a mental one (a ``mental`` weapon): Personality + Persuade, or the skill its technique
names (Order: Command; Rumour: Lifestyle [003:L555-563]). Both pay the Heat an NPC's bought d20s and the
target's Defence reaction cost, as every attack does [003:L19; B23].
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.engine import names
from tracker.families.twod20.tables.quantronic import technique

if TYPE_CHECKING:
    from tracker.families.twod20.engine import TwoD20Engine
    from tracker.families.twod20.records.sheet import TwoD20Weapon

INFOWAR = "infowar"
#: The weapon effect that makes an attack a hack (the Intrusion's damage type [003:L272]).
QUANTRONIC = "quantronic"
#: Range categories beyond Close, each +1 Difficulty for a mental or infowar attack [003:L118, L389].
_STEPS = {"close": 0, "medium": 1, "long": 2, "extreme": 3}


def is_hack(weapon: TwoD20Weapon) -> bool:
    return any(e.partition("=")[0].strip().casefold() == QUANTRONIC for e in weapon.effects)


def distance_parts(eng: TwoD20Engine, kind: str, category: str) -> list[tuple[int, str]]:
    """+1 Difficulty per range category beyond Close for a mental or infowar attack (profile ``distance_step``)."""
    step = _STEPS.get(category, 0)
    if kind not in ("mental", INFOWAR) or not eng.profile.distance_step or not step:
        return []
    return [(step, f"{category.title()} range (beyond Close)")]


def test_spec(spec: str, weapon: TwoD20Weapon | None, kind: str) -> str:
    """The form's test with the weapon's own skill, or its psywar technique's, in place of the form's."""
    if weapon is None:
        return spec
    found = technique(weapon.name) if kind == "mental" else None
    skill = weapon.skill or (found.skill if found else None)
    if not skill:
        return spec
    return "|".join(f"{choice.partition('+')[0]}+{names.normalise(skill)}" for choice in spec.split("|"))


def attacker_parts(eng: TwoD20Engine, who: str, kind: str) -> list[tuple[int, str]]:
    """What the hacker's own state adds to a hack: System Disruption +1 (its hacking device is Comms gear
    [003:L645-647]) and a Reset's penalty on comlog actions [003:L664-667]."""
    if kind != INFOWAR:
        return []
    a = eng.fighter(who)
    parts = [(1, "System Disruption")] if a.conditions.get("system_disruption") else []
    penalty = int(a.conditions.get("reset", 0))
    if penalty:
        parts.append((penalty, "Reset (comlog)"))
    return parts


def firewall(eng: TwoD20Engine) -> str | None:
    """The profile's Firewall track (its third), or None when it has none (SRD, Secret War)."""
    tracks = eng.profile.tracks
    return tracks[2][0] if len(tracks) > 2 else None


def firewall_refusal(eng: TwoD20Engine, target: str, kind: str) -> str:
    """Why `target` cannot be hacked (no Firewall to attack [003:L344-345], or a system its Breaches have
    destroyed [003:L350]), or ""."""
    if kind != INFOWAR:
        return ""
    track = firewall(eng)
    if track is None:
        return f"the {eng.profile.name} profile has no Firewall: there is nothing to hack"
    if track not in eng.tracks(target):
        return f"{target} has no Firewall: there is nothing to hack [003:L344-345]"
    breach = eng.profile.tracks[2][1]
    for kind, limit in eng.profile.lethal_harms:
        if kind == breach and eng.fighter(target).harms.get(kind, 0) >= limit:
            return f"{target}'s system is destroyed ({limit} Breaches): there is nothing left to hack [003:L350]"
    return ""
