"""The process textual-serve starts for a tab is told it is served (`tracker.web.SERVED_ENV`), through
the command the server runs: the shell puts the variable in that process's environment only."""

from __future__ import annotations

import os
import subprocess
import sys

from tracker.web import SERVED_ENV
from tracker.web.server import TableServer, listening_socket, public_url


def test_the_tab_process_is_told_it_is_served() -> None:
    probe = f"exec {sys.executable} -c 'import tracker.web as w; print(w.served())'"
    sock = listening_socket("127.0.0.1", 0)
    try:
        server = TableServer(probe, sock, url=public_url("127.0.0.1", sock), title="test")
    finally:
        sock.close()
    # textual-serve runs its command with the shell (asyncio.create_subprocess_shell), in its own environment.
    out = subprocess.run(server.command, shell=True, capture_output=True, text=True, check=True, env=dict(os.environ))
    assert out.stdout.strip() == "True"
    assert os.environ.get(SERVED_ENV) != "1"  # the server's own process is not a tab's
