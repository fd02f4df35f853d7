"""The encounter file's text for a session: what every save writes (CONTRACT.md §2, §5).

Writing TOML is storage, not rules: the rules package describes the encounter (setup, live state,
history) and never imports tomli_w; this module turns a session into the file. The app, `tracker exec
--save`, the demo, the benchmarks and the tests all save through `encounter_text`, so a test that
reloads a session exercises the same bytes a restart reads.

**The GM's own setup text.** CONTRACT.md §2: the setup the GM wrote is never rewritten. A session
opened from a file (`load_session`, `session_from_text`, or `keep_setup` on a session built by hand)
remembers the file's text; its first save cuts out the setup part (`tracker.store.setup_text`:
everything above the live ``[state]`` / ``[history]`` tables, comments and all), and every save writes
those bytes as they are, followed by the regenerated live part. Combatants a bestiary or party expands,
or a ``from``/``count`` makes, are therefore never written out: the GM's lines that make them are. A
session with no file text (tests, in-memory ones), or a file whose setup cannot be kept (see
`split_setup`), gets its setup serialised from the models instead, the way every file was written before.

**The setup cache.** The setup never changes while a session plays (undo replays the history from it),
so its text, kept or serialised, is fixed once per session; a durable save after each command then
only serialises ``[state]`` and ``[history]`` (bench/bench_engine.py: "engine + durable" must stay under
10 ms). The cache lives here, in a `weakref.WeakKeyDictionary` keyed by the `Session` object, rather
than as a slot on `Session`: the rules layer stays ignorant of how it is stored, and an entry goes
away with its session (the app builds a new `Session` after a failed save or a demo restart, and keeps
the text for it again).

**The live part.** ``[state]`` and ``[history]`` change with every command, but mostly in a few places
(a `next` changes two combatants of hundreds); each session's `LiveWriter` (`tracker.store.toml_cache`)
writes again only the pieces whose value changed, and its text is the text tomli_w writes for the
whole live part, byte for byte. It lives beside the setup text, keyed by the session in the same way.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from tracker.rules import record
from tracker.rules.session import Session
from tracker.store import files
from tracker.store.setup_text import LIVE_TABLES, split_setup
from tracker.store.toml_cache import LiveWriter


@dataclass(frozen=True)
class _Setup:
    """A session's setup text as saves write it (ending in the blank line before the live part)."""

    text: str
    newline: str = "\n"


@dataclass(frozen=True)
class _FileText:
    """The text a session was read from, not split yet: the first save splits it (`_setup_of`)."""

    text: str
    path: str


#: Setup text per live session (see the module docstring for why it is keyed by the session).
_SETUP: weakref.WeakKeyDictionary[Session, _Setup | _FileText] = weakref.WeakKeyDictionary()
#: The live part's pieces as last written, per live session (`tracker.store.toml_cache`).
_LIVE: weakref.WeakKeyDictionary[Session, tuple[LiveWriter, record.SavedMembers]] = weakref.WeakKeyDictionary()

#: The setup's tables in the order a GM writes them (CONTRACT.md §2, the starter files).
SETUP_ORDER = ("encounter", "settings", "zones", "combatants", "demo")


def keep_setup(session: Session, file_text: str, path: str = "") -> None:
    """Make every save of `session` write the setup part of `file_text` (the file it was read from) verbatim.

    The text is split at the first save, not here: finding and checking the setup part parses the file
    once more, which a session that never saves (`tracker exec` without ``--save``, a viewer) skips.
    """
    _SETUP[session] = _FileText(file_text, path)


def session_from_text(text: str, path: str, seed: int | None = None) -> Session:
    """A session on an encounter file's text whose saves keep the GM's setup text (FileInvalid if invalid)."""
    session = Session(files.parse_text(text, path), seed=seed)
    keep_setup(session, text, path)
    return session


def load_session(path: str | Path, seed: int | None = None) -> Session:
    """A session on the encounter file at `path` whose saves keep the GM's setup text."""
    return session_from_text(files.read_text(path), str(path), seed)


def _setup_of(session: Session) -> _Setup:
    """The setup part every save of `session` writes, worked out once.

    The GM's text when the session has one and it can be kept; otherwise (no file text, or a file whose
    setup `split_setup` cannot cut out, which is logged once) the setup serialised from the models.
    """
    setup = _SETUP.get(session)
    if isinstance(setup, _Setup):
        return setup
    if setup is not None:
        split = split_setup(setup.text)
        if split.setup is not None:
            setup = _SETUP[session] = _Setup(split.setup, split.newline)
            return setup
        where = f"{setup.path or '<file>'}:{split.line}"
        import logging  # only here: logging costs every start ~4 ms to import, and this is rare

        logging.getLogger(__name__).warning("tracker: warning: %s: %s; saves rewrite the setup", where, split.problem)
    setup = _SETUP[session] = _Setup(tomli_w.dumps(setup_document(session)) + "\n")
    return setup


def encounter_text(session: Session) -> str:
    """The whole file as TOML text: the setup part (`_setup_of`), then ``[state]`` and ``[history]``."""
    setup = _setup_of(session)
    live_part = _LIVE.get(session)
    if live_part is None:
        live_part = _LIVE[session] = (LiveWriter(), record.SavedMembers())
    writer, fighters = live_part
    live = writer.dumps(live_document(session, fighters))
    if setup.newline != "\n":
        live = live.replace("\n", setup.newline)
    return setup.text + live


def encounter_document(session: Session) -> dict[str, Any]:
    """The whole file as plain data for TOML: setup, live state and history (what the text parses to)."""
    return setup_document(session) | live_document(session)


def setup_document(session: Session) -> dict[str, Any]:
    """The setup tables: ``[encounter]``, ``[settings]``, ``[[zones]]``, ``[[combatants]]``, ``[[demo]]``."""
    setup = session.setup
    if setup.written is not None:
        # Expanded from stat blocks, counts or a party (CONTRACT.md §2.1): the GM's own tables, not the expansion.
        return dict(setup.written)
    doc = setup.model_dump(mode="json", exclude_none=True, exclude_defaults=True, exclude=set(LIVE_TABLES))
    # The header keeps its defaults (player_view …), so the file says which rules run it.
    doc["encounter"] = setup.encounter.model_dump(mode="json", exclude_none=True)
    return {key: doc[key] for key in sorted(doc, key=lambda k: SETUP_ORDER.index(k) if k in SETUP_ORDER else 99)}


def live_document(session: Session, fighters: record.SavedMembers | None = None) -> dict[str, Any]:
    """``[state]`` and ``[history]``: what each accepted command changes. With the session's `fighters`
    keeper (`encounter_text`), only the combatants who changed since the last save are dumped again."""
    state = session.state
    return {
        # Defaults are left out: a smaller file is a faster durable save, and loading restores them.
        "state": (
            state.saved_form({"fighters": fighters})
            if fighters is not None
            else state.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
        ),
        "history": session.history.model_dump(mode="json", exclude_none=True),
    }


def remember_live(session: Session) -> None:
    """Remember that the live tables just saved validate to the session's state and history
    (`tracker.store.validated`), so the next open of the file skips validating them. Called after a save
    by the commands that end there (`tracker exec --save`, the GM screen on leaving), not on every command:
    it costs a pickle of the state."""
    doc = live_document(session)
    record.remember(session.state, doc["state"])
    record.remember(session.history, doc["history"])
