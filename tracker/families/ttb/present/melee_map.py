"""The Melee tab's engagement map (docs/rules/ttb-damage.md#s2-9): who is engaged with whom, as a small graph.

Each engaged character is a node with the yards it threatens now ("Sofia Ramos 1y"): its melee range, or
0 when it cannot make a melee attack (unconscious, paralyzed, no melee weapon readied: `can_attack`); each
engagement is a line. Under the map, the line that answers the question the GM asks before a Walk or Run: "If Sofia
walks: disengaging strikes from Guild Thug 1, Guild Thug 2" — every enemy linked with the selected
character that can attack it (`engaged_by`), the ones the engine will offer a strike when it moves away.

Built only when the Melee tab is shown (`TTBPresenter.field_map` imports this lazily); drawn by
`tracker.present.map.draw`.
"""

from __future__ import annotations

from tracker.families.ttb.engine import TTBEngine
from tracker.present.map.graph import MapMark, MapNode, MapView
from tracker.present.view import Block, BlockWriter


def sides_of(eng: TTBEngine) -> list[str]:
    """The sides in the fight, the players' first, then as the file first names them."""
    sides = list(dict.fromkeys(eng.side(n) for n in eng.sheets))
    return sorted(sides, key=lambda s: s != "players")


def engagement_map(eng: TTBEngine, focus: str | None) -> MapView:
    """The engaged characters (file order) and their engagements; `focus` highlighted, with its walk line."""
    sides = sides_of(eng)
    pairs = [(a, b) for a, b in eng.st.engagements]
    engaged = {n for pair in pairs for n in pair}
    nodes = []
    for name in eng.sheets:
        if name not in engaged:
            continue
        fighter = eng.fighter(name)
        # The yards it threatens now: none when it cannot attack (docs/rules/ttb-damage.md#s2-9: only an enemy able to
        # attack engages), so "0y" for the unconscious, the paralyzed, the one with no melee weapon.
        note = f"{eng.sheet(name).melee_range if eng.can_attack(name) else 0}y"
        mark = MapMark(name, sides.index(eng.side(name)), down=fighter.unconscious, selected=name == focus)
        nodes.append(MapNode(name, mark=mark, note=note, focus=name == focus))
    return MapView(
        "engagements",
        tuple(nodes),
        tuple(pairs),
        tuple(sides),
        focus,
        walk_line(eng, focus),
        "Nobody is engaged in melee.",
    )


def walk_line(eng: TTBEngine, focus: str | None) -> Block:
    """ "If Sofia Ramos walks: disengaging strikes from …" for `focus` (nothing for the dead or departed)."""
    out = BlockWriter()
    if focus is None or focus not in eng.sheets or eng.fighter(focus).dead or eng.has_left(focus):
        return out.block()
    out.add(f"If {focus} walks: ", "bold")
    strikers = eng.engaged_by(focus)
    linked = eng.linked(focus)
    if strikers:
        out.line(f"disengaging strikes from {', '.join(strikers)}")
    elif linked:
        out.line(f"no disengaging strikes ({', '.join(linked)} cannot strike)")
    else:
        out.line("no disengaging strikes (not engaged)")
    return out.block()
