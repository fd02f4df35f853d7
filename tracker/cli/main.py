"""The command line (docs/reference/cli.md): argument parsing and wiring only; no rules, no widgets.

Each command that is more than wiring has its module (`tracker.cli.run` for the screens, `tracker.cli.exec`,
`tracker.cli.check` …), imported only when its command runs. Every failure reaches the user as one line on
stderr with a non-zero exit, never a traceback. `tracker exec` and `tracker check` must not import textual
(a test checks it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence

from tracker.cli.common import Parser, collector_paused
from tracker.engine.errors import Refusal

#: The commands, as the first word of the command line names them.
COMMANDS = ("exec", "odds", "check", "new", "carry", "demo", "run", "view", "play", "report", "serve")


class _Unbuilt:
    """Stands in for the parser of a command that is not the one run (`build_parser`): its arguments are not made."""

    def add_argument(self, *args: object, **kwargs: object) -> None:
        pass


class Systems:
    """The ``--system`` choices: every family the registry knows (`tracker.families.registry.systems`), asked
    only when ``tracker new`` is parsed, so no other command imports the registry for its parser."""

    def __contains__(self, name: object) -> bool:
        return name in self.names()

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    @staticmethod
    def names() -> list[str]:
        from tracker.families.registry import systems

        try:
            return systems()
        except Refusal as exc:  # a family registered through the environment that cannot be loaded: one line
            sys.exit(f"tracker: {exc}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only`, the parser of that command alone, which reads its arguments
    the same way: each command's parser costs ≈ 2 M instructions to make (argparse asks gettext for every
    heading), and a start builds the one it runs, not all ten. ``tracker --help`` lists them all."""
    parser = Parser(prog="tracker", description="A combat tracker for Through the Breach 2E and the 2d20 System.")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)

    def command(name: str, help: str, description: str | None = None) -> argparse.ArgumentParser | _Unbuilt:
        return sub.add_parser(name, help=help, description=description) if only in (None, name) else _Unbuilt()

    p = command("exec", help="apply GM commands from stdin, headless")
    p.add_argument("file")
    p.add_argument("--seed", type=int, help="draw from this seed (demos and tests; else the file's, else its secret)")
    p.add_argument("--json", action="store_true", help="print the state as JSON")
    p.add_argument("--save", action="store_true", help="write the file back atomically")
    p = command(
        "odds",
        help="exact odds: the next Fate Deck flip and a duel, or a 2d20 test (tracker odds FILE --help)",
        description="Exact odds from the encounter's live state. The options depend on the file's system: "
        "'tracker odds FILE --help' lists them.",
    )
    p.add_argument("file")
    p.add_argument("options", nargs=argparse.REMAINDER, help="the system's options, and --json")
    p = command("check", help="validate encounter files")
    p.add_argument("file", nargs="+")
    p.add_argument("--rate", action="store_true", help="and rate each valid encounter: the party's odds to win")
    p = command("new", help="write a commented starter encounter")
    p.add_argument("file")
    p.add_argument("--system", choices=Systems(), required=True)
    p.add_argument("--party", help="the campaign's party file (its characters join the encounter)")
    p.add_argument("--bestiary", action="append", default=[], help="a file of stat blocks (repeatable)")
    p.add_argument("--add", action="append", default=[], metavar="'BLOCK xN'", help="N of a stat block (repeatable)")
    p = command("carry", help="write the party's lasting state back into its party file")
    p.add_argument("encounter")
    p = command("demo", help="play an encounter's [[demo]] script")
    p.add_argument("file", nargs="?")
    p.add_argument("--delay", type=float, help="seconds between steps (screen 2.5, --text 0)")
    p.add_argument("--seed", type=int, help="deal from this seed (else the file's seed, else its demo_seed)")
    p.add_argument("--text", action="store_true", help="print the steps instead of showing the screen")
    p.add_argument("--once", action="store_true", help="play the script once instead of looping")
    p.add_argument("--theme")
    for name, text in (("run", "GM view"), ("view", "read-only live view")):
        p = command(name, help=text)
        p.add_argument("file")
        p.add_argument("--theme", help="theme name (t cycles them in the app)")
        if name == "view":
            p.add_argument("--player", action="store_true")
    p = command("play", help="a player's own screen, from the player's own account, while the GM runs the file")
    p.add_argument("file")
    p.add_argument("--as", dest="as_name", metavar="NAME", help="which of your seated characters to play")
    p.add_argument("--theme", help="theme name (t cycles them in the app)")
    p = command("report", help="the story of the fight, as Markdown or HTML")
    p.add_argument("file")
    p.add_argument("--html", action="store_true", help="an HTML page instead of Markdown")
    p.add_argument("--player", action="store_true", help="the players' version: nothing GM-only")
    p.add_argument("-o", "--output", metavar="OUT", help="write to OUT (atomically) instead of standard output")
    p.add_argument("--odds", action="store_true", help="and the party's chance to win, round by round (the GM's)")
    p = command("serve", help="the views in a browser (textual-serve)")
    p.add_argument("file")
    p.add_argument("--port", type=port_number, default=8000, help="0 picks a free port (default 8000)")
    p.add_argument("--player", action="store_true", help="the player view")
    p.add_argument("--write", action="store_true", help="the GM's writing view instead of a read-only one")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--verbose", action="store_true", help="log every request on the console")
    p.add_argument(
        "--max-tabs", type=tab_count, default=8, metavar="N", help="browser tabs open at once, at most (default 8)"
    )
    p.add_argument(
        "--max-tabs-per-client",
        type=tab_count,
        default=4,
        metavar="N",
        help="of those, one account's (or address's) at most (default 4)",
    )
    return parser


def tab_count(text: str) -> int:
    """How many browser tabs a server may keep open: each is a tracker process on the GM's machine."""
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of tabs: give a whole number from 1 up")
    return count


def port_number(text: str) -> int:
    """A TCP port, checked before anything binds (0: the system picks a free one)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port: give a number from 0 to 65535 (0 picks a free one)")
    return port


def main(argv: Sequence[str] | None = None) -> int:
    # The parser and the modules every command needs (the records and the file reader), with the collector
    # paused: nothing they make is garbage, and its passes would walk it all.
    with collector_paused():
        words = sys.argv[1:] if argv is None else list(argv)
        parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
        parser.add_argument("--theme", help="theme for the built-in demo")
        args = parser.parse_args(words)
        from tracker.store.files import FileInvalid
        from tracker.store.owner import NotOwner
        from tracker.store.validated import remember_validations

    if args.command == "serve" and args.write and args.player:
        parser.error("serve: --write and --player do not combine (the player view is read-only)")
    remember_validations()
    try:
        return run_command(args)
    except FileInvalid as exc:
        # One line (docs/reference/cli.md): the first problem, and where to see them all.
        lines = exc.lines()
        more = f" (and {len(lines) - 1} more: tracker check {exc.path})" if len(lines) > 1 else ""
        return failed(args.command, [lines[0] + more if lines else f"tracker: {exc.path} is invalid"], 1)
    except Refusal as exc:
        return failed(args.command, [f"tracker: {exc}"], 2)
    except NotOwner as exc:
        return failed(args.command, [f"tracker: {exc}"], 1)
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        line = f"tracker: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": ")
        return failed(args.command, [line], 1)
    except Exception as exc:  # the last resort: a bug must still be one line (docs/reference/cli.md), not a traceback
        said = " ".join(str(exc).split())[:300]
        print(f"tracker: internal error: {type(exc).__name__}: {said} (please report it)", file=sys.stderr)
        return 1


def failed(command: str | None, lines: list[str], status: int) -> int:
    """Report a failure: one line per problem on stderr and, for a screen a browser tab started
    (`tracker serve`), on that tab too, where the table is looking."""
    for line in lines:
        print(line, file=sys.stderr)
    if command in ("run", "view", "play"):
        from tracker.web import served

        if served():
            from tracker.ui.problem import ProblemApp

            ProblemApp(lines).run()
    return status


def run_command(args: argparse.Namespace) -> int:
    """Run the command `args` names, its module imported only now (the headless ones never load textual)."""
    if args.command == "exec":
        from tracker.cli.exec import cmd_exec

        return cmd_exec(args.file, args.seed, args.json, args.save)
    if args.command == "check":
        from tracker.cli.check import cmd_check

        return cmd_check(args.file, rate=True) if args.rate else cmd_check(args.file)
    if args.command == "odds":
        from tracker.cli.odds import cmd_odds

        return cmd_odds(args.file, args.options)
    if args.command == "new":
        from tracker.cli.new import cmd_new

        return cmd_new(args.file, args.system, args.party, args.bestiary, args.add)
    if args.command == "carry":
        from tracker.cli.carry import cmd_carry

        return cmd_carry(args.encounter)
    if args.command == "report":
        from tracker.cli.report import cmd_report

        return cmd_report(args.file, args.html, args.player, args.output, args.odds)
    if args.command is None:
        from tracker.cli.run import cmd_builtin

        return cmd_builtin(args.theme)
    if args.command == "run":
        from tracker.cli.run import cmd_run

        return cmd_run(args.file, args.theme)
    if args.command == "view":
        from tracker.cli.run import cmd_view

        return cmd_view(args.file, args.theme, args.player)
    if args.command == "play":
        from tracker.cli.run import cmd_table

        return cmd_table(args.file, args.theme, "play", args.as_name)
    if args.command == "demo":
        if args.text:
            from tracker.cli.demo import cmd_demo

            return cmd_demo(args.file, args.delay or 0.0, args.seed)
        from tracker.cli.run import cmd_demo_screen

        delay = 2.5 if args.delay is None else args.delay
        return cmd_demo_screen(args.file, delay, args.seed, args.theme, not args.once)
    if args.command == "serve":
        from tracker.cli.serve import cmd_serve

        return cmd_serve(
            args.file,
            args.port,
            args.player,
            args.write,
            args.host,
            args.verbose,
            tabs=(args.max_tabs, args.max_tabs_per_client),
        )
    return 2
