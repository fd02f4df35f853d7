"""Field names of combatants and stat blocks ignore case (docs/reference/file-format.md): ``Wounds = 6`` is ``wounds =
6``.

Keys are folded to snake_case before validation; `tracker check` still points at the key as the file wrote
it, and one key given twice in different cases is an error at the second.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli.campaign import GUILD, PARTY, ttb_campaign
from tests.cli.test_check import VALID, check, line_of, problems, write
from tests.conftest import Tracker

__all__ = ["check"]  # the fixture, re-exported for pytest


def test_keys_of_a_combatant_ignore_case(check: Any, tmp_path: Path) -> None:
    """docs/reference/file-format.md: ``Wounds = 8`` and ``KIND`` are the fields ``wounds`` and ``kind``."""
    text = VALID.replace("wounds = 8", "Wounds = 8").replace('kind = "fated"', 'KIND = "fated"')
    result = check(write(tmp_path, text))
    assert result.code == 0, result.err


def test_a_folded_key_is_used_as_its_field(tracker: Tracker, tmp_path: Path) -> None:
    """docs/reference/file-format.md: the value of ``Rank_Value`` is the combatant's rank_value, as the state shows."""
    text = VALID.replace("rank_value = 5", "Rank_Value = 5").replace("wounds = 5", "WOUNDS = 4")
    path = write(tmp_path, text)
    result = tracker("exec", path, "--json")
    assert result.code == 0, result.err
    state = json.loads(result.out)
    thug = next(c for c in state["combatants"] if c["name"] == "Guild Thug")
    assert (thug["rank_value"], thug["wounds_max"]) == (5, 4)


def test_a_bad_value_under_a_capitalised_key_points_at_it(check: Any, tmp_path: Path) -> None:
    """docs/reference/cli.md `tracker check`: the problem is at the key as written, and names it as written."""
    text = VALID.replace("wounds = 5", "Wounds = 0")
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "Wounds = 0"), 1)
    assert message.startswith("combatants[2].Wounds:")


def test_an_unknown_capitalised_key_is_named_as_written(check: Any, tmp_path: Path) -> None:
    """docs/reference/file-format.md: unknown keys are still errors at their line, in the case the GM wrote them."""
    text = VALID.replace("wounds = 5", "wounds = 5\nWoundz = 5")
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "Woundz"), 1)
    assert message == "unknown key 'Woundz'"


def test_a_key_given_twice_in_different_cases_is_an_error(check: Any, tmp_path: Path) -> None:
    """docs/reference/file-format.md: ``wounds`` and ``Wounds`` are one field, so giving both is refused at the
    second."""
    text = VALID.replace("wounds = 5", "wounds = 5\nWounds = 6")
    path = write(tmp_path, text)
    result = check(path)
    assert result.code == 1
    [(line, col, message)] = problems(result, path)
    assert (line, col) == (line_of(text, "Wounds = 6"), 1)
    assert message == "key 'Wounds' is given twice: 'wounds' is the same key (field names ignore case)"


def test_stat_block_keys_ignore_case_and_problems_stay_in_the_bestiary(tracker: Tracker, tmp_path: Path) -> None:
    """docs/reference/file-format.md: a bestiary's ``Wounds`` is its block's wounds; a bad one is at the bestiary's
    line."""
    guild = GUILD.replace("wounds = 6", "Wounds = 6").replace("speed = 4", "Speed = 4")
    assert tracker("check", ttb_campaign(tmp_path, guild=guild)).code == 0
    bad = GUILD.replace("wounds = 9", "Wounds = 0")
    found = tracker("check", ttb_campaign(tmp_path, guild=bad)).problems()
    where = str(tmp_path / "bestiary" / "guild.toml")
    assert (where, line_of(bad, "Wounds = 0"), 1, "stat_blocks[2].Wounds: must be greater than or equal to 1") in found


def test_carry_writes_a_capitalised_key_in_its_own_spelling(tracker: Tracker, tmp_path: Path) -> None:
    """docs/reference/cli.md `tracker carry` with docs/reference/file-format.md: a party sheet's ``Wounds_Left`` is the
    field carried, not a second ``wounds_left`` beside it."""
    party = PARTY.replace("wounds = 8             # Wounds when fresh", "wounds = 8\nWounds_Left = 8")
    enc = ttb_campaign(tmp_path, party=party)
    opening = "initiative sofia 13\ninitiative ash 12\nstart\nanswer 'Guild Thug 1'\nanswer 'Guild Thug 2'\n"
    result = tracker("exec", enc, "--save", stdin=opening + "damage sofia 4\n")
    assert result.code == 0, result.err
    result = tracker("carry", enc)
    assert result.code == 0, result.err
    text = (tmp_path / "party.toml").read_text(encoding="utf-8")
    assert "Wounds_Left = 5" in text and "wounds_left" not in text
