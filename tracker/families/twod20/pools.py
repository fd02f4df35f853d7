"""Momentum, Threat/Heat and Fortune (docs/rules/2d20.md#s3-3): every change logged with its reason."""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.file import TwoD20File


def starting(setup: TwoD20File) -> tuple[int, int]:
    """Momentum and the GM's pool as the file starts them: its ``[encounter] momentum``/``threat``, or 2 per
    player character for Threat when the file gives none (docs/rules/2d20.md#s3-3,
    docs/rules/2d20-lifecycle.md#s3-13)."""
    info = setup.encounter
    pcs = sum(1 for c in setup.combatants if c.pc)
    return info.momentum or 0, info.threat if info.threat is not None else 2 * pcs


def momentum(eng: TwoD20Engine, delta: int, why: str) -> None:
    """Change the group pool; above the cap the overflow is lost (C31), below 0 is refused."""
    st = eng.st
    cap = eng.profile.momentum_max
    if st.momentum + delta < 0:
        raise Refusal(f"the Momentum pool holds only {st.momentum}")
    before = st.momentum
    st.momentum = min(cap, before + delta)
    lost = before + delta - st.momentum
    note = f" ({lost} lost over the cap of {cap})" if lost > 0 else ""
    eng.log(f"Momentum {delta:+d} ({why}): {before} → {st.momentum}{note}")


def threat(eng: TwoD20Engine, delta: int, why: str) -> None:
    st = eng.st
    if st.threat + delta < 0:
        raise Refusal(f"the {eng.pool_name} pool holds only {st.threat}")
    before = st.threat
    st.threat += delta
    eng.log(f"{eng.pool_name} {delta:+d} ({why}): {before} → {st.threat}")


def pay(eng: TwoD20Engine, who: str, cost: int, why: str, use_threat: bool = False) -> None:
    """A cost paid by `who`'s side: NPCs spend Threat; PCs spend Momentum, or add Threat instead."""
    if cost <= 0:
        return
    if not eng.sheet(who).pc:
        if eng.st.threat < cost:
            raise Refusal(f"{why} costs {cost} {eng.pool_name}; the pool holds {eng.st.threat}")
        threat(eng, -cost, f"{who}: {why}")
    elif use_threat or eng.st.momentum < cost:
        threat(eng, cost, f"{who}: {why}, paid with {eng.pool_name}")
    else:
        momentum(eng, -cost, f"{who}: {why}")


def bank(eng: TwoD20Engine, who: str, left: int, why: str, npc_why: str | None = None) -> None:
    """`left` unspent Momentum of `who`'s test: a player character's to the group pool, an NPC's to Threat
    (docs/rules/2d20.md#s3-3); `npc_why` words the NPC's ("… (an NPC's)" by default)."""
    if left and eng.sheet(who).pc:
        momentum(eng, left, why)
    elif left:
        threat(eng, left, npc_why or f"{why} (an NPC's)")


def check_pay(eng: TwoD20Engine, who: str, cost: int, why: str) -> None:
    """Refuse before anything changes when an NPC's side cannot pay."""
    if cost > 0 and not eng.sheet(who).pc and eng.st.threat < cost:
        raise Refusal(f"{why} costs {cost} {eng.pool_name}; the pool holds {eng.st.threat}")


def fortune(eng: TwoD20Engine, who: str, delta: int, why: str) -> None:
    a = eng.fighter(who)
    if a.fortune + delta < 0:
        raise Refusal(f"{who} has only {a.fortune} {eng.profile.meta_currency.title()}")
    before = a.fortune
    a.fortune = min(eng.profile.meta_max, a.fortune + delta)
    eng.log(f"{who}'s {eng.profile.meta_currency.title()} {delta:+d} ({why}): {before} → {a.fortune}")
