"""Whose file an encounter is: only its owner runs it, saves it or sees it whole (docs/guide/shared-box.md).

Players log in to the GM's machine. Every file the tracker writes is its owner's only (mode 0600), so another
account cannot read it, and one that could (a file from before, or root) must still not write it: a save
replaces the file with a new one owned by whoever saved, which would lock the GM out of their own encounter.
So the commands that write a file (`tracker run`, `tracker exec --save`, `tracker carry`) and the GM's view
(`tracker view` without ``--player``) are refused to another account in one line that says whose file it is,
before anything is read or a screen starts. What another account may see goes through the player view.
"""

from __future__ import annotations

import os
from pathlib import Path


class NotOwner(Exception):
    """Another account's file: the message says whose, and what this account may do instead."""


def account_name(uid: int) -> str:
    """The login name of `uid`, or the number itself when the system knows no such account."""
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return str(uid)


def owned_by_other(path: str | Path) -> str | None:
    """The account name of `path`'s owner when that is not this process's account, else None (also when the
    file does not exist or cannot be looked at: reading it will say why). A link is judged by the file it
    leads to, the one that would be read or replaced."""
    geteuid = getattr(os, "geteuid", None)
    if geteuid is None:  # no accounts to tell apart
        return None
    try:
        uid = os.stat(path).st_uid
    except (OSError, ValueError):
        return None
    return None if uid == geteuid() else account_name(uid)


def refuse_unless_owner(path: str | Path, doing: str, instead: str = "", said: str = "") -> None:
    """NotOwner when `path` is another account's: ``[SAID: ]FILE is NAME's: only its owner DOING[; INSTEAD]``."""
    owner = owned_by_other(path)
    if owner is not None:
        line = f"{path} is {owner}'s: only its owner {doing}" + (f"; {instead}" if instead else "")
        raise NotOwner(f"{said}: {line}" if said else line)
