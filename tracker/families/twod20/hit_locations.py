"""Infinity's hit locations [003:L276-285] and the Called Shot that picks one [003:L456-460].

A physical hit (melee or ranged) under a profile with ``hit_locations`` strikes where a d20 says: 1-2 Head,
3-5 Right Arm, 6-8 Left Arm, 9-14 Torso, 15-17 Right Leg, 18-20 Left Leg. The tracker rolls it (seeded) after
the damage dice, or the table types the face in the damage answer (``location=11``); the Called Shot spend
(``called=head``, its cost the profile's ``called_shot_cost``: the screen's is garbled, B29) picks it
instead. A Secondary Target is struck at a random location of its own [003:L370-372]. The screen gives the
location no further rule (no armour by location), so the tracker names it in the log for the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.engine import names, rng
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count

if TYPE_CHECKING:
    from tracker.families.twod20.engine import TwoD20Engine

#: (highest d20 face, location) in d20 order [003:L279-285].
TABLE: tuple[tuple[int, str], ...] = (
    (2, "head"),
    (5, "right_arm"),
    (8, "left_arm"),
    (14, "torso"),
    (17, "right_leg"),
    (20, "left_leg"),
)
LOCATIONS = tuple(name for _, name in TABLE)


def location_of(face: int) -> str:
    """The location a d20 face strikes."""
    return next(name for top, name in TABLE if face <= top)


def title(location: str) -> str:
    return location.replace("_", " ").title()


def called(text: str) -> str:
    """A location named as the GM types it (``head``, ``right-arm``, ``torso``)."""
    return names.resolve(names.normalise(text), LOCATIONS, what="hit location")


def face(text: str) -> int:
    """A typed d20 face for the location, 1-20."""
    n = count(text, "the hit location's d20")
    if not 1 <= n <= 20:
        raise Refusal(f"a hit location is a d20 face, 1 to 20 (not {n})")
    return n


def applies(eng: TwoD20Engine, kind: str) -> bool:
    """Whether a hit of `kind` strikes a location: physical attacks under a profile that uses them."""
    return eng.profile.hit_locations and kind in ("melee", "ranged")


def strike(eng: TwoD20Engine, target: str, chosen: str | None = None, typed: int | None = None) -> str:
    """Where the hit on `target` lands: the Called Shot's choice, the typed face, or a seeded d20; logged."""
    if chosen is not None:
        eng.log(f"Called Shot: the hit on {target} strikes the {title(chosen)}")
        return chosen
    rolled = typed if typed is not None else rng.roll(eng.st, 20)
    where = location_of(rolled)
    eng.log(f"the hit on {target} strikes the {title(where)} (d20: {rolled})")
    return where
