"""The faults fuzzing and kill tests found, one test (or more) each, through the command line.

Each ends as docs/reference/cli.md promises: ``tracker check`` prints one ``FILE:LINE:COL: message`` a problem
and exits 1; ``tracker exec`` prints one line, exits non-zero and leaves the file as it was; nothing
prints a traceback, and nothing hangs.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import pinned
from tracker.cli.main import main
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.twod20.dice.rolls import MAX_CHALLENGE_DICE
from tracker.store import files
from tracker.store.lock import WriterLock
from tracker.store.save import encounter_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SKIRMISH = pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8"))
DUEL = pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8"))


@dataclass
class Result:
    code: int
    out: str
    err: str

    def lines(self) -> list[str]:
        return self.err.strip().splitlines()


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    def run(*args: str | Path, stdin: str = "") -> Result:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err + captured.out
        assert "internal error" not in captured.err
        return Result(code, captured.out, captured.err)

    return run


def write(tmp_path: Path, text: str | bytes, name: str = "f.toml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def played(text: str, *lines: str) -> str:
    """The file after `lines`, as a save writes it: with [state] and [history]."""
    session = Session(files.parse_text(text, "x"), seed=3)
    for line in lines:
        session.execute(line)
    return encounter_text(session)


def refused_alike(cli: Any, path: Path, stdin: str = "start\n") -> tuple[list[str], str]:
    """`check` fails with positioned lines; `exec --save` fails in one line, the file untouched."""
    before = path.read_bytes()
    checked = cli("check", path)
    assert checked.code == 1
    assert all(line.startswith(f"{path}:") for line in checked.lines()), checked.err
    done = cli("exec", path, "--save", stdin=stdin)
    assert done.code == 1
    assert len(done.lines()) == 1, done.err
    assert path.read_bytes() == before
    return checked.lines(), done.lines()[0]


# --- hostile TOML ---------------------------------------------------------------------------------


def test_500_deep_nested_arrays_are_one_problem_not_a_recursion_error(cli: Any, tmp_path: Path) -> None:
    """500-deep nested arrays were a RecursionError traceback in check and exec."""
    path = write(tmp_path, SKIRMISH.replace("threat = 5\n", "threat = 5\nx = " + "[" * 500 + "]" * 500 + "\n"))
    checked, line = refused_alike(cli, path)
    assert checked == [line]
    assert line.startswith(f"{path}:12:5: ") and "nested too deeply" in line


def test_a_5000_digit_number_is_one_problem_at_its_line(cli: Any, tmp_path: Path) -> None:
    """An integer of 5,000 digits was a ValueError traceback (Python's int conversion limit)."""
    path = write(tmp_path, SKIRMISH.replace("threat = 5", "threat = " + "9" * 5000))
    checked, line = refused_alike(cli, path)
    assert checked == [line] == [f"{path}:11:10: TOML: a number with more than 4300 digits"]


def test_a_file_over_the_size_cap_is_refused_at_once(cli: Any, tmp_path: Path) -> None:
    """A 10 MB file of unknown keys took ≈ 7 s per command to reject. Files are capped at
    `MAX_FILE_BYTES` (1 MiB, README "Limits") and refused before they are parsed."""
    filler = "".join(f"k{i} = {i}\n" for i in range(files.MAX_FILE_BYTES // 8))
    path = write(tmp_path, SKIRMISH + filler)
    assert path.stat().st_size > files.MAX_FILE_BYTES
    started = time.monotonic()
    checked, line = refused_alike(cli, path)
    assert time.monotonic() - started < 1.0
    assert checked == [line] == [f"{path}:1:1: file too large: an encounter file holds at most 1024 KiB"]


def test_a_save_that_would_pass_the_cap_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    """A save never writes a file the loader would refuse: over the cap, nothing is written (EFBIG)."""
    path = write(tmp_path, SKIRMISH)
    with pytest.raises(OSError, match="over 1024 KiB"):
        files.write_text(path, "x" * (files.MAX_FILE_BYTES + 1))
    assert path.read_text(encoding="utf-8") == SKIRMISH
    assert not list(tmp_path.glob(".f.toml.*.tmp"))


def test_a_file_that_is_not_utf8_names_the_byte_and_its_place(cli: Any, tmp_path: Path) -> None:
    data = SKIRMISH.encode().replace(b'name = "Harbour Skirmish"', b'name = "Harbour \xff Skirmish"')
    path = write(tmp_path, data)
    checked, line = refused_alike(cli, path)
    assert checked == [line] == [f"{path}:5:17: not UTF-8 text (byte 0xff)"]


def test_a_syntax_error_at_the_end_of_the_file_is_placed_there_not_at_1_1(cli: Any, tmp_path: Path) -> None:
    """Not at 1:1: tomllib's "at end of document" has no line; it is the last one."""
    path = write(tmp_path, SKIRMISH + "weapons = [1,\n")
    checked, _ = refused_alike(cli, path)
    last = len((SKIRMISH + "weapons = [1,").splitlines())
    assert checked == [f"{path}:{last}:14: TOML syntax: Invalid value at the end of the file"]


# --- whole-file errors at their key ----------------------------------------------------------------


def test_duplicate_combatant_names_and_missing_zones_are_reported_at_their_key(cli: Any, tmp_path: Path) -> None:
    """Whole-file errors (duplicate names, missing zones) point at the key to fix, never 1:1."""
    text = SKIRMISH.replace('name = "Cultist"', 'name = "Cult Priest"').replace('zone = "Yard"', 'zone = "Moon"')
    path = write(tmp_path, text)
    lines = text.splitlines()
    checked = cli("check", path).lines()
    later = max(n for n, line in enumerate(lines, 1) if line == 'name = "Cult Priest"')
    moon = lines.index('zone = "Moon"') + 1
    assert checked[0].startswith(f"{path}:{moon}:1: combatants[3].zone: Cult Enforcer: no zone named 'Moon'")
    assert checked[1] == f"{path}:{later}:1: combatants[5].name: two combatants are named 'Cult Priest'"


def test_duplicate_zone_names_are_refused_ignoring_case(cli: Any, tmp_path: Path) -> None:
    """Duplicate zone names were accepted (zones are named case-insensitively in `move`)."""
    text = SKIRMISH.replace('[[zones]]\nname = "Warehouse"', '[[zones]]\nname = "pier"')
    text = text.replace('adjacent = ["Warehouse"]', "adjacent = []").replace('zone = "Warehouse"', 'zone = "Yard"')
    path = write(tmp_path, text)
    line = text.splitlines().index('name = "pier"') + 1
    assert cli("check", path).lines() == [f"{path}:{line}:1: zones[5].name: two zones are named 'pier'"]


def test_exec_on_an_invalid_file_prints_one_line_saying_how_many_more(cli: Any, tmp_path: Path) -> None:
    """`exec` on an invalid file printed every problem; the contract promises one line."""
    path = write(tmp_path, SKIRMISH.replace("threat = 5", "threat = 5\nmood = 1\ncolour = 2"))
    result = cli("exec", path, stdin="start\n")
    assert result.code == 1
    assert result.lines() == [f"{path}:12:1: unknown key 'mood' (and 1 more: tracker check {path})"]


# --- [state] validated against the setup on every load ----------------------------------------------


def test_a_wrong_type_in_state_is_one_line_in_exec_as_in_check(cli: Any, tmp_path: Path) -> None:
    """A wrong type in [state] was a pydantic traceback in exec while check reported it."""
    text = played(SKIRMISH, "start").replace("round = 1", 'round = "one"')
    path = write(tmp_path, text)
    checked, line = refused_alike(cli, path, "next\n")
    at = text.splitlines().index('round = "one"') + 1
    assert checked == [line]
    assert line.startswith(f"{path}:{at}:1: state: round: must be a valid integer") and line.endswith("(got 'one')")


def test_a_state_naming_a_combatant_the_setup_lacks_fails_check_and_exec(cli: Any, tmp_path: Path) -> None:
    """A [state] naming combatants the setup lacks passed check and crashed exec (KeyError)."""
    text = played(SKIRMISH, "start", "pick Ada").replace('active = "Ada Vance"', 'active = "Ada Vane"')
    path = write(tmp_path, text)
    checked, line = refused_alike(cli, path, "next\n")
    assert checked == [line]
    assert line.endswith("state: active: 'Ada Vane' is not a combatant of this encounter")


def test_a_setup_that_lost_a_combatant_of_the_state_fails_on_load(cli: Any, tmp_path: Path) -> None:
    """The other way round: the GM deletes a combatant from the setup of a played file."""
    text = played(SKIRMISH, "start", "pick Ada")
    start = text.index('[[combatants]]\nname = "Cultist"')
    end = text.index("[[combatants]]", start + 1)
    path = write(tmp_path, text[:start] + text[end:])
    checked, line = refused_alike(cli, path, "next\n")
    assert "'Cultist' is not a combatant of this encounter" in line
    assert len(checked) >= 1


def test_state_without_history_is_refused_on_every_load(tmp_path: Path) -> None:
    text = played(SKIRMISH, "start")
    cut = text[: text.index("[history]")]
    with pytest.raises(files.FileInvalid, match="written together; one is missing"):
        files.parse_text(cut, "x")


def test_a_ttb_fate_deck_that_lost_a_card_is_refused(tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-2-1: the Fate Deck, its discards and the table are the 54 cards once each; a lost card
    would leave a flip nothing to draw after a reshuffle."""
    text = played(DUEL, "initiative Sofia 13", "start")
    first = dump(Session(files.parse_text(text, "x")).rules.state)["deck"][0]
    at = text.index("\ndeck = [\n")
    broken = text[:at] + text[at:].replace(f'    "{first}",\n', "", 1)
    with pytest.raises(files.FileInvalid, match=f"state: deck: .*missing {first}"):
        files.parse_text(broken, "x")


def test_a_2d20_state_with_a_stranger_zone_or_track_is_refused() -> None:
    text = played(SKIRMISH, "start", "pick Ada")
    setup, live = text.split("[state]", 1)
    with pytest.raises(files.FileInvalid, match=re.escape("fighters.Ada Vance.zone: 'Moon' is not a zone of")):
        files.parse_text(setup + "[state]" + live.replace('zone = "Pier"', 'zone = "Moon"', 1), "x")
    table = '[state.fighters."Ada Vance".stress]\n'
    mana = live.replace(table + "stress = 0", table + "mana = 0")
    with pytest.raises(files.FileInvalid, match="Ada Vance has no stress track 'mana'"):
        files.parse_text(setup + "[state]" + mana, "x")


# --- settings that broke the engine later ------------------------------------------------------------


def test_default_track_mana_fails_check_instead_of_crashing_damage(cli: Any, tmp_path: Path) -> None:
    """`[settings] default_track = "mana"` passed check, then `damage … mental` was a KeyError."""
    path = write(tmp_path, SKIRMISH.replace("threat = 5\n", 'threat = 5\n\n[settings]\ndefault_track = "mana"\n'))
    checked, line = refused_alike(cli, path, "start\npick Ada\ndamage Cultist 3 mental\n")
    assert (
        checked
        == [line]
        == [f"{path}:14:1: settings.default_track: profile srd has no stress track 'mana' (tracks: stress)"]
    )


# --- unbounded dice loops --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("challenge 100000000", f"the number of dice is at most {MAX_CHALLENGE_DICE} (not 100000000)"),
        ("damage Cultist 2 cover=100000000", f"cover is at most {MAX_CHALLENGE_DICE} (not 100000000)"),
        ("damage Cultist 2 icons=1 persistent=100000000", f"persistent is at most {MAX_CHALLENGE_DICE}"),
        ("add Cultist persistent 100000000", f"Persistent X rolls X[CD]: X is at most {MAX_CHALLENGE_DICE}"),
    ],
)
def test_a_hundred_million_dice_are_refused_in_one_line(cli: Any, tmp_path: Path, command: str, reason: str) -> None:
    """These hung (Persistent was accepted, then hung every later `next`). Refused, file untouched."""
    path = write(tmp_path, SKIRMISH)
    started = time.monotonic()
    result = cli("exec", path, "--save", stdin=f"start\npick Ada\n{command}\nnext\n")
    assert time.monotonic() - started < 2.0
    assert result.code == 2
    assert result.lines() == [f"line 3: {reason}"] or result.lines()[0].startswith(f"line 3: {reason}")
    assert path.read_text(encoding="utf-8") == SKIRMISH


def test_a_demo_step_of_a_hundred_million_dice_fails_check_at_once(cli: Any, tmp_path: Path) -> None:
    """The same counts as [[demo]] steps hung `tracker check`."""
    path = write(tmp_path, SKIRMISH + '\n[[demo]]\ndo = "challenge 100000000"\n')
    started = time.monotonic()
    result = cli("check", path)
    assert time.monotonic() - started < 2.0
    assert result.code == 1
    assert "demo step" in result.lines()[-1] and f"at most {MAX_CHALLENGE_DICE}" in result.lines()[-1]


# --- bytes that are not UTF-8 in a command ----------------------------------------------------------------


def test_a_command_with_bytes_that_are_not_utf8_is_refused_not_a_save_traceback(cli: Any, tmp_path: Path) -> None:
    """Such bytes reached the history and the save died with UnicodeEncodeError (exit 1)."""
    path = write(tmp_path, SKIRMISH)
    result = cli("exec", path, "--save", stdin="start\npick Ada\nmomentum +1 \udcff\udcfe\n")
    assert (result.code, result.lines()) == (2, ["line 3: the command has bytes that are not UTF-8 text"])
    assert path.read_text(encoding="utf-8") == SKIRMISH


def test_raw_bytes_on_stdin_under_a_strict_utf8_locale(tmp_path: Path) -> None:
    """The real process: stdin is read as bytes, so a strict UTF-8 locale cannot fail before line 1."""
    path = write(tmp_path, SKIRMISH)
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "tracker", "exec", str(path), "--save"],
        input=b"start\npick Ada\nmomentum +1 \xff\xfe\n",
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.decode() == "line 3: the command has bytes that are not UTF-8 text\n"
    assert path.read_text(encoding="utf-8") == SKIRMISH


# --- every writer clears what a killed writer left ---------------------------------------------------------


def stale_temp(path: Path) -> Path:
    """The temp file a writer killed between its write and its rename leaves (as `write_text` names it)."""
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.write(fd, b"half a file")
    os.close(fd)
    return Path(name)


def test_exec_save_clears_the_temp_files_a_killed_writer_left(cli: Any, tmp_path: Path) -> None:
    """A killed `exec --save` left `.FILE.*.tmp` files that only `tracker run` cleaned."""
    path = write(tmp_path, SKIRMISH)
    left = stale_temp(path)
    assert cli("exec", path, "--save", stdin="start\n").code == 0
    assert not left.exists()
    files.load(path)


def test_taking_the_writer_lock_clears_stale_temp_files_of_that_file_only(tmp_path: Path) -> None:
    path = write(tmp_path, SKIRMISH)
    other = write(tmp_path, DUEL, "other.toml")
    mine, theirs = stale_temp(path), stale_temp(other)
    with WriterLock(path):
        assert not mine.exists()
        assert theirs.exists()


def test_killed_exec_saves_leave_nothing_the_next_writer_does_not_clear(tmp_path: Path) -> None:
    """A kill test: `tracker exec --save` killed at random moments; the file stays valid, and the next
    writer leaves no temp file behind."""
    path = write(tmp_path, SKIRMISH)
    commands = b"start\npick Ada\n" + b"momentum +1\nmomentum -1\n" * 200
    for delay in (0.05, 0.1, 0.15, 0.2, 0.3):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tracker", "exec", str(path), "--save"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdin is not None
        proc.stdin.write(commands)
        proc.stdin.close()
        time.sleep(delay)
        proc.kill()
        proc.wait()
        files.load(path)
    stale_temp(path)  # as if one of the kills had landed mid-save
    done = subprocess.run(
        [sys.executable, "-m", "tracker", "exec", str(path), "--save"], input=b"", capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert not list(tmp_path.glob(".f.toml.*.tmp"))
    files.load(path)


# --- the last resort ---------------------------------------------------------------------------------------


def test_an_unexpected_error_is_still_one_line(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """docs/reference/cli.md "never a traceback": should a bug slip through, the CLI says so in one line."""

    def broken(paths: list[str]) -> int:
        raise KeyError("Nobody")

    monkeypatch.setattr("tracker.cli.check.cmd_check", broken)
    assert main(["check", "x.toml"]) == 1
    assert capsys.readouterr().err == "tracker: internal error: KeyError: 'Nobody' (please report it)\n"
