"""An attack's test in the 2d20 System (docs/rules/2d20.md#s3-2, docs/rules/2d20-combat.md#s3-6 to #s3-8): the
weapon's form, the range band's Difficulty, what the attacker's and the target's state add, and where the rules
make it opposed the defender's test beside the attacker's (`tracker.families.twod20.skill_test.build` builds
each side) — one `AttackTest` the attack flow rolls and the odds state, so they never disagree.

Opposed: SRD and Secret War melee and mental attacks always [004:L1636-1638; 002:L119-121], Infinity's when
the target takes the Defence reaction or an ally Guards it [003:L299-304].
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tracker.engine.errors import Refusal
from tracker.families.twod20 import infowar, psywar, traits
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.records.sheet import TwoD20Weapon
from tracker.families.twod20.skill_test import CRIPPLED_ATTRIBUTES, Part, SkillTest, build, own_parts
from tracker.families.twod20.zones import AttackDifficulty, attack_difficulty

if TYPE_CHECKING:  # the odds load when a chance is asked, not with every command (`tracker exec` start-up)
    from fractions import Fraction

    from tracker.families.twod20.engine import TwoD20Engine


def form(weapon: TwoD20Weapon) -> str:
    """A Reach weapon makes a melee attack, one with the ``mental`` effect a mental one, every other range
    band a ranged one (docs/rules/2d20-combat.md#s3-6, docs/rules/2d20-combat.md#s3-7)."""
    if any(e.partition("=")[0].strip().casefold() == "mental" for e in weapon.effects):
        return "mental"
    if infowar.is_hack(weapon):
        return infowar.INFOWAR  # a program with quantronic damage: a hack [003:L272, L387]
    return "melee" if weapon.range == "reach" else "ranged"


def range_check(eng: TwoD20Engine, attacker: str, target: str, weapon_range: str | None, kind: str) -> AttackDifficulty:
    """The range category and the Difficulty the range band gives (docs/rules/2d20-combat.md#s3-6, C37), each part
    named."""
    a, t = eng.fighter(attacker), eng.fighter(target)
    if a.zone is None or t.zone is None:
        raise Refusal("both need a zone for a range")
    distance = eng.zones.distance(a.zone, t.zone)
    if distance is None:
        raise Refusal(f"{t.zone} cannot be reached from {a.zone}")
    base = {
        "melee": eng.profile.melee_base_difficulty,
        "mental": eng.profile.mental_base_difficulty,
        infowar.INFOWAR: eng.profile.infowar_base_difficulty,
    }.get(kind, eng.profile.ranged_base_difficulty)
    found = attack_difficulty(
        "mental" if kind == infowar.INFOWAR else kind,
        distance,
        weapon_range,
        base,
        attacker_in_reach=bool(eng.in_reach_of_enemy(attacker)),
        target_prone=bool(t.conditions.get("prone")),
        prone_step=eng.profile.prone_ranged_difficulty,
        ranged_step_rule=eng.profile.ranged_step_rule,
    )
    more = infowar.distance_parts(eng, kind, found.range)
    if not more:
        return found
    notes = (*found.notes, *(f"{name}: +{n}" for n, name in more))
    return AttackDifficulty(found.range, found.difficulty + sum(n for n, _ in more), notes, (*found.parts, *more))


def attack_parts(eng: TwoD20Engine, who: str, target: str, kind: str, attribute: str, declared: bool) -> list[Part]:
    """What the attacker's state, the target's and the actions taken add to an attack (besides the range).

    `declared`: the attack's Major Action is already counted this turn (the flow), or is still to come
    (the Odds tab), which says whether it is the extra Major a Swift Action bought.
    """
    a, t = eng.fighter(who), eng.fighter(target)
    parts: list[Part] = []
    majors = a.majors_turn if declared else a.majors_turn + 1
    if a.swift and majors >= 2:
        parts.append((1, "Swift Action's extra Major"))  # [004:L1944; 003:L375-377]
    if a.conditions.get("crippled") and attribute in CRIPPLED_ATTRIBUTES:
        parts.append((1, "Crippled"))  # [003:L538-551]
    if a.conditions.get("blind") and kind == "ranged":
        parts.append((2, "Blind (a sight test)"))  # [003:L399-402]
    if t.protected_by:
        parts.append((1, f"Protect ({', '.join(t.protected_by)})"))  # [004:L1473]
    # The target's zone's traits (when it is another zone), and the attacker's own infowar state.
    return parts + traits.into_parts(eng, who, target) + infowar.attacker_parts(eng, who, kind)


def attack_difficulty_for(
    eng: TwoD20Engine, who: str, target: str, weapon_range: str | None, kind: str = "ranged", declared: bool = False
) -> AttackDifficulty:
    """The Difficulty of `who`'s attack on `target` with every part `attack_test` counts (the Zones panel's,
    C37), for a sheet that may give no TN; each part in the notes as ``Dazed +1``."""
    check = range_check(eng, who, target, weapon_range, kind)
    attribute = attack_spec(eng, kind).partition("+")[0]
    more = (*attack_parts(eng, who, target, kind, attribute, declared), *own_parts(eng, who))
    parts = (*check.parts, *more)
    notes = (*check.notes, *(f"{name} {n:+d}" for n, name in more))
    base = check.difficulty - sum(n for n, _ in check.parts)
    return AttackDifficulty(check.range, max(0, base + sum(n for n, _ in parts)), notes, parts)


def attack_spec(eng: TwoD20Engine, kind: str, weapon: TwoD20Weapon | None = None) -> str:
    """The attack's test "attribute+skill" by its form, with the weapon's own skill if it names one."""
    p = eng.profile
    spec = {"melee": p.melee_test, "mental": p.mental_test, infowar.INFOWAR: p.infowar_test}.get(kind, p.ranged_test)
    return infowar.test_spec(spec, weapon, kind)


def defence_spec(eng: TwoD20Engine, kind: str) -> str:
    p = eng.profile
    return {"melee": p.melee_defence, "mental": p.mental_defence, infowar.INFOWAR: p.infowar_defence}.get(
        kind, p.ranged_defence
    )


@dataclass(frozen=True)
class AttackTest:
    """An attack's test: the attacker's, and the defender's when it is opposed (docs/rules/2d20.md#s3-2,
    docs/rules/2d20-combat.md#s3-7)."""

    kind: str
    range: str
    test: SkillTest
    defence: SkillTest | None = None
    #: Who rolls the defence: the target, or the ally who Guards it.
    defender: str = ""
    #: "" (always opposed, or unopposed), "defence" or "guard" (Infinity's reactions).
    reaction: str = ""
    #: Why an attack the rules oppose is rolled alone (the defender's sheet lacks the attribute …).
    alone: str = ""

    def chance(self, bought: int = 0) -> Fraction:
        """The chance the attack hits (wins), with `bought` d20s: exact, from the same test the roll makes."""
        from tracker.families.twod20.dice.odds import opposed_odds

        if self.defence is None:
            return self.test.odds(bought).success
        return opposed_odds(self.test.side(bought), self.defence.side()).active

    def momentum(self, bought: int = 0) -> Fraction:
        from tracker.families.twod20.dice.odds import opposed_odds

        if self.defence is None:
            return self.test.odds(bought).momentum
        return opposed_odds(self.test.side(bought), self.defence.side()).momentum

    def text(self) -> str:
        """The question's body: both tests with every contribution named."""
        mine = self.test
        out = mine.tn_text()
        extra = mine.complication_text()
        if self.defence is None:
            out += f", Difficulty {mine.difficulty} ({mine.difficulty_parts()})"
            out += f", {extra}" if extra else ""
            return out + (f"; unopposed: {self.alone}" if self.alone else "")
        theirs = self.defence
        how = {"defence": " (Defence reaction)", "guard": " (Guard reaction)"}.get(self.reaction, "")
        out += (f", {extra}" if extra else "") + f" vs {theirs.who}{how}: {theirs.tn_text()}"
        other = theirs.complication_text()
        out += f", {other}" if other else ""
        if mine.difficulty == theirs.difficulty:
            out += f" — Difficulty {mine.difficulty} each ({mine.difficulty_parts()} | {theirs.difficulty_parts()})"
        else:
            out += (
                f" — Difficulty {mine.difficulty} ({mine.difficulty_parts()}) "
                f"vs {theirs.difficulty} ({theirs.difficulty_parts()})"
            )
        return out

    def modifiers(self) -> list[str]:
        """What the odds counted beyond the bare tests, each with its source."""
        out = self.test.modifiers()
        if self.defence is not None:
            out += [f"{self.defence.who}: {m}" for m in self.defence.modifiers()]
            out.append(f"opposed by {self.defence.who}'s {self.defence.attribute} + {self.defence.skill}")
        return out


def mental_refusal(eng: TwoD20Engine, target: str, kind: str) -> str:
    """Why `target` may not be the target of a mental attack (B40 [004:L1642]), or ""."""
    if kind == "mental" and eng.fighter(target).mental_immune:
        return f"{target} cannot be the target of a mental attack again this scene: a mental attack on it failed"
    return ""


def attack_test(
    eng: TwoD20Engine,
    who: str,
    target: str,
    weapon: TwoD20Weapon | None,
    kind: str,
    gm: int = 0,
    declared: bool = True,
    reaction: str = "",
    defender: str = "",
) -> AttackTest | str:
    """`who`'s attack on `target` (with `weapon`, of `kind`), everything in play counted; the reason when
    `who`'s sheet gives no TN. A zone with no way to the target, or a target immune to a mental attack, is a
    Refusal. `reaction` ("defence" or "guard", by `defender`) makes an Infinity attack face-to-face."""
    if mental_refusal(eng, target, kind):
        raise Refusal(mental_refusal(eng, target, kind))
    if infowar.firewall_refusal(eng, target, kind):
        raise Refusal(infowar.firewall_refusal(eng, target, kind))
    check = range_check(eng, who, target, None if kind != "ranged" or weapon is None else weapon.range, kind)
    spec = attack_spec(eng, kind, weapon)
    base = check.difficulty - sum(n for n, _ in check.parts)
    gm_part = [(gm, "GM")] if gm else []
    attacker = spec.partition("+")[0]
    parts = [*check.parts, *attack_parts(eng, who, target, kind, attacker, declared), *gm_part]
    parts = psywar.test_parts(weapon, kind, parts)  # a remote, delayed or written threat [004:L2394-2396]
    test = build(eng, who, spec, base, kind, parts, weapon.name if weapon is not None else None)
    if isinstance(test, str):
        return test
    if written := psywar.complication(weapon, kind):
        wider = min(test.complication_range + written, dice.MAX_COMPLICATION_RANGE)
        test = replace(test, complication_range=wider, complication_notes=(*test.complication_notes, "written +1"))
    if not psywar.reaction_allowed(weapon, kind):
        return AttackTest(kind, check.range, test, alone=f"a {psywar.medium(weapon)} threat allows no reaction")
    opposed = kind in eng.profile.opposed_forms
    if not opposed and not (reaction and kind in eng.profile.defence_reaction_forms):
        return AttackTest(kind, check.range, test)
    rolls = defender or target
    if eng.fighter(rolls).unconscious or eng.fighter(rolls).dead:
        return AttackTest(kind, check.range, test, alone=f"{rolls} cannot defend (unconscious)")
    spec = defence_spec(eng, kind)
    if not spec:
        return AttackTest(kind, check.range, test, alone=f"no {kind} defence under the {eng.profile.name} profile")
    defence = build(eng, rolls, spec, eng.profile.defence_base_difficulty, "defence", [])
    if isinstance(defence, str):
        return AttackTest(kind, check.range, test, alone=defence)
    return AttackTest(kind, check.range, test, defence, rolls, reaction if not opposed else "")
