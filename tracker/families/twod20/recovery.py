"""Stress and Harms coming off in the 2d20 System: the GM's ``heal`` (stress off a track), and the Harms that
lift by themselves (Subdue's when the next scene begins [004:L1943], non-lethal ones at the scene's end
[004:L1964])."""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.harm import stress_text


def recover(eng: TwoD20Engine, name: str, amount: int, track: str | None) -> None:
    a = eng.fighter(name)
    t = track or next(iter(eng.tracks(name)))
    if t not in eng.tracks(name):
        raise Refusal(f"{name} has no '{t}' track")
    before = a.stress.get(t, 0)
    a.stress[t] = max(0, before - amount)
    eng.log(f"{name} recovers {before - a.stress[t]} stress ({stress_text(eng, name, t)})")


def lift_harms(eng: TwoD20Engine, name: str, lifted: dict[str, int]) -> bool:
    """Take the `lifted` Harms off `name` (Subdue's at the next scene, non-lethal ones at the scene's end) and
    empty that record; True when the character was Defeated and now holds fewer Harms than defeat it."""
    a = eng.fighter(name)
    for kind, n in lifted.items():
        a.harms[kind] = max(0, a.harms.get(kind, 0) - n)
        if not a.harms[kind]:
            a.harms.pop(kind)
    lifted.clear()
    capacity = eng.sheet(name).harm_capacity or eng.profile.defeat_at_harms
    return a.defeated and bool(capacity) and sum(a.harms.values()) < capacity
