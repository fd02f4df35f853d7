"""Following an encounter file as a fight rewrites it (`tracker view`): the setup is validated once.

While a fight plays, every save rewrites only the live part of the file, ``[state]`` and ``[history]``; the
setup above them is the GM's text, written back byte for byte (`tracker.store.save`, docs/reference/file-format.md). A
viewer reads the file after every command, and a full load (`files.parse_parts`) parses, positions,
expands (party, bestiary) and validates that unchanged setup each time, then checks the live state
against it (`files.live_problems`). `Follower.load` does that full load once, keeps the validated setup
and the bytes it came from, and for each later text that starts with those same bytes it parses only the
live part and checks only it: its types, ``[state]`` and ``[history]`` together, every combatant of the
setup in the saved fight, and the state one the family can resume (the same checks as a full load, in
the same functions).

**When the kept setup is used.** All of these must hold, else the text gets the full load:

* the text starts with the kept setup text: what `split_setup` cut from a file the full load accepted,
  which parses to that file's setup and ends a line (so nothing of it is open where the live part
  starts), and which every save of the fight writes first (`tracker.store.save`);
* what follows (the live part) opens with a table header, or is empty, and on its own parses to
  ``state`` and ``history`` tables only (`_Live`): then the whole file's data is the setup's plus the
  live part's, exactly;
* the setup does not depend on anything outside those bytes: it names no party or bestiary and makes
  no combatant with ``from``/``count``, or its saved fight reads the sheets kept in ``[history]``
  (`blocks.frozen_sheets`), and those are the same sheets as before. A setup expanded from the party
  and bestiary files themselves (no fight saved yet) is never kept, since those files may change.

**Errors are the full load's.** Anything wrong on the quick path (a syntax error in the live part, a
wrong type, a state that does not resume) sends the text to the full load, which reports it as it
always has, at its line; so a viewer's notices, and the player view's silence about what is wrong, do
not change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tracker.engine.errors import Invalid
from tracker.engine.records.model import History, Strict
from tracker.engine.records.record import copied, record, validate
from tracker.families.file import EncounterFile
from tracker.store import files
from tracker.store.campaign.blocks import uses_other_files
from tracker.store.setup_text import split_setup


@record
class _Live(Strict):
    """The live tables as `EncounterFile` types them: the state a table (the family checks it when it
    resumes), the history a `History`; any other table is an unknown key (`Strict`)."""

    state: dict[str, object] | None = None
    history: History | None = None


@dataclass(frozen=True)
class _Kept:
    """A setup validated by a full load: its bytes, its model (no live part), what the quick path checks."""

    text: str
    setup: EncounterFile
    #: The validated document's ``combatants`` (after any expansion): a saved fight must know each one.
    people: Mapping[str, Any]
    #: The ``[history] sheets`` the setup was expanded from (None for a setup that uses no other files).
    sheets: object


class Follower:
    """Loads successive texts of one encounter file, validating its setup only when its bytes change."""

    def __init__(self, path: str | Path, folder: Path | None = None) -> None:
        self.path = str(path)
        self.folder = folder
        self._kept: _Kept | None = None
        #: How the last `load` went: "full" or "live" (for tests and benchmarks).
        self.last = ""

    def load(self, text: str) -> EncounterFile:
        """The encounter `text` holds, exactly as `files.parse_text` gives it (FileInvalid the same way)."""
        if self._kept is not None:
            quick = _resume(self._kept, text)
            if quick is not None:
                self.last = "live"
                return quick
        parsed = files.parse_parts(text, self.path, self.folder)
        self.last = "full"
        self._kept = _keep(parsed, text)
        return parsed.setup


def _keep(parsed: files.Parsed, text: str) -> _Kept | None:
    """What a later text may reuse of this full load (None when nothing: see the module docstring)."""
    history = parsed.data.get("history")
    sheets = history.get("sheets") if isinstance(history, dict) else None
    if uses_other_files(parsed.data) and not isinstance(sheets, dict):
        return None  # expanded from the party and bestiary files, which may change under the same bytes
    split = split_setup(text)
    if split.setup is None:
        return None
    setup = copied(parsed.setup, state=None, history=None)
    return _Kept(split.setup, setup, {"combatants": parsed.grown.get("combatants")}, sheets)


def _resume(kept: _Kept, text: str) -> EncounterFile | None:
    """The kept setup with `text`'s live part, or None when `text` needs the full load."""
    if not text.startswith(kept.text) or files.too_large(text):
        return None
    live_text = text[len(kept.text) :]
    if not _opens_with_table(live_text):
        return None
    try:
        live = files.toml_data(live_text, "")
    except files.FileInvalid:
        return None
    history = live.get("history")
    if (history.get("sheets") if isinstance(history, dict) else None) != kept.sheets:
        return None
    try:
        parts = validate(_Live, live)  # any table but [state] and [history] is an error here
    except Invalid:
        return None
    setup = copied(kept.setup, state=parts.state, history=parts.history)
    if files.unsaved_combatants(kept.people, setup.state) or files.live_problems(setup, text):
        return None
    return setup


def _opens_with_table(text: str) -> bool:
    """Whether the first line of `text` that is not blank or a comment opens a table (or there is none).

    A key before the first header would belong, in the whole file, to the setup's last table."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        line = text[start : len(text) if end < 0 else end].strip()
        if line and not line.startswith("#"):
            return line.startswith("[")
        if end < 0:
            break
        start = end + 1
    return True
