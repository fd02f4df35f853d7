"""What an attacker can shoot at a target with (docs/rules/2d20-combat.md#s3-6, #s3-7): each weapon's reach, range
band and the attack's test with its exact chance, best first; the attack flow asks from these, and the policy of
a fight's odds picks from them."""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.families.twod20.attack_test import AttackTest, attack_test, form, range_check
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.sheet import TwoD20Weapon


def attack_tn(eng: TwoD20Engine, who: str, kind: str, weapon: TwoD20Weapon | None = None) -> tuple[int | None, str]:
    """`who`'s TN for an attack of `kind` (attribute + skill, the profile's test, docs/rules/2d20.md#s3-0,
    docs/rules/2d20.md#s3-2), and how it is made up ("Coordination 10 + Fight 3"); None with the reason when the sheet
    lacks the attribute."""
    from tracker.families.twod20.attack_test import attack_spec
    from tracker.families.twod20.skill_test import build

    test = build(eng, who, attack_spec(eng, kind, weapon), 0, kind, [])
    if isinstance(test, str):
        return None, test
    return test.tn, f"{test.attribute} {test.attribute_rating} + {test.skill} {test.skill_rating}"


def weapon_of(eng: TwoD20Engine, who: str, name: str) -> TwoD20Weapon:
    return next(w for w in eng.sheet(who).weapons if w.name == name)


def named_weapon(eng: TwoD20Engine, who: str, text: str) -> str | None:
    for w in eng.sheet(who).weapons:
        if w.name.casefold().startswith(text.casefold()):
            return w.name
    return None


class Shot:
    """One weapon on one target: whether it reaches, the range, and the attack's test with its chance."""

    def __init__(
        self,
        eng: TwoD20Engine,
        who: str,
        target: str,
        weapon: TwoD20Weapon,
        gm: int = 0,
        reaction: str = "",
        by: str = "",
    ) -> None:
        self.kind = form(weapon)
        self.weapon = weapon.name
        self.reach = self.kind != "melee" or sorted([who, target]) in eng.st.reach
        self.range = range_check(eng, who, target, weapon.range if self.kind == "ranged" else None, self.kind).range
        found = attack_test(eng, who, target, weapon, self.kind, gm, reaction=reaction, defender=by)
        self.test: AttackTest | None = found if isinstance(found, AttackTest) else None
        self.why = found if isinstance(found, str) else ""
        self.tn = self.test.test.tn if self.test else None
        self.difficulty = self.test.test.difficulty if self.test else 0
        self.chance = self.test.chance() if self.test else None

    def text(self) -> str:
        head = "not within Reach, " if not self.reach else ""
        odds = f" · {round(100 * self.chance)}%" if self.chance is not None else ""
        versus = f" vs {self.test.defence.who}" if self.test and self.test.defence else ""
        return f"{head}{self.range.title()}, D{self.difficulty}{odds}{versus}"


def shots(eng: TwoD20Engine, who: str, target: str, only: str | None = None, gm: int = 0) -> list[Shot]:
    """Each of `who`'s weapons (or the one named) on `target`, best first; none where there is no way there."""
    out = []
    a, t = eng.fighter(who), eng.fighter(target)
    if a.zone is None or t.zone is None:
        return []
    for w in eng.sheet(who).weapons:
        if (only is not None and w.name != only) or (form(w) == "melee" and a.zone != t.zone):
            continue  # a melee weapon reaches within the zone only (docs/rules/2d20-combat.md#s3-6 Reach)
        try:
            out.append(Shot(eng, who, target, w, gm))
        except Refusal:
            continue
    out.sort(key=lambda s: (not s.reach, -(s.chance or 0)))
    return out
