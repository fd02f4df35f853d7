"""The encounter file's text for a session: what every save writes (CONTRACT.md §2, §5).

Writing TOML is storage, not rules: the rules package describes the encounter (setup, live state,
history) and never imports tomli_w; this module turns a session into the file. The app, `tracker exec
--save`, the demo, the benchmarks and the tests all save through `encounter_text`, so a test that
reloads a session exercises the same bytes a restart reads.

**The setup cache.** The setup never changes while a session plays (undo replays the history from it),
so its TOML is serialised once per session and reused; a durable save after each command then only
serialises ``[state]`` and ``[history]`` (bench/bench_engine.py: "engine + durable" must stay under
10 ms). The cache lives here, in a `weakref.WeakKeyDictionary` keyed by the `Session` object, rather
than as a slot on `Session`: the rules layer stays ignorant of how it is stored, and an entry goes
away with its session (the app builds a new `Session` after a failed save or a demo restart, which
gets a fresh entry).

**The GM's own setup text.** CONTRACT.md §2 says the setup the GM wrote is never rewritten. Today the
setup part is re-serialised from the models; `encounter_text` already takes the setup part as an
optional argument, so a later change can pass the GM's original text there and have every save write
it verbatim, with only the live part below it regenerated.
"""

from __future__ import annotations

import weakref
from typing import Any

import tomli_w

from tracker.rules.session import Session

#: Setup TOML per live session (see the module docstring for why it is keyed by the session).
_SETUP_TEXT: weakref.WeakKeyDictionary[Session, str] = weakref.WeakKeyDictionary()

#: The live tables a save regenerates; everything else in the file is the setup.
LIVE_TABLES = ("state", "history")
#: The setup's tables in the order a GM writes them (CONTRACT.md §2, the starter files).
SETUP_ORDER = ("encounter", "settings", "zones", "combatants", "demo")


def encounter_text(session: Session, setup_text: str | None = None) -> str:
    """The whole file as TOML text: the setup part, a blank line, then ``[state]`` and ``[history]``.

    `setup_text` is the setup part to write as it is (for keeping the GM's own text, CONTRACT.md §2);
    by default it is the setup serialised from the models, once per session.
    """
    if setup_text is None:
        setup_text = _SETUP_TEXT.get(session)
        if setup_text is None:
            setup_text = tomli_w.dumps(setup_document(session))
            _SETUP_TEXT[session] = setup_text
    elif not setup_text.endswith("\n"):
        setup_text += "\n"
    return setup_text + "\n" + tomli_w.dumps(live_document(session))


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


def live_document(session: Session) -> dict[str, Any]:
    """``[state]`` and ``[history]``: what each accepted command changes."""
    return {
        # Defaults are left out: a smaller file is a faster durable save, and loading restores them.
        "state": session.state.model_dump(mode="json", exclude_none=True, exclude_defaults=True),
        "history": session.history.model_dump(mode="json", exclude_none=True),
    }
