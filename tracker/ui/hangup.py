"""Quitting when the terminal is gone: a player's `tracker play` left behind by a closed session must not
hold on, spinning (Textual's input thread reads an empty hung-up terminal in a tight loop) or, for a GM's
`tracker run`, keep the file's lock."""

from __future__ import annotations

import select
import sys

from textual.app import App

#: Seconds between two looks at whether the terminal is still there.
TERMINAL_CHECK = 1.0


def quit_on_hang_up(app: App[None]) -> None:
    """Look every `TERMINAL_CHECK` seconds whether the terminal hung up; quit `app` when it has."""

    def check() -> None:
        if hung_up():
            app.exit()

    app.set_interval(TERMINAL_CHECK, check)


def hung_up(fd: int | None = None) -> bool:
    """Whether the terminal (or the pipe of a served tab) on standard input has hung up. A process started
    under another account (``runuser``, ``sudo -u``) is in a session of its own, so when its terminal closes
    it is sent no SIGHUP: this is how it finds out."""
    if fd is None:
        stdin = sys.__stdin__
        if stdin is None:
            return False
        try:
            fd = stdin.fileno()
        except (OSError, ValueError):
            return False
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return any(events & (select.POLLHUP | select.POLLNVAL) for _, events in poller.poll(0))
