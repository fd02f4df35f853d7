"""A 2d20 turn from start to end (docs/rules/2d20-lifecycle.md#s3-13): start-of-turn effects, bookkeeping, end-of-turn
ticks."""

from __future__ import annotations

from tracker.engine.state import reset
from tracker.families.twod20 import hacking, hazards, outofturn, traits
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.harm import Hit, damage


def open_turn(eng: TwoD20Engine, name: str) -> None:
    """turn_start(c): reset the turn's actions, Infinity Bleeding, a Stun, Defeat's limit."""
    st = eng.st
    a = eng.fighter(name)
    st.active = name
    st.phase = "turn"
    st.bonus_momentum = 0
    # A Pass from an earlier, deferred turn does not carry into this one (docs/rules/2d20-turns.md#s3-4 rule 6).
    reset(
        a,
        "minors",
        "extra_minors",
        "free_actions",
        "majors_allowed",
        "majors_turn",
        "deferred",
        "move_budget",
        "sprinted",
        "swift",
    )
    if a.protected_by:
        eng.log(f"{name}'s Protect ({', '.join(a.protected_by)}) ends at the start of its turn")
        a.protected_by = []
    a.acted = True
    if eng.profile.ready_lapses == "next_turn":
        outofturn.lapse(eng, name, "before its next turn [004:L1474]")
    if name not in st.order:
        st.order.append(name)
    eng.log(f"{name}'s turn")
    for other, b in st.fighters.items():
        ending = [g for g in b.granted if g.until == name and g.lasts == "turn"]
        if ending:
            b.granted = [g for g in b.granted if g not in ending]
            lost = ", ".join(f"+{g.dice}[CD] {g.kind.title()} ({g.source})" for g in ending)
            eng.log(f"{other}'s {lost} end{'s' if len(ending) == 1 else ''} at the start of {name}'s turn")
    if eng.profile.infinity_conditions and a.conditions.get("bleeding"):
        roll = dice.roll_challenge(st, 3)
        eng.log(f"Bleeding: {roll.describe()}")
        damage(eng, name, Hit(total=roll.total, icons=0, ignore_soak=True, why="Bleeding (ignores Soak)"))
    hazards.drowning(eng, name)
    penalty = int(a.conditions.get("reset", 0))
    if penalty:  # a Reset's comlog penalty falls by one each turn [003:L667]
        a.conditions["reset"] = penalty - 1
        if penalty == 1:
            del a.conditions["reset"]
        eng.log(f"{name}'s Reset penalty on comlog and AR actions: +{penalty - 1}")
    if a.conditions.get("stunned") and not a.stun_delayed:
        eng.log(f"{name} is Stunned: no actions this turn")
    elif a.defeated:
        eng.log(f"{name} is Defeated: one Free Action this turn")


def end_turn(eng: TwoD20Engine) -> None:
    """turn_end(c): Persistent ticks, Infinity Burning, the Stun spent, a Pass without a Minor deferred."""
    st = eng.st
    name = st.active
    assert name is not None
    a = eng.fighter(name)
    for inst in list(a.persistent):
        if a.dead:
            break
        roll = dice.roll_challenge(st, inst.x)
        inst.ticks -= 1
        eng.log(f"end of {name}'s turn: Persistent {inst.x} → {roll.describe()} ({inst.ticks} tick(s) left)")
        damage(eng, name, Hit(total=roll.total, icons=0, track=inst.track, mental=inst.mental, why="Persistent"))
        if inst.ticks <= 0:
            a.persistent.remove(inst)
    if a.persistent:
        a.conditions["persistent"] = sum(p.ticks for p in a.persistent)
    else:
        a.conditions.pop("persistent", None)
    x = int(a.conditions.get("burning", 0))
    if eng.profile.infinity_conditions and x and not a.dead:
        roll = dice.roll_challenge(st, x)
        eng.log(f"end of {name}'s turn: Burning {x} → {roll.describe()}, applied to Vigour and Resolve")
        physical, mental = eng.profile.tracks[0][0], eng.profile.tracks[1][0]
        damage(eng, name, Hit(total=roll.total, icons=0, track=physical, why="Burning"))
        if not a.dead and mental in eng.tracks(name):
            damage(eng, name, Hit(total=roll.total, icons=0, track=mental, why="Burning"))
        a.burning_rounds = a.burning_rounds - 1 + roll.icons
        if a.burning_rounds <= 0:
            a.conditions.pop("burning", None)
            a.burning_rounds = 0
            eng.log(f"{name}'s Burning ends")
        elif roll.icons:
            eng.log(f"Burning Effects extend it: {a.burning_rounds} round(s) left")
    if a.stun_delayed:
        a.stun_delayed = False  # taken during this turn: it costs the next one (B20)
    elif a.conditions.pop("stunned", None):
        eng.log(f"{name}'s Stun is spent")
    passed = a.deferred
    if passed and not a.minors:
        others = [n for n in eng.sheets if n != name and eng.can_take_turn(n) and not eng.fighter(n).acted]
        if others and not all(eng.fighter(n).deferred for n in others):
            a.acted = False
            # The turn was not used, so its Pass is no Major Action against the 2 per round [004:L1452, L1472].
            a.majors = max(0, a.majors - 1)
            st.order.remove(name)
            eng.log(f"{name} passed without a Minor Action: it has not used its turn and may act later")
        else:
            a.deferred = False
    else:
        for other in st.fighters.values():
            other.deferred = False
    if a.assisted_by:
        eng.log(f"{', '.join(h.by for h in a.assisted_by)}'s assistance to {name} lapses: no test this turn")
        a.assisted_by = []
    if st.bonus_momentum:
        eng.log(f"{st.bonus_momentum} unspent bonus Momentum is lost")
        st.bonus_momentum = 0
    traits.turn_ended(eng, name)
    hacking.dissolve(eng, name)
    st.last_actor = name
    st.active = None
