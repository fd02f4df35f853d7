"""The screens the command line starts: `tracker run` (the GM's), `tracker view` (read-only, live), `tracker`
alone (the built-in demo encounter) and `tracker demo` (the [[demo]] script played on the GM's screen)."""

from __future__ import annotations

import sys
from pathlib import Path

from tracker.cli.common import builtin_demo_text, collector_paused


def cmd_run(path: str, theme: str | None) -> int:
    """The GM's screen on an encounter file: the only process that writes it (docs/guide/shared-box.md)."""
    with collector_paused():
        return _run(the_file(path), theme)


def the_file(path: str) -> str:
    """`path`, or the file it links to: the lock, the table's socket and every save belong beside the
    encounter itself. Through a link, two names would take two locks on one file, and a save would put a new
    file in the link's place, leaving the fight split in two."""
    import os

    return os.path.realpath(path) if os.path.islink(path) else path


def _run(path: str, theme: str | None) -> int:
    from tracker.store.lock import FileHeld, WriterLock
    from tracker.store.opening import load_session
    from tracker.store.owner import refuse_unless_owner

    # Before reading: another account's file is unreadable to this one, and would be taken from its owner by a save.
    refuse_unless_owner(path, "runs it", f"to follow it as the players see it: tracker view {path} --player")
    read = _stamp(path)
    session = load_session(path)
    lock = WriterLock(Path(path))
    try:
        lock.acquire()
        if _stamp(path) != read:  # written between the read and the lock (a last save, an `exec --save`)
            session = load_session(path)
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
    from tracker.store.files import exposure_notice

    notice = exposure_notice(path)
    if notice is not None:  # before the screen takes the terminal; the first save tightens it
        print(f"tracker: {notice}", file=sys.stderr)
    try:
        from tracker.ui.app import TrackerApp

        app = TrackerApp(session, Path(path), theme=theme, table=True)
        app.run()
        if app.revision:  # something was saved: reopening the file mid-fight need not validate it again
            from tracker.store.save import remember_live

            remember_live(app.session)
    finally:
        lock.release()
    return 0


def _stamp(path: str) -> tuple[int, int, int] | None:
    """What tells one version of the file from another: a save makes a new file (inode), its time, its size."""
    import os

    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_ino, info.st_mtime_ns, info.st_size


def cmd_view(path: str, theme: str | None, player: bool, held: str | None = None) -> int:
    """A read-only view that follows the file live; it waits for a file that does not exist yet.

    `held`: why the GM view could not open (the file is being run elsewhere); the view first says
    so and asks whether to follow read-only, as `tracker run` asks in a terminal.

    The GM's view shows every secret, so another account than the file's owner is refused it before any
    screen starts (a file that does not exist yet has no owner: the view waits for it). Another account's
    player view never reads the file (the GM's, 0600): the GM's process sends it (`cmd_table`)."""
    path = the_file(path)
    if not player:
        from tracker.store.owner import refuse_unless_owner

        refuse_unless_owner(
            path, "sees all of it", f"another account follows it as the players see it: tracker view {path} --player"
        )
    else:
        from tracker.store.owner import owned_by_other

        if owned_by_other(path) is not None:
            return cmd_table(path, theme, "view", None)
    from tracker.store.validated import remember_validations

    remember_validations(write=False)  # every change it follows is a document no one opens again
    from tracker.ui.app import TrackerApp

    with collector_paused():
        TrackerApp.viewer(Path(path), theme=theme, player=player, held=held).run()
    return 0


def cmd_builtin(theme: str | None) -> int:
    """`tracker` alone: the built-in demo encounter in the GM view, on a temporary copy."""
    import tempfile

    from tracker.store import files

    folder = Path(tempfile.mkdtemp(prefix="tracker-demo-"))
    copy = folder / "demo.toml"
    files.write_text(copy, builtin_demo_text())  # 0600, as every save of it will be: no notice to give
    return cmd_run(str(copy), theme)


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

    seed = seed if seed is not None else setup.encounter.demo_seed
    DemoApp(copy, setup, delay=delay, seed=seed, theme=theme, loop=loop, text=text).run()
    return 0


def cmd_table(path: str, theme: str | None, mode: str, as_name: str | None) -> int:
    """Another account's screen on the fight (`tracker play`, or `tracker view --player`): fed by the GM's
    `tracker run` over the table's socket; it waits while no GM process runs."""
    from tracker.ui.remote import RemoteApp

    app = RemoteApp(Path(the_file(path)), mode=mode, as_name=as_name, theme=theme)
    with collector_paused():
        app.run()
    if app.refused is not None:
        print(f"tracker: {app.refused}", file=sys.stderr)
        return 1
    return 0
