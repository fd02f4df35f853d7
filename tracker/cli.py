"""The command line (CONTRACT.md §1): argument parsing and wiring only; no rules, no widgets.

Every failure reaches the user as one line on stderr with a non-zero exit, never a traceback.
`tracker exec` and `tracker check` must not import textual (a test checks it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from tracker.rules.errors import Refusal
from tracker.store.files import FileInvalid

#: Files shipped inside the package: the built-in demo and the starter encounter.
DATA = Path(__file__).parent / "data"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"tracker: {message} (see 'tracker --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tracker", description="A combat tracker for Through the Breach 2E and the 2d20 System.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    p = sub.add_parser("exec", help="apply GM commands from stdin, headless")
    p.add_argument("file")
    p.add_argument("--seed", type=int)
    p.add_argument("--json", action="store_true", help="print the state as JSON")
    p.add_argument("--save", action="store_true", help="write the file back atomically")
    p = sub.add_parser("check", help="validate encounter files")
    p.add_argument("file", nargs="+")
    p = sub.add_parser("new", help="write a commented starter encounter")
    p.add_argument("file")
    p.add_argument("--system", choices=["ttb", "2d20"], required=True)
    p = sub.add_parser("demo", help="play an encounter's [[demo]] script")
    p.add_argument("file", nargs="?")
    p.add_argument("--delay", type=float, help="seconds between steps (screen 2.5, --text 0)")
    p.add_argument("--seed", type=int)
    p.add_argument("--text", action="store_true", help="print the steps instead of showing the screen")
    p.add_argument("--once", action="store_true", help="play the script once instead of looping")
    p.add_argument("--theme")
    for name, text in (("run", "GM view"), ("view", "read-only live view")):
        p = sub.add_parser(name, help=text)
        p.add_argument("file")
        p.add_argument("--theme", help="theme name (t cycles them in the app)")
        if name == "view":
            p.add_argument("--player", action="store_true")
    p = sub.add_parser("serve", help="the views in a browser (textual-serve)")
    p.add_argument("file")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--player", action="store_true", help="the player view")
    p.add_argument("--write", action="store_true", help="the GM's writing view instead of a read-only one")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    parser.add_argument("--theme", help="theme for the built-in demo")
    args = parser.parse_args(argv)
    try:
        if args.command == "exec":
            return cmd_exec(args.file, args.seed, args.json, args.save)
        if args.command == "check":
            return cmd_check(args.file)
        if args.command == "new":
            return cmd_new(args.file, args.system)
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
            return cmd_serve(args.file, args.port, args.player, args.write, args.host)
        return 2
    except FileInvalid as exc:
        # One line (CONTRACT.md §1): the first problem, and where to see them all.
        lines = exc.lines()
        more = f" (and {len(lines) - 1} more: tracker check {exc.path})" if len(lines) > 1 else ""
        print(lines[0] + more if lines else f"tracker: {exc.path} is invalid", file=sys.stderr)
        return 1
    except Refusal as exc:
        print(f"tracker: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        print(f"tracker: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": "), file=sys.stderr)
        return 1
    except Exception as exc:  # the last resort: a bug must still be one line (CONTRACT.md §1), not a traceback
        said = " ".join(str(exc).split())[:300]
        print(f"tracker: internal error: {type(exc).__name__}: {said} (please report it)", file=sys.stderr)
        return 1


def cmd_exec(path: str, seed: int | None, as_json: bool, save: bool) -> int:
    from tracker.rules.session import Session
    from tracker.rules.snapshot import state_json
    from tracker.store import files
    from tracker.store.save import encounter_text

    session = Session(files.load(path), seed=seed)
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
        from tracker.store.lock import FileHeld, WriterLock

        try:
            with WriterLock(Path(path)):
                files.write_text(Path(path), encounter_text(session))
        except FileHeld as exc:
            print(f"tracker: not saved: {exc}", file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"tracker: not saved: {exc.strerror or exc}", file=sys.stderr)
            return 1
    if as_json:
        print(json.dumps(state_json(session), indent=2, ensure_ascii=False))
    else:
        print(summary(session))
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
    from tracker.rules.session import Session

    assert isinstance(session, Session)
    return "\n".join(session.engine.summary())


def cmd_check(paths: list[str]) -> int:
    """Exit 0 when every file is valid; otherwise 1. One line per problem, warnings included (a file
    with warnings only is still valid)."""
    from tracker.store.check import check_file

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


def cmd_new(path: str, system: str) -> int:
    target = Path(path)
    if target.exists():
        print(f"tracker: {path} already exists; not overwriting it", file=sys.stderr)
        return 1
    text = (DATA / f"starter_{system}.toml").read_text(encoding="utf-8")
    from tracker.store.files import write_text

    write_text(target, text)
    print(f"wrote {path}: edit it, then 'tracker check {path}'")
    return 0


def cmd_run(path: str, theme: str | None) -> int:
    """The GM's screen on an encounter file: the only process that writes it (CONTRACT.md §5)."""
    from tracker.rules.session import Session
    from tracker.store import files
    from tracker.store.lock import FileHeld, WriterLock

    session = Session(files.load(path))
    lock = WriterLock(Path(path))
    try:
        lock.acquire()
    except FileHeld as exc:
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

        TrackerApp(session, Path(path), theme=theme).run()
    finally:
        lock.release()
    return 0


def cmd_view(path: str, theme: str | None, player: bool) -> int:
    """A read-only view that follows the file live; it waits for a file that does not exist yet."""
    from tracker.ui.app import TrackerApp

    TrackerApp.viewer(Path(path), theme=theme, player=player).run()
    return 0


def cmd_builtin(theme: str | None) -> int:
    """`tracker` alone: the built-in demo encounter in the GM view, on a temporary copy."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="tracker-demo-"))
    copy = folder / "demo.toml"
    copy.write_text(builtin_demo_text(), encoding="utf-8")
    return cmd_run(str(copy), theme)


def cmd_serve(path: str, port: int, player: bool, write: bool, host: str) -> int:
    """The views in a browser through textual-serve, on loopback unless told otherwise."""
    import shlex

    from textual_serve.server import Server

    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"tracker: warning: serving on {host}: textual-serve has no authentication; anyone who can reach "
            f"this address can {'drive' if write else 'watch'} the encounter",
            file=sys.stderr,
        )
    mode = "run" if write and not player else "view"
    command = f"{shlex.quote(sys.executable)} -m tracker {mode} {shlex.quote(str(Path(path).resolve()))}"
    if player:
        command += " --player"
    print(f"serving {'the player view' if player else 'the GM view'} of {path} on http://{host}:{port}")
    Server(command, host=host, port=port, title=f"tracker: {Path(path).name}").serve()
    return 0


def cmd_demo_screen(path: str | None, delay: float, seed: int | None, theme: str | None, loop: bool) -> int:
    """`tracker demo`: the GM screen playing the [[demo]] steps unattended, on a temporary copy."""
    import tempfile

    from tracker.store import files

    text = builtin_demo_text() if path is None else files.read_or_invalid(path)
    setup = files.parse_text(text, path or "<built-in demo>")
    if not setup.demo:
        print(f"tracker: {path} has no [[demo]] steps", file=sys.stderr)
        return 1
    folder = Path(tempfile.mkdtemp(prefix="tracker-demo-"))
    copy = folder / (Path(path).name if path else "demo.toml")
    copy.write_text(text, encoding="utf-8")
    from tracker.ui.demo import DemoApp

    DemoApp(copy, setup, delay=delay, seed=seed, theme=theme, loop=loop).run()
    return 0


def builtin_demo_text() -> str:
    return (DATA / "demo.toml").read_text(encoding="utf-8")


def cmd_demo(path: str | None, delay: float, seed: int | None) -> int:
    """Play the [[demo]] steps headlessly, printing captions and what the engine did."""
    from tracker.rules.session import Session
    from tracker.store import files

    setup = files.parse_text(builtin_demo_text(), "<built-in demo>") if path is None else files.load(path)
    if not setup.demo:
        print(f"tracker: {path} has no [[demo]] steps", file=sys.stderr)
        return 1
    session = Session(setup.model_copy(update={"state": None, "history": None}), seed=seed)
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
