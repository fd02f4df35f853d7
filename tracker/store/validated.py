"""Validated documents remembered on disk, so a file opened again is not validated again.

Validating an encounter with pydantic costs more than everything else `tracker exec` does (pydantic's import
and the schemas of some thirty records), and a table opens the same file over and over. So what a document
validated to is kept, as JSON data, in the user's cache folder, under a key made of the document itself,
the record class and the installed versions (`tracker.engine.records.record`): the same bytes under the
same versions give the same records, which are rebuilt from the data without pydantic. Only successes are
kept, so every problem a file has is always found and reported by pydantic.

The entries are data, never code or objects: nothing read from the folder is executed. Even so the folder
is used only when it and the folders above it are the user's alone (`tracker.store.private_folder` says
exactly how far up): otherwise nothing is remembered, and the process says so once, in one line on stderr,
before any screen starts. A folder that cannot be made (a read-only home) is passed over silently: the cache
is only a cache.

The folder is ``$TRACKER_CACHE_DIR`` when set, else the platform's cache folder for "tracker" (platformdirs);
``TRACKER_NO_CACHE=1`` turns remembering off. The cache is a cache: an entry that cannot be read is a miss,
one that cannot be written is skipped, and the folder may be deleted at any time.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from tracker.engine.records import record
from tracker.store.private_folder import UnsafeFolder, private_folder

#: Entries kept; beyond it the least recently written half goes (one per validated setup or state, a few
#: kilobytes each: a season of encounters fits many times over).
MAX_ENTRIES = 400

#: The extension of an entry: JSON text.
SUFFIX = ".json"


def safe_folder(folder: Path) -> bool:
    """Whether `folder` may hold the memo: it and the folders above it are the user's alone
    (`tracker.store.private_folder`). A folder that does not exist yet is made so."""
    try:
        private_folder(folder)
    except (OSError, UnsafeFolder):
        return False
    return True


#: Whether this process has said why it keeps no cache (once is enough, whatever the commands run).
_said = False


def usable_folder(folder: Path) -> Path | None:
    """`folder`'s real path when the memo may use it; else None, saying why once on stderr when the folder is
    not the user's alone (silent when it cannot be made: a read-only home is no one's fault)."""
    global _said
    try:
        return private_folder(folder)
    except OSError:
        return None
    except UnsafeFolder as exc:
        if not _said:
            _said = True
            advice = "set TRACKER_CACHE_DIR to a folder only you can write"
            print(f"tracker: not keeping a cache in {folder}: {exc}; {advice}", file=sys.stderr)
        return None


class FolderMemo:
    """A `tracker.engine.records.record.ValidationMemo` over one folder: a JSON file per entry, written
    atomically."""

    def __init__(self, folder: Path, write: bool = True) -> None:
        self.folder = folder
        #: False for a viewer: it reads what the writer remembered, and each change it follows is a new
        #: document no one will open again, not worth a file each.
        self.write = write

    def get(self, key: str) -> str | None:
        try:
            return (self.folder / f"{key}{SUFFIX}").read_text(encoding="utf-8")
        except (OSError, ValueError):
            return None

    def put(self, key: str, value: str) -> None:
        if not self.write:
            return
        with contextlib.suppress(OSError):
            self.folder.mkdir(mode=0o700, exist_ok=True)  # deleted meanwhile: its parents were judged at the start
            import tempfile  # here: only a file validated afresh is written (its import brings `random`)

            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(value)
                os.replace(tmp, self.folder / f"{key}{SUFFIX}")
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
            self._prune()

    def _prune(self) -> None:
        """Keep at most `MAX_ENTRIES`: drop the oldest half when there are more."""
        entries = [e for e in os.scandir(self.folder) if e.name.endswith(SUFFIX)]
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(key=lambda e: e.stat().st_mtime_ns)
        for entry in entries[: len(entries) - MAX_ENTRIES // 2]:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def cache_folder() -> Path | None:
    """Where validated documents are kept, or None when remembering is off."""
    if os.environ.get("TRACKER_NO_CACHE", "") not in ("", "0"):
        return None
    chosen = os.environ.get("TRACKER_CACHE_DIR")
    if chosen:
        return Path(chosen)
    return Path(user_cache_folder()) / "validated"


def user_cache_folder() -> str:
    """platformdirs' ``user_cache_dir("tracker", appauthor=False)``. On Linux it is worked out here, as platformdirs
    does it (``$XDG_CACHE_HOME/tracker`` when that is an absolute path, else ``$HOME/.cache/tracker``): importing
    platformdirs brings `tempfile`, `random` and `shutil` with it, some 4 % of a `tracker exec`. Elsewhere, or
    without an absolute home, platformdirs is asked."""
    if sys.platform.startswith("linux"):
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        if os.path.isabs(xdg):
            return os.path.join(xdg, "tracker")
        home = os.environ.get("HOME", "")
        if os.path.isabs(home):
            return os.path.join(home, ".cache", "tracker")
    import platformdirs

    return platformdirs.user_cache_dir("tracker", appauthor=False)


def remember_validations(write: bool = True) -> None:
    """Install the on-disk memo for this process (the command line does, for every command); a viewer's
    only reads it (`FolderMemo.write`). No memo when the folder is not safely the user's own (`usable_folder`)."""
    folder = cache_folder()
    usable = None if folder is None else usable_folder(folder)
    record.use_memo(None if usable is None else FolderMemo(usable, write))
