"""Where an encounter's table listens, and who is at the other end of a connection.

The socket sits beside the encounter file as ``.NAME.table``: in the GM's own folder, whose permissions
already say who may reach the fight at all (players need to enter the folder, ``chmod o+x``, and nothing
more). Not an abstract socket (those have no permissions) and not TCP (127.0.0.1 is every account's).
Who connects is never something typed: it is the kernel's peer credential (`peer_account`).
"""

from __future__ import annotations

import os
import socket
import struct
from pathlib import Path

from tracker.store.owner import account_name

#: ``struct ucred``: pid, uid, gid.
_UCRED = struct.Struct("3i")


def table_path(encounter: Path) -> Path:
    """The socket of `encounter`'s table: ``.NAME.table`` beside it."""
    return encounter.parent / f".{encounter.name}.table"


def peer_uid(sock: socket.socket) -> int:
    """The user id the kernel records for the other end of the Unix socket `sock`."""
    data = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size)
    _pid, uid, _gid = _UCRED.unpack(data)
    return int(uid)


def peer_account(sock: socket.socket) -> str:
    """The account at the other end of `sock`, as the kernel says."""
    return account_name(peer_uid(sock))


def owner_of(path: Path) -> int | None:
    """The user id that owns `path`, or None when it cannot be looked at."""
    try:
        return os.stat(path).st_uid
    except OSError:
        return None
