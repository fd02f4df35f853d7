"""The Avoid Injury variant [004:L1996-2012] (profile parameter ``avoid_injury``): once a scene a character may
avoid a Harm it suffers, for a cost; minor NPCs never may, notable NPCs once, major NPCs as often as they like.
Declared with the damage (``damage NAME N avoid``, or ``avoid`` in the attack flow's damage answer), checked
by `refusal` before anything changes, and applied by `tracker.families.twod20.harm` in place of the Harms."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.families.twod20 import pools
from tracker.present.words import counted

if TYPE_CHECKING:
    from tracker.families.twod20.engine import TwoD20Engine


def refusal(eng: TwoD20Engine, name: str) -> str:
    """Why `name` may not Avoid Injury now, or "" [004:L1996-2004]: the variant is off; a minor NPC never
    may, a player character or a notable NPC once a scene, a major NPC as often as it likes; an NPC's side
    must hold the 2 Threat it spends."""
    variant = eng.profile.avoid_injury
    if variant == "off":
        return "Avoid Injury is a variant this encounter does not use (profile parameter avoid_injury)"
    sheet = eng.sheet(name)
    if sheet.npc_type == "minor":
        return f"{name} is a minor NPC: minor NPCs cannot Avoid Injury [004:L2000]"
    if sheet.npc_type != "major" and eng.fighter(name).avoided:
        return f"{name} has Avoided Injury once this scene already [004:L2000]"
    if not sheet.pc and eng.st.threat < AVOID_COST:
        return f"Avoid Injury costs {AVOID_COST} {eng.pool_name}; the pool holds {eng.st.threat}"
    return ""


#: What Avoid Injury costs, in Momentum or Threat [004:L2008-2009].
AVOID_COST = 2


def avoid(eng: TwoD20Engine, name: str, count: int, kind: str) -> None:
    """`name` Avoids the Injury: the `count` Harms are not suffered; the variant's cost is paid
    [004:L2008-2009]: 2 Momentum (or 2 added to Threat) for a player character, 2 Threat for an NPC, and with
    the "complication" cost a Complication too (a player character's 2 always go to Threat then)."""
    a = eng.fighter(name)
    a.avoided += 1
    what = counted(count, kind.title())
    complication = eng.profile.avoid_injury == "complication"
    pools.pay(eng, name, AVOID_COST, "Avoid Injury", use_threat=complication)
    eng.log(
        f"{name} Avoids Injury: {what} not suffered"
        + (" and suffers a Complication (the GM says what; a trait records it)" if complication else "")
    )
