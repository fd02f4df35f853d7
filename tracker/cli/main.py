"""The command line (CONTRACT.md §1): argument parsing and wiring only; no rules, no widgets.

Every failure reaches the user as one line on stderr with a non-zero exit, never a traceback.
`tracker exec` and `tracker check` must not import textual (a test checks it).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NoReturn

from tracker.engine.errors import Refusal
from tracker.engine.records.record import copied

#: Files shipped inside the package: the built-in demo and the starter encounter.
DATA = Path(__file__).resolve().parent.parent / "data"


class _Parser(argparse.ArgumentParser):
    #: Where the one-line error sends the user for help.
    see = "tracker --help"

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"tracker: {message} (see '{self.see}')\n")


#: The commands, as the first word of the command line names them.
COMMANDS = ("exec", "odds", "check", "new", "carry", "demo", "run", "view", "report", "serve")


class _Unbuilt:
    """Stands in for the parser of a command that is not the one run (`build_parser`): its arguments are not made."""

    def add_argument(self, *args: object, **kwargs: object) -> None:
        pass


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only`, the parser of that command alone, which reads its arguments
    the same way: each command's parser costs ≈ 2 M instructions to make (argparse asks gettext for every
    heading), and a start builds the one it runs, not all ten. ``tracker --help`` lists them all."""
    parser = _Parser(prog="tracker", description="A combat tracker for Through the Breach 2E and the 2d20 System.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    def command(name: str, help: str, description: str | None = None) -> argparse.ArgumentParser | _Unbuilt:
        return sub.add_parser(name, help=help, description=description) if only in (None, name) else _Unbuilt()

    p = command("exec", help="apply GM commands from stdin, headless")
    p.add_argument("file")
    p.add_argument("--seed", type=int)
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
    p = command("new", help="write a commented starter encounter")
    p.add_argument("file")
    p.add_argument("--system", choices=["ttb", "2d20"], required=True)
    p.add_argument("--party", help="the campaign's party file (its characters join the encounter)")
    p.add_argument("--bestiary", action="append", default=[], help="a file of stat blocks (repeatable)")
    p.add_argument("--add", action="append", default=[], metavar="'BLOCK xN'", help="N of a stat block (repeatable)")
    p = command("carry", help="write the party's lasting state back into its party file")
    p.add_argument("encounter")
    p = command("demo", help="play an encounter's [[demo]] script")
    p.add_argument("file", nargs="?")
    p.add_argument("--delay", type=float, help="seconds between steps (screen 2.5, --text 0)")
    p.add_argument("--seed", type=int)
    p.add_argument("--text", action="store_true", help="print the steps instead of showing the screen")
    p.add_argument("--once", action="store_true", help="play the script once instead of looping")
    p.add_argument("--theme")
    for name, text in (("run", "GM view"), ("view", "read-only live view")):
        p = command(name, help=text)
        p.add_argument("file")
        p.add_argument("--theme", help="theme name (t cycles them in the app)")
        if name == "view":
            p.add_argument("--player", action="store_true")
    p = command("report", help="the story of the fight, as Markdown or HTML")
    p.add_argument("file")
    p.add_argument("--html", action="store_true", help="an HTML page instead of Markdown")
    p.add_argument("--player", action="store_true", help="the players' version: nothing GM-only")
    p.add_argument("-o", "--output", metavar="OUT", help="write to OUT (atomically) instead of standard output")
    p = command("serve", help="the views in a browser (textual-serve)")
    p.add_argument("file")
    p.add_argument("--port", type=port_number, default=8000, help="0 picks a free port (default 8000)")
    p.add_argument("--player", action="store_true", help="the player view")
    p.add_argument("--write", action="store_true", help="the GM's writing view instead of a read-only one")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--verbose", action="store_true", help="log every request on the console")
    return parser


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
    # The parser and the modules every command needs (the rules' records and the file reader), with the
    # collector paused: nothing they make is garbage, and its passes would walk it all (7 M instructions).
    with collector_paused():
        words = sys.argv[1:] if argv is None else list(argv)
        parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
        parser.add_argument("--theme", help="theme for the built-in demo")
        args = parser.parse_args(words)
        from tracker.store.files import FileInvalid
        from tracker.store.validated import remember_validations
    if args.command == "serve" and args.write and args.player:
        parser.error("serve: --write and --player do not combine (the player view is read-only)")
    remember_validations()
    try:
        if args.command == "exec":
            return cmd_exec(args.file, args.seed, args.json, args.save)
        if args.command == "check":
            return cmd_check(args.file)
        if args.command == "odds":
            return cmd_odds(args.file, args.options)
        if args.command == "new":
            return cmd_new(args.file, args.system, args.party, args.bestiary, args.add)
        if args.command == "carry":
            return cmd_carry(args.encounter)
        if args.command == "report":
            return cmd_report(args.file, args.html, args.player, args.output)
        if args.command is None:
            return cmd_builtin(args.theme)
        if args.command == "run":
            return cmd_run(args.file, args.theme)
        if args.command == "view":
            return cmd_view(args.file, args.theme, args.player)
        if args.command == "demo":
            if args.text:
                return cmd_demo(args.file, args.delay or 0.0, args.seed)
            delay = 2.5 if args.delay is None else args.delay
            return cmd_demo_screen(args.file, delay, args.seed, args.theme, not args.once)
        if args.command == "serve":
            return cmd_serve(args.file, args.port, args.player, args.write, args.host, args.verbose)
        return 2
    except FileInvalid as exc:
        # One line (CONTRACT.md §1): the first problem, and where to see them all.
        lines = exc.lines()
        more = f" (and {len(lines) - 1} more: tracker check {exc.path})" if len(lines) > 1 else ""
        return failed(args.command, [lines[0] + more if lines else f"tracker: {exc.path} is invalid"], 1)
    except Refusal as exc:
        return failed(args.command, [f"tracker: {exc}"], 2)
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        line = f"tracker: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": ")
        return failed(args.command, [line], 1)
    except Exception as exc:  # the last resort: a bug must still be one line (CONTRACT.md §1), not a traceback
        said = " ".join(str(exc).split())[:300]
        print(f"tracker: internal error: {type(exc).__name__}: {said} (please report it)", file=sys.stderr)
        return 1


def failed(command: str | None, lines: list[str], status: int) -> int:
    """Report a failure: one line per problem on stderr and, for a screen a browser tab started
    (`tracker serve`), on that tab too, where the table is looking."""
    for line in lines:
        print(line, file=sys.stderr)
    if command in ("run", "view"):
        from tracker.web import served

        if served():
            from tracker.ui.problem import ProblemApp

            ProblemApp(lines).run()
    return status


def cmd_exec(path: str, seed: int | None, as_json: bool, save: bool) -> int:
    from tracker.store.opening import load_session

    session = load_session(path, seed=seed)
    for number, raw in enumerate(_stdin_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            session.execute(line)
        except Refusal as exc:
            print(f"line {number}: {exc}", file=sys.stderr)
            return 2
    if save:
        from tracker.store import files
        from tracker.store.lock import FileHeld, WriterLock
        from tracker.store.save import encounter_text, remember_live

        try:
            with WriterLock(Path(path)):
                files.write_text(Path(path), encounter_text(session))
            remember_live(session)  # the next exec on the saved file need not validate it again
        except FileHeld as exc:
            print(f"tracker: not saved: {exc}", file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"tracker: not saved: {exc.strerror or exc}", file=sys.stderr)
            return 1
    if as_json:
        import json

        from tracker.families.snapshot import state_json

        print(json.dumps(state_json(session), indent=2, ensure_ascii=False))
    else:
        print(summary(session))
    return 0


def _whole(text: str) -> int:
    """A whole number of 0 or more for an odds option (argparse turns the error into one line)."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number (0 or more)")
    return int(text)


def cmd_odds(path: str, options: list[str]) -> int:
    """`tracker odds FILE …`: the odds the family's panel shows, for the file's live state, as text or JSON.

    The options are the family's (`RuleFamily.odds_options`): the parser is built once the file says
    which system it plays, so ``tracker odds FILE --help`` lists that system's.
    """
    import shutil

    from tracker.families.session import Session
    from tracker.present.view import odds_block
    from tracker.store import files

    session = Session(files.load(path))
    family = session.family
    parser = _Parser(prog=f"tracker odds {path}", description=f"Exact odds for this {family.title} encounter.")
    parser.see = f"tracker odds {path} --help"
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    for option in family.odds_options:
        kind = _whole if option.kind == "int" else str
        parser.add_argument(option.flag, type=kind, metavar=option.metavar, help=option.help)
    args = vars(parser.parse_args(options))
    as_json = bool(args.pop("json"))
    report = session.engine.odds_report({k: v for k, v in args.items() if v is not None})
    if as_json:
        import json

        print(json.dumps(report.data, indent=2, ensure_ascii=False))
        return 0
    width = shutil.get_terminal_size((100, 24)).columns
    print("".join(span.text for span in odds_block(report.view, width)), end="")
    return 0


def _stdin_text() -> str:
    """All of stdin as text, whatever the locale: bytes that are not UTF-8 become lone surrogates, which
    the command parser refuses by line number (a strict decode would fail before any line is read)."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return sys.stdin.read()
    data: bytes = buffer.read()
    return data.decode("utf-8", "surrogateescape")


def summary(session: object) -> str:
    """A few lines of plain text: the round, whose turn, everyone's state, the prompt (the family words them)."""
    from tracker.families.session import Session

    assert isinstance(session, Session)
    return "\n".join(session.engine.summary())


def cmd_check(paths: list[str]) -> int:
    """Exit 0 when every file is valid; otherwise 1. One line per problem, warnings included (a file
    with warnings only is still valid)."""
    from tracker.cli.check import check_file

    status = 0
    for path in paths:
        report = check_file(path)
        for line in report.lines():
            print(line, file=sys.stderr)
        if report.errors:
            status = 1
        else:
            print(f"{path}: ok")
    return status


def cmd_report(path: str, as_html: bool, player: bool, output: str | None) -> int:
    """The story of the fight in FILE: its history replayed from its setup (headless: no textual)."""
    from tracker.report.html import html
    from tracker.report.markdown import markdown
    from tracker.report.telling import Teller
    from tracker.store import files

    story = Teller.of_file(files.load(path)).story(player=player)
    text = html(story) if as_html else markdown(story)
    if output is None:
        sys.stdout.write(text)
        return 0
    files.write_text(Path(output), text)
    print(f"wrote {output}")
    return 0


def cmd_new(
    path: str, system: str, party: str | None = None, bestiary: Sequence[str] = (), add: Sequence[str] = ()
) -> int:
    """A starter encounter; with a party, bestiaries or stat blocks, one ready to play that names them
    (README "Campaigns"). Nothing is written when the result would not be valid."""
    target = Path(path)
    if target.exists():
        print(f"tracker: {path} already exists; not overwriting it", file=sys.stderr)
        return 1
    from tracker.store.files import write_text

    if party is None and not bestiary and not add:
        text = (DATA / f"starter_{system}.toml").read_text(encoding="utf-8")
    else:
        from tracker.store.campaign.new import campaign_encounter

        text = campaign_encounter(target, system, party, list(bestiary), list(add))
    write_text(target, text)
    print(f"wrote {path}: edit it, then 'tracker check {path}'")
    return 0


def cmd_carry(path: str) -> int:
    """`tracker carry ENCOUNTER`: the party's lasting state back into the party file (CONTRACT.md §1)."""
    from tracker.store.campaign.carry import carry

    report = carry(path)
    for line in report.lines:
        print(line)
    print(f"wrote {report.party}" if report.written else f"{report.party} already says so: nothing written")
    return 0


def cmd_run(path: str, theme: str | None) -> int:
    """The GM's screen on an encounter file: the only process that writes it (CONTRACT.md §5)."""
    with collector_paused():
        return _run(path, theme)


def _run(path: str, theme: str | None) -> int:
    from tracker.store.lock import FileHeld, WriterLock
    from tracker.store.opening import load_session

    session = load_session(path)
    lock = WriterLock(Path(path))
    try:
        lock.acquire()
    except FileHeld as exc:
        from tracker.web import served

        if served():
            # A second browser tab on a `--write` server: say so there, and offer to follow.
            return cmd_view(path, theme, player=False, held=str(exc))
        print(f"tracker: {exc}", file=sys.stderr)
        if sys.stdin.isatty():
            answer = input("Open the read-only view instead? [Y/n] ").strip().casefold()
            if answer in ("", "y", "yes"):
                return cmd_view(path, theme, player=False)
        else:
            print(f"tracker: to follow it read-only: tracker view {path}", file=sys.stderr)
        return 1
    try:
        from tracker.ui.app import TrackerApp

        app = TrackerApp(session, Path(path), theme=theme)
        app.run()
        if app.revision:  # something was saved: reopening the file mid-fight need not validate it again
            from tracker.store.save import remember_live

            remember_live(app.session)
    finally:
        lock.release()
    return 0


def cmd_view(path: str, theme: str | None, player: bool, held: str | None = None) -> int:
    """A read-only view that follows the file live; it waits for a file that does not exist yet.

    `held`: why the GM view could not open (the file is being run elsewhere); the view first says
    so and asks whether to follow read-only, as `tracker run` asks in a terminal."""
    from tracker.store.validated import remember_validations

    remember_validations(write=False)  # every change it follows is a document no one opens again
    with collector_paused():
        from tracker.ui.app import TrackerApp

        TrackerApp.viewer(Path(path), theme=theme, player=player, held=held).run()
    return 0


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection while a screen loads its modules and its file: nothing made then is garbage
    for long, and each collection would walk it all again. The app turns the collector back on once its
    first frame is out (`TrackerApp.run_async`); it is on again here in any case."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def cmd_builtin(theme: str | None) -> int:
    """`tracker` alone: the built-in demo encounter in the GM view, on a temporary copy."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="tracker-demo-"))
    copy = folder / "demo.toml"
    copy.write_text(builtin_demo_text(), encoding="utf-8")
    return cmd_run(str(copy), theme)


def cmd_serve(path: str, port: int, player: bool, write: bool, host: str, verbose: bool) -> int:
    """The views in a browser through textual-serve, on loopback unless told otherwise.

    Everything that can be checked is checked before the one "serving" line: the file (a `--write`
    server needs a valid file nobody else is running; a read-only one may wait for a missing file),
    then the address. Problems that appear later (the file broken or taken while serving) show in
    the browser tab that meets them (`tracker.web.served`).
    """
    import shlex

    from tracker.store import files
    from tracker.web.server import ServeError, TableServer, is_loopback, listening_socket, public_url

    target = Path(path)
    waiting = not write and not target.exists()
    if not waiting:
        files.load(target)
    if write:
        from tracker.store.lock import FileHeld, WriterLock

        try:
            with WriterLock(target):
                pass
        except FileHeld as exc:
            print(f"tracker: {exc}; to follow it read-only: tracker serve {shlex.quote(path)}", file=sys.stderr)
            return 1
    try:
        sock = listening_socket(host, port)
    except ServeError as exc:
        print(f"tracker: {exc}", file=sys.stderr)
        return 1
    url = public_url(host, sock)
    if not is_loopback(host):
        print(
            f"tracker: warning: textual-serve has no authentication: anyone who can reach {url} can "
            f"{'drive' if write else 'watch'} the encounter",
            file=sys.stderr,
        )
    mode = "run" if write else "view"
    # exec: the process the server supervises (asks to quit, kills) is the tracker, not a shell.
    command = f"exec {shlex.quote(sys.executable)} -m tracker {mode} {shlex.quote(str(target.resolve()))}"
    if player:
        command += " --player"
    what = "the player view" if player else "the GM view (it writes the file)" if write else "the read-only GM view"
    note = f"; waiting for {path} to appear" if waiting else ""
    print(f"serving {what} of {path} on {url}{note} (Ctrl+C stops)", flush=True)
    TableServer(command, sock, url=url, title=f"tracker: {target.name}", verbose=verbose).serve()
    return 0


def cmd_demo_screen(path: str | None, delay: float, seed: int | None, theme: str | None, loop: bool) -> int:
    """`tracker demo`: the GM screen playing the [[demo]] steps unattended, on a temporary copy."""
    import tempfile

    from tracker.store import files

    text = builtin_demo_text() if path is None else files.read_text(path)
    setup = files.parse_text(text, path or "<built-in demo>")
    if not setup.demo:
        print(f"tracker: {path} has no [[demo]] steps", file=sys.stderr)
        return 1
    folder = Path(tempfile.mkdtemp(prefix="tracker-demo-"))
    copy = folder / (Path(path).name if path else "demo.toml")
    from tracker.ui.demo import DemoApp

    DemoApp(copy, setup, delay=delay, seed=seed, theme=theme, loop=loop, text=text).run()
    return 0


def builtin_demo_text() -> str:
    return (DATA / "demo.toml").read_text(encoding="utf-8")


def cmd_demo(path: str | None, delay: float, seed: int | None) -> int:
    """Play the [[demo]] steps headlessly, printing captions and what the engine did."""
    from tracker.families.session import Session
    from tracker.store import files

    setup = files.parse_text(builtin_demo_text(), "<built-in demo>") if path is None else files.load(path)
    if not setup.demo:
        print(f"tracker: {path} has no [[demo]] steps", file=sys.stderr)
        return 1
    session = Session(copied(setup, state=None, history=None), seed=seed)
    print(f"== {setup.encounter.name} ==")
    for n, demo_step in enumerate(setup.demo, 1):
        if demo_step.say:
            print(f"\n» {demo_step.say}")
        print(f"  > {demo_step.do}")
        before = session.state.logged
        try:
            session.execute(demo_step.do)
        except Refusal as exc:
            print(f"tracker: demo step {n} ('{demo_step.do}') refused: {exc}", file=sys.stderr)
            return 2
        # Count by `logged`: the kept log is capped, so its length stops growing in a long demo.
        new = session.state.logged - before
        for entry in session.state.log[-new:] if new else []:
            print("    " + entry.text)
        if delay:
            time.sleep(delay)
    return 0
