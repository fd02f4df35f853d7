"""2d20 conditions gained and lost on the GM's word (docs/rules/2d20-harm.md#s3-11): ``add`` and ``remove``.

Fatigue rides on the same commands; Persistent and Burning keep their instance counts beside the
condition value, and Infinity's Blind and Deafened deal their mental damage on gain.
"""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.families.twod20 import harm
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.state import Persistent
from tracker.families.twod20.tables.catalogue import CONDITIONS, condition_key
from tracker.present.words import counted


def gain(eng: TwoD20Engine, name: str, text: str, n: int | None) -> None:
    """``add NAME CONDITION [N]`` (docs/rules/2d20-harm.md#s3-11): Fatigue, a state, or a valued condition's N (default
    1)."""
    raw = text.casefold().replace("-", "_")
    a = eng.fighter(name)
    if raw == "fatigue":
        harm.fatigue(eng, name, n or 1, "GM")
        return
    key = condition_key(text)
    rule = CONDITIONS[key]
    if rule.infinity_only and not eng.profile.infinity_conditions:
        raise Refusal(f"{rule.title} is an Infinity condition; this encounter's profile is {eng.profile.name}")
    if n is not None and not rule.valued:
        raise Refusal(f"{rule.title} is not valued: add it without a number")
    if rule.rolls and n is not None and n > dice.MAX_CHALLENGE_DICE:
        raise Refusal(f"{rule.title} X rolls X[CD]: X is at most {dice.MAX_CHALLENGE_DICE} (not {n})")
    if n is not None and n < 1:
        raise Refusal(f"{rule.title} must gain at least 1")
    if key == "dazed" and a.conditions.get("dazed") and eng.profile.dazed_twice_staggered:
        a.conditions["staggered"] = True
        eng.log(f"{name} is Dazed again: Staggered (1 Momentum per Standard Action)")
        return
    if key == "persistent":
        a.persistent.append(Persistent(x=n or 1, track=next(iter(eng.tracks(name))), ticks=1))
        a.conditions["persistent"] = sum(p.ticks for p in a.persistent)
        eng.log(f"{name} gains Persistent {n or 1} (one tick at its next turn end)")
        return
    if key == "burning":
        a.conditions["burning"] = max(int(a.conditions.get("burning", 0)), n or 1)
        a.burning_rounds = max(a.burning_rounds, 1)
        eng.log(f"{name} is Burning {a.conditions['burning']} ({counted(a.burning_rounds, 'round')})")
        return
    if rule.valued:
        a.conditions[key] = int(a.conditions.get(key, 0)) + (n or 1)
        eng.log(f"{name} gains {rule.title} +{n or 1} → {a.conditions[key]}")
    else:
        held = bool(a.conditions.get(key))
        a.conditions[key] = True
        if key == "unconscious":
            a.unconscious = True
        eng.log(f"{name} {'already has' if held else 'gains'} {rule.title}")
        if key in ("blind", "deafened") and not held and eng.profile.infinity_conditions:
            mental = eng.profile.tracks[1][0] if len(eng.profile.tracks) > 1 else "mental"
            if mental != "mental" and mental not in eng.tracks(name):
                # No Resolve track (a drone, an object): nothing takes the mental damage. Damaging it anyway
                # was refused only after the condition was set, leaving a refused command half-applied.
                eng.log(f"{name} has no {mental.title()} track: no mental damage from {rule.title}")
                return
            roll = dice.roll_challenge(eng.st, 3)
            harm.damage(
                eng,
                name,
                harm.Hit(total=roll.total, icons=roll.icons, track=mental, why=f"{rule.title} ({roll.describe()})"),
            )


def lose(eng: TwoD20Engine, name: str, text: str, n: int | None) -> None:
    """``remove NAME CONDITION [N]``: Fatigue down by N (all without N), or a condition lowered by N or ended."""
    a = eng.fighter(name)
    if text.casefold() == "fatigue":
        if a.fatigue < 1:
            raise Refusal(f"{name} has no Fatigue")
        a.fatigue = max(0, a.fatigue - (n or a.fatigue))
        eng.log(f"{name}'s Fatigue is now {a.fatigue}")
        return
    key = condition_key(text)
    if not a.conditions.get(key):
        raise Refusal(f"{name} does not have {CONDITIONS[key].title}")
    if key == "persistent":
        a.persistent = []
    if key == "unconscious":
        a.unconscious = False
    if key == "snared":
        a.snare_kind = "physical"
    if key == "burning":
        a.burning_rounds = 0
    if n is not None and CONDITIONS[key].valued and int(a.conditions[key]) > n:
        a.conditions[key] = int(a.conditions[key]) - n
        eng.log(f"{name}'s {CONDITIONS[key].title} −{n} → {a.conditions[key]}")
    else:
        del a.conditions[key]
        eng.log(f"{name}'s {CONDITIONS[key].title} ends")
