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
    p = sub.add_parser("check", help="validate an encounter file")
    p.add_argument("file")
    p = sub.add_parser("new", help="write a commented starter encounter")
    p.add_argument("file")
    p.add_argument("--system", choices=["ttb", "2d20"], required=True)
    p = sub.add_parser("demo", help="play an encounter's [[demo]] script")
    p.add_argument("file", nargs="?")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between steps")
    p.add_argument("--seed", type=int)
    for name, text in (("run", "GM view"), ("view", "read-only live view")):
        p = sub.add_parser(name, help=text)
        p.add_argument("file")
        p.add_argument("--theme", help="theme name (t cycles them in the app)")
        if name == "view":
            p.add_argument("--player", action="store_true")
    p = sub.add_parser("serve", help="the views in a browser")
    p.add_argument("file")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--player", action="store_true")
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
        if args.command == "demo":
            return cmd_demo(args.file, args.delay, args.seed)
        print(f"tracker: '{args.command}' (the Textual screens) is not built yet; "
              "use 'tracker exec', 'tracker check' or 'tracker demo'", file=sys.stderr)
        return 1
    except FileInvalid as exc:
        for line in exc.lines():
            print(line, file=sys.stderr)
        return 1
    except Refusal as exc:
        print(f"tracker: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        print(f"tracker: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": "), file=sys.stderr)
        return 1


def cmd_exec(path: str, seed: int | None, as_json: bool, save: bool) -> int:
    from tracker.rules.session import Session
    from tracker.rules.snapshot import state_json
    from tracker.store import files

    session = Session(files.load(path), seed=seed)
    for number, raw in enumerate(sys.stdin.read().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            session.execute(line)
        except Refusal as exc:
            print(f"line {number}: {exc}", file=sys.stderr)
            return 2
    if save:
        files.write_text(Path(path), session.to_toml())
    if as_json:
        print(json.dumps(state_json(session), indent=2, ensure_ascii=False))
    else:
        print(summary(session))
    return 0


def summary(session: object) -> str:
    """A few lines of plain text: the round, whose turn, everyone's state, the prompt."""
    from tracker.rules.session import Session
    from tracker.rules.snapshot import state_json

    assert isinstance(session, Session)
    data = state_json(session)
    lines = [f"round {data['round']}, " + (f"{data['active']}'s turn" if data["active"] else data["phase"])]
    if "pools" in data:
        lines[0] += ", " + ", ".join(f"{k} {v}" for k, v in data["pools"].items())
    for c in data["combatants"]:
        conds = ", ".join(k if v is True else f"{k} {v}" for k, v in c["conditions"].items())
        if data["system"] == "ttb":
            body = f"init {c['initiative']}, wounds {c['wounds']}/{c['wounds_max']}, AP {c['ap']}+{c['combat_ap']}"
        else:
            stress = ", ".join(f"{t} {v}/{c['stress_max'][t]}" for t, v in c["stress"].items())
            harms = ", ".join(f"{k} {v}" for k, v in c["harms"].items() if v)
            body = f"{c['zone'] or '-'}; {stress}" + (f"; {harms}" if harms else "")
        lines.append(f"  {c['name']} ({c['status']}): {body}" + (f" [{conds}]" if conds else ""))
    if data["prompt"]:
        lines.append(f"? {data['prompt']}")
    return "\n".join(lines)


def cmd_check(path: str) -> int:
    from tracker.store.check import check_file

    problems = check_file(path)
    if problems:
        for line in problems:
            print(line, file=sys.stderr)
        return 1
    print(f"{path}: ok")
    return 0


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
    """The GM's screen on an encounter file."""
    from tracker.rules.session import Session
    from tracker.store import files

    session = Session(files.load(path))
    from tracker.ui.app import TrackerApp

    TrackerApp(session, Path(path), theme=theme).run()
    return 0


def cmd_builtin(theme: str | None) -> int:
    """`tracker` alone: the built-in demo encounter in the GM view, on a temporary copy."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="tracker-demo-"))
    copy = folder / "demo.toml"
    copy.write_text(builtin_demo_text(), encoding="utf-8")
    return cmd_run(str(copy), theme)


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
        before = len(session.state.log)
        try:
            session.execute(demo_step.do)
        except Refusal as exc:
            print(f"tracker: demo step {n} ('{demo_step.do}') refused: {exc}", file=sys.stderr)
            return 2
        for entry in session.state.log[before:]:
            print("    " + entry.split("|", 2)[2])
        if delay:
            time.sleep(delay)
    return 0
