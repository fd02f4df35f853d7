"""The story of a fight as a document: headings, paragraphs, lists, tables and charts, in reading order.

`tracker.report.markdown` and `tracker.report.html` write the same document, so the two formats never
tell different stories. A chart carries its numbers; Markdown writes it as a table, HTML draws it and
adds the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tracker.present.story.events import UNATTRIBUTED, ConditionSpan, Hit, Round, Story
from tracker.present.words import status_text


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True, slots=True)
class Paragraph:
    text: str


@dataclass(frozen=True, slots=True)
class Bullets:
    items: tuple[str, ...]
    #: A short lead-in written before the list ("Cards and dice:").
    lead: str = ""


@dataclass(frozen=True, slots=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    #: Columns holding numbers (right-aligned).
    numeric: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Chart:
    """Numbers to draw: grouped ``bars`` per label, or ``lines`` over the labels."""

    title: str
    kind: Literal["bars", "lines"]
    #: What each position on the x axis is called ("R1", "start").
    labels: tuple[str, ...]
    series: tuple[tuple[str, tuple[int, ...]], ...]
    #: The same numbers as a table, for Markdown and for readers of the HTML who cannot see the picture.
    table: Table


Block = Heading | Paragraph | Bullets | Table | Chart


def round_title(number: int) -> str:
    return f"Round {number}" if number else "Before the fight"


def damage_chart(story: Story) -> Chart | None:
    """Damage taken per round, one series per side (None before any damage)."""
    rounds = [r for r in story.rounds if r.number > 0]
    sides = [s for s in story.sides if any(dict(r.taken).get(s) for r in rounds)]
    if not rounds or not sides:
        return None
    labels = tuple(f"R{r.number}" for r in rounds)
    series = tuple((side, tuple(dict(r.taken).get(side, 0) for r in rounds)) for side in sides)
    dealt_by = [*story.sides, UNATTRIBUTED]
    dealt_by = [s for s in dealt_by if any(dict(r.dealt).get(s) for r in rounds)]
    header = ("Round", *(f"{s} took" for s in sides), *(f"{s} dealt" for s in dealt_by))
    rows = tuple(
        (
            round_title(r.number),
            *(str(dict(r.taken).get(s, 0)) for s in sides),
            *(str(dict(r.dealt).get(s, 0)) for s in dealt_by),
        )
        for r in rounds
    )
    table = Table(header, rows, tuple(range(1, len(header))))
    return Chart(f"Damage taken per round ({story.unit})", "bars", labels, series, table)


def gauges_chart(story: Story) -> Chart | None:
    """The family's gauges (Fate Deck, or Momentum and Threat) after every command; the table keeps the
    value at the end of each round. None when there is nothing to follow (players of a TTB fight)."""
    names = story.gauge_names()
    if not names or len(story.readings) < 2:
        return None
    readings = story.readings
    labels = tuple(f"R{r.round}" for r in readings)
    series = tuple((name, tuple(dict(r.values).get(name, 0) for r in readings)) for name in names)
    ends: dict[int, dict[str, int]] = {}
    for r in readings:
        ends[r.round] = dict(r.values)
    rows = tuple((round_title(n), *(str(values.get(name, 0)) for name in names)) for n, values in ends.items())
    table = Table(("End of", *names), rows, tuple(range(1, len(names) + 1)))
    return Chart(f"{story.gauges_title} over the fight", "lines", labels, series, table)


def odds_chart(story: Story) -> Chart | None:
    """The first side's chance to win as it stood before the fight, at each round's start and now: the turning
    points are where the line jumps. None unless the odds were asked for (`tracker report --odds`)."""
    if not story.odds:
        return None
    first = story.sides[0] if story.sides else "players"
    labels = tuple(label for label, _ in story.odds)
    series = ((f"{first} win %", tuple(percent for _, percent in story.odds)),)
    rows = tuple((label, f"{percent} %") for label, percent in story.odds)
    table = Table(("When", f"The {first} win"), rows, (1,))
    return Chart(f"The chance the {first} win, round by round", "lines", labels, series, table)


def hit_text(story: Story, hit: Hit) -> str:
    """``Sofia Ramos hits Guild Enforcer: 4 Wounds (Wounds 9 → 5)``; without numbers when not exact."""
    if not hit.exact:
        return f"{hit.by} hits {hit.target}" if hit.by else f"{hit.target} is hurt"
    amount = story.amount(hit.damage) if hit.damage else "no damage"
    change = f" ({hit.change})" if hit.change else ""
    if hit.by:
        return f"{hit.by} hits {hit.target}: {amount}{change}"
    return f"{hit.target} takes {amount}{change}"


def ended_text(span: ConditionSpan) -> str:
    how = f": {span.ended_by}" if span.ended_by else ""
    return f"{span.who}'s {span.label} ends{how}"


def gained_text(span: ConditionSpan, story: Story) -> str:
    peak = f", up to +{span.peak}" if span.peak != span.value and not isinstance(span.peak, bool) else ""
    if span.ended_round is None:
        lasts = "; still on at the end"
    elif span.ended_round == span.gained_round:
        lasts = ""
    else:
        lasts = f"; until {round_title(span.ended_round).lower()}"
    return f"{span.who} gains {span.label}{peak}{lasts}"


def round_blocks(story: Story, rnd: Round) -> list[Block]:
    """One round: who acted (and what they spent), then what happened in order, then the cards and dice."""
    blocks: list[Block] = [Heading(2, round_title(rnd.number))]
    if rnd.turns:
        turns = []
        for turn in rnd.turns:
            own = [what for who, what in turn.actions if who == turn.who]
            others = [f"{who}: {what}" for who, what in turn.actions if who != turn.who]
            spent = "; ".join([*own, *others])
            turns.append(f"{turn.who} ({spent})" if spent else turn.who)
        blocks.append(Paragraph("Turns: " + " · ".join(turns)))
    events: list[tuple[int, str]] = []
    events += [
        (a.step, f"{a.who} joins the fight ({a.side})" if a.joined else f"{a.who} leaves the fight")
        for a in rnd.arrivals
    ]
    events += [(h.step, hit_text(story, h)) for h in rnd.hits]
    for heal in rnd.heals:
        amount = f": {story.amount(heal.amount)} ({heal.change})" if heal.exact else ""
        events.append((heal.step, f"{heal.who} recovers{amount}"))
    events += [(c.gained_step, gained_text(c, story)) for c in rnd.gained if c.gained_step > 0]
    events += [(c.ended_step or 0, ended_text(c)) for c in rnd.ended]
    for s in rnd.statuses:
        line = f" — {s.line}" if s.line else ""
        events.append((s.step, f"{s.who}: {s.was} → {s.now}{line}"))
    events += [(t.step, t.text[0].upper() + t.text[1:]) for t in rnd.table]
    if events:
        blocks.append(Bullets(tuple(text for _, text in sorted(events, key=lambda e: e[0]))))
    taken = ", ".join(f"{side} {story.amount(n)}" for side, n in rnd.taken if n)
    if taken:
        blocks.append(Paragraph(f"Damage taken: {taken}."))
    if rnd.results:
        blocks.append(Bullets(tuple(r.text for r in rnd.results), lead="Cards and dice:"))
    return blocks


def build(story: Story) -> list[Block]:
    """The whole story as a document."""
    who = "for the players" if story.player else ""
    blocks: list[Block] = [Heading(1, f"{story.encounter}: the story of the fight")]
    rounds = story.fought
    facts = [story.family, f"{rounds} {'round' if rounds == 1 else 'rounds'}", f"{story.steps} commands"]
    blocks.append(Paragraph(" · ".join(facts) + (f" · {who}" if who else "") + f" · damage in {story.unit}"))
    if not story.steps:
        blocks.append(Paragraph("Nothing has happened yet: the history is empty."))
        return blocks
    blocks.append(Heading(2, "Turning points"))
    if story.turning_points:
        blocks.append(Bullets(tuple(f"{round_title(p.round)}: {p.text}" for p in story.turning_points)))
    else:
        blocks.append(Paragraph("None yet."))
    blocks.append(Heading(2, "Who did what"))
    rows = []
    for f in story.fighters:
        harms = ", ".join(f"{n} {kind}" for kind, n in f.harms)
        status = (
            status_text(f.status)
            + (f" (joined in round {f.joined})" if f.joined else "")
            + (" (left)" if f.left else "")
        )
        # Hits whose numbers the players may not see count as "?" (a hit was dealt, its size is the GM's).
        dealt = str(f.dealt) if not f.dealt_unknown else f"{f.dealt} + ?" if f.dealt else "?"
        numbers = (dealt, str(f.taken), str(f.healed)) if f.exact else (dealt, "?", "?")
        rows.append((f.name, f.side, *numbers, harms if f.exact else "", status))
    nobody = sum(n for r in story.rounds for side, n in r.dealt if side == UNATTRIBUTED)
    if nobody:
        rows.append((UNATTRIBUTED, "", str(nobody), "", "", "", ""))
    blocks.append(Table(("Combatant", "Side", "Dealt", "Taken", "Healed", "Harms", "Status"), tuple(rows), (2, 3, 4)))
    for chart in (odds_chart(story), damage_chart(story), gauges_chart(story)):
        if chart is not None:
            blocks += [Heading(2, chart.title), chart]
    for rnd in story.rounds:
        blocks += round_blocks(story, rnd)
    return blocks
