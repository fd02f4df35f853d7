"""Stat blocks and parties (CONTRACT.md §2.1): what an encounter takes from other files, before validation.

An encounter may name a ``bestiary`` (files of ``[[stat_blocks]]``) and a ``party`` (a file of
``[[combatants]]``: the players' characters, shared by the encounters of a campaign). The loader turns the
GM's document into the one the rule family validates:

* the party's characters come first among the combatants, as the party file lists them;
* each ``[[combatants]]`` entry with ``from = NAME`` takes that stat block's fields (the name ignores case),
  its own fields replacing the block's (a table such as ``conditions`` is replaced whole, not merged);
* ``count = N`` makes N of an entry, numbered after its name: ``Guild Thug 1`` … ``Guild Thug N`` (with
  ``name = "Thug"`` given too, ``Thug 1`` … ``Thug N``); it works on any encounter entry, ``from`` or not;
* the blocks of the bestiary files join the encounter's own ``[[stat_blocks]]`` in the family file's
  ``stat_blocks`` (what ``join`` reads during play).

Every problem is reported in the file at fault (`Problem.file`): a missing bestiary or an unknown block at
the encounter's key that names it, an unknown key of a block at its line in the bestiary. The `Locator` of
the result remembers where each combatant and block was written, so the family's own checks ("Guild Thug
2's wounds") point at the line that wrote the value too.

A bestiary or party file may start with a ``[bestiary]`` or ``[party]`` table (``name``, ``system``,
``notes``); with a ``system`` the wrong family's file is one clear error, and without it the tracker tells by
whether its sheets are valid for the encounter's family or for another.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tracker.rules.families import FAMILIES, family_named
from tracker.rules.model import Loc
from tracker.store.files import Problem, syntax_problem, validation_problems
from tracker.store.tomlpos import Locator, Origin, Positions, Source

#: The two kinds of file an encounter takes from: its header table and its list of sheets.
KINDS = {"bestiary": "stat_blocks", "party": "combatants"}
#: What the header table of a bestiary or party file may hold.
HEADER_KEYS = ("name", "system", "notes")
#: Keys of an encounter's ``[[combatants]]`` entry that the loader reads and no sheet has.
ENTRY_KEYS = ("from", "count")
#: The most one ``count`` makes: a guard against a typo (``count = 300``), far above any table's fight.
MAX_COUNT = 99


@dataclass
class Grown:
    """The encounter as the family validates it, where each part was written, and what went wrong."""

    data: dict[str, Any]
    locator: Locator
    problems: list[Problem] = field(default_factory=list)


@dataclass
class Included:
    """A bestiary or party file as read: its sheets and where each of its keys sits."""

    file: str
    kind: str
    rows: list[dict[str, Any]]
    pos: Positions
    declared: str | None


def uses_other_files(data: Mapping[str, Any]) -> bool:
    """Whether the document names a bestiary or party, has stat blocks, or an entry with ``from``/``count``."""
    header = data.get("encounter")
    entries = data.get("combatants")
    return (
        (isinstance(header, dict) and ("bestiary" in header or "party" in header))
        or "stat_blocks" in data
        or (isinstance(entries, list) and any(isinstance(e, dict) and set(e) & set(ENTRY_KEYS) for e in entries))
    )


def expand(data: dict[str, Any], path: str, folder: Path, pos: Positions) -> Grown:
    """The document with its party, stat blocks and counts expanded (the same object when it uses none)."""
    header = data.get("encounter")
    if not isinstance(header, dict) or not uses_other_files(data):
        return Grown(data, Locator(pos))
    kept = frozen_sheets(data, pos)
    if kept is not None:
        return kept
    system = header.get("system") if header.get("system") in FAMILIES else None
    problems: list[Problem] = []
    reader = _Reader(path, folder, pos, header, data.get("settings"), system, problems)
    bestiary = header.get("bestiary", [])
    refs = [bestiary] if isinstance(bestiary, str) else bestiary
    books: list[Included] = []
    # A bestiary that cannot be read makes its blocks unknown: the entries that name them say nothing more.
    lost = not isinstance(refs, list)
    for n, ref in enumerate(refs if isinstance(refs, list) else []):
        at: Loc = ("encounter", "bestiary") if isinstance(bestiary, str) else ("encounter", "bestiary", n)
        book = reader.include(ref, at, "bestiary")
        lost = lost or book is None
        if book is not None:
            books.append(book)
    party = reader.include(header["party"], ("encounter", "party"), "party") if "party" in header else None

    origins: dict[Loc, Origin] = {}
    blocks, index = _gather_blocks(data, books, path, pos, origins, problems)
    people: list[Any] = []
    counted: list[tuple[int, Source, int]] = []
    if party is not None:
        for k, row in enumerate(party.rows):
            source = Source(party.file, party.pos, ("combatants", k), frozenset(row))
            extra = [key for key in ENTRY_KEYS if key in row]
            if extra:
                line, col = party.pos.find(("combatants", k, extra[0]))
                message = f"a party file holds whole character sheets: '{extra[0]}' belongs in an encounter"
                problems.append(Problem(line, col, message, file=party.file))
                continue
            origins[("combatants", len(people))] = Origin(source)
            people.append(row)
    entries = data.get("combatants", [])
    for k, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict):
            origins[("combatants", len(people))] = Origin(Source(None, pos, ("combatants", k)))
            people.append(entry)
            continue
        made = _entry(entry, k, pos, index, lost, problems)
        if made is None:
            continue
        row, origin = made
        if "count" in entry:
            for i in range(1, int(entry["count"]) + 1):
                counted.append((len(people), origin.entry, int(entry["count"])))
                origins[("combatants", len(people))] = origin
                people.append({**row, "name": f"{row['name']} {i}"})
        else:
            origins[("combatants", len(people))] = origin
            people.append(row)
    people, origins = _drop_count_clashes(people, origins, counted, pos, problems)
    grown = {**data, "combatants": people}
    if blocks or "stat_blocks" in data:
        grown["stat_blocks"] = blocks
    return Grown(grown, Locator(pos, origins), problems)


def frozen_sheets(data: dict[str, Any], pos: Positions) -> Grown | None:
    """A saved fight's own sheets (``[history] sheets``, `History.sheets`), when it has them: the combatants and
    stat blocks it started with, read instead of the party and bestiary files, which may have changed since
    (``tracker carry`` writes the party's). Their problems are at their lines in ``[history]``."""
    history = data.get("history")
    sheets = history.get("sheets") if isinstance(history, dict) else None
    if not isinstance(sheets, dict):
        return None
    origins: dict[Loc, Origin] = {}
    grown = dict(data)
    for key in ("combatants", "stat_blocks"):
        rows = sheets.get(key, [])
        grown[key] = rows
        for n, row in enumerate(rows if isinstance(rows, list) else []):
            keys = frozenset(row) if isinstance(row, dict) else frozenset()
            origins[(key, n)] = Origin(Source(None, pos, ("history", "sheets", key, n), keys))
    return Grown(grown, Locator(pos, origins))


def _entry(
    entry: dict[str, Any],
    k: int,
    pos: Positions,
    index: dict[str, tuple[dict[str, Any], Source]],
    lost: bool,
    problems: list[Problem],
) -> tuple[dict[str, Any], Origin] | None:
    """One encounter entry as a sheet (its block's fields under its own) and its origin; None when it is bad."""

    def refuse(key: str, message: str) -> None:
        line, col = pos.find(("combatants", k, key))
        problems.append(Problem(line, col, message))

    own = {key: value for key, value in entry.items() if key not in ENTRY_KEYS}
    source = Source(None, pos, ("combatants", k), frozenset(own))
    block: Source | None = None
    row = own
    name_key = "name"
    if "from" in entry:
        wanted = entry["from"]
        if not isinstance(wanted, str) or not wanted.strip():
            refuse("from", f"from: must be the name of a stat block (got {wanted!r})")
            return None
        hit = index.get(wanted.strip().casefold())
        if hit is None:
            if not lost:
                refuse("from", unknown_block(wanted, [str(b["name"]) for b, _ in index.values()]))
            return None
        found, block = hit
        row = {**found, **own}
        if "name" not in own:
            name_key = "from"
    if "count" in entry:
        n = entry["count"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_COUNT:
            refuse("count", f"count: must be a whole number from 1 to {MAX_COUNT} (got {n!r})")
            return None
        if not isinstance(row.get("name"), str) or not row["name"].strip():
            refuse("count", "count numbers a name: give the entry a name, or a stat block with from")
            return None
        name_key = "count"
    return row, Origin(source, block, name_key)


def unknown_block(name: str, known: list[str]) -> str:
    """Why `name` names no stat block: the close match if there is one, else the blocks there are."""
    if not known:
        return f"no stat block named '{name}': the encounter has no bestiary and no [[stat_blocks]]"
    folded = {k.casefold(): k for k in known}
    close = difflib.get_close_matches(name.strip().casefold(), list(folded), n=1, cutoff=0.6)
    if close:
        return f"no stat block named '{name}' (did you mean '{folded[close[0]]}'?)"
    listed = ", ".join(known[:8]) + (" …" if len(known) > 8 else "")
    return f"no stat block named '{name}' (known: {listed})"


def _gather_blocks(
    data: Mapping[str, Any],
    books: list[Included],
    path: str,
    pos: Positions,
    origins: dict[Loc, Origin],
    problems: list[Problem],
) -> tuple[list[Any], dict[str, tuple[dict[str, Any], Source]]]:
    """The encounter's own ``[[stat_blocks]]`` then each bestiary's, and the blocks by name (ignoring case).

    A second block of the same name is an error at its ``name`` (the first one stays)."""
    inline = data.get("stat_blocks", [])
    sources: list[tuple[Any, Source]] = [
        (b, Source(None, pos, ("stat_blocks", j), frozenset(b) if isinstance(b, dict) else frozenset()))
        for j, b in enumerate(inline if isinstance(inline, list) else [])
    ]
    for book in books:
        sources += [(b, Source(book.file, book.pos, ("stat_blocks", j), frozenset(b))) for j, b in enumerate(book.rows)]
    blocks: list[Any] = []
    index: dict[str, tuple[dict[str, Any], Source]] = {}
    for block, source in sources:
        name = block.get("name") if isinstance(block, dict) else None
        if isinstance(name, str) and name.strip():
            key = name.strip().casefold()
            if key in index:
                first = index[key][1]
                line, col = source.pos.find((*source.at, "name"))
                there = ":".join(map(str, first.pos.find((*first.at, "name"))))
                message = f"two stat blocks are named '{name}' (the first at {first.file or path}:{there})"
                problems.append(Problem(line, col, message, file=source.file))
                continue
            assert isinstance(block, dict)
            index[key] = (block, source)
        origins[("stat_blocks", len(blocks))] = Origin(source)
        blocks.append(block)
    return blocks, index


def _drop_count_clashes(
    people: list[Any],
    origins: dict[Loc, Origin],
    counted: list[tuple[int, Source, int]],
    pos: Positions,
    problems: list[Problem],
) -> tuple[list[Any], dict[Loc, Origin]]:
    """A name that ``count`` made and another combatant has too is an error at that ``count`` (one per entry),
    and the made one is left out, so the names left are checked as the file wrote them."""
    made = {i for i, _, _ in counted}
    taken = {
        p["name"].casefold()
        for i, p in enumerate(people)
        if i not in made and isinstance(p, dict) and isinstance(p.get("name"), str)
    }
    reported: set[Loc] = set()
    dropped: set[int] = set()
    for i, source, n in counted:
        name = str(people[i]["name"])
        if name.casefold() in taken:
            dropped.add(i)
            if source.at not in reported:
                reported.add(source.at)
                line, col = pos.find((*source.at, "count"))
                problems.append(Problem(line, col, f"count = {n} makes '{name}', which is already a combatant's name"))
        taken.add(name.casefold())
    if not dropped:
        return people, origins
    kept = [i for i in range(len(people)) if i not in dropped]
    moved = {("combatants", new): origins[("combatants", old)] for new, old in enumerate(kept)}
    rest = {loc: o for loc, o in origins.items() if loc[0] != "combatants"}
    return [people[i] for i in kept], rest | moved


@dataclass
class _Reader:
    """Reads the files an encounter names, relative to its folder, reporting each problem where it is."""

    path: str
    folder: Path
    pos: Positions
    header: Mapping[str, Any]
    settings: object
    system: str | None
    problems: list[Problem]

    def include(self, ref: object, at: Loc, kind: str) -> Included | None:
        """The bestiary or party file `ref` (named at key `at` of the encounter), or None when it is unusable."""
        if not isinstance(ref, str) or not ref.strip():
            return None  # the header's validation says what the key takes
        shown = shown_path(self.path, ref)
        line, col = self.pos.find(at)
        try:
            text = (self.folder / ref).read_text(encoding="utf-8")
        except FileNotFoundError:
            self.problems.append(Problem(line, col, f"no such {kind} file: {shown}"))
            return None
        except IsADirectoryError:
            self.problems.append(Problem(line, col, f"{kind} {shown} is a folder, not a file"))
            return None
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.problems.append(Problem(line, col, f"cannot read {kind} file {shown}: {reason}"))
            return None
        book = read_include(text, shown, kind, self.problems)
        if book is None:
            return None
        other = book.declared or (self.guess(book) if self.system else None)
        if self.system is not None and other is not None and other != self.system:
            self.problems.append(Problem(line, col, f"{shown} is a {other} {kind}; this encounter is {self.system}"))
            return None
        return book

    def guess(self, book: Included) -> str | None:
        """The other family whose sheets `book` holds, when they are not valid for the encounter's; else None."""
        if not book.rows or fits(self.system or "", book.rows, self.header, self.settings):
            return None
        return next((name for name in FAMILIES if name != self.system and fits(name, book.rows)), None)


def read_include(text: str, file: str, kind: str, problems: list[Problem], alone: bool = False) -> Included | None:
    """A bestiary or party file's sheets; None when its TOML cannot be read. Problems of its shape (unknown
    tables, a bad header) are added to `problems`, each at its line in `file` (in the file being read when
    it is checked `alone`)."""
    at_file = None if alone else file
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(syntax_problem(exc, file=at_file))
        return None
    pos = Positions(text)
    rows_key = KINDS[kind]
    declared: str | None = None
    rows: list[dict[str, Any]] = []

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
        elif key in (kind, rows_key):
            bad((key,), f"{key} must be {'a [' + kind + '] table' if key == kind else '[[' + key + ']] tables'}")
        else:
            bad((key,), f"unknown key '{key}' (a {kind} file holds [{kind}] and [[{rows_key}]])")
    return Included(file, kind, rows, pos, declared)


def fits(
    system: str, rows: list[dict[str, Any]], header: Mapping[str, Any] | None = None, settings: object = None
) -> bool:
    """Whether `rows` are valid sheets for `system` (under the encounter's header and settings when given)."""
    try:
        family_named(system).validate_setup(sheets_document(system, rows, header, settings))
    except ValidationError:
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
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
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
    return sorted([*problems, *sheet_problems(systems[0], book)], key=Problem.order)


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
    except ValidationError as exc:
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
