"""Care between the blows (docs/rules/2d20-harm.md): treating Harms, stabilizing the Dying, reviving the
Defeated, and a player character's Fortune, each a GM command.
"""

from __future__ import annotations

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, count, signed_int
from tracker.families.twod20 import pools
from tracker.families.twod20.engine import TwoD20Engine
from tracker.present.words import counted


def treat(eng: TwoD20Engine, cmd: Command) -> None:
    """`treat NAME KIND [N]`: mark Harms treated (no penalty; they still count, B42)."""
    name = eng.living(cmd.args[0])
    kinds = {h for _, h, _ in eng.profile.tracks} | {eng.profile.mental_harm}
    kind = names.resolve(cmd.args[1], sorted(kinds), what="Harm")
    a = eng.fighter(name)
    n = (count(cmd.args[2], "the amount") if len(cmd.args) > 2 else None) or 1
    have = a.harms.get(kind, 0) - a.treated.get(kind, 0)
    if have < n:
        raise Refusal(f"{name} has {have} untreated {kind.title()}(s)")
    a.treated[kind] = a.treated.get(kind, 0) + n
    eng.log(f"{name}: {counted(n, kind.title())} treated (they still count toward Defeat)")


def stabilize(eng: TwoD20Engine, cmd: Command) -> None:
    name = eng.living(cmd.args[0])
    a = eng.fighter(name)
    if not a.dying:
        raise Refusal(f"{name} is not Dying")
    a.stabilized = True
    a.dying = False
    eng.log(f"{name} is stabilized: alive, still Defeated")


def revive(eng: TwoD20Engine, cmd: Command) -> None:
    name = eng.living(cmd.args[0])
    a = eng.fighter(name)
    if not a.defeated:
        raise Refusal(f"{name} is not Defeated")
    if a.broken:
        raise Refusal(f"{name} has suffered a mental break: final, no revival undoes it [004:L1874-1876]")
    if a.yielded:
        raise Refusal(f"{name} yielded this scene: it cannot be revived until the scene ends")
    a.defeated = False
    a.dying = False
    a.revived = True
    eng.log(f"{name} is revived: no longer Defeated; the next Harm defeats again")


def fortune(eng: TwoD20Engine, cmd: Command) -> None:
    name = eng.living(cmd.args[0])
    if not eng.sheet(name).pc:
        raise Refusal(f"{name} is an NPC: no {eng.profile.meta_currency.title()}")
    pools.fortune(eng, name, signed_int(cmd.args[1], "Fortune"), " ".join(cmd.args[2:]) or "GM")
