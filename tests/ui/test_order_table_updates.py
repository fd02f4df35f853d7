"""The order table refits only the rows that changed (a `next` at 500 combatants changes two), and
what it shows is then exactly what a table given only the last rows shows: the same lines, widths, legend.

A seeded random walk of updates (conditions coming and going, long and short forms, rows reordered, added,
removed, the active mark moving) is played into one table, while a second table beside it, of the same size,
is given each state afresh (after an empty one, so it keeps nothing of the last).
"""

from __future__ import annotations

import random

import pytest
from textual.app import App, ComposeResult

from tracker.present.view import ConditionTag, OrderRow
from tracker.ui.widgets.order_table import OrderTable

COLUMNS = ("▶", "Name", "Init", "Status", "Conditions")
TAGS = [
    ConditionTag("burning 2", "Brn2", "Brn", "burning"),
    ConditionTag("poison 3", "Psn3", "Psn", "poison"),
    ConditionTag("dazed", "Dzd", "Dzd", "dazed"),
    ConditionTag("persistent 1 (1 tick left)", "Per1/1t", "Per", "persistent rating/ticks left"),
    ConditionTag("slow", "Slw", "Slw", "slow"),
]


class Two(App[None]):
    CSS = "OrderTable { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield OrderTable(id="kept")
        yield OrderTable(id="fresh")


def random_rows(rng: random.Random, names: list[str], active: str | None) -> list[OrderRow]:
    rows = []
    for name in names:
        tags = tuple(rng.sample(TAGS, rng.choice([0, 0, 0, 1, 2, 5])))
        cells = ("▶" if name == active else "", name, str(rng.randint(1, 20)), rng.choice(["ok", "down"]))
        rows.append(OrderRow(name, cells, cells[3] == "down", tags))
    return rows


def shown(table: OrderTable) -> tuple[object, ...]:
    return (table.rows, table.lines, table.widths, table.legend, table._first_line, table.virtual_size)


@pytest.mark.anyio
@pytest.mark.parametrize("width", [48, 70, 110])
async def test_a_table_updated_row_by_row_shows_what_a_fresh_one_shows(width: int) -> None:
    """At 48 columns conditions wrap onto more lines (a row changes its height), at 110 they are written
    in full (no legend)."""
    rng = random.Random(width)

    app = Two()
    async with app.run_test(size=(width, 40)):
        kept, fresh = app.query_one("#kept", OrderTable), app.query_one("#fresh", OrderTable)
        names = [f"Fighter {i}" for i in range(12)]
        rows = random_rows(rng, names, names[0])
        for step in range(300):
            move = rng.random()
            if move < 0.6:  # a `next`: two rows change, the rest are the very same objects
                rows = list(rows)
                for i in rng.sample(range(len(rows)), 2):
                    rows[i] = random_rows(rng, [rows[i].name], rows[i].name)[0]
            elif move < 0.75:  # a new round re-sorts the order
                rows = rng.sample(rows, len(rows))
            elif move < 0.85 and len(rows) > 3:  # someone leaves the table
                rows = [r for r in rows if r is not rng.choice(rows)]
            elif move < 0.95:  # someone joins, with a long name
                name = f"Newcomer of the Long-Drowned Quay {step}"
                rows = [*rows, *random_rows(rng, [name], None)]
            else:  # everything built again, equal rows as new objects
                rows = [OrderRow(r.name, r.cells, r.down, r.conditions) for r in rows]
            active = rng.choice(rows).name
            kept.set_rows(COLUMNS, rows, active, (1,))
            fresh.set_rows(COLUMNS, [], None, (1,))  # forgets every row: the next call fits them all anew
            fresh.set_rows(COLUMNS, rows, active, (1,))
            assert kept.size == fresh.size
            assert shown(kept) == shown(fresh), step
