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
Threat. The answer is read and checked first (`tracker.families.twod20.spend_answer`): one that costs more
than can be paid is refused in one line with nothing spent. Spends marked R in the SRD table repeat; the rest
are once per test, and once per round for each character (B24).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Literal

from tracker.engine.records.model import Prompt
from tracker.families.twod20 import breaches, harm, hit_locations, infowar, pools, psywar, recovery
from tracker.families.twod20.attack_test import form
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.sheet import TwoD20Weapon
from tracker.families.twod20.records.state import Grant
from tracker.families.twod20.shots import weapon_of
from tracker.families.twod20.spend_answer import (
    SPENDS,
    Chosen,
    available,
    offered,
    parse,
    scoreless,
)
from tracker.present.words import counted

DAMAGE = "attack_damage"


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


def bonus_limit(eng: TwoD20Engine, who: str, momentum: int) -> int:
    """The Bonus Damage the options offer: what the Momentum in hand pays (at most 6), under the profile's
    cap (Secret War 3, docs/rules/2d20.md#s3-0 Momentum "Bonus Damage")."""
    limit = min(available(eng, who, momentum), 6)
    cap = eng.profile.bonus_damage_max
    return min(limit, cap) if cap else limit


def hint(eng: TwoD20Engine) -> str:
    """The typed spends with their costs, for the prompt bar."""
    words = {"count": "=N", "name": "=NAME", "faces": "", "text": "", "none": "", "location": "=PLACE", "zones": ""}
    listed = []
    for key in offered(eng):
        if key == "pressure":
            continue  # a delayed or written threat's only (docs/reference/language.md): not on every hit's bar
        s = SPENDS[key]
        cost = eng.profile.called_shot_cost if key == "called" else s.cost
        listed.append(f"{key}{words[s.takes]} {cost}{' each' if s.repeatable else ''}")
    located = "; location=N types the hit location's d20" if eng.profile.hit_locations else ""
    avoided = "; avoid: the target Avoids Injury" if eng.profile.avoid_injury != "off" else ""
    return "or the faces rolled: answer 1,5,6; add spends: " + ", ".join(listed) + located + avoided


def offer(eng: TwoD20Engine, who: str, target: str, weapon: str, momentum: int) -> None:
    """Ask the hit's damage: the weapon's dice and the attacker's bonus dice, Bonus Damage offered for the
    Momentum in hand, the other spends typed (docs/rules/2d20-combat.md#s3-8)."""
    spec = weapon_of(eng, who, weapon)
    extra, source = own_bonus(eng, who, form(spec))
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
        (SPENDS["inspire"].cost + len(chosen.inspire_zones) if chosen.inspire else 0, "Inspire"),
    ]
    for cost, what in bought:
        momentum = _pay(eng, who, cost, momentum, what)
    roll = dice.roll_challenge(eng.st, base + (0 if flat else chosen.bonus), chosen.faces)
    added = f" +{chosen.bonus} Bonus Damage" if flat and chosen.bonus else ""
    eng.log(f"{who}'s {weapon}: {roll.describe()}{added}", "result")
    if chosen.reroll:
        blanks = scoreless(roll.faces)
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
    spec = weapon_of(eng, who, weapon)
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
        breaches.inspire(eng, who, chosen.inspire_zones)
    if chosen.advantage is not None:
        trait = f": {chosen.advantage}" if chosen.advantage else ""
        eng.log(f"{who} creates an advantage{trait}")
    penetration = 2 * chosen.penetration
    # A mental attack's stress goes on the mental track (docs/rules/2d20-combat.md#s3-7, docs/rules/2d20-harm.md#s3-10
    # [004:L1638, L1840]); a hack's on the Firewall ("digital", the profile's third track [003:L344-345]).
    kind = form(spec)
    mental = kind == "mental"
    hit = harm.Hit(
        total=total,
        icons=roll.icons,
        effects=effects,
        attacker=who,
        penetration=penetration,
        subdue=chosen.subdue,
        avoid=chosen.avoid,
        mental=mental,
        track="mental" if mental else "digital" if kind == infowar.INFOWAR else None,
    )
    physical = hit_locations.applies(eng, kind)
    if physical and not eng.fighter(target).dead:
        hit_locations.strike(eng, target, chosen.called, chosen.location)
    if (
        psywar.received(spec)
        and not eng.fighter(target).dead
        and breaches.shrugged_off(eng, target, chosen.receipt, chosen.pressure)
    ):
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
    pools.bank(eng, who, left, f"{who}'s test", f"{who}'s unspent Momentum (an NPC's)")
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
        if recovery.lift_harms(eng, name, a.subdued):
            a.defeated = a.dying = False
            eng.log(f"{name} is no longer Defeated")


def swift_step(eng: TwoD20Engine, who: str) -> int:
    """The +1 Difficulty of the extra Major Action a Swift Action gave (its test's, [004:L1944]): owed while
    the turn's second Major Action is taken or to come."""
    return 1 if eng.fighter(who).swift else 0
