"""The story of a fight, as data: what happened round by round, who did it, and its turning points.

`tracker.report.telling` builds it by replaying a file's history; `tracker.report` writes it as Markdown
or HTML and the Story tab draws it. Everything here is plain frozen data and pure functions, in the
words both rule families share; the family's own words (the damage unit, the gauges) come from its
`StoryTerms`.

**Turning points** are the moments the story calls out, in the order they happened:

* a **fall**: a combatant's status turns to unconscious, defeated, dying or dead;
* the **biggest hit**: the most damage one command dealt to one combatant (the first of equals);
* a **table turn** the family names: a Fate Deck reshuffle (Through the Breach), a pool that moves by
  3 or more in one command (2d20 Momentum, Threat or Heat);
* an **arrival** or a **departure** once the fight is under way (a combatant joins or leaves).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

#: Statuses in which a combatant is out of the fight (docs/reference/json-state.md).
DOWN = frozenset({"unconscious", "defeated", "dying", "dead"})
#: How a fall is said.
FALLS = {"unconscious": "falls unconscious", "defeated": "is defeated", "dying": "is dying", "dead": "dies"}
#: Where damage nobody is named for goes (end-of-turn effects, a GM's `damage` without an attacker).
UNATTRIBUTED = "unattributed"


@dataclass(frozen=True, slots=True)
class Hit:
    """Damage one command dealt to one combatant."""

    step: int
    round: int
    #: Whose turn was open.
    turn: str | None
    target: str
    #: The attacker, when a command says who (None: unattributed).
    by: str | None
    damage: int
    harms: tuple[tuple[str, int], ...] = ()
    #: The numbers before and after, in the family's words ("Wounds 9 → 5").
    change: str = ""
    #: False in the players' story when the target's health is not theirs to see: no numbers then.
    exact: bool = True


@dataclass(frozen=True, slots=True)
class Heal:
    """Damage one command healed (a heal, a Second Wind, a 2d20 ``recover``); never the end of a 2d20 scene,
    whose stress reset is no healing (`StoryTerms.resets`)."""

    step: int
    round: int
    turn: str | None
    who: str
    amount: int
    change: str = ""
    exact: bool = True


@dataclass(frozen=True, slots=True)
class ConditionSpan:
    """A condition from the command that gave it to the one that ended it (if any did)."""

    who: str
    key: str
    #: Its value when gained, and the highest it reached.
    value: int | bool | str
    peak: int | bool | str
    gained_step: int
    gained_round: int
    ended_step: int | None = None
    ended_round: int | None = None
    #: How it ended: the log line that says so, else the command that did it.
    ended_by: str = ""

    @property
    def label(self) -> str:
        """``Burning +2``: the name as the Conditions panel writes it."""
        name = self.key.replace("_", " ").title()
        if isinstance(self.value, bool):
            return name
        if isinstance(self.value, int):
            return f"{name} +{self.value}"
        return f"{name}: {self.value}"


@dataclass(frozen=True, slots=True)
class StatusChange:
    """A combatant's status changed (fell, died, got back up)."""

    step: int
    round: int
    turn: str | None
    who: str
    was: str
    now: str
    #: The log line that says what happened, when there is one players may see.
    line: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    """A flip or a roll the log marked as a result: the cards or dice of the fight."""

    step: int
    round: int
    turn: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Arrival:
    """A combatant joins the fight (or was there from the start, at step 0), or leaves it."""

    step: int
    round: int
    who: str
    side: str
    joined: bool


@dataclass(frozen=True, slots=True)
class TableChange:
    """A turn of the table's numbers the family calls out (a reshuffle, a pool swing)."""

    step: int
    round: int
    gauge: str
    text: str


@dataclass(frozen=True, slots=True)
class Reading:
    """The gauges (Fate Deck, or Momentum and Threat) after one command (step 0: before the first)."""

    step: int
    round: int
    values: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: whose it was and the actions spent in it (``charge Enforcer``), each with who spent it."""

    round: int
    who: str
    actions: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class TurningPoint:
    step: int
    round: int
    kind: Literal["fall", "biggest hit", "table", "arrival", "departure"]
    text: str


@dataclass(frozen=True, slots=True)
class Fighter:
    """A combatant's part in the whole fight."""

    name: str
    side: str
    status: str
    dealt: int = 0
    taken: int = 0
    healed: int = 0
    harms: tuple[tuple[str, int], ...] = ()
    #: The round it joined in (0: there from the start).
    joined: int = 0
    left: bool = False
    #: False in the players' story when its health is not theirs to see (its totals are then unknown).
    exact: bool = True
    #: Hits it dealt whose numbers the players' story leaves out (their damage is not in `dealt`).
    dealt_unknown: int = 0


@dataclass(frozen=True, slots=True)
class Round:
    """One round of the story (round 0: before the fight starts)."""

    number: int
    turns: tuple[Turn, ...]
    hits: tuple[Hit, ...]
    heals: tuple[Heal, ...]
    gained: tuple[ConditionSpan, ...]
    ended: tuple[ConditionSpan, ...]
    statuses: tuple[StatusChange, ...]
    results: tuple[Result, ...]
    arrivals: tuple[Arrival, ...]
    table: tuple[TableChange, ...]
    #: Damage taken, by the side that took it; damage dealt, by the attacker's side or `UNATTRIBUTED`.
    taken: tuple[tuple[str, int], ...]
    dealt: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Story:
    """The whole story; `player` when it is the players' version (nothing GM-only in it)."""

    encounter: str
    family: str
    #: The family's damage unit ("Wounds", "stress"), one of it ("Wound") and what its gauges are called.
    unit: str
    unit_one: str
    gauges_title: str
    sides: tuple[str, ...]
    fighters: tuple[Fighter, ...]
    rounds: tuple[Round, ...]
    conditions: tuple[ConditionSpan, ...]
    readings: tuple[Reading, ...]
    turning_points: tuple[TurningPoint, ...]
    #: Commands replayed.
    steps: int
    player: bool = False
    #: The first side's chance to win (per cent) before the fight, at each round's start and now, when the
    #: teller was asked for it (`tracker.playouts.timeline`): "before", "R1", … "now".
    odds: tuple[tuple[str, int], ...] = ()

    def amount(self, n: int) -> str:
        """``3 Wounds``, ``1 Wound``, ``4 stress``."""
        return f"{n} {self.unit_one if n == 1 else self.unit}"

    def gauge_names(self) -> list[str]:
        """The gauges the readings follow, in the family's order."""
        return [name for name, _ in self.readings[0].values] if self.readings else []

    @property
    def fought(self) -> int:
        """The last round reached (0: the fight has not started)."""
        return max((r.number for r in self.rounds), default=0)


@dataclass
class Beats:
    """Everything the replay saw, before it is grouped into rounds (the players' story filters these)."""

    turns: list[Turn]
    hits: list[Hit]
    heals: list[Heal]
    conditions: list[ConditionSpan]
    statuses: list[StatusChange]
    results: list[Result]
    arrivals: list[Arrival]
    table: list[TableChange]
    readings: list[Reading]


def compose(
    encounter: str,
    family: str,
    unit: tuple[str, str],
    gauges_title: str,
    fighters: list[Fighter],
    beats: Beats,
    steps: int,
    player: bool = False,
) -> Story:
    """Group the beats into rounds, total them per combatant and per side, and find the turning points."""
    side_of = {f.name: f.side for f in fighters}
    placed: list[Hit | Heal | StatusChange | Result | TableChange] = [
        *beats.hits,
        *beats.heals,
        *beats.statuses,
        *beats.results,
        *beats.table,
    ]
    numbers = sorted(
        {t.round for t in beats.turns}
        | {b.round for b in placed}
        | {c.gained_round for c in beats.conditions if c.gained_step > 0}
        | {c.ended_round for c in beats.conditions if c.ended_round is not None}
        | {a.round for a in beats.arrivals if a.step > 0}
    )
    rounds = tuple(_round(n, beats, side_of) for n in numbers)
    totals = [_totals(f, beats) for f in fighters]
    sides = tuple(dict.fromkeys(f.side for f in fighters))
    points = turning_points(beats, unit)
    return Story(
        encounter,
        family,
        unit[0],
        unit[1],
        gauges_title,
        sides,
        tuple(totals),
        rounds,
        tuple(beats.conditions),
        tuple(beats.readings),
        points,
        steps,
        player,
    )


def _round(number: int, beats: Beats, side_of: Mapping[str, str]) -> Round:
    hits = tuple(h for h in beats.hits if h.round == number)
    taken: dict[str, int] = {}
    dealt: dict[str, int] = {}
    for h in hits:
        if not h.exact:
            continue
        taken[side_of.get(h.target, UNATTRIBUTED)] = taken.get(side_of.get(h.target, UNATTRIBUTED), 0) + h.damage
        side = side_of.get(h.by, UNATTRIBUTED) if h.by else UNATTRIBUTED
        dealt[side] = dealt.get(side, 0) + h.damage
    return Round(
        number,
        tuple(t for t in beats.turns if t.round == number),
        hits,
        tuple(h for h in beats.heals if h.round == number),
        tuple(c for c in beats.conditions if c.gained_round == number),
        tuple(c for c in beats.conditions if c.ended_round == number),
        tuple(s for s in beats.statuses if s.round == number),
        tuple(r for r in beats.results if r.round == number),
        tuple(a for a in beats.arrivals if a.round == number and a.step > 0),
        tuple(t for t in beats.table if t.round == number),
        tuple(taken.items()),
        tuple(dealt.items()),
    )


def _totals(fighter: Fighter, beats: Beats) -> Fighter:
    harms: dict[str, int] = {}
    for h in beats.hits:
        if h.target == fighter.name:
            for kind, n in h.harms:
                harms[kind] = harms.get(kind, 0) + n
    return Fighter(
        fighter.name,
        fighter.side,
        fighter.status,
        dealt=sum(h.damage for h in beats.hits if h.by == fighter.name and h.exact),
        taken=sum(h.damage for h in beats.hits if h.target == fighter.name and h.exact),
        healed=sum(h.amount for h in beats.heals if h.who == fighter.name and h.exact),
        harms=tuple(harms.items()),
        joined=fighter.joined,
        left=fighter.left,
        exact=fighter.exact,
        dealt_unknown=sum(1 for h in beats.hits if h.by == fighter.name and not h.exact),
    )


def turning_points(beats: Beats, unit: tuple[str, str]) -> tuple[TurningPoint, ...]:
    """The falls, the biggest hit, the family's table turns and the arrivals, in the order they happened."""
    points: list[TurningPoint] = []
    for s in beats.statuses:
        if s.now in DOWN:
            points.append(TurningPoint(s.step, s.round, "fall", f"{s.who} {FALLS.get(s.now, 'falls')}"))
    shown = [h for h in beats.hits if h.exact]
    if shown:
        big = max(shown, key=lambda h: h.damage)  # max keeps the first of equals
        what = f"{big.by} hits {big.target} for" if big.by else f"{big.target} takes"
        points.append(
            TurningPoint(
                big.step,
                big.round,
                "biggest hit",
                f"the biggest hit: {what} {big.damage} {unit[1] if big.damage == 1 else unit[0]}",
            )
        )
    points += [TurningPoint(t.step, t.round, "table", t.text) for t in beats.table]
    for a in beats.arrivals:
        if a.step > 0 and a.round > 0:
            text = f"{a.who} joins the fight ({a.side})" if a.joined else f"{a.who} leaves the fight"
            points.append(TurningPoint(a.step, a.round, "arrival" if a.joined else "departure", text))
    return tuple(sorted(points, key=lambda p: p.step))


def mentions_any(text: str, names: Iterable[str]) -> bool:
    """Whether `text` names any of `names` (case-insensitive)."""
    low = text.casefold()
    return any(n.casefold() in low for n in names)


def for_players(
    beats: Beats,
    fighters: list[Fighter],
    hidden: set[str],
    exact: Mapping[str, bool],
    gauges: frozenset[str],
) -> tuple[Beats, list[Fighter]]:
    """The beats players may see, as the player view shows the fight (``tracker view --player``).

    `hidden` (``gm_only``) combatants are left out altogether, and an attack of theirs becomes
    unattributed; the damage, healing and Harms of a combatant whose health players do not see
    exactly (`exact`, from ``player_view``) are kept as hits without numbers; log lines that name a
    hidden combatant or one whose health is not shown are left out (they carry names and exact
    numbers, which is why the player view has no log); only the `gauges` players see are kept.
    """
    unseen = {name for name, shown in exact.items() if not shown}

    def safe(text: str) -> bool:
        return not mentions_any(text, hidden)

    def plain(text: str) -> str:
        return text if safe(text) and not mentions_any(text, unseen) else ""

    def turn(who: str | None) -> str | None:
        return None if who in hidden else who

    hits = [
        replace(h, by=turn(h.by), turn=turn(h.turn))
        if exact.get(h.target, False)
        else replace(h, by=turn(h.by), turn=turn(h.turn), damage=0, harms=(), change="", exact=False)
        for h in beats.hits
        if h.target not in hidden
    ]
    heals = [
        replace(h, turn=turn(h.turn))
        if exact.get(h.who, False)
        else replace(h, turn=turn(h.turn), amount=0, change="", exact=False)
        for h in beats.heals
        if h.who not in hidden
    ]
    conditions = [
        replace(c, ended_by=plain(c.ended_by))
        for c in beats.conditions
        if c.who not in hidden and not (isinstance(c.value, str) and not safe(c.value))
    ]
    turns = [
        replace(t, actions=tuple((who, what) for who, what in t.actions if who not in hidden and safe(what)))
        for t in beats.turns
        if t.who not in hidden
    ]
    readings = [Reading(r.step, r.round, tuple((k, v) for k, v in r.values if k in gauges)) for r in beats.readings]
    seen = Beats(
        turns=turns,
        hits=hits,
        heals=heals,
        conditions=conditions,
        statuses=[replace(s, turn=turn(s.turn), line=plain(s.line)) for s in beats.statuses if s.who not in hidden],
        results=[replace(r, turn=turn(r.turn)) for r in beats.results if safe(r.text)],
        arrivals=[a for a in beats.arrivals if a.who not in hidden],
        table=[t for t in beats.table if t.gauge in gauges],
        readings=readings if gauges else [],
    )
    shown = [replace(f, exact=exact.get(f.name, False)) for f in fighters if f.name not in hidden]
    return seen, shown
