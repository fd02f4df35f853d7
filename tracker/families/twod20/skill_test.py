"""One 2d20 test built from everything in play (docs/rules/2d20.md#s3-2), for the roll and for its odds alike.

A test is attribute + skill (+ an applicable Focus) against a TN; its Difficulty is a base plus named
contributions (the range band, Reach, a Prone target, Dazed, Sprinted, a Swift Action's extra Major,
Protect, Cripple, Blind, the GM's own ±N); its complication range widens for an untrained skill (Infinity)
and for each Fatigued. An attack is the attacker's test and, where the rules make it opposed, the
defender's: SRD and Secret War melee and mental attacks always [004:L1636-1638; 002:L119-121], Infinity's
when the target takes the Defence reaction or an ally Guards it [003:L299-304]. The attack flow rolls the
`SkillTest` it shows, and the target list, the question and the Odds tab state that same test's chance, so
the odds can never disagree with the roll.

Which Focus applies [004:L350-351; 002:L11, L28-30] (the GM's call in the rules, a fixed reading here,
docs/guide/decisions.md): a Focus written ``"Fight: Blades"`` or ``"Fight (Blades)"``, or named as the skill
itself, applies to every test of that skill; a bare Focus (``"Pistols"``) applies to an attack made with a
weapon whose name has one of its words, a plural read as its singular ("Service pistol").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tracker.engine import rng
from tracker.engine.errors import Refusal
from tracker.families.twod20 import infowar, psywar, traits
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.records.sheet import TwoD20Combatant, TwoD20Weapon
from tracker.families.twod20.zones import AttackDifficulty, attack_difficulty

if TYPE_CHECKING:  # the odds load when a chance is asked, not with every command (`tracker exec` start-up)
    from fractions import Fraction

    from tracker.families.twod20.dice.odds import RollOdds
    from tracker.families.twod20.engine import TwoD20Engine

#: A contribution to a Difficulty: (how much, its name as the question shows it).
Part = tuple[int, str]

#: The attributes Cripple hinders: "+1 Difficulty to Agility-, Brawn- and Coordination-based attacks"
#: [003:L538-551].
CRIPPLED_ATTRIBUTES = frozenset({"agility", "brawn", "coordination"})
#: The GM's own Difficulty modifier on an attack (``attack Kit Thug +2``): a Difficulty runs 0-5 [004:L347].
GM_LIMIT = 5


@dataclass(frozen=True)
class SkillTest:
    """One character's test: TN, Focus, Difficulty with its parts, and complication range (docs/rules/2d20.md#s3-2)."""

    who: str
    attribute: str
    attribute_rating: int
    skill: str
    skill_rating: int
    base: int
    #: What the base Difficulty is ("ranged", "melee", "defence").
    base_name: str
    parts: tuple[Part, ...] = ()
    #: The Focus that applies ("" for none): a die ≤ the skill scores 2 [004:L350-351].
    focus: str = ""
    complication_range: int = 1
    complication_notes: tuple[str, ...] = ()

    @property
    def tn(self) -> int:
        return self.attribute_rating + self.skill_rating

    @property
    def difficulty(self) -> int:
        """Base + parts; never below 0 (Difficulty 0 passes with no roll and no Momentum [004:L436-438])."""
        return max(0, self.base + sum(n for n, _ in self.parts))

    @property
    def focus_rating(self) -> int | None:
        return self.skill_rating if self.focus else None

    def tn_text(self) -> str:
        """``Agility 10 + Fight 2 = TN 12, focus 2 (Blades)``."""
        text = f"{self.attribute} {self.attribute_rating} + {self.skill} {self.skill_rating} = TN {self.tn}"
        return text + (f", focus {self.skill_rating} ({self.focus})" if self.focus else "")

    def difficulty_parts(self) -> str:
        """``ranged 2; Long range with a Close weapon +2; Dazed +1``."""
        return "; ".join([f"{self.base_name} {self.base}", *(f"{name} {n:+d}" for n, name in self.parts)])

    def complication_text(self) -> str:
        if self.complication_range == 1:
            return ""
        floor = dice.complication_floor(self.complication_range)
        return f"complications on {floor}-20 ({', '.join(self.complication_notes)})"

    def modifiers(self) -> list[str]:
        """Everything counted beyond attribute + skill at the base Difficulty, each with its source."""
        out = [f"{name} {n:+d}" for n, name in self.parts]
        if self.focus:
            out.append(f"focus {self.skill_rating} ({self.focus})")
        out += list(self.complication_notes)
        return out

    def roll(self, state: rng.Seeded, bought: int, faces: list[int] | None) -> dice.PoolRoll:
        """The test rolled (seeded) or the table's faces scored, as `odds` counts it."""
        return dice.roll_pool(
            state,
            self.tn,
            self.difficulty,
            dice=dice.BASE_DICE + bought,
            focus=self.focus_rating,
            complication_range=self.complication_range,
            faces=faces,
        )

    def score(self, faces: tuple[int, ...]) -> dice.PoolRoll:
        """The table's faces scored as the roll scores them (`dice.score_pool`), for any number of dice."""
        return dice.score_pool(faces, self.tn, self.difficulty, self.focus_rating, self.complication_range)

    def side(self, bought: int = 0) -> tuple[int, int, int, int | None, int]:
        """(TN, Difficulty, dice, focus, complication range): what `odds` takes."""
        return self.tn, self.difficulty, dice.BASE_DICE + bought, self.focus_rating, self.complication_range

    def odds(self, bought: int = 0) -> RollOdds:
        from tracker.families.twod20.dice.odds import roll_odds

        return roll_odds(*self.side(bought))


def _words(text: str) -> set[str]:
    """A name's words, casefolded, a plural read as its singular ("Pistols" → "pistol")."""
    out = set()
    for word in re.findall(r"[a-z0-9]+", text.casefold()):
        out.add(word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word)
    return out


def applicable_focus(sheet: TwoD20Combatant, skill: str, weapon: str | None) -> str:
    """The first of the sheet's Focuses that applies to a test of `skill` (with `weapon`), or "" (module doc)."""
    key = skill.casefold().replace("_", " ")
    for focus in sheet.focuses:
        head, sep, _ = focus.replace("(", ":").partition(":")
        if head.strip().casefold().replace("_", " ") == key:
            return focus
        if not sep and weapon is not None and _words(focus) & _words(weapon):
            return focus
    return ""


def _title(key: str) -> str:
    return key.replace("_", " ").title()


def own_parts(eng: TwoD20Engine, who: str) -> list[Part]:
    """What `who`'s own state adds to every test it makes: Dazed +1 [003:L413] and, under Infinity, +1 until
    its next turn after a Sprint [003:L579-581]."""
    a = eng.fighter(who)
    own = [(1, "Dazed")] if a.conditions.get("dazed") else []
    if a.sprinted:
        own.append((1, "Sprinted (until its next turn)"))
    return own + traits.parts(eng, who)  # its own traits, its zone's and the scene's, each by its text


def build(
    eng: TwoD20Engine,
    who: str,
    spec: str,
    base: int,
    base_name: str,
    parts: list[Part],
    weapon: str | None = None,
) -> SkillTest | str:
    """`who`'s test of `spec` ("attribute+skill", alternatives joined by "|": the best TN) at `base` plus
    `parts` and `who`'s own state (Dazed, Sprinted), or why the sheet cannot make it."""
    sheet = eng.sheet(who)
    attributes = {k.casefold(): v for k, v in sheet.attributes.items()}
    found: list[tuple[int, str, str]] = []
    missing = ""
    for choice in spec.split("|"):
        attribute, _, skill = choice.partition("+")
        if attribute not in attributes:
            missing = missing or f"{who}'s sheet has no {_title(attribute)} (the profile's test is {spec})"
            continue
        found.append((attributes[attribute] + sheet.skill(skill), attribute, skill))
    if not found:
        return missing
    _, attribute, skill = max(found)
    a = eng.fighter(who)
    own = own_parts(eng, who)
    crange, notes = 1, []
    rating = sheet.skill(skill)
    if eng.profile.untrained_complication_range > 1 and rating == 0:
        crange = eng.profile.untrained_complication_range
        notes.append(f"untrained in {_title(skill)}")
    fatigued = int(a.conditions.get("fatigued", 0))
    if fatigued:
        crange += fatigued  # +1 complication range per instance [003:L417-423]
        notes.append(f"Fatigued +{fatigued}")
    return SkillTest(
        who=who,
        attribute=_title(attribute),
        attribute_rating=attributes[attribute],
        skill=_title(skill),
        skill_rating=rating,
        base=base,
        base_name=base_name,
        parts=(*parts, *own),
        focus=applicable_focus(sheet, skill, weapon),
        complication_range=min(crange, dice.MAX_COMPLICATION_RANGE),
        complication_notes=tuple(notes),
    )


# --- attacks ------------------------------------------------------------------------------------------


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


def gm_modifier(word: str) -> int | None:
    """The GM's ``+N``/``-N`` word of ``attack`` (None when `word` is not one); refused beyond ±5."""
    if not re.fullmatch(r"[+-]\d+", word.strip()):
        return None
    n = int(word)
    if n == 0 or abs(n) > GM_LIMIT:
        raise Refusal(f"a GM's Difficulty modifier is +1 to +{GM_LIMIT} or -1 to -{GM_LIMIT} (not '{word}')")
    return n
