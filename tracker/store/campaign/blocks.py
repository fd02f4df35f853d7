"""Stat blocks and parties (docs/reference/file-format.md): what an encounter takes from other files, before validation.

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
whether its sheets are valid for the encounter's family or for another (`tracker.store.campaign.sheets`).

A fight keeps the sheets it started with in its ``[history]`` (`History.sheets`); a saved fight is read from
those (`frozen_sheets`), never from the shared files, which ``tracker carry`` changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tracker.engine.records.model import Loc
from tracker.families.registry import FAMILIES
from tracker.store.campaign.sheets import Included, fits, read_include, shown_path
from tracker.store.reading import FileInvalid, Problem, Read, read_capped
from tracker.store.tomlpos import Locator, Origin, Positions, Source
from tracker.store.writers import fix, others_may_change

#: Keys of an encounter's ``[[combatants]]`` entry that the loader reads and no sheet has.
ENTRY_KEYS = ("from", "count")
#: The most one ``count`` makes: a guard against a typo (``count = 300``), far above any table's fight.
MAX_COUNT = 99


@dataclass
class Grown:
    """The encounter as the family validates it, where each part was written, and what went wrong: the second
    step of opening a file (`tracker.store.reading.read_document` → `expand` → `tracker.store.files.validated`)."""

    #: The file as read (its text, its own data, its key positions).
    document: Read
    data: dict[str, Any]
    locator: Locator
    problems: list[Problem] = field(default_factory=list)
    #: The other files read (bestiaries, the party) and the text each had: what the expansion depends on
    #: besides the encounter itself (`files.open_text` recalls an expansion only while they are unchanged).
    read: list[tuple[str, str]] = field(default_factory=list)
    #: The party file's ``[seats]`` (docs/guide/seating.md), kept with a fight's sheets (`History.sheets` ``seats``)
    #: so a saved fight keeps its party's seats as it keeps its party's characters; None when it has none.
    party_seats: dict[str, Any] | None = None


def uses_other_files(data: Mapping[str, Any]) -> bool:
    """Whether the document names a bestiary or party, has stat blocks, or an entry with ``from``/``count``."""
    header = data.get("encounter")
    entries = data.get("combatants")
    return (
        (isinstance(header, dict) and ("bestiary" in header or "party" in header))
        or "stat_blocks" in data
        or (isinstance(entries, list) and any(isinstance(e, dict) and set(e) & set(ENTRY_KEYS) for e in entries))
    )


def expand(document: Read) -> Grown:
    """The document with its party, stat blocks and counts expanded (the file's own data when it uses none)."""
    data, path, folder, pos = document.data, document.path, document.folder, document.pos
    header = data.get("encounter")
    if not isinstance(header, dict) or not uses_other_files(data):
        return Grown(document, data, Locator(pos))
    kept = frozen_sheets(document)
    if kept is not None:
        return kept
    system = header.get("system") if header.get("system") in FAMILIES else None
    problems: list[Problem] = []
    reader = _Reader(path, folder, pos, header, data.get("settings"), system, problems, [])
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
    party_seats = party.seats if party is not None else None
    _seat(grown, party_seats)
    if blocks or "stat_blocks" in data:
        grown["stat_blocks"] = blocks
    return Grown(document, grown, Locator(pos, origins), problems, reader.read, party_seats or None)


def _seat(grown: dict[str, Any], party_seats: object) -> None:
    """The party's ``[seats]`` under the encounter's own: for an account both name, the encounter's wins."""
    if isinstance(party_seats, dict) and party_seats:
        own = grown.get("seats")
        grown["seats"] = {**party_seats, **own} if isinstance(own, dict) else party_seats


def frozen_sheets(document: Read) -> Grown | None:
    """A saved fight's own sheets (``[history] sheets``, `History.sheets`), when it has them: the combatants and
    stat blocks it started with, read instead of the party and bestiary files, which may have changed since
    (``tracker carry`` writes the party's). Their problems are at their lines in ``[history]``."""
    data, pos = document.data, document.pos
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
    kept_seats = sheets.get("seats")
    party_seats = kept_seats[0] if isinstance(kept_seats, list) and len(kept_seats) == 1 else None
    _seat(grown, party_seats)
    seats = party_seats if isinstance(party_seats, dict) else None
    return Grown(document, grown, Locator(pos, origins), party_seats=seats)


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
    import difflib  # only for a name that matches no stat block

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
    #: Each file read, with its text (`Grown.read`).
    read: list[tuple[str, str]]

    def include(self, ref: object, at: Loc, kind: str) -> Included | None:
        """The bestiary or party file `ref` (named at key `at` of the encounter), or None when it is unusable."""
        if not isinstance(ref, str) or not ref.strip():
            return None  # the header's validation says what the key takes
        shown = shown_path(self.path, ref)
        try:
            text = read_capped(self.folder / ref)
            self.read.append((str(self.folder / ref), text))
        except FileInvalid as exc:  # too large, or not UTF-8 text
            self.problem(at, f"cannot read {kind} file {shown}: {exc.problems[0].message}")
            return None
        except FileNotFoundError:
            self.problem(at, f"no such {kind} file: {shown}")
            return None
        except IsADirectoryError:
            self.problem(at, f"{kind} {shown} is a folder, not a file")
            return None
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.problem(at, f"cannot read {kind} file {shown}: {reason}")
            return None
        loose = others_may_change(self.folder / ref)
        if loose is not None:
            # Authority only from files the GM alone can write: another account that could change the party
            # file would seat itself at the table, or change a sheet (docs/guide/shared-box.md, docs/guide/seating.md).
            held = "sheets and [seats]" if kind == "party" else "stat blocks"
            self.problem(
                at,
                f"{kind} file {shown} {loose}: another account could change its {held}; "
                f"not used ({fix(shown)}, or keep it in a folder only you can write)",
            )
            return None
        book = read_include(text, shown, kind, self.problems)
        if book is None:
            return None
        other = book.declared or (self.guess(book) if self.system else None)
        if self.system is not None and other is not None and other != self.system:
            self.problem(at, f"{shown} is a {other} {kind}; this encounter is {self.system}")
            return None
        return book

    def problem(self, at: Loc, message: str) -> None:
        """A problem with the encounter's key `at`, at its line: worked out only now, as positions are only for
        problems (`tracker.store.tomlpos`)."""
        line, col = self.pos.find(at)
        self.problems.append(Problem(line, col, message))

    def guess(self, book: Included) -> str | None:
        """The other family whose sheets `book` holds, when they are not valid for the encounter's; else None."""
        if not book.rows or fits(self.system or "", book.rows, self.header, self.settings):
            return None
        return next((name for name in FAMILIES if name != self.system and fits(name, book.rows)), None)
