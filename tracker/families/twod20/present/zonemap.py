"""The Zones tab's map (docs/rules/2d20-combat.md#s3-6): every zone as a box, its borders as lines, its traits as
badges, who stands in it, and the range band of every zone from the selected combatant's.

Built only when the Zones tab is shown (`TwoD20Presenter.field_map` imports this lazily); drawn by
`tracker.present.map.draw`. The bands are the ones the ranges above the odds use: the zone distance
(borders crossed) gives Close, Medium, Long or Extreme (`zones.range_category`); a zone no way reaches
has no band.
"""

from __future__ import annotations

from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.zones import RANGES, range_category
from tracker.present.map.graph import BANDS, Band, MapMark, MapNode, MapView


def sides_of(eng: TwoD20Engine) -> list[str]:
    """The sides in the fight, the players' first, then as the file first names them."""
    sides = list(dict.fromkeys(eng.side(n) for n in eng.sheets))
    return sorted(sides, key=lambda s: s != "players")


def zone_map(eng: TwoD20Engine, focus: str | None) -> MapView:
    """The zones with who stands where and the bands from `focus`'s zone (none when it has no zone)."""
    st = eng.st
    sides = sides_of(eng)
    home = st.fighters[focus].zone if focus in st.fighters else None
    by_zone: dict[str, list[MapMark]] = {}
    for name, fighter in st.fighters.items():
        if fighter.dead or fighter.zone is None or name in st.left:
            continue
        down = fighter.unconscious or fighter.defeated
        mark = MapMark(name, sides.index(eng.side(name)), down=down, selected=name == focus)
        by_zone.setdefault(fighter.zone, []).append(mark)
    placed = {z.name: z.at for z in eng.setup.zones}
    nodes = []
    edges: list[tuple[str, str]] = []
    names = eng.zones.names()
    for zone in names:
        band: Band | None = None
        if home is not None:
            distance = eng.zones.distance(home, zone)
            band = None if distance is None else BANDS[RANGES.index(range_category(distance))]
        nodes.append(
            MapNode(
                zone,
                zone,
                (*eng.zones.traits(zone), *_leaving(eng, zone)),
                tuple(by_zone.get(zone, ())),
                band,
                placed.get(zone),
                focus=zone == home,
            )
        )
        edges += [(zone, other) for other in eng.zones.neighbours(zone) if names.index(other) > names.index(zone)]
    return MapView(
        "zones",
        tuple(nodes),
        tuple(edges),
        tuple(sides),
        focus if home is not None else None,
        empty="This encounter has no zones.",
    )


def _leaving(eng: TwoD20Engine, zone: str) -> tuple[str, ...]:
    """The Terrain Momentum a move out of `zone` costs, shown with its traits (none when it costs nothing)."""
    cost = eng.zones.leave_cost(zone)
    return (f"{cost} Momentum to leave",) if cost else ()
