"""One 2d20 test built from everything in play (docs/rules/2d20.md#s3-2), for the roll and for its odds alike.

A test is attribute + skill (+ an applicable Focus) against a TN; its Difficulty is a base plus named
contributions (the range band, Reach, a Prone target, Dazed, Sprinted, a Swift Action's extra Major,
Protect, Cripple, Blind, the GM's own ±N); its complication range widens for an untrained skill (Infinity)
and for each Fatigued. An attack's test is the attacker's and, where the rules make it opposed, the
defender's, each built here (`tracker.families.twod20.attack_test`). Every flow rolls the `SkillTest` it
shows, and the question and the Odds tab state that same test's chance, so the odds can never disagree with
the roll.

Which Focus applies [004:L350-351; 002:L11, L28-30] (the GM's call in the rules, a fixed reading here,
docs/guide/decisions.md): a Focus written ``"Fight: Blades"`` or ``"Fight (Blades)"``, or named as the skill
itself, applies to every test of that skill; a bare Focus (``"Pistols"``) applies to an attack made with a
weapon whose name has one of its words, a plural read as its singular ("Service pistol").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracker.engine import rng
from tracker.engine.errors import Refusal
from tracker.families.twod20 import traits
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.records.sheet import TwoD20Combatant

if TYPE_CHECKING:  # the odds load when a chance is asked, not with every command (`tracker exec` start-up)
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


def gm_modifier(word: str) -> int | None:
    """The GM's ``+N``/``-N`` word of ``attack`` (None when `word` is not one); refused beyond ±5."""
    if not re.fullmatch(r"[+-]\d+", word.strip()):
        return None
    n = int(word)
    if n == 0 or abs(n) > GM_LIMIT:
        raise Refusal(f"a GM's Difficulty modifier is +1 to +{GM_LIMIT} or -1 to -{GM_LIMIT} (not '{word}')")
    return n
