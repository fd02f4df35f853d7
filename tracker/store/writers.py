"""Who besides its owner may write a file or a folder: the one test of "the owner's alone" the store makes.

On Debian and Ubuntu every account has a group of its own (user private groups) and the umask is 002, so
every folder a GM makes is group-writable, by a group only the GM is in. That group is the owner's as much
as the owner is: a folder (or file) counts as its owner's alone when nobody else may write it, group bits
included, as OpenSSH's StrictModes and PostgreSQL's data-folder checks judge it. A group write bit is fine
exactly when the group is the owner's private group: no member but the owner (`grp.getgrgid(gid).gr_mem`)
and no other account's primary group (`pwd.getpwall`). Any other writer is named with the fix.
"""

from __future__ import annotations

import os
import stat
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from tracker.store.owner import account_name

if TYPE_CHECKING:
    import pwd


def others_who_write(st: os.stat_result) -> str | None:
    """Who besides the owner may write what `st` describes, worded to follow its name ("is group-writable
    (mode 0775) by staff, whose members include bob"), or None when nobody may. A sticky folder's world or
    group bit is not judged here (only an entry's owner renames it there): the caller decides."""
    mode = stat.S_IMODE(st.st_mode)
    if st.st_mode & stat.S_IWOTH:
        return f"is world-writable (mode {mode:04o})"
    if st.st_mode & stat.S_IWGRP:
        others = group_others(st.st_gid, st.st_uid)
        if others is not None:
            return f"is group-writable (mode {mode:04o}) by {others}"
    return None


@cache
def group_others(gid: int, uid: int) -> str | None:
    """Who else than `uid` the group `gid` lets in, in words ("group staff, with bob"), or None when it is
    `uid`'s private group (no other member, nobody else's primary group). An unknown group, or a system with
    no group database, is another writer: it cannot be shown to be the owner's."""
    try:
        import grp
    except ImportError:  # no accounts to tell apart
        return None
    try:
        group = grp.getgrgid(gid)
    except KeyError:
        return f"group {gid}, which the system does not know"
    owner = account_name(uid)
    members = sorted({m for m in group.gr_mem if m != owner} | {p.pw_name for p in _primary(gid) if p.pw_uid != uid})
    if not members:
        return None
    shown = ", ".join(members[:3]) + (" …" if len(members) > 3 else "")
    return f"group {group.gr_name}, with {shown}"


def _primary(gid: int) -> list[pwd.struct_passwd]:
    import pwd

    return [p for p in pwd.getpwall() if p.pw_gid == gid]


def fix(path: Path | str) -> str:
    """The command that makes `path` its owner's alone."""
    return f"chmod g-w,o-w {path}"


def others_may_change(path: Path | str) -> str | None:
    """Why another account could change the file at `path` (it is theirs, it or its folder is writable by
    them), worded to follow the file's name, or None when only its owner (this account, or root) can. A
    sticky folder (``/tmp``) passes: there only an entry's owner may replace it. A file that cannot be looked
    at is for the reading to report: None."""
    geteuid = getattr(os, "geteuid", None)
    if geteuid is None:  # no accounts to tell apart
        return None
    try:
        st = os.stat(path)
        up = os.stat(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return None
    if st.st_uid not in (geteuid(), 0):
        return f"is {account_name(st.st_uid)}'s"
    problem = others_who_write(st)
    if problem is not None:
        return problem
    if up.st_uid not in (geteuid(), 0):
        return f"is in a folder that is {account_name(up.st_uid)}'s"
    if up.st_mode & stat.S_ISVTX:
        return None
    problem = others_who_write(up)
    return None if problem is None else f"is in a folder that {problem}"
