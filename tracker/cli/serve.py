"""`tracker serve FILE`: the views in a browser through textual-serve, checked before anything is served."""

from __future__ import annotations

import sys
from pathlib import Path


def cmd_serve(
    path: str, port: int, player: bool, write: bool, host: str, verbose: bool, tabs: tuple[int, int] = (8, 4)
) -> int:
    """The views in a browser through textual-serve, on loopback unless told otherwise, and only for
    whoever has the URL it prints (its token: any local account can reach loopback).

    Everything that can be checked is checked before the one "serving" line: the file (a `--write`
    server needs a valid file nobody else is running; a read-only one may wait for a missing file),
    then the address. Problems that appear later (the file broken or taken while serving) show in
    the browser tab that meets them (`tracker.web.served`). `tabs`: how many browser tabs may be open
    at once, and how many of them one client's (`tracker.web.tabs`).
    """
    import shlex

    from tracker.store import files
    from tracker.web.server import ServeError, TableServer, is_loopback, listening_socket, public_url
    from tracker.web.tabs import TabLimits

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
            f"tracker: warning: {url} is plain HTTP: anyone on the network between can read the token in its "
            f"address and {'drive' if write else 'watch'} the encounter; for players elsewhere put it behind TLS "
            "(docs/guide/serve.md)",
            file=sys.stderr,
        )
    mode = "run" if write else "view"
    # exec: the process the server supervises (asks to quit, kills) is the tracker, not a shell.
    command = f"exec {shlex.quote(sys.executable)} -m tracker {mode} {shlex.quote(str(target.resolve()))}"
    if player:
        command += " --player"
    what = "the player view" if player else "the GM view (it writes the file)" if write else "the read-only GM view"
    note = f"; waiting for {path} to appear" if waiting else ""
    limits = TabLimits(per_server=tabs[0], per_client=tabs[1])
    server = TableServer(command, sock, url=url, title=f"tracker: {target.name}", verbose=verbose, limits=limits)
    # The one place the token is shown: whoever has this URL can open the page (and drive a --write one).
    print(f"serving {what} of {path} on {server.page_url}{note} (Ctrl+C stops)", flush=True)
    server.serve()
    return 0
