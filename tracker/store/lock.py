"""One writer per encounter file: an exclusive `fcntl` lock on a sidecar file (docs/guide/shared-box.md).

The lock sits on ``.NAME.lock`` beside the encounter, not on the encounter itself, because every save
replaces the encounter file (a new inode) while the sidecar stays put. The OS releases the lock when
the holder dies, so a killed GM never leaves a stale lock; the sidecar's text only says who held it.

Taking the lock also clears the temporary files a writer killed mid-save left beside the encounter
(``.NAME.*.tmp``): only the lock holder may, since another writer's temp file is never stale, and every
writer (`tracker run`, `tracker exec --save`) takes it, so none leaves them for the others to find.

The sidecar says who holds the file, so it is its owner's only (mode 0600) like the encounter, and is opened
without following a symbolic link: a link planted at its name is refused in one line, never a way to make the
tracker write who holds the file into another file. It must be the GM's own: one another account planted
(in a folder it may write) is refused in one line, and what a sidecar says is printed as plain text, never
with the control characters a terminal would obey. (Another account cannot run the encounter anyway: it is
not theirs, `tracker.store.owner`.)
"""

from __future__ import annotations

import errno
import fcntl
import getpass
import os
import socket
import stat
import time
from pathlib import Path

from tracker.present.words import plain
from tracker.store.owner import account_name


class FileHeld(Exception):
    """Someone else is writing this encounter; the message says who and since when."""


class WriterLock:
    """Held for as long as the GM's process runs (or one `exec --save` writes).

    (A plain class: a dataclass writes and compiles its methods at import, on the way to every first frame.)"""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: The sidecar's descriptor while the lock is held.
        self.fd: int | None = None

    def __repr__(self) -> str:
        return f"WriterLock({self.path!r}, fd={self.fd})"

    @staticmethod
    def sidecar(encounter: Path) -> Path:
        return encounter.resolve().parent / f".{encounter.name}.lock"

    def acquire(self) -> None:
        fd = self._open(self.sidecar(self.path))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            # Plain text only, and short: the sidecar is the GM's own (`_open`), yet what it says is drawn on
            # the GM's terminal, where an escape sequence would be obeyed rather than shown.
            said = plain(os.pread(fd, 4096, 0).decode("utf-8", "replace")).strip()[:200]
            os.close(fd)
            raise FileHeld(f"{self.path} is being run by {said or 'another process'}") from None
        info = f"{getpass.getuser()}@{socket.gethostname()} (pid {os.getpid()}) since {time.strftime('%H:%M:%S')}"
        os.ftruncate(fd, 0)
        os.pwrite(fd, info.encode(), 0)
        self.fd = fd
        from tracker.store.files import remove_stale_temp_files

        remove_stale_temp_files(self.path)

    @staticmethod
    def _open(lock_path: Path) -> int:
        """The sidecar, opened (made 0600 if new) without following a link; OSError in one line otherwise.
        A sidecar an older version left readable by others is narrowed to 0600."""
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(lock_path, flags, 0o600)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                said = f"cannot take the lock {lock_path}: it is a symbolic link, not followed (remove it)"
            elif not os.path.lexists(lock_path):  # worded as a save's temporary file that cannot be made
                said = f"cannot write in {lock_path.parent}: {exc.strerror or exc}"
            else:
                said = f"cannot take the lock {lock_path}: {exc.strerror or exc}"
            raise OSError(exc.errno, said) from None
        problem = None
        geteuid = getattr(os, "geteuid", None)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                problem = "it is not a plain file (remove it)"
            elif geteuid is not None and st.st_uid != geteuid():
                # Another account's sidecar, planted where the GM's goes: it would say who holds the file, and
                # its holder could keep the GM out by locking it (only the GM's own lock counts).
                problem = f"it is {account_name(st.st_uid)}'s, not yours (remove it)"
            elif stat.S_IMODE(st.st_mode) != 0o600:
                os.fchmod(fd, 0o600)
        except OSError as exc:
            problem = exc.strerror or str(exc)
        if problem is not None:
            os.close(fd)
            raise OSError(errno.EPERM, f"cannot take the lock {lock_path}: {problem}")
        return fd

    def release(self) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> WriterLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
