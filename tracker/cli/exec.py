"""`tracker exec FILE`: GM commands from stdin applied headless, then the state as text or JSON (no textual)."""

from __future__ import annotations

import sys
from pathlib import Path

from tracker.engine.errors import Refusal


def cmd_exec(path: str, seed: int | None, as_json: bool, save: bool) -> int:
    """Apply the GM commands on stdin (a line each; blank lines and ``#`` comments skipped) to FILE, then print
    the state; the first refusal stops with its line number. With `save`, the file is written back under the
    writer lock."""
    from tracker.store.opening import load_session

    if save:  # refused before the commands run: a save by another account would take the file from its owner
        from tracker.store.owner import refuse_unless_owner

        refuse_unless_owner(path, "saves it", said="not saved")
    session = load_session(path, seed=seed)
    for number, raw in enumerate(_stdin_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            session.execute(line)
        except Refusal as exc:
            print(f"line {number}: {exc}", file=sys.stderr)
            return 2
    if save:
        from tracker.store import files
        from tracker.store.lock import FileHeld, WriterLock
        from tracker.store.save import encounter_text, remember_live

        try:
            with WriterLock(Path(path)):
                files.write_text(Path(path), encounter_text(session))
            remember_live(session)  # the next exec on the saved file need not validate it again
        except FileHeld as exc:
            print(f"tracker: not saved: {exc}", file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"tracker: not saved: {exc.strerror or exc}", file=sys.stderr)
            return 1
    if as_json:
        import json

        from tracker.families.snapshot import state_json

        print(json.dumps(state_json(session), indent=2, ensure_ascii=False))
    else:
        print(summary(session))
    return 0


def _stdin_text() -> str:
    """All of stdin as text, whatever the locale: bytes that are not UTF-8 become lone surrogates, which
    the command parser refuses by line number (a strict decode would fail before any line is read)."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return sys.stdin.read()
    data: bytes = buffer.read()
    return data.decode("utf-8", "surrogateescape")


def summary(session: object) -> str:
    """A few lines of plain text: the round, whose turn, everyone's state, the prompt (the family words them)."""
    from tracker.families.session import Session

    assert isinstance(session, Session)
    return "\n".join(session.presenter.summary())
