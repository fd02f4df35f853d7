"""`tracker check` points at the key to fix (docs/reference/cli.md, docs/reference/file-format.md): problems found
across a whole table or file (duplicate names, unknown zones, a Fated with a rank …) sit at the offending key, not at
``1:1``; a wrong type of a union field is one line; a bad Control Hand is a file problem; TTB Armor
above +3 is a warning that does not fail the check (docs/rules/decisions.md#a27).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from tests.cli.test_check import VALID, check, line_of, problems, write

__all__ = ["check"]  # the fixture, re-exported for pytest

TWOD20 = textwrap.dedent(
    """\
    [encounter]
    name = "Zones"
    system = "2d20"
    seed = 1

    [[zones]]
    name = "Pier"
    adjacent = ["Warehouse"]

    [[zones]]
    name = "Warehouse"

    [[combatants]]
    name = "Kit"
    stress = 11
    zone = "Pier"

    [[combatants]]
    name = "Thug"
    npc_type = "minor"
    stress = 5
    zone = "Warehouse"
    """
)


def col_of(text: str, line: int, needle: str) -> int:
    """1-based column of `needle` on `line`."""
    return text.splitlines()[line - 1].index(needle) + 1


def test_2d20_base_file_is_valid(check: Any, tmp_path: Path) -> None:
    result = check(write(tmp_path, TWOD20))
    assert result.code == 0, result.err


def test_duplicate_name_points_at_the_second_name(check: Any, tmp_path: Path) -> None:
    """Names are unique ignoring case (docs/rules/ttb.md#s2-1 ``name``): the clash is the later ``name =`` line."""
    text = VALID.replace('name = "Guild Thug"', 'name = "sofia ramos"')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, 'name = "sofia ramos"'), 1)
    assert message == "combatants[2].name: two combatants are named 'sofia ramos'"


def test_duplicate_name_2d20(check: Any, tmp_path: Path) -> None:
    text = TWOD20.replace('name = "Thug"', 'name = "Kit"')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, 'name = "Kit"', 1), 1)
    assert "two combatants are named 'Kit'" in message


def test_zone_adjacent_to_an_unknown_zone_points_at_that_entry(check: Any, tmp_path: Path) -> None:
    """docs/rules/2d20-combat.md#s3-6 zones: every ``adjacent`` name is a zone of the file."""
    text = TWOD20.replace('adjacent = ["Warehouse"]', 'adjacent = ["Warehouse", "Roof"]')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    line_no = line_of(text, '"Roof"')
    assert (line, col) == (line_no, col_of(text, line_no, '"Roof"'))
    assert message == "zones[1].adjacent[2]: zone 'Pier' is adjacent to 'Roof', which is not a zone"


def test_combatant_in_an_unknown_zone_points_at_its_zone_key(check: Any, tmp_path: Path) -> None:
    """docs/rules/2d20-combat.md#s3-6: a combatant's ``zone`` is one of the file's zones."""
    text = TWOD20.replace('zone = "Warehouse"', 'zone = "Cellar"')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, 'zone = "Cellar"'), 1)
    assert message.startswith("combatants[2].zone: Thug:") and "Cellar" in message


def test_unknown_stress_track_points_at_the_track(check: Any, tmp_path: Path) -> None:
    """docs/rules/2d20.md#s3-1 ``stress``: a table names the profile's tracks (SRD: stress)."""
    text = TWOD20.replace("stress = 11", "stress = { stress = 11, vigour = 9 }")
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    line_no = line_of(text, "vigour")
    assert (line, col) == (line_no, col_of(text, line_no, "vigour"))
    assert "no stress track 'vigour'" in message


def test_bad_profile_parameter_points_at_its_settings_key(check: Any, tmp_path: Path) -> None:
    """docs/rules/2d20.md#s3-0: ``[settings]`` overrides profile parameters, each checked against its type."""
    text = TWOD20.replace("seed = 1\n", 'seed = 1\n\n[settings]\nranged_base_difficulty = "two"\n')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "ranged_base_difficulty"), 1)
    assert "ranged_base_difficulty" in message


def test_fated_with_rank_value_points_at_rank_value(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-1 ``rank_value``: Fatemaster characters only (decision A26)."""
    text = VALID.replace('kind = "fated"', 'kind = "fated"\nrank_value = 4')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "rank_value = 4"), 1)
    assert message.startswith("combatants[1].rank_value: rank and rank_value are for Fatemaster characters")


def test_fated_with_fate_points_points_at_fate_points(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-1 ``fate_points``: Fatemaster characters only."""
    text = VALID.replace('kind = "fated"', 'kind = "fated"\nfate_points = 2')
    path = write(tmp_path, text)
    [(line, col, _)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "fate_points = 2"), 1)


def test_rank_band_mismatch_points_at_rank_value(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-1 ``rank``/``rank_value`` (decision A26): a Minion has Rank Value 5-6."""
    text = VALID.replace("rank_value = 5", "rank_value = 12")
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "rank_value = 12"), 1)
    assert message == "combatants[2].rank_value: a Minion has Rank Value 5-6, not 12"


def test_living_only_condition_points_at_conditions(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb-conditions.md#s2-7-1: Bleeding Out only affects Living characters."""
    text = VALID.replace("conditions = { burning = 2 }", "living = false\nconditions = { bleeding_out = 1 }")
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, "bleeding_out"), 1)
    assert "Living" in message


# --- one line for a wrong type of a union field -----------------------------------------------------


def test_stress_of_the_wrong_type_is_one_line(check: Any, tmp_path: Path) -> None:
    """docs/rules/2d20.md#s3-1 ``stress``: a whole number or a table of tracks; a string is neither, said once."""
    text = TWOD20.replace("stress = 11", 'stress = "eleven"')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, 'stress = "eleven"'), 1)
    assert message == "combatants[1].stress: must be a whole number or a table (got 'eleven')"


def test_a_bad_value_inside_a_stress_table_names_that_value_only(check: Any, tmp_path: Path) -> None:
    """The value had the table's shape, so only the table branch speaks (not "must be a whole number")."""
    text = TWOD20.replace("stress = 11", 'stress = { stress = "x" }')
    path = write(tmp_path, text)
    [(line, _, message)] = problems(check(path), path)
    assert line == line_of(text, 'stress = { stress = "x" }')
    assert message.startswith("combatants[1].stress.stress: must be a valid integer")


def test_charge_of_the_wrong_type_is_one_line(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-1 ``charge``: yards, or "--" for a character that cannot Charge."""
    text = VALID.replace("wounds = 8", 'wounds = 8\ncharge = "fast"')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    assert (line, col) == (line_of(text, 'charge = "fast"'), 1)
    assert message == "combatants[1].charge: must be a whole number or '--' (got 'fast')"


def test_twist_deck_of_the_wrong_type_is_one_line(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-1 ``twist_deck``: the suit choices (a table) or the 13 cards (a list)."""
    text = VALID.replace("wounds = 8", "wounds = 8\ntwist_deck = 5")
    path = write(tmp_path, text)
    [(line, _, message)] = problems(check(path), path)
    assert line == line_of(text, "twist_deck = 5")
    assert message == "combatants[1].twist_deck: must be a table or a list (got 5)"


def test_condition_value_of_the_wrong_type_is_one_line(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb-conditions.md#s2-7: a condition is ``true`` or its value."""
    text = VALID.replace("burning = 2", 'burning = "hot"')
    path = write(tmp_path, text)
    [(line, _, message)] = problems(check(path), path)
    assert line == line_of(text, 'burning = "hot"')
    assert message == "combatants[2].conditions.burning: must be true/false or a whole number (got 'hot')"


# --- the Control Hand -----------------------------------------------------------------------------


def test_a_bad_card_in_the_hand_is_a_file_problem_at_that_card(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-2-1 cards: 1-13 with a suit R/C/T/M. Exit 1 with the card's position, not a refusal."""
    text = VALID.replace("wounds = 8", 'wounds = 8\nhand = ["9R", "9Q"]')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    line_no = line_of(text, "hand = ")
    assert (line, col) == (line_no, col_of(text, line_no, '"9Q"'))
    assert message.startswith("combatants[1].hand[2]: '9Q'")


def test_a_card_twice_in_the_hand(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-2-2: the hand is drawn from the character's Twist Deck, which holds each card once."""
    text = VALID.replace("wounds = 8", 'wounds = 8\nhand = ["9R", "3T", "9r"]')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    line_no = line_of(text, "hand = ")
    assert (line, col) == (line_no, col_of(text, line_no, '"9r"'))
    assert "twice" in message


def test_a_joker_in_the_hand(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-2-2: a Control Hand never holds a Joker. The hand is drawn from the Twist Deck
    ("Draw from Twist Deck:", 000_c95c5e9eacfdebfc.txt L167), whose 13 cards are valued 1-13
    (001_4bf2b999e138b642.txt L25, docs/rules/ttb.md#s2-1 ``twist_deck``); the Jokers are Fate Deck cards."""
    text = VALID.replace("wounds = 8", 'wounds = 8\nhand = ["RJ"]')
    path = write(tmp_path, text)
    [(line, col, message)] = problems(check(path), path)
    line_no = line_of(text, "hand = ")
    assert (line, col) == (line_no, col_of(text, line_no, '"RJ"'))
    assert "Joker" in message


def test_a_good_hand_is_valid(check: Any, tmp_path: Path) -> None:
    text = VALID.replace("wounds = 8", 'wounds = 8\nhand = ["9R", "13M", "1C"]')
    assert check(write(tmp_path, text)).code == 0


# --- warnings ---------------------------------------------------------------------------------------


def test_armor_above_3_is_a_warning_and_the_file_is_valid(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-1 ``armor`` and docs/rules/decisions.md#a27: Armor is at most +3, but the GM may exceed it;
    ``armor`` accepts more, with a warning. The check prints the warning at the key and still exits 0."""
    text = VALID.replace("rank_value = 5\n", "rank_value = 5\narmor = 4\n")
    path = write(tmp_path, text)
    result = check(path)
    assert result.code == 0, result.err
    line_no = line_of(text, "armor = 4")
    assert result.err.splitlines() == [
        f"{path}:{line_no}:1: warning: Guild Thug has Armor +4, above the usual maximum of +3 "
        "(allowed: the Fatemaster may exceed it)"
    ]
    assert f"{path}: ok" in result.out


def test_armor_3_is_no_warning(check: Any, tmp_path: Path) -> None:
    """docs/rules/decisions.md#a27: +3 is the maximum itself."""
    result = check(write(tmp_path, VALID.replace("rank_value = 5\n", "rank_value = 5\narmor = 3\n")))
    assert (result.code, result.err) == (0, "")


def test_warnings_are_printed_beside_errors_in_file_order(check: Any, tmp_path: Path) -> None:
    """A27 warning plus an error found after the schema (a refused demo step): exit 1, both lines, in
    the file's order. (A file that fails its schema has no model to warn about: errors only.)"""
    text = VALID.replace("rank_value = 5\n", "rank_value = 5\narmor = 5\n") + '\n[[demo]]\ndo = "spend Nobody walk"\n'
    path = write(tmp_path, text)
    result = check(path)
    assert result.code == 1
    lines = result.err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{path}:{line_of(text, 'armor = 5')}:1: warning: Guild Thug has Armor +5")
    assert lines[1].startswith(f"{path}:{line_of(text, 'spend Nobody walk')}:1: demo step 3")


def test_each_bad_condition_points_at_its_own_key(check: Any, tmp_path: Path) -> None:
    """docs/rules/ttb-conditions.md#s2-7: valued conditions take a number, the others ``true``; each problem at its
    key."""
    text = VALID.replace("dazed = true", "dazed = 2, onfire = true")
    path = write(tmp_path, text)
    found = problems(check(path), path)
    line_no = line_of(text, "onfire")
    assert [(line, col) for line, col, _ in found] == [
        (line_no, col_of(text, line_no, "dazed")),
        (line_no, col_of(text, line_no, "onfire")),
    ]
    assert "Dazed is not valued" in found[0][2] and "onfire" in found[1][2]


D20_SIDES = """
[encounter]
name = "Pier"
system = "2d20"

[[combatants]]
name = "Kit"
stress = 10

[[combatants]]
name = "Thug"
npc_type = "minor"
stress = 5

[[combatants]]
name = "Cultist"
side = "cult"
stress = 5
"""


def test_2d20_combatant_on_a_non_player_side_without_npc_type_is_a_warning(check: Any, tmp_path: Path) -> None:
    """docs/rules/2d20.md#s3-1 ``npc_type`` (absent for a player character): a combatant on a side other than the
    players' with no ``npc_type`` plays as a PC; `tracker check` warns at its key and the file stays valid.
    A PC on the players' side is no warning."""
    path = write(tmp_path, D20_SIDES)
    result = check(path)
    assert result.code == 0, result.err
    assert result.err.splitlines() == [
        f"{path}:{line_of(D20_SIDES, 'side = ')}:1: warning: Cultist is on side 'cult' but has no npc_type, so it "
        "plays as a player character (give npc_type = minor, notable or major for an NPC)"
    ]
    fixed = D20_SIDES.replace('side = "cult"', 'side = "cult"\nnpc_type = "minor"')
    assert check(write(tmp_path, fixed, "ok.toml")).err == ""
