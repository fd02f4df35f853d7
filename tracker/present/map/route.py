"""Boxes and the lines between them on a character grid: the drawing surface of the battle map.

`tracker.present.map.draw` decides where the boxes go and what they say; this module draws them and routes
each edge as an orthogonal line through the gaps, by a small A* search over the grid. A step costs 2, a
bend 5, crossing another line at right angles 6, a step right along a box's frame 3, so a line comes out
straight where it can and bends once where it must. A line never runs along another line or turns on
one, and never enters a box except at a free port on its frame (never where the frame holds text): the
frame cell becomes a junction (├ ┤ ┬ ┴, or ┠ ┨ ┯ ┷ on a heavy frame). The lines of an engagement map may
branch off a line already drawn from the same combatant (a fork), since only enemies are ever joined.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field

from tracker.present.map.graph import Band, Ink, InkLine, Tone

# Directions: north, east, south, west; a cell's lines are a bit mask of them.
N, E, S, W = 0, 1, 2, 3
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
BIT = (1, 2, 4, 8)
VERTICAL = BIT[N] | BIT[S]
HORIZONTAL = BIT[E] | BIT[W]

#: Light lines by mask (edges, and the frames of ordinary boxes).
LIGHT = {
    0: " ",
    BIT[N]: "│",
    BIT[S]: "│",
    VERTICAL: "│",
    BIT[E]: "─",
    BIT[W]: "─",
    HORIZONTAL: "─",
    BIT[E] | BIT[S]: "┌",
    BIT[W] | BIT[S]: "┐",
    BIT[N] | BIT[E]: "└",
    BIT[N] | BIT[W]: "┘",
    VERTICAL | BIT[E]: "├",
    VERTICAL | BIT[W]: "┤",
    HORIZONTAL | BIT[S]: "┬",
    HORIZONTAL | BIT[N]: "┴",
    VERTICAL | HORIZONTAL: "┼",
}
ROUND_CORNERS = {BIT[E] | BIT[S]: "╭", BIT[W] | BIT[S]: "╮", BIT[N] | BIT[E]: "╰", BIT[N] | BIT[W]: "╯"}
#: The focus's frame: heavy, with light lines joining it.
HEAVY = {
    VERTICAL: "┃",
    HORIZONTAL: "━",
    BIT[E] | BIT[S]: "┏",
    BIT[W] | BIT[S]: "┓",
    BIT[N] | BIT[E]: "┗",
    BIT[N] | BIT[W]: "┛",
    VERTICAL | BIT[E]: "┠",
    VERTICAL | BIT[W]: "┨",
    HORIZONTAL | BIT[S]: "┯",
    HORIZONTAL | BIT[N]: "┷",
}

# Route costs: a step, a bend, a crossing, a step right along a box's frame. A port costs a little more the
# further it is from the middle of its side (`Box.ports`), so lines leave boxes from the middle.
STEP, BEND, CROSS, HUG = 2, 5, 6, 3
#: A* expansions per edge before it is given up and listed (a very large map stays fast).
MAX_EXPANSIONS = 60_000


@dataclass
class Box:
    """A node on the canvas: where it is, whether it has a frame (heavy: the focus), and its texts."""

    key: str
    x: int
    y: int
    w: int
    h: int
    boxed: bool = True
    heavy: bool = False
    #: Drawn in the top and the bottom frame, after the corner and a stroke (both already cut to fit).
    title: str = ""
    foot: str = ""
    lines: list[InkLine] = field(default_factory=list)
    #: Spaces inside the frame on either side of the lines.
    pad: int = 0
    #: The range band shading the inside.
    band: Band | None = None
    #: Cells of the top and bottom frame that hold text (no line may join there).
    texts: set[tuple[int, int]] = field(default_factory=set)

    def ports(self) -> list[tuple[int, int, int, int]]:
        """(x, y, outward direction, cost) of every cell a line may leave or join the box at."""
        out = []
        x0, y0, x1, y1 = self.x, self.y, self.x + self.w - 1, self.y + self.h - 1
        if self.boxed:
            mid_y, mid_x = (y0 + y1) / 2, (x0 + x1) / 2
            for y in range(y0 + 1, y1):
                cost = round(abs(y - mid_y))
                out += [(x0, y, W, cost), (x1, y, E, cost)]
            for x in range(x0 + 1, x1):
                cost = round(abs(x - mid_x) / 2)
                if (x, y0) not in self.texts:
                    out.append((x, y0, N, cost))
                if (x, y1) not in self.texts:
                    out.append((x, y1, S, cost))
        else:
            # A line ends at either end of the text, or above or below it (at its marker, preferably).
            out += [(x0, y0, W, 0), (x1, y0, E, 0)]
            for x in range(x0 + 1, x1):
                cost = 0 if x == x0 + 1 else 3
                out += [(x, y0, N, cost), (x, y0, S, cost)]
        return out


class Canvas:
    """A character grid: boxes (solid), lines (a bit mask per cell), text, and the band shading."""

    def __init__(self, width: int, height: int) -> None:
        self.w, self.h = width, height
        self.solid = [[False] * width for _ in range(height)]
        self.mask = [[0] * width for _ in range(height)]
        #: Frame cells: "round" or "heavy"; "pad" for the ends of an unboxed node; None elsewhere.
        self.frame: list[list[str | None]] = [[None] * width for _ in range(height)]
        self.text: list[list[tuple[str, Tone] | None]] = [[None] * width for _ in range(height)]
        self.band: list[list[Band | None]] = [[None] * width for _ in range(height)]
        #: Ports taken by a line.
        self.used: set[tuple[int, int]] = set()
        #: The cells of each routed edge's line (endpoints left out), for lines that fork (engagements).
        self.paths: dict[tuple[str, str], list[tuple[int, int]]] = {}

    def put_text(self, x: int, y: int, inks: Iterable[Ink], limit: int) -> None:
        """Write `inks` from (x, y) rightwards, stopping before column `limit`."""
        for ink in inks:
            for ch in ink.text:
                if x >= limit:
                    return
                self.text[y][x] = (ch, ink.tone)
                x += 1

    def draw_box(self, box: Box) -> None:
        """The box's frame (or the ends of its line), its title and foot in the frame, its lines inside."""
        x0, y0, x1, y1 = box.x, box.y, box.x + box.w - 1, box.y + box.h - 1
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.solid[y][x] = True
        if not box.boxed:
            self.frame[y0][x0] = self.frame[y0][x1] = "pad"
            self.put_text(x0 + 1, y0, box.lines[0] if box.lines else (), x1)
            return
        style = "heavy" if box.heavy else "round"
        for x in range(x0, x1 + 1):
            self.mask[y0][x] |= (BIT[E] if x < x1 else 0) | (BIT[W] if x > x0 else 0)
            self.mask[y1][x] |= (BIT[E] if x < x1 else 0) | (BIT[W] if x > x0 else 0)
            self.frame[y0][x] = self.frame[y1][x] = style
        for y in range(y0, y1 + 1):
            self.mask[y][x0] |= (BIT[S] if y < y1 else 0) | (BIT[N] if y > y0 else 0)
            self.mask[y][x1] |= (BIT[S] if y < y1 else 0) | (BIT[N] if y > y0 else 0)
            self.frame[y][x0] = self.frame[y][x1] = style
        for y in range(y0 + 1, y1):
            for x in range(x0 + 1, x1):
                self.band[y][x] = box.band
        if box.title:
            start = x0 + 1 + min(1, box.pad)  # after the corner (and a stroke of the frame, padded)
            self.put_text(start, y0, [Ink(box.title, "title")], x1)
            box.texts |= {(x, y0) for x in range(start, start + len(box.title))}
        if box.foot:
            # Under the title, at the left: the free stretch of both frames is then on the right, where
            # a straight line can join a box to the one below it.
            start = x0 + 1 + min(1, box.pad)
            self.put_text(start, y1, [Ink(box.foot, "dim")], x1)
            box.texts |= {(x, y1) for x in range(start, start + len(box.foot))}
        for n, line in enumerate(box.lines[: box.h - 2]):
            self.put_text(x0 + 1 + box.pad, y0 + 1 + n, line, x1 - box.pad)

    # --- routing ---
    def passable(self, x: int, y: int, d: int) -> bool:
        """May a line moving in direction `d` enter cell (x, y)? Free, or crossed at right angles."""
        if not (0 <= x < self.w and 0 <= y < self.h) or self.solid[y][x]:
            return False
        m = self.mask[y][x]
        return m == 0 or (m == VERTICAL and d in (E, W)) or (m == HORIZONTAL and d in (N, S))

    def hugs(self, x: int, y: int, d: int) -> bool:
        """Does a line moving in direction `d` at (x, y) run right along a box's frame?"""
        sides = ((x - 1, y), (x + 1, y)) if d in (N, S) else ((x, y - 1), (x, y + 1))
        return any(0 <= sx < self.w and 0 <= sy < self.h and self.solid[sy][sx] for sx, sy in sides)

    def forks(self, key: str) -> list[tuple[int, int]]:
        """Straight cells of the lines already drawn from node `key`: a line may branch off there."""
        out = []
        for (a, b), cells in self.paths.items():
            if key in (a, b):
                out += [(x, y) for x, y in cells if self.mask[y][x] in (VERTICAL, HORIZONTAL)]
        return out

    def route(self, src: Box, dst: Box, forking: bool) -> list[tuple[int, int]] | None:
        """The cheapest orthogonal line from `src` to `dst` (cells from the first attach cell to the last)."""
        starts: list[tuple[int, int, int, int]] = [
            (px, py, d, cost) for px, py, d, cost in src.ports() if (px, py) not in self.used
        ]
        if forking:
            for fx, fy in self.forks(src.key):
                for d in (E, W) if self.mask[fy][fx] == VERTICAL else (N, S):
                    starts.append((fx, fy, d, 3))
        goals: dict[tuple[int, int], list[int]] = {}
        for px, py, d, _cost in dst.ports():
            if (px, py) not in self.used:
                goals.setdefault((px, py), []).append((d + 2) % 4)  # entered moving against its outward side
        if forking:
            for fx, fy in self.forks(dst.key):
                goals.setdefault((fx, fy), []).extend((E, W) if self.mask[fy][fx] == VERTICAL else (N, S))
        tx0, ty0, tx1, ty1 = dst.x - 1, dst.y - 1, dst.x + dst.w, dst.y + dst.h

        def estimate(x: int, y: int) -> int:
            return STEP * (max(tx0 - x, 0, x - tx1) + max(ty0 - y, 0, y - ty1))

        tie = itertools.count()
        heap: list[tuple[int, int, int, int, int, int]] = []
        parent: dict[tuple[int, int, int], tuple[int, int, int] | tuple[int, int]] = {}
        best: dict[tuple[int, int, int], int] = {}
        for px, py, d, cost in starts:
            x, y = px + DX[d], py + DY[d]
            if self.passable(x, y, d):
                g = cost + STEP + (CROSS if self.mask[y][x] else 0)
                if g < best.get((x, y, d), 1 << 30):
                    best[(x, y, d)] = g
                    parent[(x, y, d)] = (px, py)
                    heapq.heappush(heap, (g + estimate(x, y), next(tie), g, x, y, d))
        expansions = 0
        while heap and expansions < MAX_EXPANSIONS:
            _, _, g, x, y, d = heapq.heappop(heap)
            if g > best.get((x, y, d), 1 << 30):
                continue
            if d < 0:  # a goal reached: (x, y) is the attach cell, -d-1 the direction it was entered
                return self._path(parent, (x, y, d))
            expansions += 1
            crossing = self.mask[y][x] != 0
            for nd in (N, E, S, W):
                if nd == (d + 2) % 4 or (crossing and nd != d):
                    continue
                nx, ny = x + DX[nd], y + DY[nd]
                turn = BEND if nd != d else 0
                if (nx, ny) in goals and nd in goals[(nx, ny)]:
                    key = (nx, ny, -1 - nd)
                    cost = g + STEP + turn
                    if cost < best.get(key, 1 << 30):
                        best[key] = cost
                        parent[key] = (x, y, d)
                        heapq.heappush(heap, (cost, next(tie), cost, nx, ny, -1 - nd))
                if not self.passable(nx, ny, nd):
                    continue
                cost = g + STEP + turn + (CROSS if self.mask[ny][nx] else 0) + (HUG if self.hugs(nx, ny, nd) else 0)
                if cost < best.get((nx, ny, nd), 1 << 30):
                    best[(nx, ny, nd)] = cost
                    parent[(nx, ny, nd)] = (x, y, d)
                    heapq.heappush(heap, (cost + estimate(nx, ny), next(tie), cost, nx, ny, nd))
        return None

    @staticmethod
    def _path(
        parent: dict[tuple[int, int, int], tuple[int, int, int] | tuple[int, int]], end: tuple[int, int, int]
    ) -> list[tuple[int, int]]:
        """The cells from the first attach cell to `end`'s, walking the search's parents back."""
        cells = [(end[0], end[1])]
        state: tuple[int, int, int] | tuple[int, int] = parent[end]
        while len(state) == 3:
            cells.append((state[0], state[1]))
            state = parent[state]
        cells.append((state[0], state[1]))
        return cells[::-1]

    def lay(self, edge: tuple[str, str], cells: list[tuple[int, int]]) -> None:
        """Draw a routed line: each cell gets the directions it joins; its ends mark their ports used."""
        for (x0, y0), (x1, y1) in itertools.pairwise(cells):
            d = next(k for k in (N, E, S, W) if (x0 + DX[k], y0 + DY[k]) == (x1, y1))
            self.mask[y0][x0] |= BIT[d]
            self.mask[y1][x1] |= BIT[(d + 2) % 4]
        self.used.add(cells[0])
        self.used.add(cells[-1])
        self.paths[edge] = cells[1:-1]

    def cell(self, x: int, y: int) -> tuple[str, Tone, Band | None]:
        """What cell (x, y) shows: its text, else its frame or line character, with tone and shading."""
        band = self.band[y][x]
        text = self.text[y][x]
        if text is not None:
            return text[0], text[1], band
        frame, m = self.frame[y][x], self.mask[y][x]
        if frame == "heavy":
            return HEAVY.get(m, LIGHT.get(m, " ")), "focus", band
        if frame == "round":
            return ROUND_CORNERS.get(m, LIGHT.get(m, " ")), "frame", band
        if frame == "pad":
            return LIGHT.get(m, " "), "edge", band
        return LIGHT.get(m, " "), "edge" if m else "", band

    def tangle(self) -> tuple[int, int, int]:
        """How tangled the lines came out: bends, crossings, and cells of line (frames not counted)."""
        bends = crossings = cells = 0
        for y in range(self.h):
            for x in range(self.w):
                m = self.mask[y][x]
                if not m or self.solid[y][x]:
                    continue
                cells += 1
                if m == VERTICAL | HORIZONTAL:
                    crossings += 1
                elif m not in (VERTICAL, HORIZONTAL) and bin(m).count("1") == 2:
                    bends += 1
        return bends, crossings, cells

    def lines(self) -> list[InkLine]:
        """The grid as ink lines: runs of one tone and shading, trailing blanks dropped."""
        out: list[InkLine] = []
        for y in range(self.h):
            runs: list[Ink] = []
            for x in range(self.w):
                ch, tone, band = self.cell(x, y)
                if runs and runs[-1].tone == tone and runs[-1].band == band:
                    runs[-1] = Ink(runs[-1].text + ch, tone, band)
                else:
                    runs.append(Ink(ch, tone, band))
            while runs and not runs[-1].text.strip() and runs[-1].band is None:
                runs.pop()
            if runs and runs[-1].band is None:
                last = runs[-1]
                runs[-1] = Ink(last.text.rstrip(), last.tone, last.band)
            out.append(tuple(runs))
        return out
