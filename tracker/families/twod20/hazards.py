"""Harms that pass and air that runs out: the non-lethal Harm variant [004:L1964] and Infinity's drowning and
suffocation [003:L514-517] (docs/guide/decisions.md)."""

from __future__ import annotations

from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.harm import suffer
from tracker.families.twod20.recovery import lift_harms
from tracker.families.twod20.skill_test import build
from tracker.present.words import counted

#: The test a character deprived of air makes at the start of each of its turns: a Resistance test
#: ("Average (D1)", +1 each successive turn) [003:L514-517].
DROWNING_TEST = "brawn+resistance"


def recover_nonlethal(eng: TwoD20Engine) -> None:
    """The end of the scene: non-lethal Harms are removed entirely [004:L1964]; one they had defeated is no longer
    Defeated and wakes."""
    for name, a in eng.st.fighters.items():
        if not a.nonlethal or a.dead:
            a.nonlethal = {}
            continue
        eng.log(f"{name}'s {counted(sum(a.nonlethal.values()), 'non-lethal Harm')} end with the scene")
        if lift_harms(eng, name, a.nonlethal):
            a.defeated = a.dying = a.unconscious = False
            eng.log(f"{name} is no longer Defeated, and wakes")


def drowning(eng: TwoD20Engine, name: str) -> None:
    """At the start of its turn, a character deprived of air (condition ``drowning``, its value the Difficulty)
    tests Resistance; failure is a Wound; the next test is 1 harder [003:L514-517]. Rolled by the tracker (seeded)."""
    a = eng.fighter(name)
    difficulty = int(a.conditions.get("drowning", 0))
    if not difficulty or a.dead:
        return
    test = build(eng, name, DROWNING_TEST, difficulty, "deprived of air", [])
    if isinstance(test, str):
        eng.log(f"{name} is deprived of air: {test}; the GM rolls it")
        return
    result = test.roll(eng.st, 0, None)
    eng.log(f"{name} is deprived of air: {test.tn_text()}, Difficulty {test.difficulty} — {result.describe()}")
    a.conditions["drowning"] = min(difficulty + 1, dice.MAX_CHALLENGE_DICE)
    if not result.passed:
        suffer(eng, name, eng.profile.tracks[0][1], 1)
