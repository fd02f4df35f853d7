"""Bestiary and party files (docs/reference/file-format.md): reading one, telling its family, checking it alone.

A bestiary holds ``[[stat_blocks]]``, a party ``[[combatants]]`` (whole sheets); either may start with a
``[bestiary]`` or ``[party]`` table of ``name``, ``system`` and ``notes``. `tracker.store.campaign.blocks` reads them
for an encounter; `tracker check` and `tracker carry` check one on its own, as its family's sheets.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tracker.engine.errors import Invalid
from tracker.engine.records.model import Loc
from tracker.families.file import seat_problems
from tracker.families.registry import FAMILIES, family_named
from tracker.store.reading import FileInvalid, Problem, toml_data, validation_problems
from tracker.store.tomlpos import Locator, Origin, Positions, Source
from tracker.store.writers import fix, others_may_change

#: The two kinds of file an encounter takes from: its header table and its list of sheets.
KINDS = {"bestiary": "stat_blocks", "party": "combatants"}
#: What the header table of a bestiary or party file may hold.
HEADER_KEYS = ("name", "system", "notes")


@dataclass
class Included:
    """A bestiary or party file as read: its sheets and where each of its keys sits."""

    file: str
    kind: str
    rows: list[dict[str, Any]]
    pos: Positions
    declared: str | None
    #: A party file's ``[seats]`` (docs/guide/seating.md): the encounter's own ``[seats]`` go over these per account.
    seats: dict[str, Any] | None = None


def read_include(text: str, file: str, kind: str, problems: list[Problem], alone: bool = False) -> Included | None:
    """A bestiary or party file's sheets; None when its TOML cannot be read. Problems of its shape (unknown
    tables, a bad header) are added to `problems`, each at its line in `file` (in the file being read when
    it is checked `alone`)."""
    at_file = None if alone else file
    try:
        doc = toml_data(text, file)
    except FileInvalid as exc:  # syntax, nesting too deep, a number too long: at its line in `file`
        problems.extend(Problem(q.line, q.col, q.message, file=at_file) for q in exc.problems)
        return None
    pos = Positions(text)
    rows_key = KINDS[kind]
    declared: str | None = None
    rows: list[dict[str, Any]] = []
    seats: dict[str, Any] | None = None

    def bad(loc: Loc, message: str) -> None:
        line, col = pos.find(loc)
        problems.append(Problem(line, col, message, file=at_file))

    for key, value in doc.items():
        if key == kind and isinstance(value, dict):
            for k, v in value.items():
                if k not in HEADER_KEYS:
                    bad((kind, k), f"unknown key '{k}' (a [{kind}] table holds {', '.join(HEADER_KEYS)})")
                elif k == "system" and v not in FAMILIES:
                    bad((kind, k), f"{kind}.system: must be {' or '.join(map(repr, FAMILIES))} (got {v!r})")
                elif k == "system":
                    declared = str(v)
                elif not isinstance(v, str):
                    bad((kind, k), f"{kind}.{k}: must be text (got {v!r})")
        elif key == rows_key and isinstance(value, list) and all(isinstance(r, dict) for r in value):
            rows = value
        elif key == "seats" and kind == "party" and isinstance(value, dict):
            seats = value
        elif key in (kind, rows_key):
            bad((key,), f"{key} must be {'a [' + kind + '] table' if key == kind else '[[' + key + ']] tables'}")
        else:
            held = f"[{kind}], [[{rows_key}]]" + (" and [seats]" if kind == "party" else "")
            bad((key,), f"unknown key '{key}' (a {kind} file holds {held})")
    return Included(file, kind, rows, pos, declared, seats)


def fits(
    system: str, rows: list[dict[str, Any]], header: Mapping[str, Any] | None = None, settings: object = None
) -> bool:
    """Whether `rows` are valid sheets for `system` (under the encounter's header and settings when given)."""
    try:
        family_named(system).validate_setup(sheets_document(system, rows, header, settings))
    except Invalid:
        return False
    return True


def sheets_document(
    system: str, rows: list[Any], header: Mapping[str, Any] | None = None, settings: object = None
) -> dict[str, Any]:
    """A document that validates `rows` as `system`'s stat blocks: sheets checked one by one, not against the
    zones or names of an encounter (a party's characters meet those in each encounter that takes them)."""
    own = {k: v for k, v in (header or {}).items() if k not in ("bestiary", "party")}
    doc: dict[str, Any] = {"encounter": own or {"name": "sheets", "system": system}, "stat_blocks": rows}
    if settings is not None:
        doc["settings"] = settings
    return doc


def shown_path(path: str, ref: str) -> str:
    """How messages name the file `ref` (relative to the folder of `path`): from where the user stands."""
    return os.path.normpath(os.path.join(os.path.dirname(path), ref))


def check_include(text: str, path: str) -> list[Problem] | None:
    """`tracker check` of a bestiary or party file on its own; None when `text` is not one (an encounter).

    Its sheets are checked as the family its ``system`` names; without one, as the family they are valid
    for (or, when none, the one that finds the fewest problems). Names must be unique, ignoring case.
    """
    try:
        doc = toml_data(text, path)
    except FileInvalid:
        return None  # the encounter loader reports it
    if "encounter" in doc:
        return None
    if "bestiary" in doc or "stat_blocks" in doc:
        kind = "bestiary"
    elif "party" in doc or "combatants" in doc:
        kind = "party"
    else:
        return None
    problems: list[Problem] = []
    book = read_include(text, path, kind, problems, alone=True)
    assert book is not None  # the text parsed above
    systems = [book.declared] if book.declared else [name for name in FAMILIES if fits(name, book.rows)]
    if not systems:
        systems = sorted(FAMILIES, key=lambda name: len(sheet_problems(name, book)))
    problems += party_seat_problems(book)
    loose = others_may_change(path)
    if loose is not None:  # as an encounter taking it would refuse it (`tracker.store.campaign.blocks`)
        held = "sheets and [seats]" if kind == "party" else "stat blocks"
        problems.append(
            Problem(
                1,
                1,
                f"{path} {loose}: another account could change its {held}; encounters will not use it "
                f"({fix(path)}, or keep it in a folder only you can write)",
            )
        )
    return sorted([*problems, *sheet_problems(systems[0], book)], key=Problem.order)


def party_seat_problems(book: Included) -> list[Problem]:
    """A party file's ``[seats]`` checked on its own, against its own characters (docs/guide/seating.md)."""
    seats = book.seats or {}
    problems: list[Problem] = []
    for account, value in seats.items():
        if not isinstance(value, str) and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            line, col = book.pos.find(("seats", account))
            problems.append(Problem(line, col, f"seats.{account}: a character's name or a list of names"))
    if problems:
        return problems
    people = [str(r["name"]) for r in book.rows if isinstance(r.get("name"), str)]
    return [Problem(*book.pos.find(loc), message) for loc, message in seat_problems(seats, people)]


def sheet_problems(system: str, book: Included) -> list[Problem]:
    """Each sheet of `book` checked as `system`'s, and its names unique; positions in `book`'s own file."""
    rows_key = KINDS[book.kind]
    origins: dict[Loc, Origin] = {
        ("stat_blocks", j): Origin(Source(None, book.pos, (rows_key, j), frozenset(r))) for j, r in enumerate(book.rows)
    }
    doc = sheets_document(system, book.rows)
    problems: list[Problem] = []
    try:
        family_named(system).validate_setup(doc)
    except Invalid as exc:
        problems = validation_problems(exc, Locator(book.pos, origins), doc)
    seen: set[str] = set()
    for j, row in enumerate(book.rows):
        name = row.get("name")
        if isinstance(name, str):
            if name.casefold() in seen:
                line, col = book.pos.find((rows_key, j, "name"))
                what = "stat blocks" if book.kind == "bestiary" else "characters"
                problems.append(Problem(line, col, f"two {what} are named '{name}'"))
            seen.add(name.casefold())
    return problems
