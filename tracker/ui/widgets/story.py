"""The Story tab: damage per round per side, the table's gauges over the fight and (for the GM, once a worker
has played them) the party's chance to win round by round, drawn with textual-plotext, under the fight's
turning points.

This module (and textual-plotext with it) is imported only when the Story tab or the players' story
screen is first shown, so it stays out of the first frame's imports. The panel keeps a
`tracker.report.telling.Teller` that follows the session: an accepted command adds one step to the
story; an undo (a history that no longer extends what was told) tells it again from the start.

Series differ by fill or marker as well as by colour, and the legend above each plot says which is
which in those characters, so the charts read in a monochrome terminal too.
"""

from __future__ import annotations

import contextlib
import dataclasses

from rich.text import Text
from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.widgets import Static
from textual_plotext import PlotextPlot

from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.present.story.events import Story
from tracker.present.words import plain
from tracker.report.document import Chart, damage_chart, gauges_chart, odds_chart, round_title
from tracker.report.telling import Teller, follow
from tracker.ui.widgets.base import Panel

#: Bar fills and line markers per series, and how the legend writes each.
BAR_FILLS = (("sd", "█"), ("▒", "▒"), ("░", "░"), ("▚", "▚"))
LINE_MARKS = (("braille", "⠒"), ("•", "•"), ("+", "+"), ("x", "x"))
#: Series colours (256-colour codes, so the legend's marks and the plot's agree in every theme).
COLOURS = (12, 10, 13, 11)


def legend(names: list[str], marks: tuple[tuple[str, str], ...]) -> Text:
    out = Text()
    for i, name in enumerate(names):
        if i:
            out.append("  ")
        out.append(marks[i % len(marks)][1] * 2 + " ", style=f"bold color({COLOURS[i % len(COLOURS)]})")
        out.append(name)
    return out


def spaced_ticks(labels: tuple[str, ...], width: int) -> tuple[list[int], list[str]]:
    """A tick where each round starts (none before the fight), thinned so labels never run together."""
    starts = [i for i, label in enumerate(labels) if label != "R0" and (i == 0 or label != labels[i - 1])]
    room = max(1, width // 5)
    every = max(1, -(-len(starts) // room))
    chosen = starts[::every]
    return chosen, [labels[i] for i in chosen]


class StoryPanel(Panel):
    """The story so far: a headline, the turning points, and the two plots (scrolls when short)."""

    DEFAULT_CSS = """
    StoryPanel { overflow-y: auto; }
    StoryPanel > Static { width: 1fr; height: auto; }
    StoryPanel > .story-legend { color: $text-muted; }
    StoryPanel > PlotextPlot { height: 12; min-height: 8; }
    """

    def __init__(self, *, player: bool = False, hint: str = "", id: str | None = None) -> None:
        super().__init__(id=id)
        #: The players' story (``tracker view --player``): nothing GM-only.
        self.player = player
        #: A key to mention after the headline ("S full screen" in the GM's Story tab).
        self.hint = hint
        self._teller: Teller | None = None
        self._story: Story | None = None
        self._problem: str | None = None
        #: The first side's chance (per cent) before the fight, at each round's start and now, when known
        #: (`tracker.playouts.timeline`, worked out in the GM screen's worker); never for the players.
        self._odds: tuple[tuple[str, int], ...] = ()

    def compose(self) -> ComposeResult:
        yield Static(id="story-head", markup=False)
        yield Static(id="story-points", markup=False)
        yield Static(id="story-damage-legend", classes="story-legend", markup=False)
        yield PlotextPlot(id="story-damage")
        yield Static(id="story-gauges-legend", classes="story-legend", markup=False)
        yield PlotextPlot(id="story-gauges")
        yield Static(id="story-odds-legend", classes="story-legend", markup=False)
        yield PlotextPlot(id="story-odds")

    def on_mount(self) -> None:
        # Panel's own on_mount runs too, before the panel counts as mounted; draw once it does.
        self.call_after_refresh(self.redraw)

    def follow(self, session: Session) -> None:
        """Catch up with the session's accepted commands, then draw (the replay is pure rules)."""
        history = session.history
        try:
            self._teller = follow(self._teller, session.setup, history, history.commands)
            self._story = self._teller.story(player=self.player)
            self._problem = None
        except Refusal as exc:
            self._teller, self._story, self._problem = None, None, str(exc)
        self.redraw()

    def show(self, story: Story | None) -> None:
        """Draw a story told elsewhere (the GM's process tells the players' story for another account)."""
        self._teller, self._story, self._problem = None, story, None
        self.redraw()

    def show_odds(self, odds: tuple[tuple[str, int], ...]) -> None:
        """The party's chance round by round, as the worker found it (the turning points are where it jumps)."""
        if odds != self._odds and not self.player:
            self._odds = odds
            self.redraw()

    @property
    def story(self) -> Story | None:
        story = self._story
        return dataclasses.replace(story, odds=self._odds) if story is not None and self._odds else story

    def draw(self) -> None:
        with contextlib.suppress(NoMatches):
            self._draw_text()
            self._draw_damage()
            self._draw_gauges()
            self._draw_odds()

    def _draw_text(self) -> None:
        story = self._story
        head = Text()
        if story is None:
            head.append(self._problem or "The story is told as the fight goes on.", style="italic")
        else:
            where = round_title(story.fought) if story.fought else "not started"
            head.append(f"{where} · {story.steps} commands", style="bold")
            if self.hint:
                head.append(f" · {self.hint}", style="dim")
            taken = {side: sum(dict(r.taken).get(side, 0) for r in story.rounds) for side in story.sides}
            if any(taken.values()):
                head.append("\nTaken: " + ", ".join(f"{s} {n}" for s, n in taken.items() if n) + f" {story.unit}")
            falls = [f for f in story.fighters if f.status != "ok"]
            if falls:
                head.append("\nDown: " + ", ".join(f"{f.name} ({f.status})" for f in falls))
        self.query_one("#story-head", Static).update(head)
        points = Text()
        if story is not None and story.steps:
            points.append("Turning points\n", style="bold underline")
            for p in story.turning_points:
                points.append(f"R{p.round} ", style="bold")
                points.append(plain(p.text) + "\n")  # a player's words, drawn without controls
            if not story.turning_points:
                points.append("none yet\n", style="italic")
        self.query_one("#story-points", Static).update(points)

    def _chart_area(self, chart: Chart | None, name: str, marks: tuple[tuple[str, str], ...]) -> PlotextPlot | None:
        """The chart's plot, cleared, with its title and legend drawn; hidden (None) without a chart."""
        plot = self.query_one(f"#story-{name}", PlotextPlot)
        key = self.query_one(f"#story-{name}-legend", Static)
        plot.display = key.display = chart is not None
        if chart is None:
            return None
        key.update(Text.assemble((chart.title + "\n", "bold"), legend([n for n, _ in chart.series], marks)))
        plot.plt.clear_data()
        plot.plt.clear_figure()
        return plot

    def _draw_damage(self) -> None:
        chart = damage_chart(self._story) if self._story is not None else None
        plot = self._chart_area(chart, "damage", BAR_FILLS)
        if chart is None or plot is None:
            return
        names = [name for name, _ in chart.series]
        plt = plot.plt
        plt.multiple_bar(
            list(chart.labels),
            [list(values) for _, values in chart.series],
            # plotext takes a marker per series; textual-plotext's stub only names the single one.
            marker=[BAR_FILLS[i % len(BAR_FILLS)][0] for i in range(len(names))],  # type: ignore[arg-type]
            color=[COLOURS[i % len(COLOURS)] for i in range(len(names))],  # type: ignore[arg-type]
        )
        top = max(max(values) for _, values in chart.series)
        plt.ylim(0, top)
        plt.yticks(sorted({0, top // 2, top}))
        plot.refresh()

    def _draw_gauges(self) -> None:
        chart = gauges_chart(self._story) if self._story is not None else None
        if chart is not None:
            ticks, labels = spaced_ticks(chart.labels, max(10, self.size.width))
            top = max(max(values) for _, values in chart.series)
            self._draw_lines(chart, "gauges", (ticks, labels), top)
        else:
            self._chart_area(None, "gauges", LINE_MARKS)

    def _draw_odds(self) -> None:
        story = self.story
        chart = odds_chart(story) if story is not None else None
        if chart is not None:
            self._draw_lines(chart, "odds", (list(range(len(chart.labels))), list(chart.labels)), 100)
        else:
            self._chart_area(None, "odds", LINE_MARKS)

    def _draw_lines(self, chart: Chart, name: str, ticks: tuple[list[int], list[str]], top: int) -> None:
        """A line per series over the chart's steps, the x axis ticked at `ticks`, the y axis 0 to `top`."""
        plot = self._chart_area(chart, name, LINE_MARKS)
        if plot is None:
            return
        plt = plot.plt
        steps = list(range(len(chart.labels)))
        for i, (_, values) in enumerate(chart.series):
            plt.plot(steps, list(values), marker=LINE_MARKS[i % len(LINE_MARKS)][0], color=COLOURS[i % len(COLOURS)])
        plt.xticks([float(t) for t in ticks[0]], ticks[1])
        plt.ylim(0, top)
        plt.yticks(sorted({0, top // 2, top}))
        plot.refresh()
