"""The turn and round lifecycle of Through the Breach (docs/rules/ttb-lifecycle.md#s2-11, normative).

Each function is one agenda step. `start` queues the encounter start; `next` closes the open turn;
the steps below do the rest: turn starts with their expiries and AP, turn ends with their effects in
the table's order (decision A14), round ends with Reactivate offers, round starts with the re-sort.
"""

from __future__ import annotations

from tracker.families.ttb import area, conditions, damage, duel, initiative
from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.fate import deck
from tracker.families.ttb.records.state import Step


def begin(eng: TTBEngine, _step: Step) -> None:
    """encounter_start: Control Hands, initiative flips, surprise; then round 1."""
    st = eng.st
    st.phase = "between"
    st.round = 0
    eng.log(f"Dramatic Time begins: {eng.setup.encounter.name}")
    for name in eng.present_names():
        sheet, f = eng.sheet(name), eng.fighter(name)
        if sheet.fated and sheet.hand is None and not f.hand and f.turns_taken == 0:
            for _ in range(3):
                deck.draw_twist(eng, name, "end of the Prologue")
        if sheet.surprised:
            f.first_turn_slow = True
    initiative.flip_initiative(eng)
    eng.push(step("round_start"))


def round_start(eng: TTBEngine, _: Step) -> None:
    st = eng.st
    st.round += 1
    st.active = None
    st.last_tie_picks, st.tie_picks = st.tie_picks, []
    eng.log(f"Round {st.round} begins")
    initiative.apply_pending_mods(eng)
    for f in st.fighters.values():
        f.acted = False
        f.arriving = False  # newcomers of the last round take their place in the order now
    eng.push(step("ties"), step("advance"))


def ties(eng: TTBEngine, _: Step) -> None:
    initiative.run_ties(eng)


def advance(eng: TTBEngine, _: Step) -> None:
    """Start the next turn in the order, or end the round when everyone has acted."""
    st = eng.st
    if all(eng.fighter(n).dead for n in eng.present_names()):
        # Nobody can take a turn: stop here instead of cycling round_end/round_start forever.
        st.active = None
        st.phase = "between"
        eng.log("Nobody is left to fight: 'end' ends Dramatic Time")
        return
    for name in st.order:
        f = eng.fighter(name)
        if not f.acted and not f.dead:
            eng.push(step("turn_start", name))
            return
    eng.push(step("round_end"))


def turn_start(eng: TTBEngine, s: Step) -> None:
    """turn_start(c), docs/rules/ttb-lifecycle.md#s2-11 steps 1-4."""
    st = eng.st
    name = s.who
    assert name is not None
    f = eng.fighter(name)
    if f.dead:
        return
    st.active = name
    st.phase = "turn"
    st.extra_turn = s.arg == "extra"
    f.turns_taken += 1
    f.quick_action_used = False
    kind = {"extra": " (Reactivate extra turn)", "ordered": " (Ordered)"}.get(str(s.arg), "")
    eng.log(f"{name}'s turn{kind}")
    # 1. Effects that last "until the start of c's next turn".
    if f.conditions.get("defensive"):
        del f.conditions["defensive"]
        eng.log(f"{name}'s Defensive ends (start of its turn)")
    for effect in [e for e in st.effects if e.owner == name]:
        st.effects.remove(effect)
        eng.log(f"{effect.kind.title()} by {name} on {effect.target} ends")
    if f.wait:
        eng.log(f"{name}'s Wait ({f.wait}) lapses unused, no refund")
        f.wait = None
    if f.assist:
        f.assist_turns = 1
    if f.hazard_immune:
        f.hazard_immune = False
    # 1b. Beginning the turn in hazardous terrain: the flip comes when its movement ends (docs/rules/ttb-turns.md#s2-6).
    if f.conditions.get("hazardous"):
        f.hazard_pending = True
        eng.log(f"{name} begins its turn in hazardous terrain: a damage flip follows its movement")
    # 2. Surprise: Slow on the first turn (it may cancel with Fast, C7).
    if f.first_turn_slow:
        f.first_turn_slow = False
        conditions.gain(eng, name, "slow", why="surprised")
    # 3. Swimming in rough water: an Athletics challenge before any AP (docs/rules/ttb-turns.md#s2-6).
    if f.conditions.get("rough_water") and not f.unconscious:
        eng.push(step("swim", name), step("turn_ap", name))
        return
    turn_ap(eng, s)


def swim(eng: TTBEngine, s: Step) -> None:
    """Rough water at the start of the turn: fail and gain Suffocating +1, and the turn ends [000:L210]."""
    assert s.who is not None
    tn = eng.settings.rough_water_tn
    head = f"{s.who} swims in rough water: Athletics challenge TN {tn}"
    duel.ask(eng, "swim", s.who, head, "athletics", tn, action=False)


def sink(eng: TTBEngine, name: str) -> None:
    """A failed swim: Suffocating +1 (Living only), no AP, and the turn goes straight to its end."""
    f = eng.fighter(name)
    eng.st.agenda = [x for x in eng.st.agenda if not (x.op == "turn_ap" and x.who == name)]
    if eng.sheet(name).living:
        conditions.gain(eng, name, "suffocating", 1, why="went under in rough water")
    f.ap = 0
    f.combat_ap = 0
    eng.log(f"{name} goes under: the turn ends")
    follow = bool(eng.st.agenda)
    eng.push(step("turn_end", name), *([] if follow else [step("advance")]))


def turn_ap(eng: TTBEngine, s: Step) -> None:
    """turn_start step 4: AP for the turn, then the turn opens for the GM."""
    name = s.who
    assert name is not None
    f = eng.fighter(name)
    eng.st.active = name
    eng.st.phase = "turn"
    if f.unconscious or f.conditions.get("paralyzed"):
        f.ap = 0
        f.combat_ap = 0
        why = "Unconscious" if f.unconscious else "Paralyzed"
        eng.log(f"{name} is {why}: 0 AP, no actions this turn")
    else:
        base = eng.sheet(name).base_general_ap
        fast = 1 if f.conditions.get("fast") else 0
        if f.conditions.get("slow"):
            f.ap = max(1, base + fast - 1)
        else:
            f.ap = base + fast
        f.combat_ap = eng.settings.combat_ap
        eng.log(f"{name} has {f.ap} General AP and {f.combat_ap} Combat AP")
    eng.halt = True


def turn_end(eng: TTBEngine, s: Step) -> None:
    """turn_end(c): queue the effects in the table's order, expiries last (docs/rules/ttb-lifecycle.md#s2-11, A14)."""
    name = s.who
    assert name is not None
    f = eng.fighter(name)
    eng.st.ending = name
    # A trigger is declared right after its duel [000:L67]: the turn's duels are done with.
    eng.st.last_duel = []
    was_unconscious = "1" if f.unconscious else "0"
    steps = [step(f"tick_{key}", name, was_unconscious) for key in eng.settings.end_of_turn_order]
    # 0. A pending hazard resolves first, on every turn, 0-AP turns included (docs/rules/ttb-lifecycle.md#s2-11).
    hazard = [step("hazard", name)] if f.hazard_pending else []
    # The auras it ends its turn inside reach it (docs/guide/decisions.md "Auras").
    auras = [step(area.HIT, name, arg) for arg in area.aura_steps(eng, name)]
    eng.push(*hazard, *auras, *steps, step("expire", name), step("settle_turn", name))


def hazard(eng: TTBEngine, s: Step) -> None:
    """The hazardous-terrain damage flip; then immunity to it until the next turn start
    (docs/rules/ttb-turns.md#s2-6)."""
    name = s.who
    assert name is not None
    f = eng.fighter(name)
    if not f.hazard_pending or f.dead:
        return
    f.hazard_pending = False
    f.hazard_immune = True
    profile = eng.settings.hazard_damage
    if eng.settings.flips == "auto":
        eng.log(f"{name} suffers the hazardous terrain")
        damage.damage_flip(eng, name, profile, 0, None, armor=True)
        return
    eng.ask(
        "hazard_flip",
        f"{name} suffers hazardous terrain: {profile} damage flip — which card? (or flip)",
        ["flip"],
        who=name,
        profile=profile,
    )


def tick_burning(eng: TTBEngine, s: Step) -> None:
    name = s.who
    assert name is not None
    value = conditions.value_of(eng, name, "burning")
    if not value or eng.fighter(name).dead:
        return
    del eng.fighter(name).conditions["burning"]
    eng.log(f"end of {name}'s turn: Burning +{value}")
    damage.damage(eng, name, value, armor=eng.settings.armor_vs_conditions, why=f"Burning +{value}")
    eng.log(f"{name}'s Burning ends")


def tick_poison(eng: TTBEngine, s: Step) -> None:
    name = s.who
    assert name is not None
    value = conditions.value_of(eng, name, "poison")
    if not value or eng.fighter(name).dead:
        return
    f = eng.fighter(name)
    if value <= 1:
        del f.conditions["poison"]
    else:
        f.conditions["poison"] = value - 1
    eng.log(f"end of {name}'s turn: Poison +{value} → {'ends' if value <= 1 else f'+{value - 1}'}")
    damage.damage(eng, name, 1, armor=eng.settings.armor_vs_conditions, why="Poison")


def tick_suffocating(eng: TTBEngine, s: Step) -> None:
    """Suffocating: a conscious character duels Toughness; an unconscious one takes 3/4/5, no armor."""
    name = s.who
    assert name is not None
    value = conditions.value_of(eng, name, "suffocating")
    if not value or eng.fighter(name).dead:
        return
    if s.arg == "1":
        if eng.settings.flips == "auto":
            damage.damage_flip(eng, name, "3/4/5", 0, None, armor=False, kills_at_zero=True)
            return
        eng.ask(
            "suffocating_flip",
            f"{name} is Suffocating while unconscious: 3/4/5 damage flip, no armor — which card? (or flip)",
            ["flip"],
            who=name,
        )
        return
    duel.ask(
        eng,
        "suffocating_duel",
        name,
        f"{name} is Suffocating: Toughness duel vs TN {value}",
        "toughness",
        value,
        action=False,
    )


def tick_bleeding_out(eng: TTBEngine, s: Step) -> None:
    name = s.who
    assert name is not None
    value = conditions.value_of(eng, name, "bleeding_out")
    if not value or eng.fighter(name).dead:
        return
    eng.fighter(name).conditions["bleeding_out"] = value + 1
    eng.log(f"end of {name}'s turn: Bleeding Out +{value} → +{value + 1}")
    conditions.check_bleeding_death(eng, name)


def expire(eng: TTBEngine, s: Step) -> None:
    """Expire "until end of turn" conditions gained before this turn end began (docs/rules/ttb-lifecycle.md#s2-11 step
    5)."""
    name = s.who
    assert name is not None
    f = eng.fighter(name)
    for key, rule in conditions.CONDITIONS.items():
        if rule.expires == "turn_end" and f.conditions.get(key):
            if key in f.grace:
                continue
            del f.conditions[key]
            eng.log(f"{name}'s {rule.title} ends (end of turn)")
    f.grace = []
    if f.assist and f.assist_turns:
        f.assist = 0
        f.assist_turns = 0
        eng.log(f"{name}'s Assist bonus ends unused")


def settle_turn(eng: TTBEngine, s: Step) -> None:
    """Last part of turn_end: the turn is done; an Ordered subordinate acts next (docs/rules/ttb-turns.md#s2-3
    Order)."""
    name = s.who
    assert name is not None
    st = eng.st
    f = eng.fighter(name)
    f.acted = True
    f.ap = 0
    f.combat_ap = 0
    st.ending = None
    st.active = None
    st.extra_turn = False
    st.phase = "between"
    if f.ordered:
        sub = f.ordered
        f.ordered = None
        if not eng.fighter(sub).dead:
            eng.fighter(sub).acted = True
            eng.push(step("turn_start", sub, "ordered"))


def round_end(eng: TTBEngine, _: Step) -> None:
    """round_end: Reactivate offers in initiative order, list built once (decision A24)."""
    st = eng.st
    st.active = None
    st.phase = "between"
    eng.log(f"Round {st.round} ends")
    holders = [n for n in st.order if eng.fighter(n).conditions.get("reactivate") and not eng.fighter(n).dead]
    steps = [step("reactivate_offer", n) for n in holders]
    if eng.settings.recheck_unconscious_each_round:
        steps += [
            step("unconscious_check", n)
            for n in st.order
            if eng.fighter(n).wounds <= 0 and not eng.fighter(n).unconscious
        ]
    eng.push(*steps, step("round_start"))


def reactivate_offer(eng: TTBEngine, s: Step) -> None:
    name = s.who
    assert name is not None
    f = eng.fighter(name)
    if f.dead or not f.conditions.get("reactivate"):
        return
    eng.ask("reactivate", f"{name} holds Reactivate: take an extra turn now? (yes/no)", ["yes", "no"], who=name)


def settle_hand(eng: TTBEngine, s: Step) -> None:
    assert s.who is not None
    deck.settle_hand(eng, s.who)


def critical(eng: TTBEngine, s: Step) -> None:
    assert s.who is not None
    damage.run_critical(eng, s.who, str(s.arg))


def unconscious_check(eng: TTBEngine, s: Step) -> None:
    assert s.who is not None
    damage.run_unconscious_check(eng, s.who)


STEPS = {
    "begin": begin,
    "round_start": round_start,
    "ties": ties,
    "advance": advance,
    "turn_start": turn_start,
    "swim": swim,
    "turn_ap": turn_ap,
    "hazard": hazard,
    "turn_end": turn_end,
    "tick_burning": tick_burning,
    "tick_poison": tick_poison,
    "tick_suffocating": tick_suffocating,
    "tick_bleeding_out": tick_bleeding_out,
    "expire": expire,
    "settle_turn": settle_turn,
    "round_end": round_end,
    "reactivate_offer": reactivate_offer,
    "settle_hand": settle_hand,
    "critical": critical,
    "unconscious_check": unconscious_check,
}
