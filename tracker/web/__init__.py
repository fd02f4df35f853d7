"""`tracker serve`: the views in a browser, through textual-serve (tracker.web.server).

This package's top level stays light: the served child process (`tracker run`/`tracker view` started
by the server) asks `served()` without loading aiohttp or textual-serve.
"""

from __future__ import annotations

import os

#: Set in the environment of every process the server starts for a browser tab.
SERVED_ENV = "TRACKER_SERVED"


def served() -> bool:
    """True in a process started by `tracker serve`: its only screen is a browser tab, so problems are
    shown there (stderr reaches only the server's console, and only when the process ends)."""
    return os.environ.get(SERVED_ENV) == "1"
