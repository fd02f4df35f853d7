"""Damage, resistance, stress, Harm, Defeat, Dying and death
(docs/rules/2d20-combat.md#s3-8 to #s3-10).

`damage` follows the SRD order: Vicious adds to the total, resistance (persistent + rolled
conditional − Piercing) comes off, stress fills the track, the threshold rule gives Harms, and only
then, if stress got through (B41) and at least one Effect was rolled, the damage effects apply.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.engine.errors import Refusal
from tracker.families.twod20 import avoid_injury, forbids, pools, resistance
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.state import Persistent
from tracker.present.words import counted, plural

PHYSICAL = ("stress", "vigour")


def harms_from(taken_before: int, stress: int, maximum: int, threshold: int = 5, per_5: bool = False) -> int:
    """Harms from one hit by the SRD threshold rule (docs/rules/2d20-harm.md#s3-10-1, C28); `per_5` is the literal
    Infinity screen."""
    if stress <= 0:
        return 0
    if per_5:
        return stress // threshold + (1 if taken_before < maximum <= taken_before + stress else 0)
    if taken_before >= maximum:
        return 2 if stress >= threshold else 1
    count = 1 if stress >= threshold else 0
    if taken_before + stress >= maximum:
        count += 1
    return count


@dataclass
class Hit:
    """One damage instance as the command gives it."""

    total: int
    icons: int = 0
    track: str | None = None
    mental: bool = False
    effects: dict[str, int] = field(default_factory=dict)
    cover: int | None = None
    soak: int = 0
    attacker: str | None = None
    ignore_soak: bool = False
    yield_: bool = False
    why: str = ""
    #: Resistance the attack ignores: 2 per Momentum spent on Penetration [004:L1939; 003:L363-364].
    penetration: int = 0
    #: A Subdue attack: its Harms are recovered when the next scene begins [004:L1943], B38.
    subdue: bool = False
    #: Non-lethal Harm, declared with the attack: a defeat it brings renders unconscious [004:L1964].
    nonlethal: bool = False
    #: The target Avoids the Injury (the Avoid Injury variant [004:L2000-2006]): the Harms of this hit are not
    #: suffered, for the variant's cost (`avoid_injury.refusal` has said it may).
    avoid: bool = False


def resolve_track(eng: TwoD20Engine, name: str, hit: Hit) -> tuple[str, str, str]:
    """(track, harm kind, resistance field) for a hit: physical by default; `mental` or a track name."""
    tracks = {t: (h, r) for t, h, r in eng.profile.tracks}
    have = eng.tracks(name)
    if hit.track:
        if hit.track in ("mental", "physical", "digital"):
            wanted = {"physical": 0, "mental": 1, "digital": 2}[hit.track]
            if len(eng.profile.tracks) == 1:
                if hit.track == "digital":
                    raise Refusal(f"profile {eng.profile.name} has no digital track")
                t, h, r = eng.profile.tracks[0]
                return (t, eng.profile.mental_harm, "courage") if hit.track == "mental" else (t, h, r)
            t, h, r = eng.profile.tracks[wanted]
            if t not in have:
                raise Refusal(f"{name} has no {t} track")
            return t, h, r
        if hit.track not in have:
            raise Refusal(f"{name} has no '{hit.track}' track (tracks: {', '.join(have)})")
        h, r = tracks.get(hit.track, ("wound", "armor"))
        return hit.track, h, r
    t, h, r = eng.profile.tracks[0]
    if t not in have:
        t = next(iter(have))
        h, r = tracks.get(t, ("wound", "armor"))
    return t, h, r


def damage(eng: TwoD20Engine, name: str, hit: Hit) -> None:
    """Apply one hit to `name` with every rule of docs/rules/2d20-combat.md#s3-8 to #s3-10; then what its own
    Cover or Morale's effects do once the hit is over (`tracker.families.twod20.resistance`)."""
    used = _apply(eng, name, hit)
    if used is None:
        return
    kind, found, roll = used
    x = resistance.spent(eng, name, kind, found, roll)
    if x and not eng.fighter(name).dead:
        blast = dice.roll_challenge(eng.st, x)
        damage(eng, name, Hit(total=blast.total, icons=blast.icons, mental=kind == "morale", why=f"Volatile {kind}"))


def _apply(eng: TwoD20Engine, name: str, hit: Hit) -> tuple[str, dict[str, int], dice.ChallengeRoll] | None:
    """One hit's resistance, stress, Harms and Effects; the own Cover or Morale with effects it rolled, if any."""
    sheet = eng.sheet(name)
    a = eng.fighter(name)
    used: tuple[str, dict[str, int], dice.ChallengeRoll] | None = None
    track, harm_kind, resist_field = resolve_track(eng, name, hit)
    if hit.mental and len(eng.profile.tracks) == 1:
        harm_kind, resist_field = eng.profile.mental_harm, "courage"
    icons = hit.icons
    fx = hit.effects
    total = hit.total + fx.get("vicious", 0) * icons
    label = f"{hit.why}: " if hit.why else ""
    if hit.ignore_soak:
        resist, detail = 0, "ignoring Soak"
    else:
        persistent = int(getattr(sheet, resist_field, 0))
        dice_count = (
            hit.cover
            if hit.cover is not None
            else {"courage": sheet.morale, "armor": sheet.cover, "bts": sheet.interference}.get(resist_field, 0)
        )
        # Cover/Morale granted by Defend, Bolster or Hit the Dirt until it expires (docs/rules/2d20-turns.md#s3-5-1,
        # docs/rules/2d20-lifecycle.md#s3-13).
        kind = {"armor": "cover", "courage": "morale"}.get(resist_field)
        granted = [g for g in a.granted if g.kind == kind]
        found = resistance.effects(eng, name, kind) if kind and hit.cover is None else {}
        own_roll = None
        if found and kind:  # the sheet's own, with the GM's effects: rolled on its own [004:L1795-1800]
            dice_count = resistance.dice_left(eng, name, kind)
            own_roll = dice.roll_challenge(eng.st, dice_count) if dice_count else None
            used = (kind, found, own_roll) if own_roll else None
            dice_count = 0
        dice_count += sum(g.dice for g in granted)
        rolled = dice.roll_challenge(eng.st, dice_count) if dice_count else None
        conditional = rolled.total if rolled else 0
        if own_roll:
            conditional += own_roll.total + resistance.sturdy(found, own_roll)
        effects_rolled = (rolled.icons if rolled else 0) + (own_roll.icons if own_roll else 0)
        prone_cover = a.conditions.get("prone") and eng.profile.prone_bonus_momentum > 1 and resist_field == "armor"
        if effects_rolled and prone_cover:
            conditional += 2 * effects_rolled  # Infinity: +2 Soak per Effect on Cover Soak while Prone (B37)
        pierce = fx.get("piercing", 0) * icons
        resist = max(0, persistent + conditional + hit.soak - pierce - hit.penetration)
        parts = [f"{resist_field} {persistent}"]
        if own_roll and kind:
            more = f" Sturdy +{resistance.sturdy(found, own_roll)}" if resistance.sturdy(found, own_roll) else ""
            parts.append(f"{kind} {own_roll.describe()}{more}")
        if rolled:
            extra = "".join(f" incl. +{g.dice} {g.source}" for g in granted)
            shown = {"armor": "cover", "courage": "morale", "bts": "interference"}[resist_field]
            parts.append(f"{shown}{extra} {rolled.describe()}")
        if hit.soak:
            parts.append(f"+{hit.soak}")
        if pierce:
            parts.append(f"Piercing −{pierce}")
        if hit.penetration:
            parts.append(f"Penetration −{hit.penetration}")
        detail = "resistance " + " ".join(parts) + f" = {resist}"
    stress = total - resist
    vic = f" (Vicious +{fx.get('vicious', 0) * icons})" if fx.get("vicious") and icons else ""
    if stress <= 0:
        eng.log(f"{label}{name} takes {total}{vic} damage, {detail}: no stress, no further effect")
        return used
    maximum = eng.tracks(name)[track]
    before = a.stress.get(track, 0)
    a.stress[track] = min(maximum, before + stress)
    count = harms_from(before, stress, maximum, eng.profile.harm_threshold, eng.profile.harm_per_5_stress)
    if icons and fx.get("intense") and count:
        count += 1
    shown = stress_text(eng, name, track)
    harms = ""
    avoided = bool(count) and hit.avoid and not avoid_injury.refusal(eng, name)
    if avoided:
        harms = f", {counted(count, harm_kind.title())} avoided"
    elif count and _yields(eng, name, hit.yield_):
        # The log says what is applied: a yielding PC suffers only 1 Harm (docs/rules/2d20-harm.md#s3-10-2).
        harms = f", 1 {harm_kind.title()} (yields: {count} reduced to 1)" if count > 1 else f", 1 {harm_kind.title()}"
    elif count:
        harms = f", {counted(count, harm_kind.title())}"
    eng.log(f"{label}{name} takes {total}{vic} damage, {detail}: {stress} stress ({shown}){harms}")
    if avoided:
        avoid_injury.avoid(eng, name, count, harm_kind)
        count = 0
    if count and hit.subdue:
        a.subdued[harm_kind] = a.subdued.get(harm_kind, 0) + count
        eng.log(f"Subdue: {name}'s {counted(count, harm_kind.title())} recovered when the next scene begins")
    if count and hit.nonlethal:
        a.nonlethal[harm_kind] = a.nonlethal.get(harm_kind, 0) + count
        eng.log(f"Non-lethal: {name}'s {counted(count, harm_kind.title())} removed at the end of the scene")
    if count:
        suffer(eng, name, harm_kind, count, yielded=hit.yield_, subdue=hit.subdue, nonlethal=hit.nonlethal)
    if icons and not a.dead:
        _effects(eng, name, hit, track)
    elif not a.dead:
        for effect in ("stun", "knockdown"):
            if effect in fx:
                eng.log(f"{effect.title()} does not trigger: no Effect rolled")
    return used


def stress_text(eng: TwoD20Engine, name: str, track: str) -> str:
    maximum = eng.tracks(name)[track]
    taken = eng.fighter(name).stress.get(track, 0)
    if eng.profile.stress_display == "remaining":
        return f"{track.title()} {maximum - taken}/{maximum} left"
    return f"{track.title()} {taken}/{maximum}"


def _effects(eng: TwoD20Engine, name: str, hit: Hit, track: str) -> None:
    """Damage effects, each needing ≥1 Effect rolled (docs/rules/2d20-combat.md#s3-8)."""
    a = eng.fighter(name)
    sheet = eng.sheet(name)
    fx = hit.effects
    icons = hit.icons
    survive, move = max(1, sheet.skill("survive")), max(1, sheet.skill("move"))
    if "stun" in fx and icons >= survive:
        if a.conditions.get("stunned"):
            eng.log(f"{name} is already Stunned (Stun does not stack)")
        else:
            a.conditions["stunned"] = True
            a.stun_delayed = eng.st.active == name and eng.st.phase == "turn"
            eng.log(f"{name} is Stunned: no actions on its next turn")
    elif "stun" in fx:
        eng.log(f"Stun does not trigger: {counted(icons, 'Effect')}, {name}'s Survive needs {survive}")
    if "knockdown" in fx and icons >= move and not a.conditions.get("prone"):
        a.conditions["prone"] = True
        eng.log(f"{name} is knocked Prone")
    elif "knockdown" in fx and icons < move:
        eng.log(f"Knockdown does not trigger: {counted(icons, 'Effect')}, {name}'s Move needs {move}")
    elif "knockdown" in fx:
        eng.log(f"Knockdown: {name} is already Prone")
    if "drain" in fx:
        fatigue(eng, name, icons, "Drain")
    if "snare" in fx:
        # The Snare binds actions of the attack's type [004:L1782]; a Snare of another type replaces it.
        kind = forbids.snare_kind(eng, track, hit.mental or hit.track == "mental")
        held = int(a.conditions.get("snared", 0)) if a.snare_kind == kind else 0
        a.conditions["snared"] = max(held, icons)
        a.snare_kind = kind
        eng.log(
            f"{name} is Snared ({kind}): no {kind} actions but breaking free at Difficulty {a.conditions['snared']}"
        )
    if "persistent" in fx:
        # `track=mental` is mental damage too on a single-track profile: the ticks keep that type
        # (docs/rules/2d20-harm.md#s3-11-1).
        mental = hit.mental or hit.track == "mental"
        a.persistent.append(Persistent(x=fx["persistent"], track=track, ticks=icons, mental=mental))
        a.conditions["persistent"] = sum(p.ticks for p in a.persistent)
        eng.log(f"{name} suffers Persistent {fx['persistent']}: {counted(icons, 'tick')} at the end of its turns")
    if "perilous" in fx:
        npc_attacker = hit.attacker is not None and not eng.sheet(hit.attacker).pc
        if npc_attacker:
            pools.threat(eng, -min(icons, eng.st.threat), "Perilous from an NPC")
        else:
            pools.threat(eng, icons, "Perilous")
    if "area" in fx:
        eng.log(f"Area: everyone within Reach of {name}, plus {icons} more within Close range, is hit too")
    if "destructive" in fx:
        eng.log(f"Destructive: {name}'s cover loses {icons}[CD]")
    if "incendiary" in fx and eng.profile.infinity_conditions:
        x = fx["incendiary"]
        a.conditions["burning"] = max(int(a.conditions.get("burning", 0)), x)
        a.burning_rounds = max(a.burning_rounds, icons)
        eng.log(f"{name} is Burning {x} for {counted(icons, 'round')}")


def _yields(eng: TwoD20Engine, name: str, yielded: bool) -> bool:
    """Whether a voluntary Defeat applies: a PC yielding while not yet Defeated (docs/rules/2d20-harm.md#s3-10-2). A
    Defeated character suffers every Harm (see `suffer`), so its yield changes nothing."""
    a = eng.fighter(name)
    already = a.defeated and bool(eng.profile.defeat_at_harms or eng.sheet(name).harm_capacity)
    return yielded and eng.sheet(name).pc and not already


def suffer(
    eng: TwoD20Engine,
    name: str,
    kind: str,
    count: int,
    yielded: bool = False,
    subdue: bool = False,
    nonlethal: bool = False,
) -> None:
    """Harms and what they lead to: Defeated, Dying, death, a mental break (docs/rules/2d20-harm.md#s3-10-2). A Subdue
    attack's Harms on the Defeated do not kill: they are temporary [004:L1943]; nor do non-lethal ones [004:L1964]."""
    a = eng.fighter(name)
    p = eng.profile
    physical = {h for t, h, _ in p.tracks if t in PHYSICAL}
    if a.defeated and (p.defeat_at_harms or eng.sheet(name).harm_capacity):
        a.harms[kind] = a.harms.get(kind, 0) + count
        if subdue or nonlethal:
            how = "subdued" if subdue else "non-lethal"
            eng.log(f"{name} suffers a {how} {kind.title()} while Defeated: temporary, not fatal")
        elif kind in physical:
            _die(eng, name, f"a {kind.title()} while Defeated")
        else:
            a.broken = True
            eng.log(f"{name} suffers a {kind.title()} while Defeated: a mental break, no longer playable")
        return
    if _yields(eng, name, yielded):
        count = 1
        a.yielded = True
        pools.fortune(eng, name, 1, "voluntary Defeat")
    capacity = eng.sheet(name).harm_capacity or p.defeat_at_harms
    before = sum(a.harms.values())
    extra = 0
    if capacity and not yielded:
        # Harms past the one that defeats are suffered while Defeated (a 3rd and 4th Wound at once kill).
        defeating = 1 if a.revived else max(1, capacity - before)
        if count > defeating:
            count, extra = defeating, count - defeating
    a.harms[kind] = a.harms.get(kind, 0) + count
    if kind in a.treated:
        a.treated.pop(kind)
        eng.log(f"a new {kind.title()} un-treats {name}'s treated {kind.title()}s")
    for lethal_kind, limit in p.lethal_harms:
        if a.harms.get(lethal_kind, 0) >= limit:
            if lethal_kind in physical:
                _die(eng, name, f"{limit} {plural(lethal_kind.title(), limit)}")
            else:
                eng.log(f"{name} has {limit} {plural(lethal_kind.title(), limit)}: the system is destroyed")
    total = sum(a.harms.values())
    if capacity and (total >= capacity or yielded or a.revived) and not a.dead:
        _defeat(eng, name, yielded, subdue, nonlethal)
    if extra and not a.dead:
        suffer(eng, name, kind, extra, subdue=subdue, nonlethal=nonlethal)


def _defeat(eng: TwoD20Engine, name: str, yielded: bool, subdue: bool = False, nonlethal: bool = False) -> None:
    a = eng.fighter(name)
    if a.defeated:
        return
    if nonlethal:  # the last Harm non-lethal: unconscious, not dying [004:L1964]
        a.defeated = a.unconscious = True
        a.conditions["prone"] = True
        eng.log(f"{name} is rendered unconscious: Defeated by a non-lethal Harm, not Dying")
        return
    a.defeated = True
    a.conditions["prone"] = True
    physical = {h for t, h, _ in eng.profile.tracks if t in PHYSICAL}
    # A Subdue attack's Harms are temporary [004:L1943]: they count for no Dying, nor does a Defeat they bring
    # (as the non-lethal variant's last Harm renders one unconscious, not dying [004:L1964]).
    wounds = 0 if subdue else sum(v - a.subdued.get(k, 0) for k, v in a.harms.items() if k in physical)
    traumas = sum(v for k, v in a.harms.items() if k not in physical)
    a.dying = wounds > traumas and not yielded
    if a.dying:
        a.stabilized = False  # Dying again after a revival needs new medical attention (B42, C30)
    how = "yields: Defeated (voluntary), not Dying" if yielded else "is Defeated: Prone, one Free Action per turn"
    eng.log(
        f"{name} {how}"
        + (" — and Dying (Wounds > Traumas): dies at the end of the scene unless treated" if a.dying else "")
    )


def _die(eng: TwoD20Engine, name: str, why: str) -> None:
    a = eng.fighter(name)
    a.dead = True
    a.dying = False
    eng.st.reach = [p for p in eng.st.reach if name not in p]
    eng.log(f"{name} dies ({why})")


def fatigue(eng: TwoD20Engine, name: str, amount: int, why: str) -> None:
    """Fatigue lowers max stress; current stress is capped, with no Harm (B21); past 0, unconsciousness.

    The points a blow brings beyond a maximum Stress of 0 are "further Fatigue" (docs/rules/2d20-harm.md#s3-10-3
    [004:L1896]): 4 Fatigue on a maximum of 3 (``add``, or a Drain hit with 4 Effects [004:L1776]) lowers it
    to 0 and the 4th point knocks the character unconscious at once. Fatigue while already unconscious
    kills. Only the points that lowered the maximum are counted as the character's Fatigue.
    """
    a = eng.fighter(name)
    track = next(iter(eng.tracks(name)))
    room = eng.tracks(name)[track]
    if room == 0:
        if a.unconscious:
            _die(eng, name, "more Fatigue while unconscious from exhaustion")
        else:
            a.unconscious = True
            eng.log(f"{name} falls unconscious from exhaustion ({why})")
        return
    a.fatigue += min(amount, room)
    maximum = eng.tracks(name)[track]
    if a.stress.get(track, 0) > maximum:
        a.stress[track] = maximum
    eng.log(f"{name} gains {amount} Fatigue ({why}): max {track.title()} {maximum}")
    if amount > room:
        a.unconscious = True
        past = amount - room
        eng.log(f"{name} falls unconscious from exhaustion ({past} Fatigue past a max {track.title()} of 0)")
