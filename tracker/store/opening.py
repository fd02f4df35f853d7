"""Opening an encounter file for play: a session on its text, and the text its saves are to keep.

docs/reference/file-format.md: the setup the GM wrote is never rewritten, so a session opened from a file remembers the
text it was read from, and its first save cuts the setup part out of it (`tracker.store.save`). Opening and
saving are apart because `tracker run` opens the file before its first frame and saves only at the GM's
first command: the save's modules (the TOML writer, the setup cutter, the live part's writer: ≈ 17 M
instructions to import) wait until then, and `tracker exec` without ``--save`` never loads them.

The texts are kept in a `weakref.WeakKeyDictionary` keyed by the `Session` object, not in a slot of the
session: the rules layer stays ignorant of how a file is stored, and an entry goes away with its session.
"""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import NamedTuple

from tracker.families.session import Session
from tracker.store import files


class SetupText(NamedTuple):
    """A session's setup text as saves write it (ending in the blank line before the live part)."""

    text: str
    newline: str = "\n"


class FileText(NamedTuple):
    """The text a session was read from, not split yet: its first save splits it (`save._setup_of`)."""

    text: str
    path: str


#: The setup text per live session: the file's text until the first save works its setup part out.
SETUP_TEXTS: weakref.WeakKeyDictionary[Session, SetupText | FileText] = weakref.WeakKeyDictionary()


def keep_setup(session: Session, file_text: str, path: str = "") -> None:
    """Make every save of `session` write the setup part of `file_text` (the file it was read from) verbatim.

    The text is split at the first save, not here: finding and checking the setup part parses the file
    once more, which a session that never saves (`tracker exec` without ``--save``, a viewer) skips.
    """
    SETUP_TEXTS[session] = FileText(file_text, path)


def session_from_text(text: str, path: str, seed: int | None = None) -> Session:
    """A session on an encounter file's text whose saves keep the GM's setup text (FileInvalid if invalid).

    The rules the load's check of a saved ``[state]`` resumed are the session's: the state is resumed once.
    """
    setup, rules = files.open_text(text, path)
    session = Session(setup, seed=seed, rules=rules)
    keep_setup(session, text, path)
    return session


def load_session(path: str | Path, seed: int | None = None) -> Session:
    """A session on the encounter file at `path` whose saves keep the GM's setup text."""
    return session_from_text(files.read_text(path), str(path), seed)
