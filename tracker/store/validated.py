"""Validated documents remembered on disk, so a file opened again is not validated again (issue 12).

Validating an encounter with pydantic costs more than everything else `tracker exec` does (pydantic's
import and the schema of some thirty models: ~80 ms), and a table opens the same file over and over. So the
records a document validated to are kept, pickled, in the user's cache folder, under a key made of the
document itself, the record class and the rules' code (`tracker.engine.records.record`): the same bytes under the
same code give the same records, and anything else is validated afresh. Only successes are kept, so every
problem a file has is always found and reported by pydantic.

The folder is ``$TRACKER_CACHE_DIR`` when set, else the platform's cache folder for "tracker" (platformdirs);
``TRACKER_NO_CACHE=1`` turns remembering off. The cache is a cache: an entry that cannot be read is a miss,
one that cannot be written is skipped, and the folder may be deleted at any time.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from tracker.engine.records import record

#: Entries kept; beyond it the least recently written half goes (one per validated setup or state, a few
#: kilobytes each: a season of encounters fits many times over).
MAX_ENTRIES = 400


class FolderMemo:
    """A `tracker.engine.records.record.ValidationMemo` over one folder: a file per entry, written atomically."""

    def __init__(self, folder: Path, write: bool = True) -> None:
        self.folder = folder
        #: False for a viewer: it reads what the writer remembered, and each change it follows is a new
        #: document no one will open again, not worth a file each.
        self.write = write

    def get(self, key: str) -> bytes | None:
        try:
            return (self.folder / f"{key}.pickle").read_bytes()
        except OSError:
            return None

    def put(self, key: str, value: bytes) -> None:
        if not self.write:
            return
        with contextlib.suppress(OSError):
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(value)
                os.replace(tmp, self.folder / f"{key}.pickle")
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
            self._prune()

    def _prune(self) -> None:
        """Keep at most `MAX_ENTRIES`: drop the oldest half when there are more."""
        entries = [e for e in os.scandir(self.folder) if e.name.endswith(".pickle")]
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
    import platformdirs

    return Path(platformdirs.user_cache_dir("tracker", appauthor=False)) / "validated"


def remember_validations(write: bool = True) -> None:
    """Install the on-disk memo for this process (the command line does, for every command); a viewer's
    only reads it (`FolderMemo.write`)."""
    folder = cache_folder()
    record.use_memo(FolderMemo(folder, write) if folder is not None else None)
