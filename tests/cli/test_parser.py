"""The command line's parser for one command (start-up builds only the parser of the command it runs).

`tracker.cli.main.build_parser(only)` makes the parser of the command the command line names, not all ten: it must
read every command line of that command exactly as the whole parser does, errors and help included.
"""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest

from tracker.cli import main as cli

LINES = [
    ["run", "fight.toml"],
    ["run", "fight.toml", "--theme", "parchment-light"],
    ["view", "fight.toml", "--player"],
    ["exec", "fight.toml", "--seed", "3", "--json", "--save"],
    ["odds", "fight.toml", "--tn", "10", "--json"],
    ["check", "a.toml", "b.toml"],
    ["new", "x.toml", "--system", "2d20", "--bestiary", "b.toml", "--add", "Thug x2", "--add", "Boss"],
    ["carry", "fight.toml"],
    ["demo", "--text", "--delay", "0", "--seed", "4"],
    ["report", "fight.toml", "--html", "--player", "-o", "out.html"],
    ["serve", "fight.toml", "--port", "0", "--write", "--host", "0.0.0.0", "--verbose"],
    # Wrong ones: the same one-line error and exit status.
    ["run"],
    ["run", "a.toml", "b.toml"],
    ["exec", "fight.toml", "--seed", "many"],
    ["new", "x.toml", "--system", "dnd"],
    ["serve", "fight.toml", "--port", "70000"],
    ["run", "--help"],
]


def _parsed(parser: argparse.ArgumentParser, words: list[str]) -> tuple[object, str, str]:
    parser.add_argument("--theme", help="theme for the built-in demo")  # as `main` does
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            result: object = vars(parser.parse_args(words))
        except SystemExit as exc:
            result = ("exit", exc.code)
    return result, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("words", LINES, ids=" ".join)
def test_the_parser_of_one_command_reads_its_lines_as_the_whole_parser(words: list[str]) -> None:
    alone = _parsed(cli.build_parser(words[0]), words)
    whole = _parsed(cli.build_parser(), words)
    assert alone == whole
    assert alone[0] != {}  # parsed or refused, never nothing


def test_every_command_has_its_parser() -> None:
    """`COMMANDS` is what `main` builds a single parser for: exactly the commands of the whole parser."""
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert tuple(commands.choices) == cli.COMMANDS
    for name in cli.COMMANDS:
        alone = next(a for a in cli.build_parser(name)._actions if isinstance(a, argparse._SubParsersAction))
        assert list(alone.choices) == [name]
