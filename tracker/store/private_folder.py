"""Whether a folder is the user's alone, all the way up: the test a cache folder passes before it is used.

docs/guide/shared-box.md: "a cache folder is used only when it and every folder above it (up to one the user owns and no
one else can write) are the user's own and not group- or world-writable." Another account that can write in a
folder on the way can rename what is below it and put its own in its place, so the folder and the path to it
are both judged. The reading implemented, precisely:

- The folder itself must be a folder (not a link: see below) owned by the user, which nobody else may write:
  not others, and its group only when that is the user's private group (`tracker.store.writers`: on a box
  with user private groups and umask 002 every folder is group-writable by a group only its owner is in).
- Then each folder above it, walking up: owned by the user or by root (the system's folders, ``/home``,
  ``/var``, are root's, and root can do anything anyway), and not group- or world-writable, except that a
  sticky folder (``/tmp``) passes: there only an entry's owner may rename or remove it, and every folder
  below it on the walk is the user's or root's. The walk stops, satisfied, at the first folder above that the
  user owns and no one else can write (usually the user's ``~/.cache`` or ``~/.cache/tracker``); what is above
  that one is the user's own business. It also succeeds on reaching ``/``.
- A symbolic link on the way (``~/.cache`` linked to a larger disk, say) is judged by where it leads: the walk
  runs over the real path, each folder looked at with `os.lstat`, so a link that appears between the
  resolving and the looking is seen as a link and refused, never followed.

A folder that does not exist yet is made, each missing level mode 0700 (the umask of a user-private group,
002, would otherwise leave the levels group-writable and so refused at the next start).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from tracker.store.owner import account_name
from tracker.store.writers import others_who_write


class UnsafeFolder(Exception):
    """The folder, or one above it, is not the user's alone; the message says which and why, and `folder`
    is the one at fault (``chmod g-w,o-w`` it)."""

    def __init__(self, message: str, folder: Path) -> None:
        super().__init__(message)
        self.folder = folder


def private_folder(folder: Path) -> Path:
    """`folder`'s real path, made if missing, when it is the user's alone up the walk the module describes;
    UnsafeFolder (why, in words) when it is not; OSError when it cannot be made or looked at."""
    given = Path(os.path.abspath(folder))
    _make(given)
    real = Path(os.path.realpath(given))
    geteuid = getattr(os, "geteuid", None)
    if geteuid is None:  # no accounts to tell apart
        return real
    uid = geteuid()
    st = os.lstat(real)
    own = _problem(st, owners=(uid,))
    if own is not None:
        raise UnsafeFolder(f"it {own}" if real == given else f"{real} {own}", real)
    here = real
    while here.parent != here:
        here = here.parent
        st = os.lstat(here)
        problem = _problem(st, owners=(uid, 0), sticky_ok=True)
        if problem is not None:
            raise UnsafeFolder(f"{here} {problem}", here)
        if st.st_uid == uid and others_who_write(st) is None:
            break
    return real


def _problem(st: os.stat_result, owners: tuple[int, ...], sticky_ok: bool = False) -> str | None:
    """What is wrong with one folder on the walk, worded to follow its name, or None."""
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if st.st_uid not in owners:
        return f"is owned by {account_name(st.st_uid)}"
    if sticky_ok and st.st_mode & stat.S_ISVTX:
        return None
    return others_who_write(st)


def _make(folder: Path) -> None:
    """Make `folder` and any missing folder above it, each mode 0700."""
    missing = []
    here = folder
    while not os.path.lexists(here) and here.parent != here:
        missing.append(here)
        here = here.parent
    for level in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(level, 0o700)
