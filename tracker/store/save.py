"""The encounter file's text for a session: what every save writes (docs/reference/file-format.md,
docs/guide/shared-box.md).

Writing TOML is storage, not rules: the rules package describes the encounter (setup, live state,
history) and never imports tomli_w; this module turns a session into the file. The app, `tracker exec
--save`, the demo, the benchmarks and the tests all save through `encounter_text`, so a test that
reloads a session exercises the same bytes a restart reads.

**The GM's own setup text.** docs/reference/file-format.md: the setup the GM wrote is never rewritten. A session
opened from a file (`load_session`, `session_from_text`, or `keep_setup` on a session built by hand: they
live in `tracker.store.opening`, so opening a file does not load this module, and are named here too)
remembers the file's text; its first save cuts out the setup part (`tracker.store.setup_text`:
everything above the live ``[state]`` / ``[history]`` tables, comments and all), and every save writes
those bytes as they are, followed by the regenerated live part. Combatants a bestiary or party expands,
or a ``from``/``count`` makes, are therefore never written out: the GM's lines that make them are. A
session with no file text (tests, in-memory ones), or a file whose setup cannot be kept (see
`split_setup`), gets its setup serialised from the models instead, the way every file was written before.

**The setup cache.** The setup never changes while a session plays (undo replays the history from it),
so its text, kept or serialised, is fixed once per session; a durable save after each command then
only serialises ``[state]`` and ``[history]`` (bench/bench_engine.py: "engine + durable" must stay under
10 ms). The cache is `tracker.store.opening.SETUP_TEXTS`, a `weakref.WeakKeyDictionary` keyed by the
`Session` object, rather than a slot on `Session`: the rules layer stays ignorant of how it is stored,
and an entry goes away with its session (the app builds a new `Session` after a failed save or a demo
restart, and keeps the text for it again).

**The live part.** ``[state]`` and ``[history]`` change with every command, but mostly in a few places
(a `next` changes two combatants of hundreds); each session's `LiveWriter` (`tracker.store.toml_cache`)
writes again only the pieces whose value changed, and its text is the text tomli_w writes for the
whole live part, byte for byte. It lives beside the setup text, keyed by the session in the same way.
"""

from __future__ import annotations

import weakref
from typing import Any

import tomli_w

from tracker.engine.records import record
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.store.opening import SETUP_TEXTS, SetupText, keep_setup, load_session, session_from_text
from tracker.store.setup_text import LIVE_TABLES, split_setup
from tracker.store.toml_cache import LiveWriter

__all__ = [
    "encounter_document",
    "encounter_text",
    "keep_setup",
    "live_document",
    "load_session",
    "remember_live",
    "session_from_text",
    "setup_document",
]


#: The live part's pieces as last written, per live session (`tracker.store.toml_cache`).
_LIVE: weakref.WeakKeyDictionary[Session, tuple[LiveWriter, record.SavedMembers]] = weakref.WeakKeyDictionary()

#: The setup's tables in the order a GM writes them (docs/reference/file-format.md, the starter files).
SETUP_ORDER = ("encounter", "settings", "zones", "combatants", "demo")


def _setup_of(session: Session) -> SetupText:
    """The setup part every save of `session` writes, worked out once.

    The GM's text when the session has one and it can be kept; otherwise (no file text, or a file whose
    setup `split_setup` cannot cut out, which is logged once) the setup serialised from the models.
    """
    setup = SETUP_TEXTS.get(session)
    if isinstance(setup, SetupText):
        return setup
    if setup is not None:
        split = split_setup(setup.text)
        if split.setup is not None:
            setup = SETUP_TEXTS[session] = SetupText(split.setup, split.newline)
            return setup
        where = f"{setup.path or '<file>'}:{split.line}"
        import logging  # only here: logging costs every start ~4 ms to import, and this is rare

        logging.getLogger(__name__).warning("tracker: warning: %s: %s; saves rewrite the setup", where, split.problem)
    setup = SETUP_TEXTS[session] = SetupText(tomli_w.dumps(setup_document(session)) + "\n")
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
        # Expanded from stat blocks, counts or a party (docs/reference/file-format.md): the GM's own tables, not
        # the expansion.
        return dict(setup.written)
    doc = dump(setup, mode="json", exclude_none=True, exclude_defaults=True, exclude=set(LIVE_TABLES))
    # The header keeps its defaults (player_view …), so the file says which rules run it.
    doc["encounter"] = dump(setup.encounter, mode="json", exclude_none=True)
    return {key: doc[key] for key in sorted(doc, key=lambda k: SETUP_ORDER.index(k) if k in SETUP_ORDER else 99)}


def live_document(session: Session, fighters: record.SavedMembers | None = None) -> dict[str, Any]:
    """``[state]`` and ``[history]``: what each accepted command changes. With the session's `fighters`
    keeper (`encounter_text`), only the combatants who changed since the last save are dumped again."""
    state = session.state
    return {
        # Defaults are left out: a smaller file is a faster durable save, and loading restores them.
        "state": (
            record.saved_form(state, {"fighters": fighters})
            if fighters is not None
            else dump(state, mode="json", exclude_none=True, exclude_defaults=True)
        ),
        "history": _history(session),
    }


def _history(session: Session) -> dict[str, Any]:
    """``[history]``: its branches only once an undo made one (a fight that never forked saves as it did)."""
    doc: dict[str, Any] = dump(session.history, mode="json", exclude_none=True)
    if not session.history.forks:
        del doc["forks"]
    if not session.history.branches:
        del doc["branches"]
    return doc


def remember_live(session: Session) -> None:
    """Remember that the live tables just saved validate to the session's state and history
    (`tracker.store.validated`), so the next open of the file skips validating them. Called after a save
    by the commands that end there (`tracker exec --save`, the GM screen on leaving), not on every command:
    it costs a JSON dump of the state."""
    doc = live_document(session)
    record.remember(session.state, doc["state"])
    record.remember(session.history, doc["history"])
