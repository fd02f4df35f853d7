"""Infinity's infowar actions with a test: Reset (Standard) and Link (a Reaction) [003:L653-680].

``spend NAME reset [a,b]``: an Average (D1) Hacking test (Intelligence + Hacking); a pass fully restores the
Firewall, and leaves comlog and AR actions +4 Difficulty, 1 less per Momentum of the test, and 1 less at the
start of each of the character's turns [003:L664-667] (the condition ``reset``, its value the penalty; the
tracker adds it to the character's hacks). The Momentum the penalty does not need is banked.

``spend NAME link ENEMY [a,b]``: when an enemy moves out of Reach without Withdraw, an Average Hacking test;
a pass links the hacker to the enemy: it moves with the enemy (``move``, even into Secured Zones) until the
link dissolves at the end of the enemy's turn [003:L675-678]. The enemy must be the one acting.

The faces ``a,b`` are the table's dice; without them the tracker rolls (seeded).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count
from tracker.families.twod20 import pools
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.infowar import firewall
from tracker.families.twod20.skill_test import SkillTest, build

if TYPE_CHECKING:
    from tracker.families.twod20.engine import TwoD20Engine

#: Reset's penalty on comlog and AR actions before Momentum [003:L666].
RESET_PENALTY = 4
#: Both tests are Average [003:L664, L676].
AVERAGE = 1


def _faces(eng: TwoD20Engine, text: str) -> list[int]:
    faces = [count(x.strip(), "face") for x in text.split(",") if x.strip()]
    if len(faces) != dice.BASE_DICE:
        raise Refusal(f"give {dice.BASE_DICE} faces, one per d20 (e.g. 4,17)")
    dice.roll_pool(eng.st, 0, 0, dice=len(faces), faces=faces)  # checks the faces, draws nothing
    return faces


def _test(eng: TwoD20Engine, who: str, what: str) -> SkillTest:
    test = build(eng, who, eng.profile.infowar_test, AVERAGE, what, [])
    if isinstance(test, str):
        raise Refusal(test)
    return test


def reset_terms(eng: TwoD20Engine, who: str, args: list[str]) -> tuple[SkillTest, list[int] | None]:
    """The Reset's test and the typed faces, refused before anything changes: a Firewall to restore, a TN."""
    track = firewall(eng)
    if track is None or track not in eng.tracks(who):
        raise Refusal(f"{who} has no Firewall to reset [003:L664-665]")
    if len(args) > 1:
        raise Refusal(f"usage: spend {who} reset [a,b]")
    return _test(eng, who, "Reset"), _faces(eng, args[0]) if args else None


def reset(eng: TwoD20Engine, who: str, test: SkillTest, faces: list[int] | None) -> None:
    """Roll the Reset; a pass restores the Firewall and sets the comlog penalty [003:L664-667]."""
    result = test.roll(eng.st, 0, faces)
    eng.log(f"{who} resets: {test.tn_text()}, Difficulty {test.difficulty}: {result.describe()}", "result")
    if not result.passed:
        eng.log(f"{who}'s Reset fails: the Firewall stays as it was")
        return
    a = eng.fighter(who)
    track = firewall(eng)
    assert track is not None
    a.stress[track] = 0
    used = min(result.momentum, RESET_PENALTY)
    penalty = RESET_PENALTY - used
    if penalty:
        a.conditions["reset"] = penalty
    else:
        a.conditions.pop("reset", None)
    eng.log(
        f"{who}'s Firewall is fully restored; comlog and AR actions +{penalty} Difficulty"
        + (f" ({used} Momentum off the {RESET_PENALTY})" if used else "")
        + (", 1 less at the start of each of its turns" if penalty else "")
    )
    pools.bank(eng, who, result.momentum - used, f"{who}'s test", f"{who}'s unspent Momentum (an NPC's)")


def link_terms(eng: TwoD20Engine, who: str, args: list[str]) -> tuple[str, SkillTest, list[int] | None]:
    """The enemy followed, the Link's test and the typed faces, refused before anything changes."""
    if not args or len(args) > 2:
        raise Refusal(f"usage: spend {who} link ENEMY [a,b] [003:L675-678]")
    enemy = eng.living(args[0])
    if enemy == who or not eng.enemies(who, enemy):
        raise Refusal(f"{enemy} is not an enemy of {who}")
    if eng.st.active != enemy:
        raise Refusal(f"a Link follows an enemy moving out of Reach on its own turn; {enemy} is not acting")
    track = firewall(eng)
    if track is None or track not in eng.tracks(who):
        raise Refusal(f"{who} has no Firewall: no hacking device to link with")
    return enemy, _test(eng, who, "Link"), _faces(eng, args[1]) if len(args) > 1 else None


def link(eng: TwoD20Engine, who: str, enemy: str, test: SkillTest, faces: list[int] | None) -> None:
    """Roll the Link; a pass makes `who` follow `enemy` until the end of `enemy`'s turn [003:L675-678]."""
    result = test.roll(eng.st, 0, faces)
    eng.log(f"{who} links: {test.tn_text()}, Difficulty {test.difficulty}: {result.describe()}", "result")
    if not result.passed:
        eng.log(f"{who}'s Link fails")
        return
    eng.fighter(who).linked_to = enemy
    eng.log(f"{who} is linked to {enemy}: moves with it until the end of its turn")
    pools.bank(eng, who, result.momentum, f"{who}'s test", f"{who}'s unspent Momentum (an NPC's)")


def follow(eng: TwoD20Engine, mover: str, zone: str) -> None:
    """Those linked to `mover` move with it (even into Secured Zones) [003:L677]."""
    for name, a in eng.st.fighters.items():
        if a.linked_to == mover and not a.dead and a.zone != zone:
            a.zone = zone
            eng.st.reach = [p for p in eng.st.reach if name not in p]
            eng.log(f"{name} moves with {mover} to {zone} (Link)")


def dissolve(eng: TwoD20Engine, name: str) -> None:
    """The end of `name`'s turn dissolves the Links that follow it [003:L678]."""
    for other, a in eng.st.fighters.items():
        if a.linked_to == name:
            a.linked_to = None
            eng.log(f"{other}'s Link to {name} dissolves")
