"""Encounter files: atomic durable saves (docs/guide/shared-box.md) and key positions for `FILE:LINE:COL`
(docs/reference/cli.md, docs/reference/file-format.md)."""

from __future__ import annotations

import io
import os
import stat
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any, NoReturn

import pytest

from tests.conftest import run
from tracker.cli.main import main
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.store import files
from tracker.store.files import FileInvalid
from tracker.store.save import encounter_document, encounter_text, keep_setup
from tracker.store.tomlpos import Positions

ENCOUNTER = textwrap.dedent(
    """\
    [encounter]
    name = "Saved"
    system = "ttb"
    seed = 5

    [[combatants]]
    name = "Sofia Ramos"
    kind = "fated"
    wounds = 8

    [[combatants]]
    name = "Guild Thug"
    rank_value = 5
    wounds = 5
    """
)


def played_session(*lines: str) -> Session:
    session = Session(files.parse_text(ENCOUNTER, "<test>"))
    for line in lines:
        session.execute(line)
    return session


def leftovers(folder: Path) -> list[str]:
    """Temporary files a save may have left in the folder."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def boom(*args: Any, **kwargs: Any) -> NoReturn:
    raise OSError(28, "No space left on device")


# --- atomic save ------------------------------------------------------------------------------


def save(path: Path, session: Session) -> None:
    """Save exactly as the app does after each accepted command (`TrackerApp.submit`)."""
    files.write_text(path, encounter_text(session))


def test_save_writes_the_whole_document(tmp_path: Path) -> None:
    path = tmp_path / "enc.toml"
    session = played_session("start", "flip 2", "damage thug 2")
    save(path, session)
    text = path.read_text(encoding="utf-8")
    assert tomllib.loads(text) == encounter_document(session)
    assert leftovers(tmp_path) == []
    # The saved file loads back as the same fight (state and history).
    again = Session(files.parse_text(text, str(path)))
    assert dump(again.state) == dump(session.state)
    assert dump(again.history) == dump(session.history)


def test_every_save_of_a_session_reloads_as_the_fight_so_far(tmp_path: Path) -> None:
    """The setup text is made once per session and reused; each later save still holds the whole fight."""
    path = tmp_path / "enc.toml"
    session = played_session()
    for line in ("start", "flip 2", "damage thug 2", "next", "undo"):
        session.execute(line)
        save(path, session)
        text = path.read_text(encoding="utf-8")
        assert tomllib.loads(text) == encounter_document(session), line
        again = Session(files.parse_text(text, str(path)))
        assert dump(again.state) == dump(session.state), line
        assert dump(again.history) == dump(session.history), line


def test_a_kept_setup_text_is_written_as_it_is() -> None:
    """Keeping the GM's own setup (docs/reference/file-format.md): the setup part goes out verbatim, then the live
    part."""
    session = played_session()
    keep_setup(session, ENCOUNTER)
    run(session, "start", "flip 2")
    text = encounter_text(session)
    assert text.startswith(ENCOUNTER + "\n[state]")
    again = Session(files.parse_text(text, "<test>"))
    assert dump(again.state) == dump(session.state)
    assert dump(again.history) == dump(session.history)


def test_save_replaces_an_existing_file_readable_by_its_owner_only(tmp_path: Path) -> None:
    """A save no longer keeps a group-readable mode: the encounter holds secrets (docs/guide/shared-box.md)."""
    path = tmp_path / "enc.toml"
    path.write_text(ENCOUNTER, encoding="utf-8")
    os.chmod(path, 0o640)
    session = played_session("start")
    save(path, session)
    assert tomllib.loads(path.read_text(encoding="utf-8")) == encounter_document(session)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert leftovers(tmp_path) == []


def test_a_failed_rename_leaves_the_old_file_and_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "enc.toml"
    path.write_text(ENCOUNTER, encoding="utf-8")
    before = path.read_bytes()
    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="No space left"):
        save(path, played_session("start", "flip 3"))
    assert path.read_bytes() == before
    assert leftovers(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enc.toml"]


def test_a_failed_fsync_leaves_the_old_file_and_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "enc.toml"
    path.write_text(ENCOUNTER, encoding="utf-8")
    before = path.read_bytes()
    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError):
        save(path, played_session("start"))
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enc.toml"]


def test_a_failed_first_save_creates_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "new.toml"
    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        save(path, played_session())
    assert list(tmp_path.iterdir()) == []


def test_exec_save_failure_is_one_line_and_the_file_survives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "enc.toml"
    path.write_text(ENCOUNTER, encoding="utf-8")
    before = path.read_bytes()
    monkeypatch.setattr(os, "replace", boom)
    monkeypatch.setattr(sys, "stdin", io.StringIO("start\nflip 2\n"))
    code = main(["exec", str(path), "--save"])
    err = capsys.readouterr().err
    assert code != 0
    assert len(err.strip().splitlines()) == 1 and "No space left" in err
    assert "Traceback" not in err
    assert path.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_load_refuses_missing_and_invalid_files_with_a_position(tmp_path: Path) -> None:
    with pytest.raises(FileInvalid) as missing:
        files.load(tmp_path / "none.toml")
    assert missing.value.lines() == [f"{tmp_path / 'none.toml'}:1:1: no such file"]
    bad = tmp_path / "bad.toml"
    bad.write_text(ENCOUNTER.replace("wounds = 5", "wounds = 0"), encoding="utf-8")
    with pytest.raises(FileInvalid) as invalid:
        files.load(bad)
    [line] = invalid.value.lines()
    assert line.startswith(f"{bad}:14:1: ") and "wounds" in line


# --- tomlpos ----------------------------------------------------------------------------------

POSITIONS = textwrap.dedent(
    """\
    [encounter]
    name = "Where"
    system = "ttb"

    [settings]
    flips = "auto"
    deep.nested.key = 1

    [[combatants]]
    name = "First"
    conditions = { burning = 2, dazed = true }

    [[combatants.weapons]]
    name = "Sabre"

    [[combatants.weapons]]
    name = "Knife"

    [[combatants]]
    name = "Second"
      "quoted key" = 3
    twist_deck = { defining = "rams", center = "tomes" }
    weapons = [
      { name = "Pistol", kind = "projectile" },  # a comment { with a brace
      { name = "Odd \\"name\\", x = 1", range = 12 }, { name = "Third" },
    ]
    hand = ["1R", "[not a table]"]
    after = true

    [[combatants]]
    name = "Third"

    [[combatants.weapons]]
    name = "Club"

    [[demo]]
    do = "start"

    [[demo]]
    do = "next"
    """
)


@pytest.fixture
def pos() -> Positions:
    tomllib.loads(POSITIONS)  # the sample itself is valid TOML
    return Positions(POSITIONS)


def at(needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, col) of the `nth` occurrence of `needle` in POSITIONS, 1-based."""
    hits = [(n, line.index(needle) + 1) for n, line in enumerate(POSITIONS.splitlines(), 1) if needle in line]
    return hits[nth]


def test_tables_and_plain_keys(pos: Positions) -> None:
    assert pos.find(("encounter",)) == at("[encounter]")
    assert pos.find(("encounter", "system")) == at("system")
    assert pos.find(("settings", "flips")) == at("flips")


def test_array_of_tables_entries_are_numbered_from_0(pos: Positions) -> None:
    assert pos.find(("combatants", 0)) == at("[[combatants]]", 0)
    assert pos.find(("combatants", 1)) == at("[[combatants]]", 1)
    assert pos.find(("combatants", 2)) == at("[[combatants]]", 2)
    assert pos.find(("combatants", 1, "name")) == at('name = "Second"')
    assert pos.find(("demo", 1, "do")) == at('do = "next"')


def test_nested_arrays_of_tables_restart_in_each_entry(pos: Positions) -> None:
    assert pos.find(("combatants", 0, "weapons", 0, "name")) == (at('"Sabre"')[0], 1)
    assert pos.find(("combatants", 0, "weapons", 1)) == at("[[combatants.weapons]]", 1)
    # The third combatant's first weapon is its weapons[0], as pydantic numbers it.
    assert pos.find(("combatants", 2, "weapons", 0)) == at("[[combatants.weapons]]", 2)
    assert pos.find(("combatants", 2, "weapons", 0, "name")) == (at('"Club"')[0], 1)


def test_dotted_and_quoted_keys(pos: Positions) -> None:
    assert pos.find(("settings", "deep", "nested", "key")) == at("deep.nested.key")
    assert pos.find(("combatants", 1, "quoted key")) == at('"quoted key"')


def test_inline_tables(pos: Positions) -> None:
    assert pos.find(("combatants", 0, "conditions")) == at("conditions")
    assert pos.find(("combatants", 0, "conditions", "burning")) == at("burning")
    assert pos.find(("combatants", 0, "conditions", "dazed")) == at("dazed")
    assert pos.find(("combatants", 1, "twist_deck", "center")) == at("center")


def test_arrays_of_inline_tables_over_several_lines(pos: Positions) -> None:
    assert pos.find(("combatants", 1, "weapons")) == at("weapons = [")
    assert pos.find(("combatants", 1, "weapons", 0)) == at('{ name = "Pistol"')
    assert pos.find(("combatants", 1, "weapons", 0, "kind")) == at("kind")
    # Quotes, escapes and commas inside strings do not start keys; a comment's brace is no table.
    assert pos.find(("combatants", 1, "weapons", 1, "range")) == at("range")
    assert pos.find(("combatants", 1, "weapons", 2, "name")) == at('name = "Third" }')
    assert pos.find(("combatants", 1, "weapons", 3)) == at("weapons = [")
    # The array closes: later keys are keys of the table again.
    assert pos.find(("combatants", 1, "hand")) == at("hand")
    assert pos.find(("combatants", 1, "after")) == at("after")


def test_plain_array_elements_are_numbered(pos: Positions) -> None:
    """Each element of an array has its position (``hand.1``), so a bad card or an unknown adjacent zone
    is reported at that entry; brackets inside a string start no element."""
    assert pos.find(("combatants", 1, "hand", 0)) == at('"1R"')
    assert pos.find(("combatants", 1, "hand", 1)) == at('"[not a table]"')
    assert pos.find(("combatants", 1, "hand", 2)) == at("hand")
    many = Positions('adjacent = [\n  "Pier",  # a comment, with a comma\n  "Roof", 3,\n]\nafter = 1\n')
    assert [many.find(("adjacent", n)) for n in range(3)] == [(2, 3), (3, 3), (3, 11)]
    assert many.find(("after",)) == (5, 1)


def test_find_falls_back_to_the_longest_known_prefix(pos: Positions) -> None:
    assert pos.find(("combatants", 1, "twist_deck", "bogus")) == at("twist_deck")
    assert pos.find(("combatants", 2, "nothing", "here")) == at("[[combatants]]", 2)
    assert pos.find(("nowhere",)) == (1, 1)
    assert pos.find(()) == (1, 1)


def test_positions_feed_validation_errors(tmp_path: Path) -> None:
    """End to end: an unknown key inside a multi-line weapons array is reported at that key."""
    text = ENCOUNTER + textwrap.dedent(
        """\
        weapons = [
          { name = "Cleaver", damage = "2/3/4" },
          { name = "Hook", sharpness = 2 },
        ]
        """
    )
    with pytest.raises(FileInvalid) as info:
        files.parse_text(text, "enc.toml")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "sharpness" in t)
    col = text.splitlines()[line - 1].index("sharpness") + 1
    assert info.value.lines() == [f"enc.toml:{line}:{col}: unknown key 'sharpness'"]


def test_a_file_that_loads_cleanly_is_never_scanned_for_positions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12 (start-up): positions are for problems; a valid file's load never works them out, and a
    problem still gets its `FILE:LINE:COL`."""
    scanned: list[str] = []
    scan = Positions._scan

    def counted(self: Positions) -> dict[tuple[str | int, ...], tuple[int, int]]:
        scanned.append("scan")
        return scan(self)

    monkeypatch.setattr(Positions, "_scan", counted)
    good = tmp_path / "good.toml"
    good.write_text(ENCOUNTER, encoding="utf-8")
    files.load(good)
    assert scanned == []
    bad = tmp_path / "bad.toml"
    bad.write_text(ENCOUNTER.replace("wounds = 8", 'wounds = "eight"'), encoding="utf-8")
    with pytest.raises(FileInvalid) as caught:
        files.load(bad)
    assert scanned and f"{bad}:{at_line(ENCOUNTER, 'wounds = 8')}:" in caught.value.lines()[0]


def at_line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)
