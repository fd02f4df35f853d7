"""Where each key of a TOML file sits, so validation errors can say ``FILE:LINE:COL``.

`tomllib` gives values but no positions. This scanner walks the lines once and records the position
of every table header and every ``key =`` (inline tables included) under its full path, with array
of tables entries numbered as pydantic numbers them (``combatants.2.rank_value``).
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import NamedTuple

Path = tuple[str | int, ...]

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_\-\.]+)\s*=""")
_INLINE_KEY = re.compile(r"""[{,]\s*("[^"]*"|'[^']*'|[A-Za-z0-9_\-]+)\s*=""")
_ELEMENT_KEY = re.compile(r"""\s*("[^"]*"|'[^']*'|[A-Za-z0-9_\-]+)\s*=""")


def _split_key(text: str) -> list[str]:
    parts = re.findall(r'"[^"]*"|\'[^\']*\'|[^.\s]+', text)
    return [p.strip("\"'") for p in parts]


class Positions:
    """Map from key paths to (line, column), both 1-based.

    The text is scanned when a position is first asked for: a file that loads without a problem never
    needs one, and the scan is a few per cent of a start-up.
    """

    def __init__(self, text: str) -> None:
        self._text = text

    @cached_property
    def where(self) -> dict[Path, tuple[int, int]]:
        """Every table header's and key's position, by key path."""
        return self._scan()

    def _scan(self) -> dict[Path, tuple[int, int]]:
        text = self._text
        where: dict[Path, tuple[int, int]] = {}
        counters: dict[tuple[str, ...], int] = {}
        table: Path = ()
        array: _Array | None = None
        #: The delimiter of a multi-line string being read (``"""`` or ``'''``): its lines are text, not
        #: keys or headers, whatever they look like (a ``[[combatants]]`` line in a note).
        closing: str | None = None
        for lineno, line in enumerate(text.splitlines(), 1):
            if closing is not None:
                if closing in line:
                    closing = None
                continue
            if array is not None:
                # Still inside a multi-line array value: only its inline tables have positions.
                array.scan(where, lineno, line, 0)
                if array.depth <= 0:
                    array = None
                continue
            header = _HEADER.match(line)
            if header and not _KEY.match(line):
                names = _split_key(header.group(2))
                col = line.index("[") + 1
                if header.group(1) == "[[":
                    prefix = tuple(names)
                    counters[prefix] = counters.get(prefix, -1) + 1
                    # A new entry starts its own nested arrays of tables at 0 again.
                    for nested in [k for k in counters if len(k) > len(prefix) and k[: len(prefix)] == prefix]:
                        del counters[nested]
                    table = self._array_path(names, counters)
                else:
                    table = self._array_path(names, counters, array=False)
                where.setdefault(table, (lineno, col))
                continue
            key = _KEY.match(line)
            if not key:
                continue
            path = (*table, *_split_key(key.group(1)))
            where.setdefault(path, (lineno, key.start(1) + 1))
            value = line[key.end() :].lstrip()
            if value[:3] in ('"""', "'''") and value[:3] not in value[3:]:
                closing = value[:3]
                continue
            brace = line.find("{", key.end())
            if brace != -1:
                for inner in _INLINE_KEY.finditer(line, brace):
                    where.setdefault((*path, inner.group(1).strip("\"'")), (lineno, inner.start(1) + 1))
            if line[key.end() :].lstrip().startswith("["):
                # An array value: number its elements as pydantic does (``hand.1``, ``weapons.1.damage``).
                found = _Array(path)
                found.scan(where, lineno, line, key.end())
                if found.depth > 0:
                    array = found
        return where

    @staticmethod
    def _array_path(names: list[str], counters: dict[tuple[str, ...], int], array: bool = True) -> Path:
        """Insert the current index after every name that is an array of tables."""
        out: list[str | int] = []
        for i in range(len(names)):
            out.append(names[i])
            prefix = tuple(names[: i + 1])
            is_last = i == len(names) - 1
            if prefix in counters and (not is_last or array):
                out.append(counters[prefix])
        return tuple(out)

    @cached_property
    def folded(self) -> dict[Path, Path]:
        """Each key path with its keys in lower case, to the path as the file wrote it (the first, if two fold
        alike): field names ignore case (docs/reference/file-format.md), so a validated document knows ``Wounds`` as
        ``wounds``."""
        out: dict[Path, Path] = {}
        for path in self.where:
            out.setdefault(_fold(path), path)
        return out

    def written(self, loc: Path) -> Path:
        """`loc` as the file spelt it: a key folded to lower case back in the case it was written in."""
        if loc in self.where:
            return loc
        for end in range(len(loc), 0, -1):
            hit = self.folded.get(_fold(loc[:end]))
            if hit is not None:
                return (*hit, *loc[end:])
        return loc

    def find(self, loc: Path) -> tuple[int, int]:
        """The position of the longest known prefix of `loc`, whatever the case of its keys (the file start
        if none)."""
        for end in range(len(loc), 0, -1):
            hit = self.where.get(tuple(loc[:end]))
            if hit:
                return hit
            spelt = self.folded.get(_fold(loc[:end]))
            if spelt is not None:
                return self.where[spelt]
        return (1, 1)


def _fold(path: Path) -> Path:
    return tuple(p.lower() if isinstance(p, str) else p for p in path)


class _Array:
    """An array value being scanned, possibly over several lines: where each of its elements starts
    (``hand.1`` for the second card), and the keys of its inline tables (``weapons.0.damage``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.depth = 0
        self.braces = 0
        self.index = 0
        #: Whether the current element's position is recorded (an element may span lines).
        self.started = False

    def scan(self, where: dict[Path, tuple[int, int]], lineno: int, line: str, start: int) -> None:
        i = start
        while i < len(line):
            ch = line[i]
            if ch in "\"'":
                self._element(where, lineno, i)
                i = _string_end(line, i)
                continue
            if ch == "#":
                return
            if ch == "[":
                if self.depth >= 1:
                    self._element(where, lineno, i)
                self.depth += 1
            elif ch == "]":
                self.depth -= 1
                if self.depth <= 0:
                    return
            elif ch == "{":
                self._element(where, lineno, i)
                self.braces += 1
                if self.braces == 1 and self.depth == 1:
                    self._key(where, lineno, line, i + 1)
            elif ch == ",":
                if self.braces == 0 and self.depth == 1:
                    self.index += 1
                    self.started = False
                elif self.braces == 1 and self.depth == 1:
                    self._key(where, lineno, line, i + 1)
            elif ch == "}":
                self.braces -= 1
            elif not ch.isspace():
                self._element(where, lineno, i)
            i += 1

    def _element(self, where: dict[Path, tuple[int, int]], lineno: int, at: int) -> None:
        """Record where the current top-level element starts, once."""
        if self.depth == 1 and self.braces == 0 and not self.started:
            where.setdefault((*self.path, self.index), (lineno, at + 1))
            self.started = True

    def _key(self, where: dict[Path, tuple[int, int]], lineno: int, line: str, at: int) -> None:
        key = _ELEMENT_KEY.match(line, at)
        if key:
            where.setdefault((*self.path, self.index, key.group(1).strip("\"'")), (lineno, key.start(1) + 1))


def _string_end(line: str, i: int) -> int:
    """The index just past the string starting at `i` (basic strings honour backslash escapes)."""
    quote = line[i]
    j = i + 1
    while j < len(line):
        if quote == '"' and line[j] == "\\":
            j += 2
            continue
        if line[j] == quote:
            return j + 1
        j += 1
    return len(line)


class Source(NamedTuple):
    """One table as its file wrote it: the file (None: the file being read), its key positions, the table's
    key path in it (``("stat_blocks", 2)``) and the keys it wrote."""

    file: str | None
    pos: Positions
    at: Path
    keys: frozenset[str] = frozenset()


class Origin(NamedTuple):
    """Where one combatant or stat block of an expanded encounter was written (docs/reference/file-format.md).

    A combatant made ``from`` a stat block has two sources: its own entry and the block. A key the entry wrote
    is the entry's; a key only the block has is the block's. `name_key` is the key that made its name: ``name``,
    or for a name the tracker made, ``count`` (``Guild Thug 2``) or ``from`` (the block's name).
    """

    entry: Source
    block: Source | None = None
    name_key: str = "name"

    def source_of(self, key: str | int) -> tuple[Source, str | int]:
        """The source that wrote `key` of this table, and the key as that source wrote it."""
        if key == "name" and self.name_key != "name":
            return self.entry, self.name_key
        if key not in self.entry.keys and self.block is not None and key in self.block.keys:
            return self.block, key
        return self.entry, key


class Locator:
    """Where a key of the validated document was written: which file, which key path there, which line.

    For a plain encounter file that is the file itself (`Positions`); the loader of an encounter with stat
    blocks or a party adds the `Origin` of each table it built, so a problem with ``Guild Thug 2``'s wounds is
    reported at the bestiary line that gave them.
    """

    def __init__(self, pos: Positions, origins: dict[Path, Origin] | None = None) -> None:
        self.pos = pos
        self.origins = origins or {}

    def place(self, loc: Path) -> tuple[str | None, Path, tuple[int, int]]:
        """(file or None for the file being read, the key path in that file, its line and column)."""
        origin = self.origins.get(tuple(loc[:2]))
        if origin is None:
            local = self.pos.written(tuple(loc))
            return None, local, self.pos.find(local)
        source, rest = origin.entry, tuple(loc[2:])
        if rest:
            source, first = origin.source_of(rest[0])
            rest = (first, *rest[1:])
        local = source.pos.written((*source.at, *rest))
        return source.file, local, source.pos.find(local)
