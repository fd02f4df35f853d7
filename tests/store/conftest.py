"""Real second accounts, for the tests that check what another account on the GM's machine can and cannot do.

Only root can add an account, so these tests skip with the reason elsewhere (CI runs the suite as root). The
accounts are made without a home (``useradd -M``), kept if they were there before, and removed after.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.account_lock import remove_account, using_accounts

#: The second account: a player, or a second GM, logged in to the GM's machine.
ACCOUNT = "trackertest"


def need_root() -> None:
    """Skip, saying why, unless the tests may add accounts and run commands as them."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("needs root to add a second account (CI runs the suite as root)")
    if shutil.which("useradd") is None or shutil.which("runuser") is None:
        pytest.skip("useradd or runuser is missing")


@pytest.fixture
def second_account() -> Iterator[str]:
    """The name of a real account that is not the one running the tests."""
    need_root()
    made = subprocess.run(["useradd", "-M", ACCOUNT], capture_output=True, text=True)
    if made.returncode not in (0, 9):  # 9: the account exists already (a run before this one)
        pytest.skip(f"useradd failed: {made.stderr.strip()}")
    try:
        with using_accounts():
            yield ACCOUNT
    finally:
        if made.returncode == 0:
            remove_account(ACCOUNT)


@pytest.fixture
def reachable_folder() -> Iterator[Path]:
    """A folder every account can reach and read (right under /tmp, not in pytest's private one), so that
    only a file's own mode stands between it and another account."""
    folder = Path(tempfile.mkdtemp(prefix="tracker-modes-", dir="/tmp"))
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def as_account(
    account: str, *command: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`command` run as `account` (``runuser``), its output captured."""
    return subprocess.run(
        ["runuser", "-u", account, "--", *(str(c) for c in command)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def unreadable_by(account: str, path: Path) -> None:
    """Assert that `account` cannot read `path` (``cat`` is refused by the kernel, not by the tracker)."""
    seen = as_account(account, "cat", path)
    assert seen.returncode != 0, f"{account} read {path}"
    assert "Permission denied" in seen.stderr
