"""One lock over the real test accounts, shared by every test run on the machine.

Two test runs at once (two checkouts, or CI beside a developer) make and remove the same accounts. Each
test that uses one holds the lock shared; an account is removed only by a run that can take it alone, so
no run removes an account another run is using (the account then stays, and the next run reuses it).
"""

from __future__ import annotations

import fcntl
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

#: World-writable /tmp: every run on the machine sees the same file.
LOCK = "/tmp/tracker-test-accounts.lock"


@contextmanager
def using_accounts() -> Iterator[None]:
    """Hold the lock shared while a test uses a real account."""
    fd = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)


def remove_account(name: str) -> None:
    """``userdel`` the account, unless another test run holds the lock (it may be using the account)."""
    fd = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return
    try:
        subprocess.run(["userdel", name], capture_output=True)
    finally:
        os.close(fd)
