"""The commands that open a screen (``run``, ``view``, ``serve``, ``demo`` and ``tracker`` alone), and the
headless demo: wiring only, each importing its screen when it runs, so ``tracker exec`` and ``tracker
check`` never load textual (`tracker.cli.main` parses the line and calls these).
"""

from __future__ import annotations

import contextlib
import gc
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from tracker.engine.errors import Refusal

#: Files shipped inside the package: the built-in demo.
DATA = Path(__file__).resolve().parent.parent / "data"


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
