"""What a condition or a distance forbids a 2d20 character (docs/rules/2d20-combat.md#s3-8,
docs/rules/2d20-harm.md#s3-11, docs/rules/2d20-turns.md#s3-5-1), each refusal in one line with its rule and seed line.

`condition_bar` is asked by `tracker.families.twod20.actions.legality` for every action, the attack flow's
included; `ally_range` by ``spend`` once the ally is named; `move_bar` by the ``move`` command. None of them
changes anything: they only say why not.
"""

from __future__ import annotations

from typing import Literal

from tracker.families.twod20.engine import TwoD20Engine

SnareKind = Literal["physical", "mental", "digital"]

#: Actions that move the character: Stuck forbids them [003:L448]. Hit the Dirt moves within Close range
#: [004:L1529]; Disengage and Shift within the zone [004:L1490, L1518].
MOVING = frozenset({"movement", "rush", "sprint", "withdraw", "disengage", "shift", "adjust", "hit_the_dirt"})
#: Movement as a Free Action, which Hindered forbids [003:L428-431]: Shift [004:L1518], Infinity's Adjust.
FREE_MOVING = frozenset({"shift", "adjust"})
#: Actions of the mind and of the network; a Snare of that type binds them [004:L1782] (judgement: reassuring,
#: commanding, transmitting). Every other typed action is physical.
MENTAL = frozenset({"bolster", "command"})
DIGITAL = frozenset({"transmit"})
#: Actions of no type a Snare binds: declaring, talking, spending a point, breaking free itself; an Assist and
#: a Ready take the type of what they help or hold, which the tracker does not know (the GM judges them).
UNTYPED = frozenset({"pass", "speak", "swift", "surge", "undefeated", "break_free", "assist", "ready"})


def action_type(key: str) -> SnareKind | None:
    """The type of action a Snare of that type forbids (docs/rules/2d20-combat.md#s3-8 Snare: "physical actions for
    physical attacks, etc" [004:L1782]); None for an action of no type."""
    if key in UNTYPED:
        return None
    if key in MENTAL:
        return "mental"
    if key in DIGITAL:
        return "digital"
    return "physical"


def snare_kind(eng: TwoD20Engine, track: str, mental: bool) -> SnareKind:
    """The type of a snaring hit by the track it damages: the profile's second track (Resolve, or mental
    damage on a single track) is mental, its third (Firewall) digital, the rest physical."""
    tracks = [t for t, _, _ in eng.profile.tracks]
    if mental or (len(tracks) > 1 and track == tracks[1]):
        return "mental"
    if len(tracks) > 2 and track == tracks[2]:
        return "digital"
    return "physical"


def hindered(eng: TwoD20Engine, who: str) -> bool:
    """Hindered, or Prone where the profile makes Prone count as Hindered (Infinity [003:L437])."""
    c = eng.fighter(who).conditions
    return bool(c.get("hindered")) or (eng.profile.prone_hindered and bool(c.get("prone")))


def condition_bar(eng: TwoD20Engine, who: str, key: str, kind: str) -> str | None:
    """Why a condition forbids `who` the action `key` (of `kind` under the profile), or None."""
    a = eng.fighter(who)
    c = a.conditions
    if key == "break_free" and not c.get("snared"):
        return f"{who} is not Snared: there is nothing to break free of"
    if c.get("snared") and action_type(key) == a.snare_kind:
        return (
            f"{who} is Snared ({a.snare_kind}): no {a.snare_kind} actions but breaking free at Difficulty "
            f"{c['snared']} (spend {who} break-free TN) [004:L1782]"
        )
    if c.get("stuck") and key in MOVING:
        return f"{who} is Stuck: it cannot move from its place [003:L448]"
    if kind == "free" and key in FREE_MOVING and hindered(eng, who):
        return f"{who} is Hindered: no movement as a Free Action [003:L428-431]"
    if kind == "reaction" and c.get("helpless"):
        return f"{who} is Helpless: no Reactions [003:L425-427]"
    return None


def move_bar(eng: TwoD20Engine, who: str) -> str | None:
    """Why ``move`` may not move `who`: Stuck [003:L448], or a physical Snare [004:L1782] (the GM removes the
    condition first when something else shifts the character)."""
    a = eng.fighter(who)
    if a.conditions.get("stuck"):
        return f"{who} is Stuck: it cannot move from its place [003:L448]"
    if a.conditions.get("snared") and a.snare_kind == "physical":
        return f"{who} is Snared (physical): it cannot move until it breaks free [004:L1782]"
    return None


def ally_range(eng: TwoD20Engine, who: str, key: str, ally: str) -> str | None:
    """Why `who` may not confer `key` on `ally` from where they stand: Defend an ally within Reach [004:L1489],
    Bolster and Protect one within Close range (the same zone) [004:L1488, L1473]. Without zones on file the
    distance is the GM's to judge."""
    if ally == who:
        return None
    if key == "defend" and sorted([who, ally]) not in eng.st.reach:
        return f"{ally} is not within {who}'s Reach: Defend is for oneself or an ally within Reach [004:L1489]"
    here, there = eng.fighter(who).zone, eng.fighter(ally).zone
    if key in ("bolster", "protect") and here is not None and there is not None and here != there:
        line = "L1488" if key == "bolster" else "L1473"
        title = key.title()
        return (
            f"{ally} is in {there}, not within Close range of {who} ({here}): "
            f"{title} reaches an ally in the same zone [004:{line}]"
        )
    return None
