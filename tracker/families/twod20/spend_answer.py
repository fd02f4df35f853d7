"""The answer to a hit's damage question read and checked before anything is spent (`tracker.families.twod20.spends`
pays and applies it): ``roll``, ``roll+N`` or the faces rolled, then the spend words of the Common Conflict
Momentum table [004:L1929-1945; 003:L355-380; 002:L136-148], each once per test unless marked R, and once per
round for each character (B24); a spend the profile lacks, a second target out of Reach, or more than can be
paid is refused in one line with nothing spent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count
from tracker.engine.records.model import Prompt
from tracker.families.twod20 import avoid_injury, hit_locations, psywar
from tracker.families.twod20.attack_test import form
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.dice.rolls import CHALLENGE_FACES
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.shots import weapon_of

#: Confidence's Morale is at most 4[CD] [004:L1935; 003:L361-362; 002:L140].
CONFIDENCE_MAX = 4


@dataclass(frozen=True)
class Spend:
    """One Momentum spend at the roll: its cost per use, and whether it repeats (R, [004:L1931])."""

    title: str
    cost: int
    repeatable: bool
    #: What the word takes after ``=``: nothing, a number of uses, a combatant, faces, or the GM's words.
    takes: str
    summary: str


SPENDS: dict[str, Spend] = {
    "penetration": Spend("Penetration", 1, True, "count", "ignore 2 Resistance each"),
    "reroll": Spend("Re-roll Damage", 1, False, "faces", "re-roll the dice that scored nothing"),
    "secondary": Spend("Secondary Target", 2, False, "name", "a second target within Reach of the first"),
    "confidence": Spend("Confidence", 1, True, "count", "+1[CD] Morale each, at most 4"),
    "pressure": Spend("Pressure", 1, True, "count", "+1 Difficulty to a delayed threat's test on receipt"),
    "subdue": Spend("Subdue", 1, False, "none", "the Harms are recovered next scene"),
    "swift": Spend("Swift Action", 2, False, "none", "an extra Major Action at +1 Difficulty"),
    "advantage": Spend("Create Advantage", 2, False, "text", "a trait for the table"),
    "called": Spend("Called Shot", 2, False, "location", "choose a physical hit's location"),
    "inspire": Spend("Inspire", 2, False, "zones", "allies in the attacker's zone +1[CD] Morale to their turn"),
}


@dataclass
class Chosen:
    """What one answer to the damage question asks for."""

    bonus: int = 0
    faces: list[int] | None = None
    penetration: int = 0
    reroll: bool = False
    reroll_faces: list[int] | None = None
    secondary: str | None = None
    confidence: int = 0
    #: Momentum on a delayed or written threat's test on receipt: +1 Difficulty each [004:L2395-2396].
    pressure: int = 0
    subdue: bool = False
    swift: bool = False
    advantage: str | None = None
    once: list[str] = field(default_factory=list)
    #: The faces of a delayed or written threat's test on receipt (``receipt=4,17``; None: the tracker rolls).
    receipt: list[int] | None = None
    #: Called Shot's location and its cost (the profile's ``called_shot_cost``) [003:L456-460].
    called: str | None = None
    called_cost: int = 0
    #: The hit location's d20 face as the table rolled it (``location=11``; None: the tracker rolls).
    location: int | None = None
    inspire: bool = False
    #: Inspire's further zones, 1 Momentum each [003:L607] (``inspire=Corridor,Lobby``).
    inspire_zones: list[str] = field(default_factory=list)
    #: ``avoid``: the target Avoids Injury (the variant [004:L2000-2006]; the target's side pays, not the
    #: attacker).
    avoid: bool = False

    def cost(self) -> int:
        """The Momentum the spends cost (Re-roll counted: it is paid only when a die scored nothing)."""
        flags = [
            self.reroll,
            self.secondary is not None,
            self.subdue,
            self.swift,
            self.advantage is not None,
            self.inspire,
        ]
        keys = ("reroll", "secondary", "subdue", "swift", "advantage", "inspire")
        fixed = sum(SPENDS[k].cost for k, on in zip(keys, flags, strict=True) if on)
        called = self.called_cost if self.called else 0
        counted = self.penetration + self.confidence + self.pressure
        return self.bonus + counted + fixed + called + len(self.inspire_zones)


def available(eng: TwoD20Engine, who: str, momentum: int) -> int:
    """Momentum `who` can spend without Threat: bonus, the test's, then the pool (an NPC's: Threat)."""
    pool = eng.st.momentum if eng.sheet(who).pc else eng.st.threat
    return eng.st.bonus_momentum + momentum + pool


def offered(eng: TwoD20Engine) -> list[str]:
    """The spend words the profile allows (Swift Action only where the profile has it, B8)."""
    return [
        k
        for k in SPENDS
        if (k != "swift" or "swift" in eng.profile.actions)
        and (k != "called" or eng.profile.hit_locations)
        and (k != "inspire" or eng.profile.inspire)
    ]


def _faces(text: str) -> list[int]:
    return [count(x.strip(), "face") for x in text.replace(" ", ",").split(",") if x.strip()]


def _spend_word(word: str) -> bool:
    head = word[:1]
    return head.isalpha() and not word.casefold().startswith("roll")


def parse(eng: TwoD20Engine, p: Prompt, value: str) -> Chosen:
    """Read an answer: ``roll``, ``roll+N`` or the faces, then any spend words; refuses a malformed one."""
    base = int(str(p.data["dice"]))
    flat = eng.profile.bonus_damage_flat
    words = value.split()
    head: list[str] = []
    for w in (w for w in words if not _spend_word(w)):
        if head and head[-1].casefold().startswith("roll") and (w.startswith("+") or head[-1].endswith("+")):
            head[-1] += w  # "roll + 2" is roll+2
        else:
            head.append(w)
    asked = [w.casefold() for w in head if w.casefold().startswith("roll")]
    typed = [w for w in head if not w.casefold().startswith("roll")]
    chosen = Chosen()
    if len(asked) > 1 or (asked and typed and not flat):
        raise Refusal("answer roll or roll+N, or the faces rolled (one per die, Bonus Damage dice included)")
    if asked or not typed:
        word = asked[0] if asked else "roll"
        if word not in p.options:
            raise Refusal(f"answer {', '.join(p.options)}, or the faces rolled (e.g. 4,1,6), then any spends")
        chosen.bonus = int(word.partition("+")[2] or 0)
    if typed:
        chosen.faces = _faces(" ".join(typed))
        most = base + (0 if flat else len(p.options) - 1)
        if not base <= len(chosen.faces) <= most:
            raise Refusal(f"give {base} faces or more, one per Challenge Die rolled (more for Bonus Damage)")
        chosen.bonus += len(chosen.faces) - base
    for word in (w for w in words if _spend_word(w)):
        if word.casefold().startswith("receipt="):
            chosen.receipt = _faces(word.partition("=")[2])
            continue
        if word.casefold().startswith("location="):
            chosen.location = hit_locations.face(word.partition("=")[2])
            continue
        if word.casefold() == "avoid":
            chosen.avoid = True
            continue
        _read_spend(eng, p, chosen, word)
    return chosen


def _zones(eng: TwoD20Engine, p: Prompt, text: str) -> list[str]:
    """Inspire's further zones (``Corridor,Lobby``): each a zone of the map, none twice, not the attacker's
    own (its allies there are inspired already) [003:L607]."""
    here = eng.fighter(str(p.who)).zone
    found: list[str] = []
    for word in (w for w in text.split(",") if w.strip()):
        zone = eng.zones.resolve(word.replace("_", " "))
        if zone == here or zone in found:
            raise Refusal(f"Inspire's further zones are other zones, each once ('{zone}')")
        found.append(zone)
    if not found:
        raise Refusal("inspire=ZONE[,ZONE…] names the further zones, 1 Momentum each")
    return found


def _read_spend(eng: TwoD20Engine, p: Prompt, chosen: Chosen, word: str) -> None:
    text, eq, rest = word.partition("=")
    key = names.resolve(names.normalise(text).replace("_", ""), offered(eng), what="spend")
    spend = SPENDS[key]
    if not spend.repeatable:
        if key in chosen.once:
            raise Refusal(f"{spend.title} is once per test")
        chosen.once.append(key)
    if spend.takes == "count":
        n = count(rest, spend.title) if eq else 1
        if n < 1:
            raise Refusal(f"{spend.title} takes 1 Momentum or more")
        if key == "penetration":
            chosen.penetration += n
        elif key == "pressure":
            chosen.pressure += n
        else:
            chosen.confidence += n
    elif spend.takes == "name":
        if not rest:
            raise Refusal(f"{spend.title} needs the second target: {key}=NAME")
        chosen.secondary = eng.living(rest)
    elif spend.takes == "faces":
        chosen.reroll = True
        chosen.reroll_faces = _faces(rest) if rest else None
    elif spend.takes == "text":
        chosen.advantage = rest.replace("_", " ")
    elif spend.takes == "zones":
        chosen.inspire = True
        chosen.inspire_zones = _zones(eng, p, rest) if eq else []
    elif spend.takes == "location":
        if not rest:
            raise Refusal(f"{spend.title} needs the location: {key}=PLACE ({', '.join(hit_locations.LOCATIONS)})")
        chosen.called = hit_locations.called(rest)
        chosen.called_cost = eng.profile.called_shot_cost
    elif eq:
        raise Refusal(f"{spend.title} takes no value ('{word}')")
    elif key == "subdue":
        chosen.subdue = True
    elif key == "inspire":
        chosen.inspire = True
    else:
        chosen.swift = True


def check(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Refuse a bad answer before anything changes: the spends' own rules, then their cost (nothing spent,
    no die drawn)."""
    chosen = parse(eng, p, value)
    who, target = str(p.who), str(p.data["target"])
    if chosen.faces is not None:
        dice.roll_challenge(eng.st, len(chosen.faces), chosen.faces)  # checks the faces, draws nothing
    physical = hit_locations.applies(eng, form(weapon_of(eng, who, str(p.data["weapon"]))))
    if (chosen.called or chosen.location) and not physical:
        raise Refusal("a hit location is for a physical attack under a profile that uses them (Infinity)")
    if chosen.inspire and form(weapon_of(eng, who, str(p.data["weapon"]))) != "mental":
        raise Refusal("Inspire is a psywar spend: a mental attack's [003:L605-611]")
    if chosen.called and chosen.location:
        raise Refusal("a Called Shot chooses the location: no d20 to type for it")
    if chosen.pressure and not psywar.received(weapon_of(eng, who, str(p.data["weapon"]))):
        raise Refusal("Pressure is for a delayed or written threat, whose target tests on receipt [004:L2395]")
    if chosen.receipt is not None:
        if not psywar.received(weapon_of(eng, who, str(p.data["weapon"]))):
            raise Refusal("receipt= is for a delayed or written threat's test on receipt")
        if len(chosen.receipt) != dice.BASE_DICE:
            raise Refusal(f"the test on receipt rolls {dice.BASE_DICE} d20s: give {dice.BASE_DICE} faces")
        dice.roll_pool(eng.st, 0, 0, dice=dice.BASE_DICE, faces=chosen.receipt)  # checks the faces
    if chosen.reroll_faces is not None:
        if chosen.faces is None:
            raise Refusal("type the damage faces too to give the re-rolled ones (or let the tracker roll both)")
        blanks = scoreless(chosen.faces)
        if len(chosen.reroll_faces) != len(blanks):
            dead = f"{len(blanks)} {'die' if len(blanks) == 1 else 'dice'}"
            raise Refusal(f"Re-roll Damage re-rolls the {dead} that scored nothing: give that many faces")
        dice.roll_challenge(eng.st, len(chosen.reroll_faces), chosen.reroll_faces)
    a = eng.fighter(who)
    if eng.profile.spends_once_per_round:
        again = [SPENDS[k].title for k in chosen.once if k in a.round_spends]
        if again:
            raise Refusal(f"{who} has spent on {', '.join(again)} this round already (once per round, B24)")
    if chosen.avoid and (why := avoid_injury.refusal(eng, target)):
        raise Refusal(why)
    if chosen.secondary is not None:
        _check_secondary(eng, who, target, chosen.secondary)
    if chosen.confidence:
        held = sum(g.dice for g in a.granted if g.source == "Confidence")
        if held + chosen.confidence > CONFIDENCE_MAX:
            raise Refusal(f"Confidence is at most {CONFIDENCE_MAX}[CD] Morale; {who} has {held}[CD]")
    if chosen.swift:
        _check_swift(eng, who)
    cap = eng.profile.bonus_damage_max
    if cap and chosen.bonus > cap:
        raise Refusal(f"Bonus Damage is at most {cap} Momentum in the {eng.profile.name} profile")
    cost = chosen.cost() - (1 if chosen.reroll and chosen.faces is not None and not scoreless(chosen.faces) else 0)
    if not eng.sheet(who).pc and cost > available(eng, who, int(str(p.data["momentum"]))):
        momentum = int(str(p.data["momentum"])) + eng.st.bonus_momentum
        raise Refusal(
            f"the spends cost {cost} Momentum; {who} has {momentum} from the test and {eng.st.threat} "
            f"{eng.pool_name}: nothing spent"
        )


def _check_secondary(eng: TwoD20Engine, who: str, target: str, other: str) -> None:
    """A second target: an enemy within Reach of the first [004:L1942]. Reach is declared between enemies
    (B22), so "within Reach of the primary target" is read as in its zone."""
    if other == target:
        raise Refusal(f"{other} is the attack's target: Secondary Target needs another")
    if other == who or not eng.enemies(who, other):
        raise Refusal(f"{other} is not an enemy of {who}")
    if eng.fighter(other).zone is None or eng.fighter(other).zone != eng.fighter(target).zone:
        raise Refusal(f"{other} is not within Reach of {target} (not in its zone)")


def _check_swift(eng: TwoD20Engine, who: str) -> None:
    """Swift Action: the profile's, once per round, within the 2 Major Actions a round [004:L1452, L1944;
    003:L375-377], B8, B31."""
    if "swift" not in eng.profile.actions:
        raise Refusal(f"Swift Action is not a spend of the {eng.profile.name} profile")
    a = eng.fighter(who)
    if "swift" in a.round_spends:
        raise Refusal(f"{who} has taken a Swift Action this round (once per round, B8)")
    if a.majors + a.majors_allowed - a.majors_turn >= 2:
        raise Refusal(f"{who} can take no more than 2 Major Actions this round: no extra one to gain (B8, B31)")


def scoreless(faces: list[int] | tuple[int, ...]) -> list[int]:
    """The positions of the dice that scored nothing (faces 3 and 4)."""
    return [i for i, face in enumerate(faces) if CHALLENGE_FACES[face][0] == 0 and not CHALLENGE_FACES[face][1]]
