"""Where each node of a map goes: a cell (col, row) of a grid, so that what is joined sits side by side.

The automatic layout is a small layered drawing. Each connected part of the map is walked breadth-first
from its first node in the file: a node's *layer* is its distance from there, and layers become columns
(or rows, turned). Every edge then joins two nodes of the same layer or of neighbouring layers, so it is
never longer than one step across. Within a layer the nodes are ordered to cut crossings (the barycenter
heuristic: each node goes where its neighbours in the layer before, then after, are on average; the best
ordering of a few sweeps is kept), and each node is put on the row of its neighbours when that is free,
so a chain of zones is drawn as a straight line.

A GM may place nodes (``[[zones]] at = [col, row]``): those keep their cell; the others go to the free
cell nearest their placed neighbours. Empty rows and columns are closed up afterwards, so only the
order of the cells matters.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Mapping, Sequence

Cell = tuple[int, int]
Edge = tuple[str, str]

#: Barycenter sweeps (down and up) tried before keeping the ordering with the fewest crossings.
SWEEPS = 4


def neighbours(names: Sequence[str], edges: Iterable[Edge]) -> dict[str, list[str]]:
    """Each node's neighbours in the order the edges name them; edges to unknown nodes are dropped."""
    adj: dict[str, list[str]] = {n: [] for n in names}
    for a, b in edges:
        if a in adj and b in adj and a != b:
            if b not in adj[a]:
                adj[a].append(b)
            if a not in adj[b]:
                adj[b].append(a)
    return adj


def components(names: Sequence[str], adj: Mapping[str, list[str]]) -> list[list[list[str]]]:
    """The connected parts in file order, each as its breadth-first layers from its first node."""
    seen: set[str] = set()
    parts: list[list[list[str]]] = []
    for start in names:
        if start in seen:
            continue
        seen.add(start)
        layers: list[list[str]] = [[start]]
        queue = deque([(start, 0)])
        while queue:
            here, depth = queue.popleft()
            for there in adj[here]:
                if there not in seen:
                    seen.add(there)
                    if depth + 1 == len(layers):
                        layers.append([])
                    layers[depth + 1].append(there)
                    queue.append((there, depth + 1))
        parts.append(layers)
    return parts


def crossings(layers: Sequence[Sequence[str]], adj: Mapping[str, list[str]]) -> int:
    """Crossings of the edges between consecutive layers, counted from the nodes' order in them."""
    total = 0
    for left, right in itertools.pairwise(layers):
        where = {n: i for i, n in enumerate(right)}
        pairs = sorted((i, where[m]) for i, n in enumerate(left) for m in adj[n] if m in where)
        for k, (i1, j1) in enumerate(pairs):
            total += sum(1 for i2, j2 in pairs[k + 1 :] if i2 > i1 and j2 < j1)
    return total


def _sweep(layers: list[list[str]], adj: Mapping[str, list[str]], downward: bool) -> list[list[str]]:
    """One barycenter pass: each layer sorted by where its neighbours in the layer before it sit."""
    out = [list(layer) for layer in layers]
    indices = range(1, len(out)) if downward else range(len(out) - 2, -1, -1)
    for i in indices:
        ref = out[i - 1] if downward else out[i + 1]
        where = {n: k for k, n in enumerate(ref)}

        def key(item: tuple[int, str], where: dict[str, int] = where) -> tuple[float, int]:
            pos, node = item
            near = [where[m] for m in adj[node] if m in where]
            return (sum(near) / len(near) if near else float(pos), pos)

        out[i] = [node for _, node in sorted(enumerate(out[i]), key=key)]
    return out


def order_layers(layers: list[list[str]], adj: Mapping[str, list[str]]) -> list[list[str]]:
    """The layers reordered to cut crossings: the fewest found in a few barycenter sweeps (first wins ties)."""
    best, fewest = layers, crossings(layers, adj)
    current = layers
    for n in range(SWEEPS):
        current = _sweep(current, adj, downward=n % 2 == 0)
        count = crossings(current, adj)
        if count < fewest:
            best, fewest = current, count
    return best


def ranks(layers: Sequence[Sequence[str]], adj: Mapping[str, list[str]]) -> dict[str, int]:
    """Each node's place across its layer, keeping the layer's order: first the rank of its neighbours
    in the layer before when free (a chain stays on one line), else the next free one; then, from the
    last layer back, the rank of its neighbours in the layer after when that keeps the order (a hub
    goes to the middle of the nodes it joins)."""
    out: dict[str, int] = {}
    for i, layer in enumerate(layers):
        before = set(layers[i - 1]) if i else set()
        last = -1
        for node in layer:
            near = [out[m] for m in adj[node] if m in before]
            wanted = round(sum(near) / len(near)) if near else last + 1
            out[node] = max(last + 1, wanted)
            last = out[node]
    for i in range(len(layers) - 2, -1, -1):
        after = set(layers[i + 1])
        layer = layers[i]
        for k, node in enumerate(layer):
            near = [out[m] for m in adj[node] if m in after]
            if not near:
                continue
            low = out[layer[k - 1]] + 1 if k else 0
            high = out[layer[k + 1]] - 1 if k + 1 < len(layer) else 1 << 30
            wanted = round(sum(near) / len(near))
            # Only a node with no neighbour before it moves: one aligned with the layer before stays.
            before = set(layers[i - 1]) if i else set()
            if low <= wanted <= high and not any(m in before for m in adj[node]):
                out[node] = wanted
    return out


def auto_layout(
    names: Sequence[str],
    edges: Iterable[Edge],
    *,
    turned: bool = False,
    chained: bool = False,
    fold: int = 0,
) -> dict[str, Cell]:
    """Cells for every node: layers as columns (`turned`: as rows). The connected parts are stacked one
    under the other (`chained`: one after the other along the layers). With `fold`, a part longer than
    `fold` layers snakes: the next `fold` layers run back the other way below the first (a long chain of
    zones in a narrow panel)."""
    adj = neighbours(names, edges)
    cells: dict[str, Cell] = {}
    offset = 0
    for layers in components(names, adj):
        ordered = order_layers(layers, adj)
        rank = ranks(ordered, adj)
        spots = _fold(ordered, rank, fold) if fold and not turned else _straight(ordered, rank)
        for node, (depth, across) in spots.items():
            layer_at, rank_at = (depth + offset, across) if chained else (depth, across + offset)
            cells[node] = (rank_at, layer_at) if turned else (layer_at, rank_at)
        offset += (max(d for d, _ in spots.values()) if chained else max(a for _, a in spots.values())) + 1
    return close_up(cells)


def _straight(layers: Sequence[Sequence[str]], rank: Mapping[str, int]) -> dict[str, tuple[int, int]]:
    return {node: (depth, rank[node]) for depth, layer in enumerate(layers) for node in layer}


def _fold(layers: Sequence[Sequence[str]], rank: Mapping[str, int], fold: int) -> dict[str, tuple[int, int]]:
    """(position along, rank across) with every `fold` layers turned back below the ones before."""
    out: dict[str, tuple[int, int]] = {}
    below = 0
    for start in range(0, len(layers), fold):
        band = layers[start : start + fold]
        backwards = (start // fold) % 2 == 1
        lowest = min(rank[n] for layer in band for n in layer)
        for k, layer in enumerate(band):
            for node in layer:
                out[node] = (fold - 1 - k if backwards else k, rank[node] - lowest + below)
        below = max(a for _, a in out.values()) + 1
    return out


def place(
    names: Sequence[str],
    edges: Iterable[Edge],
    fixed: Mapping[str, Cell],
    *,
    turned: bool = False,
    chained: bool = False,
    fold: int = 0,
) -> dict[str, Cell]:
    """Cells for every node: the automatic layout when none is placed, else the GM's cells for the placed
    ones and, for each other node (nearest the placed ones first), the free cell nearest the average cell
    of its placed neighbours. A part of the map with no placed node is laid out on its own below."""
    fixed = {n: c for n, c in fixed.items() if n in set(names)}
    if not fixed:
        return auto_layout(names, edges, turned=turned, chained=chained, fold=fold)
    edges = list(edges)
    adj = neighbours(names, edges)
    cells = dict(fixed)
    taken = set(cells.values())
    # Breadth-first from every placed node at once: the nearer a node is to a placed one, the sooner it goes.
    queue = deque(n for n in names if n in cells)
    seen = set(queue)
    while queue:
        here = queue.popleft()
        for there in adj[here]:
            if there in seen:
                continue
            seen.add(there)
            near = [cells[m] for m in adj[there] if m in cells]
            target = (round(sum(c for c, _ in near) / len(near)), round(sum(r for _, r in near) / len(near)))
            cells[there] = _free_near(target, taken)
            taken.add(cells[there])
            queue.append(there)
    rest = [n for n in names if n not in cells]
    if rest:
        below = max(r for _, r in cells.values()) + 1
        for node, (col, row) in auto_layout(rest, edges, turned=turned, chained=chained).items():
            cells[node] = (col, row + below)
    return close_up(cells)


def _free_near(target: Cell, taken: set[Cell]) -> Cell:
    """The free cell nearest `target` (by steps across and down; to the right and below first on ties)."""
    tc, tr = max(0, target[0]), max(0, target[1])
    for reach in range(len(taken) + 2):
        ring = [
            (tc + dc, tr + dr)
            for dc in range(-reach, reach + 1)
            for dr in (reach - abs(dc), -(reach - abs(dc)))
            if tc + dc >= 0 and tr + dr >= 0
        ]
        # Right before left, below before above, nearer the target's row first.
        for cell in sorted(set(ring), key=lambda c: (abs(c[1] - tr), c[0] < tc, c[1] < tr, c)):
            if cell not in taken:
                return cell
    raise AssertionError("a free cell is always within reach")  # pragma: no cover


def close_up(cells: Mapping[str, Cell]) -> dict[str, Cell]:
    """The same cells with empty columns and rows taken out (only their order matters)."""
    cols = {c: i for i, c in enumerate(sorted({c for c, _ in cells.values()}))}
    rows = {r: i for i, r in enumerate(sorted({r for _, r in cells.values()}))}
    return {n: (cols[c], rows[r]) for n, (c, r) in cells.items()}
