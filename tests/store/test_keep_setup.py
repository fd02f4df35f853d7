"""The GM's file is theirs (docs/reference/file-format.md): every save keeps the setup text byte for byte.

Everything above the live ``[state]`` / ``[history]`` tables (comments, key order, blank lines,
formatting) stays as the GM wrote it, through `tracker exec --save`, the session's durable save, undo and
redo, restarts, `tracker new` starters and a writer killed mid-save; only the live part is regenerated.
"""

from __future__ import annotations

import io
import json
import logging
import os
import random
import signal
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tracker.cli.check import check_file
from tracker.cli.main import main
from tracker.engine.records.record import dump
from tracker.families.registry import family_named, systems
from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text, keep_setup, load_session, session_from_text
from tracker.store.setup_text import headers, split_setup

RICH = (Path(__file__).parent / "data" / "rich_setup.toml").read_text(encoding="utf-8")

#: Commands for the rich file, undo and redo among them (all accepted in this order).
COMMANDS = [
    "start",
    "next",
    "damage thug 2",
    "add Sofia burning 1",
    "undo",
    "undo",
    "redo",
    "next",
    "add thug dazed",
    "next",
    "undo",
    "next",
]


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def write_bytes(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8"))


def in_memory(text: str, lines: list[str], seed: int | None = None) -> Session:
    """The fight the commands make, never saved: what a reload must show."""
    session = Session(files.parse_text(text, "<memory>"), seed=seed)
    for line in lines:
        session.execute(line)
    return session


def assert_same_fight(a: Session, b: Session) -> None:
    assert dump(a.state) == dump(b.state)
    assert dump(a.history) == dump(b.history)


def assert_kept(path: Path, setup: str) -> str:
    """The file starts with the GM's setup bytes, parses, and uses the setup's line endings throughout."""
    raw = path.read_bytes()
    assert raw.startswith(setup.encode("utf-8"))
    text = raw.decode("utf-8")
    tomllib.loads(text)
    if "\r\n" in setup:
        assert text.count("\n") == text.count("\r\n"), "a bare LF in a CRLF file"
    else:
        assert "\r" not in text
    return text


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    """`tracker …` in-process with `stdin`; returns (exit code, stdout, stderr)."""

    def run(*args: str | Path, stdin: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main([str(a) for a in args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


# --- finding the live part ---------------------------------------------------------------------


def test_only_real_table_headers_count() -> None:
    """Look-alikes in comments, strings (multi-line ones too) and arrays are not headers."""
    assert [h.key for h in headers(RICH)] == ["demo", "encounter", "settings", "combatants", "combatants"]
    text = (
        'x = [\n  ["state"],\n  [ "history" ],\n[["state"]],\n]\n'
        "# [state]\n"
        "s = '''\n[history]\n'''\n"
        'b = """\\"""\n[state]\n"""\n'
        "[a]\n"
        '[ "state" . "decks" ]\n'
        "[[history.done]]\n"
        "[ 'history' ]\n"
    )
    assert tomllib.loads(text)["x"][2] == [["state"]]
    found = headers(text)
    assert [(h.key, h.line) for h in found] == [("a", 13), ("state", 14), ("history", 15), ("history", 16)]
    assert text[found[1].start :].startswith('[ "state"')


def test_the_kept_part_is_everything_above_the_first_live_table() -> None:
    saved = RICH + "\n[state]\nround = 1\n\n[[history.done]]\nx = 1\n"
    split = split_setup(saved)
    assert split.setup == RICH + "\n" and split.moved == () and split.problem is None


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ('[encounter]\nname = "x"', '[encounter]\nname = "x"\n\n'),  # no trailing newline
        ('[encounter]\nname = "x"\n# the end', '[encounter]\nname = "x"\n# the end\n\n'),  # a last comment
        ('[encounter]\nname = "x"\n', '[encounter]\nname = "x"\n\n'),  # no live part yet
        ('[encounter]\nname = "x"\n\n\n', '[encounter]\nname = "x"\n\n\n'),  # already a blank line
        ('[encounter]\r\nname = "x"\r\n', '[encounter]\r\nname = "x"\r\n\r\n'),  # CRLF
    ],
)
def test_the_kept_part_ends_in_one_blank_line_before_the_live_part(text: str, kept: str) -> None:
    """A blank line separates the setup from the live part, added once: save after save the file is stable."""
    split = split_setup(text)
    assert split.setup == kept
    again = split_setup(kept + "[state]\nround = 1\n")
    assert again.setup == kept


# --- tracker exec --save and the session's durable save -----------------------------------------


@pytest.mark.parametrize("newline", ["lf", "crlf"])
def test_exec_save_keeps_the_setup_bytes_through_many_commands(cli: Any, tmp_path: Path, newline: str) -> None:
    """Each `tracker exec --save` run loads the saved file and saves it again: the setup never changes."""
    setup = RICH if newline == "lf" else crlf(RICH)
    path = tmp_path / "rich.toml"
    write_bytes(path, setup)
    for line in COMMANDS:
        code, _, err = cli("exec", path, "--save", stdin=line + "\n")
        assert code == 0, err
        assert_kept(path, setup)
    # Undo after the restart, then redo: still the GM's setup, and the fight the commands made.
    assert cli("exec", path, "--save", stdin="undo\nundo\nredo\n")[0] == 0
    text = assert_kept(path, setup)
    assert_same_fight(Session(files.parse_text(text, "x")), in_memory(RICH, [*COMMANDS, "undo", "undo", "redo"]))
    assert check_file(str(path)).lines() == []


@pytest.mark.parametrize("newline", ["lf", "crlf"])
def test_the_session_save_path_keeps_the_setup_bytes(tmp_path: Path, newline: str) -> None:
    """The app's save after each command (load, execute, `encounter_text`, atomic write), across restarts."""
    setup = RICH if newline == "lf" else crlf(RICH)
    path = tmp_path / "rich.toml"
    write_bytes(path, setup)
    done: list[str] = []
    for chunk in (COMMANDS[:4], COMMANDS[4:9], COMMANDS[9:], ["undo", "undo", "redo", "next"]):
        session = load_session(path)
        for line in chunk:
            session.execute(line)
            done.append(line)
            files.write_text(path, encounter_text(session))
            assert_kept(path, setup)
    final = path.read_bytes()
    assert_same_fight(load_session(path), in_memory(RICH, done))
    # Loading and saving with nothing new writes the very same bytes.
    files.write_text(path, encounter_text(load_session(path)))
    assert path.read_bytes() == final


@pytest.mark.parametrize(
    "text",
    [
        RICH.rstrip("\n"),  # ends in a comment with no newline
        RICH.rstrip("\n") + "\n\n\n\n",  # ends in blank lines
        RICH[: RICH.index("\n    # comments after")],  # ends in a setup key, no newline
    ],
    ids=["comment-no-newline", "blank-lines", "key-no-newline"],
)
def test_odd_endings_are_kept_and_stable(tmp_path: Path, text: str) -> None:
    path = tmp_path / "odd.toml"
    write_bytes(path, text)
    session = load_session(path)
    session.execute("start")
    files.write_text(path, encounter_text(session))
    first = assert_kept(path, text)
    session = load_session(path)
    session.execute("next")
    session.execute("undo")
    files.write_text(path, encounter_text(session))
    second = assert_kept(path, text)
    # The separator was added once; the second save differs only in its history's undone list.
    assert second[: second.index("[state]")] == first[: first.index("[state]")]


def test_a_session_without_file_text_is_serialised_from_its_models() -> None:
    """Tests and in-memory sessions have no GM text: the setup is written from the models, as before."""
    session = in_memory(RICH, ["start"])
    text = encounter_text(session)
    assert "#" not in text.split("[state]")[0]
    assert_same_fight(Session(files.parse_text(text, "x")), session)


# --- hand-edited files --------------------------------------------------------------------------


def test_a_setup_table_after_the_live_tables_is_kept_and_moves_above_them(tmp_path: Path) -> None:
    """A GM appends a demo step below the saved [history]: its bytes are kept, written above [state].
    (A combatant appended to a saved fight is an error instead: the fight never saw it; `join` adds one.)"""
    path = tmp_path / "late.toml"
    session = session_from_text(RICH, str(path))
    session.execute("start")
    late = '# A late step, with its comment.\n[[demo]]\ndo = "next"   # kept as written\nsay = "Belle arrives."\n'
    write_bytes(path, encounter_text(session) + "\n" + late)
    report = check_file(str(path))
    assert [p.message for p in report.warnings if "setup table" in p.message] == [
        "a setup table after the live [state] / [history]: saves keep it, above them"
    ]
    assert report.warnings[-1].line == len(encounter_text(session).splitlines()) + 3
    session = load_session(path)
    assert session.setup.demo[-1].say == "Belle arrives."
    session.execute("next")
    files.write_text(path, encounter_text(session))
    text = assert_kept(path, RICH)
    assert text.index(late) < text.rindex("\n[state]\n")
    assert text.startswith(RICH + late)  # RICH ends in a blank line already
    assert check_file(str(path)).lines() == []


def test_live_data_outside_its_tables_falls_back_to_writing_the_setup(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`history.…` written as plain keys above the setup cannot be cut out: the save writes the setup
    from the models (comments lost, data kept), and both the log and `tracker check` say so."""
    session = in_memory(RICH, ["start", "next"])
    saved = encounter_text(session)
    live = saved[saved.index("\n[state]\n") : saved.index("\n[history]\n")]
    history = dump(session.history, exclude_none=True)
    dotted = "".join(f"history.{key} = {json.dumps(value)}\n" for key, value in history.items())
    path = tmp_path / "mixed.toml"
    write_bytes(path, dotted + RICH + "\n" + live)
    assert any("saves will rewrite the setup" in p.message for p in check_file(str(path)).warnings)
    reloaded = load_session(path)
    assert_same_fight(reloaded, session)
    reloaded.execute("next")
    with caplog.at_level(logging.WARNING, logger="tracker.store.save"):
        files.write_text(path, encounter_text(reloaded))
    assert f"{path}:" in caplog.text and "the live state and history are not in their own" in caplog.text
    text = path.read_text(encoding="utf-8")
    assert "# A richly commented" not in text
    assert_same_fight(load_session(path), in_memory(RICH, ["start", "next", "next"]))


def test_keep_setup_on_a_session_built_by_hand() -> None:
    session = Session(files.parse_text(RICH, "x"))
    keep_setup(session, RICH)
    session.execute("start")
    assert encounter_text(session).startswith(RICH + "[state]\n")


# --- tracker new, the built-in demo ------------------------------------------------------------


@pytest.mark.parametrize("system", systems())
def test_a_tracker_new_starter_keeps_its_comments_through_commands(cli: Any, tmp_path: Path, system: str) -> None:
    path = tmp_path / "new.toml"
    assert cli("new", path, "--system", system)[0] == 0
    starter = family_named(system).starter()
    assert "#" in starter
    demo = [step["do"] for step in tomllib.loads(starter)["demo"]]
    for n, line in enumerate([*demo, "undo", "redo"]):
        seed = ["--seed", "1"] if n == 0 else []  # the starter names none: its fight would be the GM's secret
        code, _, err = cli("exec", path, "--save", *seed, stdin=line + "\n")
        assert code == 0, err
        assert_kept(path, starter)
    assert_same_fight(load_session(path), in_memory(starter, [*demo, "undo", "redo"], seed=1))


def test_the_demo_copy_keeps_the_demo_file_text(tmp_path: Path) -> None:
    """`tracker demo` plays on a copy whose setup is the demo file's text, comments included."""
    from tracker.cli.common import builtin_demo_text
    from tracker.ui.demo import DemoApp

    text = builtin_demo_text()
    copy = tmp_path / "demo.toml"
    app = DemoApp(copy, files.parse_text(text, "demo"), delay=0, seed=1, theme=None, loop=False, text=text)
    assert_kept(copy, text)
    assert app.submit(tomllib.loads(text)["demo"][0]["do"]) is None
    assert_kept(copy, text)


# --- a writer killed mid-save ------------------------------------------------------------------

#: Commands the killed writer saves one by one (no prompt ever waits in the rich file).
CRASH_COMMANDS = ["start", *(["next", "add thug dazed", "next", "undo", "redo"] * 12)]


def _saving_child(path: Path, ready: int) -> None:
    """In the forked writer: the app's save after every command, until killed (or done)."""
    session = load_session(path)
    for n, line in enumerate(CRASH_COMMANDS):
        session.execute(line)
        files.write_text(path, encounter_text(session))
        if n == 0:
            os.write(ready, b"x")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_writer_killed_mid_save_leaves_the_old_or_the_new_file(tmp_path: Path) -> None:
    """SIGKILL a writer saving in a loop at random moments, 20 times: the file is always one of the
    saves whole (never half of one), parses, and starts with the GM's setup bytes (docs/guide/shared-box.md,
    docs/reference/file-format.md)."""
    setup = crlf(RICH)
    expected = {setup.encode("utf-8")}
    session = session_from_text(setup, "x")
    for line in CRASH_COMMANDS:
        session.execute(line)
        expected.add(encounter_text(session).encode("utf-8"))
    rng = random.Random(11)
    seen: set[bytes] = set()
    for _ in range(20):
        path = tmp_path / "crash.toml"
        write_bytes(path, setup)
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns into pytest
            code = 0
            try:
                os.close(read_end)
                _saving_child(path, write_end)
            except BaseException:
                code = 1
            os._exit(code)
        os.close(write_end)
        assert os.read(read_end, 1) == b"x"
        os.close(read_end)
        time.sleep(rng.uniform(0, 0.06))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raw = path.read_bytes()
        assert raw in expected
        seen.add(raw)
        assert_kept(path, setup)
        files.remove_stale_temp_files(path)
        load_session(path).execute("next")  # the restart continues from it
    assert len(seen) > 1, "every kill landed on the same save: the test did not exercise the writer"
