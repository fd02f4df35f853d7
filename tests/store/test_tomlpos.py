"""Key positions from a real TOML parser (`tracker.store.tomlpos`): every key of every shipped and saved file
at the line and column that wrote it, as ``tracker check`` reports them (docs/reference/cli.md)."""

from __future__ import annotations

import re
import textwrap
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tracker.store.tomlpos import Positions

ROOT = Path(__file__).resolve().parent.parent.parent
FILES = sorted(
    p
    for folder in ("examples", "tracker/data", "themes", "tests/store/data", "tests/store/saved")
    for p in (ROOT / folder).rglob("*.toml")
)


#: A quoted key: a basic one (with its backslash escapes) or a literal one.
QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"' + r"|'[^']*'")


def key_paths(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every key path of parsed TOML data (tables' keys, array entries by number), with its value."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*path, key), inner
            yield from key_paths(inner, (*path, key))
    elif isinstance(value, list):
        for n, inner in enumerate(value):
            yield (*path, n), inner
            yield from key_paths(inner, (*path, n))


def written_at(text: str, place: tuple[int, int]) -> str:
    line, col = place
    return text.splitlines()[line - 1][col - 1 :]


def assert_every_key_at_its_place(text: str) -> None:
    """Each key's position starts its key as written (bare or quoted, or the header naming it); each entry's
    starts its ``[[header]]`` or its value."""
    data = tomllib.loads(text)
    pos = Positions(text)
    for path, value in key_paths(data):
        if path not in pos.where:
            # An array of tables is where its entries are, and a table only a longer header implies
            # (``[state.fighters.Ann]``) where its own tables are: each of those has its place.
            assert placed(pos, path, value), path
            continue
        here = written_at(text, pos.where[path])
        last = path[-1]
        if isinstance(last, int):
            if isinstance(value, dict) and not here.startswith("{"):
                assert here.startswith("[["), (path, here)
            else:
                assert here and here[0] not in " \t,]#", (path, here)
        elif here.startswith("["):
            header = here[: here.index("]") + 1]
            assert last in header, (path, here)
        elif here[0] in "\"'":
            quoted = QUOTED.match(here)
            assert quoted is not None, (path, here)
            named = tomllib.loads(f"{quoted.group()} = 1")
            assert named == {last: 1} or last in here.split("=")[0], (path, here)
        else:
            assert here.startswith(last) or last in here.split("=")[0], (path, here)


def placed(pos: Positions, path: tuple[str | int, ...], value: Any) -> bool:
    """Whether every table or entry inside `path`'s value (a table of tables, an array of tables) has its place."""
    inner: list[tuple[Any, Any]] = list(enumerate(value)) if isinstance(value, list) else []
    if isinstance(value, dict):
        inner = list(value.items())
    if not inner or not all(isinstance(v, (dict, list)) for _, v in inner):
        return False
    return all((*path, k) in pos.where or placed(pos, (*path, k), v) for k, v in inner)


def test_the_files_cover_every_kind_of_encounter() -> None:
    names = {p.name for p in FILES}
    assert {"duel.toml", "demo.toml", "party.toml"} <= names
    assert any("[state]" in p.read_text(encoding="utf-8") for p in FILES)  # saved fights too


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_key_of_every_shipped_and_saved_file_is_at_its_own_line(path: Path) -> None:
    assert_every_key_at_its_place(path.read_text(encoding="utf-8"))


def test_a_multi_line_string_is_one_value_whatever_its_lines_look_like() -> None:
    """A ``[[combatants]]`` line and a ``key = value`` line inside a multi-line string are text: the keys after
    the string keep their own lines (a problem after a note is reported at its line, not the note's)."""
    text = textwrap.dedent(
        '''\
        [[combatants]]
        name = "Sofia"
        notes = """
        Met at the docks.
        [[combatants]]
        wounds = 1
        """
        literal = \'\'\'
        [settings] x = 1\'\'\'
        rank_value = 99

        [[combatants]]
        name = "Second"
        '''
    )
    assert_every_key_at_its_place(text)
    pos = Positions(text)
    assert pos.find(("combatants", 0, "rank_value")) == (10, 1)
    assert pos.find(("combatants", 1)) == (12, 1)
    assert pos.find(("combatants", 1, "name")) == (13, 1)
    assert ("combatants", 0, "wounds") not in pos.where


def test_awkward_but_valid_toml_keeps_every_key_at_its_place() -> None:
    """Quoted keys with escapes and dots, dotted keys, headers with blanks inside, nested inline tables,
    comments holding brackets and a table header implied by a longer one."""
    text = textwrap.dedent(
        """\
        # [not] a table = 1
        "a.b" = 1  # a key with a dot in its quotes
        'lit' = 2
        "esc\\"aped" = 3
        deep . nested . key = 4
        [ state . fighters . "Ann Lee" ]
        wounds = 2
        skills = { melee = { rank = 3, "x.y" = [1, [2, 3]] }, z = 1 }
        [state.fighters.Bob]
        wounds = 1
        [[ zones ]]
        name = "Pier"  # [[zones]]
        adjacent = [
          "Roof", # a comment, with a comma
          'Yard',
        ]
        """
    )
    assert_every_key_at_its_place(text)
    pos = Positions(text)
    assert pos.find(("a.b",)) == (2, 1)
    assert pos.find(('esc"aped',)) == (4, 1)
    assert pos.find(("state", "fighters", "Ann Lee")) == (6, 1)
    assert pos.find(("state", "fighters", "Ann Lee", "skills", "melee", "x.y", 1, 0)) == (8, 45)
    assert pos.find(("zones", 0, "adjacent", 1)) == (15, 3)


def test_a_file_tomlkit_cannot_read_has_no_positions_and_no_crash() -> None:
    pos = Positions("[a]\nb = \n")
    assert pos.find(("a", "b")) == (1, 1)


@pytest.mark.perf
@pytest.mark.parametrize("example", ["duel.toml", "campaign/1_ambush.toml"])
def test_a_valid_file_new_to_the_tracker_never_loads_the_position_parser(example: str) -> None:
    """Positions are for problems: `tracker exec` of a valid file read for the first time (parsed, expanded,
    validated) imports no tomlkit, which only `tracker check` and a problem's position need."""
    import os
    import subprocess
    import sys

    code = (
        "import sys\nfrom tracker.store.opening import load_session\n"
        f"load_session({str(ROOT / 'examples' / example)!r})\nprint('tomlkit' in sys.modules)"
    )
    env = {**os.environ, "TRACKER_NO_CACHE": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.strip() == "False"
