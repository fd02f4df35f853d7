"""What a Through the Breach character takes out of one fight into the next (``tracker carry``).

The party file keeps each player's character between the encounters of a campaign (docs/reference/file-format.md).
After a
fight its sheet takes the Wounds left (``wounds_left``), the conditions that outlast the fight
(`catalogue.LASTING`), the Control Hand and the Twist discard pile of a Fated (``twist_discard``: the cards
played or discarded stay out of the Twist Deck until it runs out and is reshuffled [001:L36], so a new fight
builds the Twist Deck from the suits less the hand and the discards), and the Fate Points of a Fatemaster
ally. Everything else belongs to the fight: AP, initiative, engagements, the Fate Deck.
"""

from __future__ import annotations

from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.records.sheet import starting_fate_points
from tracker.families.ttb.tables.catalogue import LASTING
from tracker.families.values import Carried


def lasting(eng: TTBEngine, name: str) -> list[Carried]:
    """`name`'s lasting state as sheet fields (README "Campaigns"; docs/rules/ttb-conditions.md#s2-7-2,
    docs/rules/ttb.md#s2-2-2, docs/rules/ttb-damage.md#s2-10)."""
    sheet, f = eng.sheet(name), eng.fighter(name)
    kept: dict[str, int | bool] = {k: v for k, v in f.conditions.items() if k in LASTING}
    if f.unconscious:
        kept["unconscious"] = True
    out = [Carried("wounds_left", f.wounds, sheet.wounds), Carried("conditions", dict(kept), {})]
    if sheet.fated:
        # Absent, the sheet means "draw three at the start" [000:L169]; a carried hand replaces that draw.
        out.append(Carried("hand", list(f.hand), None))
        out.append(Carried("twist_discard", list(f.twist_discards), []))
    elif sheet.rank_value is not None:
        out.append(Carried("fate_points", f.fate_points, starting_fate_points(sheet.rank_value)))
    return out
