"""A hit's damage in the 2d20 attack flow: the dice, the Momentum spends at the roll, and Burst and Reloads.

The damage question (`offer`) names the dice: the weapon's, plus the attacker's own bonus damage by the
profile (docs/rules/2d20.md#s3-0 "Bonus damage": SRD [CD] equal to Fight, or Talk for a mental attack [004:L1000,
L1745]; Infinity and Secret War by the attribute's band [003:L276-286; 002:L101-109]). Its options are the
Bonus Damage the Momentum buys (``roll``, ``roll+1`` …, or the faces rolled); every other spend of the
Common Conflict Momentum table [004:L1929-1945; 003:L355-380; 002:L136-148] is a word added to the same
answer, so one answer takes several spends::

    answer roll+2 penetration=1 secondary=Thug subdue

Costs are paid from the attack's bonus Momentum (Reloads, lost if unspent [004:L518, L1699]), then the
test's Momentum, then the pool: a player character's Momentum, then Threat 1:1 [004:L552-586]; an NPC's
Threat. An answer whose spends cost more than can be paid is refused in one line with nothing spent
(`check`). Spends marked R in the SRD table repeat; the rest are once per test, and once per round for each
character (B24).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Literal

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count
from tracker.engine.records.model import Prompt
from tracker.families.twod20 import breaches, harm, hit_locations, infowar, pools, psywar
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.dice.rolls import CHALLENGE_FACES
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.sheet import TwoD20Weapon
from tracker.families.twod20.records.state import Grant
from tracker.present.words import counted

DAMAGE = "attack_damage"
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
    "subdue": Spend("Subdue", 1, False, "none", "the Harms are recovered next scene"),
    "swift": Spend("Swift Action", 2, False, "none", "an extra Major Action at +1 Difficulty"),
    "advantage": Spend("Create Advantage", 2, False, "text", "a trait for the table"),
    "called": Spend("Called Shot", 2, False, "location", "choose a physical hit's location"),
    "inspire": Spend("Inspire", 2, False, "none", "allies in the attacker's zone +1[CD] Morale to their turn"),
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
        return self.bonus + self.penetration + self.confidence + fixed + (self.called_cost if self.called else 0)


# --- the attacker's own bonus damage ------------------------------------------------------------


def attribute_band(score: int) -> int:
    """The attribute bonus damage bands: 8 or less +0, 9 +1, 10-11 +2, 12-13 +3, 14-15 +4, 16+ +5
    [003:L276-286; 002:L101-109; 004:L1752-1758]."""
    if score < 9:
        return 0
    return min(5, 1 + (score - 8) // 2)


def own_bonus(eng: TwoD20Engine, who: str, kind: str) -> tuple[int, str]:
    """`who`'s bonus damage dice for an attack of `kind` (melee, ranged, mental) and its name ("Fight"),
    by the profile (docs/rules/2d20.md#s3-0 "Bonus damage"); 0 when the sheet lacks the attribute."""
    p = eng.profile
    source = {"melee": p.melee_damage_bonus, "mental": p.mental_damage_bonus, "infowar": p.infowar_damage_bonus}.get(
        kind, p.ranged_damage_bonus
    )
    title = source.replace("_", " ").title()
    sheet = eng.sheet(who)
    if p.damage_bonus == "skill":
        return sheet.skill(source), title
    if p.damage_bonus == "attribute":
        attributes = {k.casefold(): v for k, v in sheet.attributes.items()}
        return attribute_band(attributes.get(source, 0)), title
    return 0, title


# --- the damage question --------------------------------------------------------------------------


def _weapon(eng: TwoD20Engine, who: str, name: str) -> TwoD20Weapon:
    return next(w for w in eng.sheet(who).weapons if w.name == name)


def _form(weapon: TwoD20Weapon) -> str:
    """The attack's form, as the test has it (`skill_test.form`: a ``mental`` weapon makes a mental attack)."""
    from tracker.families.twod20.skill_test import form

    return form(weapon)


def _available(eng: TwoD20Engine, who: str, momentum: int) -> int:
    """Momentum `who` can spend without Threat: bonus, the test's, then the pool (an NPC's: Threat)."""
    pool = eng.st.momentum if eng.sheet(who).pc else eng.st.threat
    return eng.st.bonus_momentum + momentum + pool


def bonus_limit(eng: TwoD20Engine, who: str, momentum: int) -> int:
    """The Bonus Damage the options offer: what the Momentum in hand pays (at most 6), under the profile's
    cap (Secret War 3, docs/rules/2d20.md#s3-0 Momentum "Bonus Damage")."""
    limit = min(_available(eng, who, momentum), 6)
    cap = eng.profile.bonus_damage_max
    return min(limit, cap) if cap else limit


def offered(eng: TwoD20Engine) -> list[str]:
    """The spend words the profile allows (Swift Action only where the profile has it, B8)."""
    return [
        k
        for k in SPENDS
        if (k != "swift" or "swift" in eng.profile.actions)
        and (k != "called" or eng.profile.hit_locations)
        and (k != "inspire" or eng.profile.inspire)
    ]


def hint(eng: TwoD20Engine) -> str:
    """The typed spends with their costs, for the prompt bar."""
    words = {"count": "=N", "name": "=NAME", "faces": "", "text": "", "none": "", "location": "=PLACE"}
    listed = []
    for key in offered(eng):
        s = SPENDS[key]
        cost = eng.profile.called_shot_cost if key == "called" else s.cost
        listed.append(f"{key}{words[s.takes]} {cost}{' each' if s.repeatable else ''}")
    located = "; location=N types the hit location's d20" if eng.profile.hit_locations else ""
    return "or the faces rolled: answer 1,5,6; add spends: " + ", ".join(listed) + located


def offer(eng: TwoD20Engine, who: str, target: str, weapon: str, momentum: int) -> None:
    """Ask the hit's damage: the weapon's dice and the attacker's bonus dice, Bonus Damage offered for the
    Momentum in hand, the other spends typed (docs/rules/2d20-combat.md#s3-8)."""
    spec = _weapon(eng, who, weapon)
    extra, source = own_bonus(eng, who, _form(spec))
    threat, factors = psywar.extra_dice(spec)  # a threat's awe, evidence, status [004:L2407-2414]
    dice_count = spec.damage + extra + threat
    flat = eng.profile.bonus_damage_flat
    named = (f"{spec.fixed}+" if spec.fixed else "") + f"{spec.damage}[CD]"
    named += f" + {extra}[CD] {source}" if extra else ""
    named += f" + {factors}" if factors else ""
    pc = eng.sheet(who).pc
    options, labels = ["roll"], [f"{named}, no spend"]
    for k in range(1, bonus_limit(eng, who, momentum) + 1):
        options.append(f"roll+{k}")
        bonus = f"+{k} damage" if flat else f"+{k}[CD]"
        labels.append(f"{bonus} for {k} {'Momentum' if pc else 'Momentum/' + eng.pool_name}")
    effects = f" ({', '.join(spec.effects)})" if spec.effects else ""
    spare = f"{momentum} Momentum from the test; " if momentum else ""
    spare += f"{eng.st.bonus_momentum} bonus Momentum; " if eng.st.bonus_momentum else ""
    eng.ask(
        DAMAGE,
        f"{who} hits {target}: the {weapon} deals {named}{effects} — {spare}Bonus Damage?",
        options,
        who=who,
        target=target,
        weapon=weapon,
        dice=dice_count,
        momentum=momentum,
        labels=labels,
    )


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
        _read_spend(eng, p, chosen, word)
    return chosen


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
    physical = hit_locations.applies(eng, _form(_weapon(eng, who, str(p.data["weapon"]))))
    if (chosen.called or chosen.location) and not physical:
        raise Refusal("a hit location is for a physical attack under a profile that uses them (Infinity)")
    if chosen.inspire and _form(_weapon(eng, who, str(p.data["weapon"]))) != "mental":
        raise Refusal("Inspire is a psywar spend: a mental attack's [003:L605-611]")
    if chosen.called and chosen.location:
        raise Refusal("a Called Shot chooses the location: no d20 to type for it")
    if chosen.receipt is not None:
        if not psywar.received(_weapon(eng, who, str(p.data["weapon"]))):
            raise Refusal("receipt= is for a delayed or written threat's test on receipt")
        if len(chosen.receipt) != dice.BASE_DICE:
            raise Refusal(f"the test on receipt rolls {dice.BASE_DICE} d20s: give {dice.BASE_DICE} faces")
        dice.roll_pool(eng.st, 0, 0, dice=dice.BASE_DICE, faces=chosen.receipt)  # checks the faces
    if chosen.reroll_faces is not None:
        if chosen.faces is None:
            raise Refusal("type the damage faces too to give the re-rolled ones (or let the tracker roll both)")
        blanks = _blanks(chosen.faces)
        if len(chosen.reroll_faces) != len(blanks):
            dead = f"{len(blanks)} {'die' if len(blanks) == 1 else 'dice'}"
            raise Refusal(f"Re-roll Damage re-rolls the {dead} that scored nothing: give that many faces")
        dice.roll_challenge(eng.st, len(chosen.reroll_faces), chosen.reroll_faces)
    a = eng.fighter(who)
    if eng.profile.spends_once_per_round:
        again = [SPENDS[k].title for k in chosen.once if k in a.round_spends]
        if again:
            raise Refusal(f"{who} has spent on {', '.join(again)} this round already (once per round, B24)")
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
    cost = chosen.cost() - (1 if chosen.reroll and chosen.faces is not None and not _blanks(chosen.faces) else 0)
    if not eng.sheet(who).pc and cost > _available(eng, who, int(str(p.data["momentum"]))):
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


def _blanks(faces: list[int] | tuple[int, ...]) -> list[int]:
    """The positions of the dice that scored nothing (faces 3 and 4)."""
    return [i for i, face in enumerate(faces) if CHALLENGE_FACES[face][0] == 0 and not CHALLENGE_FACES[face][1]]


def _pay(eng: TwoD20Engine, who: str, cost: int, momentum: int, what: str) -> int:
    """Pay `cost`: bonus Momentum, then the test's `momentum`, then the pool; the test's Momentum left."""
    if not cost:
        return momentum
    from_bonus = min(cost, eng.st.bonus_momentum)
    eng.st.bonus_momentum -= from_bonus
    from_test = min(cost - from_bonus, momentum)
    rest = cost - from_bonus - from_test
    parts = [f"{from_bonus} bonus"] if from_bonus else []
    parts += [f"{from_test} from the test"] if from_test else []
    eng.log(f"{who} spends {cost} Momentum on {what}" + (f" ({', '.join(parts)})" if parts else ""))
    if rest and eng.sheet(who).pc and eng.st.momentum < rest:
        if eng.st.momentum:
            taken = eng.st.momentum
            pools.momentum(eng, -taken, f"{who}: {what}")
            rest -= taken
        pools.threat(eng, rest, f"{who}: {what}, paid with {eng.pool_name}")
    elif rest:
        pools.pay(eng, who, rest, what)
    return momentum - from_test


def resolve(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Pay the spends, roll the dice (or score the faces typed), bank what is left, apply the hit and the
    spends' effects (`check` has accepted `value`)."""
    who, target, weapon = str(p.who), str(p.data["target"]), str(p.data["weapon"])
    base, momentum = int(str(p.data["dice"])), int(str(p.data["momentum"]))
    chosen = parse(eng, p, value)
    flat = eng.profile.bonus_damage_flat
    a = eng.fighter(who)
    bought = [
        (chosen.bonus, "Bonus Damage"),
        (chosen.penetration, "Penetration"),
        (SPENDS["secondary"].cost if chosen.secondary else 0, f"Secondary Target ({chosen.secondary})"),
        (chosen.confidence, "Confidence"),
        (SPENDS["subdue"].cost if chosen.subdue else 0, "Subdue"),
        (SPENDS["swift"].cost if chosen.swift else 0, "Swift Action"),
        (SPENDS["advantage"].cost if chosen.advantage is not None else 0, "Create Advantage"),
        (chosen.called_cost if chosen.called else 0, f"Called Shot ({hit_locations.title(chosen.called or '')})"),
        (SPENDS["inspire"].cost if chosen.inspire else 0, "Inspire"),
    ]
    for cost, what in bought:
        momentum = _pay(eng, who, cost, momentum, what)
    roll = dice.roll_challenge(eng.st, base + (0 if flat else chosen.bonus), chosen.faces)
    added = f" +{chosen.bonus} Bonus Damage" if flat and chosen.bonus else ""
    eng.log(f"{who}'s {weapon}: {roll.describe()}{added}", "result")
    if chosen.reroll:
        blanks = _blanks(roll.faces)
        if not blanks:
            eng.log(f"Re-roll Damage: no die scored nothing; {who} spends nothing")
        else:
            momentum = _pay(eng, who, SPENDS["reroll"].cost, momentum, "Re-roll Damage")
            again = dice.roll_challenge(eng.st, len(blanks), chosen.reroll_faces)
            faces = list(roll.faces)
            for i, face in zip(blanks, again.faces, strict=True):
                faces[i] = face
            roll = dice.score_challenge(faces)
            blank = f"{len(blanks)} blank {'die' if len(blanks) == 1 else 'dice'}"
            eng.log(f"{who} re-rolls {blank}: {roll.describe()}", "result")
    _bank(eng, who, momentum)
    _remember(eng, who, chosen)
    spec = _weapon(eng, who, weapon)
    total = roll.total + (chosen.bonus if flat else 0) + spec.fixed
    if spec.fixed:
        eng.log(f"{who}'s {weapon}: {spec.fixed} fixed + {total - spec.fixed} rolled = {total} damage")
    effects = _effects(spec)
    if chosen.confidence:
        a.granted.append(
            Grant(kind="morale", dice=chosen.confidence, source="Confidence", until=who, lasts=_lasts(eng))
        )
        until = "the end of the scene" if _lasts(eng) == "scene" else f"the start of {who}'s next turn"
        eng.log(f"Confidence: {who} gains +{chosen.confidence}[CD] Morale until {until}")
    if chosen.swift:
        a.majors_allowed += 1
        a.swift = True
        eng.log(f"{who} takes a Swift Action: another Major Action this turn at +1 Difficulty")
    if chosen.inspire:
        breaches.inspire(eng, who)
    if chosen.advantage is not None:
        trait = f": {chosen.advantage}" if chosen.advantage else ""
        eng.log(f"{who} creates an advantage{trait}")
    penetration = 2 * chosen.penetration
    # A mental attack's stress goes on the mental track (docs/rules/2d20-combat.md#s3-7, docs/rules/2d20-harm.md#s3-10
    # [004:L1638, L1840]); a hack's on the Firewall ("digital", the profile's third track [003:L344-345]).
    kind = _form(spec)
    mental = kind == "mental"
    hit = harm.Hit(
        total=total,
        icons=roll.icons,
        effects=effects,
        attacker=who,
        penetration=penetration,
        subdue=chosen.subdue,
        mental=mental,
        track="mental" if mental else "digital" if kind == infowar.INFOWAR else None,
    )
    physical = hit_locations.applies(eng, kind)
    if physical and not eng.fighter(target).dead:
        hit_locations.strike(eng, target, chosen.called, chosen.location)
    if psywar.received(spec) and not eng.fighter(target).dead and breaches.shrugged_off(eng, target, chosen.receipt):
        eng.log(f"{target} shrugs off the {weapon} on receipt: no damage [004:L2395-2396]")
    elif not eng.fighter(target).dead:
        harm.resolve_track(eng, target, hit)
        before = breaches.harm_before(eng, target, kind)
        harm.damage(eng, target, hit)
        breaches.after_hit(eng, who, target, spec, kind, before)
    if chosen.secondary is not None and not eng.fighter(chosen.secondary).dead:
        share = _secondary_share(eng, total)
        eng.log(f"Secondary Target: {chosen.secondary} suffers {share} of the {total} damage ({_rounding(eng)})")
        if physical:
            hit_locations.strike(eng, chosen.secondary)  # a random hit location of its own [003:L370-372]
        # The same hit, its total the share (B5: half the rolled damage, before its own resistance).
        harm.resolve_track(eng, chosen.secondary, replace(hit, total=share))
        harm.damage(eng, chosen.secondary, replace(hit, total=share))


def _bank(eng: TwoD20Engine, who: str, left: int) -> None:
    """The test's Momentum left is saved (an NPC's becomes Threat); bonus Momentum is lost [004:L518]."""
    if left and eng.sheet(who).pc:
        pools.momentum(eng, left, f"{who}'s test")
    elif left:
        pools.threat(eng, left, f"{who}'s unspent Momentum (an NPC's)")
    if eng.st.bonus_momentum:
        eng.log(f"{eng.st.bonus_momentum} unspent bonus Momentum is lost")
        eng.st.bonus_momentum = 0


def _remember(eng: TwoD20Engine, who: str, chosen: Chosen) -> None:
    """Note the once-per-round spends taken (B24)."""
    a = eng.fighter(who)
    for key in chosen.once:
        if key not in a.round_spends:
            a.round_spends.append(key)


def _lasts(eng: TwoD20Engine) -> Literal["turn", "scene"]:
    return eng.profile.confidence_lasts


def _secondary_share(eng: TwoD20Engine, total: int) -> int:
    """The second target's damage: half the rolled total, rounded by the profile, or all of it (B5)."""
    rule = eng.profile.secondary_target
    if rule == "full":
        return total
    return math.ceil(total / 2) if rule == "up" else total // 2


def _rounding(eng: TwoD20Engine) -> str:
    return {"up": "half, rounded up", "down": "half, rounded down", "full": "full effects"}[
        eng.profile.secondary_target
    ]


def _effects(weapon: TwoD20Weapon) -> dict[str, int]:
    """The weapon's effects as ``damage`` takes them (``piercing=2`` → 2, ``stun`` → 1)."""
    out: dict[str, int] = {}
    for text in weapon.effects:
        key, _, rating = text.partition("=")
        out[key.strip().casefold()] = int(rating) if rating.strip().isdigit() else 1
    out.pop("mental", None)  # the attack's form (stress on the mental track), not a damage effect
    out.pop("quantronic", None)  # a hack's form (stress on the Firewall), not a damage effect
    return psywar.effects(weapon, out)


def recover_subdued(eng: TwoD20Engine) -> None:
    """A new scene: the Harms of Subdue attacks are recovered [004:L1943], B38; a character they had
    defeated is no longer Defeated."""
    for name, a in eng.st.fighters.items():
        if not a.subdued or a.dead:
            a.subdued = {}
            continue
        eng.log(f"{name} recovers {counted(sum(a.subdued.values()), 'subdued Harm')}")
        if harm.lift_harms(eng, name, a.subdued):
            a.defeated = a.dying = False
            eng.log(f"{name} is no longer Defeated")


def swift_step(eng: TwoD20Engine, who: str) -> int:
    """The +1 Difficulty of the extra Major Action a Swift Action gave (its test's, [004:L1944]): owed while
    the turn's second Major Action is taken or to come."""
    return 1 if eng.fighter(who).swift else 0
