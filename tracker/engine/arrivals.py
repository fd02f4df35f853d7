"""Combatants joining and leaving mid-fight (docs/reference/language.md ``join`` / ``leave``): what both families
do alike.

`arrivals` reads a ``join`` command into the newcomers it brings (their names, the stat block each copies, the
side it fights on) and refuses, before anything changes, what cannot be: an unknown stat block, a name that is
taken, a bad ``count=``. `depart` takes a ``leave``-d combatant out of the order. What a newcomer costs, when it
first acts and what leaving an open turn does are each family's rules (``ttb.roster``, ``twod20.roster``).

A newcomer's sheet is kept in the live state (``joined``), never in the setup: the setup is what undo replays
from, and the ``join`` line in the history brings the newcomer back on every replay and restart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.kernel import Engine, Sheet
from tracker.engine.language.commands import Command, count

#: At most this many newcomers in one ``join`` (a typo like ``count=100`` is refused, not obeyed).
MAX_COUNT = 20

SheetT = TypeVar("SheetT", bound=Sheet)


class Arrival(NamedTuple, Generic[SheetT]):
    """One newcomer: its name, the stat block it copies, and the side ``side=`` gave it (None: the block's)."""

    name: str
    block: SheetT
    side: str | None


def arrivals(eng: Engine[Any, SheetT, Any, Any], cmd: Command) -> list[Arrival[SheetT]]:
    """The newcomers ``join NAME [from=BLOCK] [count=N] [side=S]`` brings; refuses before anything changes.

    ``join NAME`` copies the stat block NAME names (any case, a unique prefix) under the block's own name;
    ``from=BLOCK`` copies BLOCK under NAME; ``count=N`` makes N numbered on from the highest existing
    ("Guild Thug 3" exists: "Guild Thug 4", "Guild Thug 5"; a plain "Guild Thug" counts as 1).
    """
    blocks: Sequence[SheetT] = eng.setup.stat_blocks
    if not blocks:
        raise Refusal("this encounter has no stat blocks to join from ([[stat_blocks]] or [encounter] bestiary)")
    text = cmd.args[0]
    typed = cmd.options.get("from")
    named = names.resolve(typed if typed is not None else text, [b.name for b in blocks], what="stat block")
    block = next(b for b in blocks if b.name == named)
    base = " ".join(text.split()) if typed is not None else named
    if not base:
        raise Refusal("join needs a name")
    taken = eng.combatant_names()
    if "count" in cmd.options:
        n = count(cmd.options["count"], "count=")
        if not 1 <= n <= MAX_COUNT:
            raise Refusal(f"count= is 1 to {MAX_COUNT} newcomers")
        newcomers = numbered(base, n, taken)
    else:
        clash = next((t for t in taken if t.casefold() == base.casefold()), None)
        if clash is not None:
            raise Refusal(
                f"a combatant is already named '{clash}': name the newcomer (join NAME from={named}) "
                "or number them (count=N)"
            )
        newcomers = [base]
    return [Arrival(name, block, side_of(eng, cmd.options.get("side"))) for name in newcomers]


def numbered(base: str, n: int, taken: Sequence[str]) -> list[str]:
    """N names "BASE k" numbered on from the highest taken one (any case); a plain BASE counts as 1."""
    pattern = re.compile(rf"{re.escape(base.casefold())} (\d+)")
    highest = 0
    for name in taken:
        key = name.casefold()
        if key == base.casefold():
            highest = max(highest, 1)
        elif found := pattern.fullmatch(key):
            highest = max(highest, int(found.group(1)))
    return [f"{base} {highest + k}" for k in range(1, n + 1)]


def side_of(eng: Engine[Any, Any, Any, Any], text: str | None) -> str | None:
    """``side=S``: an existing side in its own spelling when S names one (any case), else S as typed."""
    if text is None:
        return None
    text = text.strip()
    if not text:
        raise Refusal("side= needs a side name")
    sides = {eng.side(n).casefold(): eng.side(n) for n in eng.combatant_names()}
    return sides.get(text.casefold(), text)


def depart(eng: Engine[Any, Any, Any, Any], text: str) -> str:
    """``leave NAME``: out of the order and never named again; the record stays (``"left": true``)."""
    name = eng.name(text)
    st = eng.st
    st.left.append(name)
    if name in st.order:
        st.order.remove(name)
    eng.log(f"{name} leaves the fight")
    return name
