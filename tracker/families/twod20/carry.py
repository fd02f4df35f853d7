"""What a 2d20 character takes out of one scene into the next (``tracker carry``).

The party file keeps each player's character between the encounters of a campaign (docs/reference/file-format.md).
After a
scene its sheet takes its Harms, its Fatigue, its Fortune and the conditions that outlast the scene
(`catalogue.LASTING`). Stress is not carried: it all goes at the end of the scene [004:L1906] (the Secret War
sheet clears it at the start of the next [002:L113]), and every encounter is a scene.
"""

from __future__ import annotations

from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.tables.catalogue import LASTING
from tracker.families.values import Carried


def lasting(eng: TwoD20Engine, name: str) -> list[Carried]:
    """`name`'s lasting state as sheet fields (README "Campaigns"; docs/rules/2d20.md#s3-3,
    docs/rules/2d20-harm.md#s3-10, docs/rules/2d20-harm.md#s3-11)."""
    sheet, a = eng.sheet(name), eng.fighter(name)
    kept: dict[str, int | bool] = {k: v for k, v in a.conditions.items() if k in LASTING}
    harms: dict[str, int] = {k: v for k, v in a.harms.items() if v}
    out = [
        Carried("harms", dict(harms), {}),
        Carried("fatigue", a.fatigue, 0),
        Carried("conditions", dict(kept), {}),
    ]
    if sheet.pc:
        # Fortune lasts the adventure: it is restored only at the start of the next one [004:L596] (B43).
        start = sheet.starting_fortune if sheet.starting_fortune is not None else eng.profile.starting_meta
        out.append(Carried("fortune", a.fortune, start))
    return out
