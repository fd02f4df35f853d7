"""docs/reference/language.md ``join`` / ``leave`` ("Joining"), docs/reference/json-state.md ``"left": true``: what both
rule families do alike.

Newcomers come from the encounter's stat blocks (written inline as ``[[stat_blocks]]`` here) and live in the
live state, not the setup (docs/reference/file-format.md): undo (history replay), redo and a save/reload bring them back
exactly. Who left is out of the order, kept in the JSON with ``"left": true``, and no command names it again.
Every refusal is one line and changes nothing. Each test runs against both families where the rule is shared.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import refused_like, reloaded, run, session_from
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json

TTB = """
[encounter]
name = "Docks"
system = "ttb"
seed = 5

[[combatants]]
name = "Sofia Ramos"
kind = "fated"
initiative = 2
wounds = 8

[[combatants]]
name = "Guild Thug"
rank_value = 5
side = "enemies"
wounds = 5

[[stat_blocks]]
name = "Guild Thug"
rank_value = 5
side = "enemies"
wounds = 5

[[stat_blocks]]
name = "Watchman"
rank_value = 6
wounds = 7
"""

D20 = """
[encounter]
name = "Pier"
system = "2d20"
seed = 5
action_order = "alternating"
threat = 9

[[zones]]
name = "Pier"
adjacent = ["Warehouse"]

[[zones]]
name = "Warehouse"

[[combatants]]
name = "Sofia Ramos"
stress = 10
zone = "Pier"

[[combatants]]
name = "Guild Thug"
npc_type = "minor"
side = "enemies"
stress = 5
zone = "Pier"

[[stat_blocks]]
name = "Guild Thug"
npc_type = "minor"
side = "enemies"
stress = 5
zone = "Warehouse"

[[stat_blocks]]
name = "Watchman"
npc_type = "minor"
stress = 6
"""

FAMILIES = pytest.mark.parametrize("text", [TTB, D20], ids=["ttb", "2d20"])


def fresh(text: str) -> Session:
    return session_from(text)


def begin(s: Session) -> Session:
    """`start`, then the first questions answered: a TTB initiative tie (its first option), the 2d20 first
    actor (Sofia): a turn is open."""
    run(s, "start")
    while (prompt := s.state.prompt) is not None:
        run(s, "pick Sofia" if prompt.kind == "pick" else f"answer '{prompt.options[0]}'")
    return s


def entry(s: Session, name: str) -> dict[str, Any]:
    return next(c for c in state_json(s)["combatants"] if c["name"] == name)


def names(s: Session) -> list[str]:
    return [c["name"] for c in state_json(s)["combatants"]]


@FAMILIES
def test_join_takes_the_stat_block_by_name(text: str) -> None:
    """docs/reference/language.md Joining: ``join NAME`` copies the stat block NAME (any case, a unique prefix) under
    the block's own name; the JSON lists it after the file's combatants, with its side."""
    s = run(fresh(text), "join watch")
    assert names(s) == ["Sofia Ramos", "Guild Thug", "Watchman"]
    assert entry(s, "Watchman")["left"] is False
    assert entry(s, "Watchman")["side"] in ("fatemaster", "npcs")  # the block's side: the family's default


@FAMILIES
def test_join_from_names_the_newcomer(text: str) -> None:
    """docs/reference/language.md Joining: ``join NAME from=BLOCK`` names the newcomer NAME; side= overrides the block's
    side and takes the spelling of an existing side typed in any case."""
    s = run(fresh(text), "join 'Old Bill' from=watchman side=ENEMIES")
    assert entry(s, "Old Bill")["side"] == "enemies"
    run(s, "join Turncoat from=thug side=allies")
    assert entry(s, "Turncoat")["side"] == "allies"


@FAMILIES
def test_count_numbers_on_from_the_highest_existing(text: str) -> None:
    """docs/reference/language.md Joining: ``count=N`` makes "BLOCK k" numbered on from the highest existing; a plain
    "Guild Thug" counts as 1 (decision in the README)."""
    s = run(fresh(text), "join 'guild thug' count=2")
    assert names(s)[2:] == ["Guild Thug 2", "Guild Thug 3"]
    run(s, "join thug count=1")
    assert names(s)[-1] == "Guild Thug 4"
    run(s, "join Bill from=watchman count=2")
    assert names(s)[-2:] == ["Bill 1", "Bill 2"]


@FAMILIES
def test_join_refusals_change_nothing(text: str) -> None:
    """docs/reference/language.md (every refusal one line, nothing changed): an unknown or ambiguous block, a name that
    is taken (any case), a bad count, an unknown option."""
    s = fresh(text)
    refused_like(s, "join Dragon", "no stat block named 'Dragon'")
    refused_like(s, "join 'guild thug'", "already named 'Guild Thug'.*count=N")
    refused_like(s, "join 'sofia ramos' from=watchman", "already named 'Sofia Ramos'")
    refused_like(s, "join thug count=0", "count= is 1 to 20")
    refused_like(s, "join thug count=many", "whole number")
    refused_like(s, "join thug colour=red", "unknown join option 'colour'")
    refused_like(s, "join thug count=1 side=", "side= needs a side name")


@FAMILIES
def test_join_without_stat_blocks_is_refused(text: str) -> None:
    """docs/reference/file-format.md: ``join`` names a stat block; an encounter without any says so."""
    bare = text[: text.index("[[stat_blocks]]")]
    refused_like(fresh(bare), "join Watchman", "no stat blocks")


@FAMILIES
def test_leave_takes_it_out_of_the_order_and_keeps_it_in_the_json(text: str) -> None:
    """docs/reference/language.md ``leave``, docs/reference/json-state.md: out of the order, kept with ``"left": true``;
    no command names it again, and a prefix now names only those still in the fight."""
    s = begin(run(fresh(text), "join thug count=1"))
    run(s, "leave 'Guild Thug 2'")
    assert entry(s, "Guild Thug 2")["left"] is True
    assert "Guild Thug 2" not in state_json(s)["order"]
    refused_like(s, "damage 'Guild Thug 2' 1", "Guild Thug 2 has left the fight")
    refused_like(s, "leave 'guild thug 2'", "has left the fight")
    assert s.rules.find_name("Guild Thug") == "Guild Thug"
    assert "Guild Thug 2" not in s.rules.choices("name")
    assert "Guild Thug 2" in s.rules.combatant_names()


@FAMILIES
def test_join_and_leave_undo_and_redo_exactly(text: str) -> None:
    """docs/reference/language.md undo/redo: each steps back and forward with all its effects (history replay)."""
    s = begin(fresh(text))
    before = dump(s.state)
    run(s, "join thug count=2")
    joined = dump(s.state)
    run(s, "leave 'Guild Thug 3'")
    left = dump(s.state)
    run(s, "undo")
    assert dump(s.state) == joined
    run(s, "undo")
    assert dump(s.state) == before
    assert names(s) == ["Sofia Ramos", "Guild Thug"]
    run(s, "redo", "redo")
    assert dump(s.state) == left


@FAMILIES
def test_save_and_reload_keep_joined_and_left_combatants(text: str) -> None:
    """docs/reference/file-format.md: newcomers live in ``[state]``; a restart continues exactly, and the setup (what
    undo replays from) is not changed by them."""
    s = begin(run(fresh(text), "join thug count=2"))
    run(s, "leave 'Guild Thug 2'", "join Bill from=watchman")
    again = reloaded(s)
    assert dump(again.state) == dump(s.state)
    assert state_json(again) == state_json(s)
    assert [c["name"] for c in dump(again.setup)["combatants"]] == ["Sofia Ramos", "Guild Thug"]
    run(again, "undo")
    assert "Bill" not in names(again)
    assert entry(again, "Guild Thug 2")["left"] is True


@FAMILIES
def test_completion_offers_stat_blocks_and_only_present_names(text: str) -> None:
    """docs/reference/language.md: the command line completes ``join`` from the stat blocks and names from those still
    in the fight (the seam's `choices`)."""
    s = run(fresh(text), "join thug count=1", "leave 'Guild Thug 2'")
    assert s.rules.choices("block") == ["Guild Thug", "Watchman"]
    assert s.rules.choices("name") == ["Sofia Ramos", "Guild Thug"]
    spec = s.family.verbs.get("join")
    assert spec is not None and spec.kind_at(1) == "block" and spec.option_kind("from") == "block"


@FAMILIES
def test_player_view_drops_who_left(text: str) -> None:
    """UX: the players' table shows newcomers and not those who left; the GM's order shows them muted, last."""
    s = run(fresh(text), "join watchman", "join thug count=1", "leave watchman")
    rows = [r.name for r in s.presenter.player_view().rows]
    assert "Guild Thug 2" in rows and "Watchman" not in rows
    order = s.presenter.order()
    last = order.rows[-1]
    assert last.name == "Watchman" and last.down and "left" in last.cells[4]
