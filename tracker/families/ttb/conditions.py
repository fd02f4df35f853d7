"""Through the Breach conditions (docs/rules/ttb-conditions.md#s2-7): the catalogue and how they are gained and lost.

Timed effects (Burning's tick, Bleeding Out's rise, expiries) run in `lifecycle`; this module holds what
happens at the moment a condition is gained or lowered: stacking, Living-only, cancelling pairs,
Intoxicated twice, the Bleeding Out death check and the mid-turn AP changes of Fast, Slow and Paralyzed.
"""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.tables.catalogue import CONDITIONS, STATES, condition_key

__all__ = ["CONDITIONS", "STATES", "condition_key", "gain", "lower"]


def value_of(eng: TTBEngine, name: str, key: str) -> int:
    v = eng.fighter(name).conditions.get(key, 0)
    return int(v)


def check_gain(eng: TTBEngine, name: str, key: str, amount: int | None) -> None:
    """Refuse a gain the rules do not allow, before anything changes."""
    rule = CONDITIONS[key]
    sheet = eng.sheet(name)
    if amount is not None and not rule.valued:
        raise Refusal(f"{rule.title} is not a valued condition: add it without a number")
    if amount is not None and amount < 1:
        raise Refusal(f"{rule.title} must gain at least +1")
    if not sheet.living and rule.living == "only":
        raise Refusal(f"{name} is not Living: {rule.title} only affects Living characters")
    if not sheet.living and rule.living == "generally" and eng.settings.poison_non_living == "block":
        raise Refusal(f"{name} is not Living and this table blocks Poison on non-Living characters")


def gain(eng: TTBEngine, name: str, key: str, amount: int | None = None, why: str = "") -> None:
    """Give `name` a condition (checked first by `check_gain`), with every rule that fires on gain."""
    rule = CONDITIONS[key]
    f = eng.fighter(name)
    sheet = eng.sheet(name)
    suffix = f" ({why})" if why else ""
    if key == "intoxicated" and f.conditions.get("intoxicated"):
        eng.log(f"{name} is already Intoxicated: gains Poison +1 instead{suffix}")
        gain(eng, name, "poison", 1, "second Intoxicated")
        return
    if rule.cancels and f.conditions.get(rule.cancels):
        other = CONDITIONS[rule.cancels].title
        del f.conditions[rule.cancels]
        _drop_grace(f.grace, rule.cancels)
        eng.log(f"{name} gains {rule.title}{suffix}: it cancels {other}, both are removed")
        return
    if not sheet.living and rule.living == "generally":
        eng.log(f"warning: {name} is not Living; Poison generally affects Living characters only")
    if rule.valued:
        before = int(f.conditions.get(key, 0))
        value = before + (amount or 1)
        f.conditions[key] = value
        eng.log(f"{name} gains {rule.title} +{amount or 1} → +{value}{suffix}")
    else:
        held = bool(f.conditions.get(key))
        f.conditions[key] = True
        eng.log(f"{name} {'already has' if held else 'gains'} {rule.title}{suffix}")
        if held:
            _note_grace(eng, name, key)
            return
    _note_grace(eng, name, key)
    _on_gain(eng, name, key)


def _note_grace(eng: TTBEngine, name: str, key: str) -> None:
    """An until-end-of-turn condition gained during its owner's own turn end lasts one more turn."""
    if CONDITIONS[key].expires != "turn_end":
        return
    f = eng.fighter(name)
    if eng.st.ending == name and key not in f.grace:
        f.grace.append(key)


def _drop_grace(grace: list[str], key: str) -> None:
    if key in grace:
        grace.remove(key)


def _on_gain(eng: TTBEngine, name: str, key: str) -> None:
    """Immediate effects of gaining a condition."""
    f = eng.fighter(name)
    active = eng.is_active(name)
    if key == "bleeding_out":
        check_bleeding_death(eng, name)
    elif key == "fast" and active:
        f.ap += 1
        eng.log(f"{name} gains 1 General AP at once (Fast): {f.ap} left")
    elif key == "slow" and active and f.ap > 0:
        f.ap -= 1
        eng.log(f"{name} loses 1 General AP at once (Slow): {f.ap} left")
    elif key == "paralyzed" and active:
        f.ap = 0
        f.combat_ap = 0
        eng.log(f"{name} is Paralyzed: the turn ends at once, unspent AP are lost")
        eng.close_turn(name)


def check_bleeding_death(eng: TTBEngine, name: str) -> None:
    """Bleeding Out at +10 kills, whatever raised it [000:L320]."""
    if value_of(eng, name, "bleeding_out") >= 10:
        from tracker.families.ttb.damage import die

        die(eng, name, "Bleeding Out reached +10")


def lower(eng: TTBEngine, name: str, key: str, amount: int | None, why: str = "") -> None:
    """Lower a valued condition by `amount` or remove any condition (no amount)."""
    rule = CONDITIONS[key]
    f = eng.fighter(name)
    if not f.conditions.get(key):
        raise Refusal(f"{name} does not have {rule.title}")
    if amount is not None and not rule.valued:
        raise Refusal(f"{rule.title} is not a valued condition: remove it without a number")
    if amount is not None and amount < 1:
        raise Refusal("remove at least 1")
    suffix = f" ({why})" if why else ""
    if amount is None or int(f.conditions[key]) <= amount:
        del f.conditions[key]
        _drop_grace(f.grace, key)
        eng.log(f"{name}'s {rule.title} ends{suffix}")
    else:
        f.conditions[key] = int(f.conditions[key]) - amount
        eng.log(f"{name}'s {rule.title} −{amount} → +{f.conditions[key]}{suffix}")
