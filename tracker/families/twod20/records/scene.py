"""The 2d20 scene's own file tables: the ``[encounter]`` keys only 2d20 reads, and ``[[zones]]``
(docs/reference/file-format.md).

The shared header (`tracker.engine.records.model.EncounterInfo`) holds what every family's header has; a
2d20 file's header adds its profile, its action order and its starting pools here, in the family's folder,
so the bottom layer names no family (docs/architecture/writing-a-family.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Literal, TypeAlias

# `one_file` is named by the shared header's ``bestiary`` annotation, which pydantic reads again in the
# namespace of this subclass's module when it builds the 2d20 header: the name must be found here too.
from tracker.engine.records.model import EncounterInfo, Strict, one_file  # noqa: F401

if TYPE_CHECKING:  # pydantic's markers, read by pydantic only (`tracker.engine.records.validation`)
    from pydantic import Field, StrictInt


@dataclass(kw_only=True)
class TwoD20Header(EncounterInfo):
    """``[encounter]`` of a 2d20 file: the shared keys, then the profile and how the scene starts."""

    #: The rules profile (docs/reference/file-format.md); the SRD when absent.
    profile: Literal["srd", "infinity", "secret-war"] | None = None
    action_order: Literal["alternating", "initiative", "player-priority", "narrative"] | None = None
    momentum: Annotated[int | None, Field(ge=0, le=6)] = None
    threat: Annotated[int | None, Field(ge=0)] = None


#: The largest column or row a zone may be placed at (``at = [col, row]``): a map is a handful of zones,
#: and a bound keeps a slip ("at = [1000000, 0]") from asking the screen for a huge drawing.
MAX_ZONE_CELL = 99

ZoneCell: TypeAlias = "Annotated[StrictInt, Field(ge=0, le=MAX_ZONE_CELL)]"


@dataclass(kw_only=True)
class Zone(Strict):
    """``[[zones]]`` (2d20): a zone with its neighbours and terrain traits, and where the map draws it."""

    name: Annotated[str, Field(min_length=1)]
    adjacent: list[str] = field(default_factory=list)
    traits: list[str] = field(default_factory=list)
    #: The Terrain Momentum variant [004:L1591-1601]: the Momentum a character spends to move out of this zone
    #: (its difficult terrain, or an obstacle on the way out); one whose side cannot pay cannot leave.
    momentum_to_leave: Annotated[int, Field(ge=0, le=6)] = 0
    #: The map's cell for this zone, ``[col, row]`` from the top left (README "The map"); without it the
    #: zone is laid out automatically. Only the order of the cells matters: empty rows and columns close up.
    at: tuple[ZoneCell, ZoneCell] | None = None
