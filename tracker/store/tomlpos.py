"""Where each key of a TOML file sits, so validation errors can say ``FILE:LINE:COL``.

`tomllib` gives values but no positions, so the positions come from a second parser that keeps every
character of the text: tomlkit (the parser poetry reads ``pyproject.toml`` with), whose document holds the
file's tables, keys and values in the order they were written, each value with its exact text. `_Walk`
follows that document through the text: the key of each pair and the header of each table are where the
document says the next one is, after blanks and comments, and each value is as long as its own text, so a
multi-line string holding a ``[[combatants]]`` line is one value, never a table. Array of tables entries
are numbered as pydantic numbers them (``combatants.2.rank_value``), and so are the elements of an array
(``hand.1``) and the keys of inline tables (``weapons.0.damage``).

Positions are for problems: tomlkit (pure Python, some ten times slower than `tomllib`) is imported when a
position is first asked for, never while a valid file is read (`tests/test_import_hygiene.py`).
"""

from __future__ import annotations

import contextlib
from functools import cached_property
from typing import Any, NamedTuple

Path = tuple[str | int, ...]


class Positions:
    """Map from key paths to (line, column), both 1-based.

    The text is parsed when a position is first asked for: a file that loads without a problem never
    needs one.
    """

    def __init__(self, text: str) -> None:
        self._text = text

    @cached_property
    def where(self) -> dict[Path, tuple[int, int]]:
        """Every table header's and key's position, by key path."""
        return self._scan()

    def _scan(self) -> dict[Path, tuple[int, int]]:
        return _Walk(self._text).where

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


class _Lost(Exception):
    """The text is not where tomlkit's document says the next thing is (a file tomlkit reads otherwise than
    `tomllib`): the positions found so far are kept, the rest fall back to their longest known prefix."""


#: The characters of a bare key (TOML 1.0).
_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


class _Walk:
    """tomlkit's document of `text`, followed through the text (see the module's docstring): `where` holds
    the position of every header and key, by key path."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.where: dict[Path, tuple[int, int]] = {}
        #: Entries of each array of tables seen so far, by its path: the next entry's number.
        self.entries: dict[Path, int] = {}
        #: Where each line starts, for `_place`.
        self.starts = [0, *(i + 1 for i, ch in enumerate(text) if ch == "\n")]
        import tomlkit
        from tomlkit.exceptions import TOMLKitError

        try:
            document = tomlkit.parse(text)
        except (TOMLKitError, ValueError, RecursionError):
            return  # `tomllib` reports the file's syntax; a file only tomlkit refuses has no positions
        with contextlib.suppress(_Lost, IndexError):
            self.container(document.body, ())

    # --- the document -------------------------------------------------------------------------------------

    def container(self, body: list[tuple[Any, Any]], path: Path, inline: bool = False) -> None:
        """The pairs and tables of one table (or `inline` table, whose pairs commas part), in the order they
        were written."""
        from tomlkit.items import AoT, InlineTable, Table

        for key, item in body:
            if key is None:
                continue  # blanks and comments: `blank` steps over them
            inner = (*path, key.key)
            if isinstance(item, AoT):
                for entry in item.body:
                    number = self.entries.get(inner, 0)
                    self.entries[inner] = number + 1
                    self.header(inner, (*inner, number), "[[")
                    self.container(entry.value.body, (*inner, number))
            elif isinstance(item, Table) and not isinstance(item, InlineTable):
                if not key.is_dotted():
                    # A table the file named in a header; one only implied by a longer header
                    # (``[state.fighters.Ann]`` implies ``state.fighters``) has none of its own.
                    self.header(inner, inner, "[", optional=True)
                self.container(item.value.body, inner, inline)
            else:
                self.pair(path, key.key, item, inline)

    def header(self, names: Path, path: Path, opening: str, optional: bool = False) -> None:
        """The header ``[names]`` (or ``[[names]]``) of the table at `path`, next in the text."""
        self.blank()
        start = self.at
        text = self.text
        if not text.startswith(opening, start) or (opening == "[" and text.startswith("[[", start)):
            if optional:
                return
            raise _Lost
        self.at = start + len(opening)
        written = self.key()
        if tuple(written) != tuple(n for n in names if isinstance(n, str)):
            if optional:
                self.at = start
                return
            raise _Lost
        self.spaces()
        closing = "]" * len(opening)
        if not text.startswith(closing, self.at):
            raise _Lost
        self.at += len(closing)
        self.where.setdefault(path, self._place(start))

    def pair(self, path: Path, name: str, item: Any, inline: bool = False) -> None:
        """``key = value``, next in the text: its key (dotted or quoted as written) names `path` + `name`."""
        self.blank(commas=inline)
        start = self.at
        written = self.key()
        if not written or written[-1] != name or not self.text.startswith("=", self.at):
            raise _Lost
        self.at += 1
        self.spaces()
        full = (*path[: len(path) - len(written) + 1], *written)
        place = self._place(start)
        for end in range(len(full) - len(written) + 1, len(full) + 1):  # ``deep.nested.key``: ``deep`` is here too
            self.where.setdefault(full[:end], place)
        self.value(item, full)

    def value(self, item: Any, path: Path) -> None:
        """A value, next in the text: its own text long; the elements of an array and the keys of an inline
        table have their positions too."""
        from tomlkit.items import Array, InlineTable

        start = self.at
        own = item.as_string()
        if not self.text.startswith(own, start):
            raise _Lost
        if isinstance(item, Array):
            self.at = start + 1  # past "["
            for n, element in enumerate(item):
                self.blank(commas=True)
                self.where.setdefault((*path, n), self._place(self.at))
                self.value(element, (*path, n))
        elif isinstance(item, InlineTable):
            self.at = start + 1  # past "{"
            self.container(item.value.body, path, inline=True)
        self.at = start + len(own)

    # --- the text between ---------------------------------------------------------------------------------

    def blank(self, commas: bool = False) -> None:
        """Past blanks, line ends and comments (and commas, between an array's elements)."""
        text, at = self.text, self.at
        while at < len(text):
            ch = text[at]
            if ch in " \t\r\n" or (commas and ch == ","):
                at += 1
            elif ch == "#":
                end = text.find("\n", at)
                at = len(text) if end == -1 else end
            else:
                break
        self.at = at

    def spaces(self) -> None:
        text, at = self.text, self.at
        while at < len(text) and text[at] in " \t":
            at += 1
        self.at = at

    def key(self) -> list[str]:
        """A key as written (``a``, ``"quoted key"``, ``deep.nested.key``), as its names; the text is left past
        it and the blanks after it."""
        text = self.text
        names: list[str] = []
        while True:
            self.spaces()
            at = self.at
            if at >= len(text):
                raise _Lost
            if text[at] in "\"'":
                end = _quoted_end(text, at)
                names.append(_unquoted(text[at:end]))
            else:
                end = at
                while end < len(text) and text[end] in _BARE:
                    end += 1
                if end == at:
                    raise _Lost
                names.append(text[at:end])
            self.at = end
            self.spaces()
            if not text.startswith(".", self.at):
                return names
            self.at += 1

    def _place(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        import bisect

        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def _quoted_end(text: str, at: int) -> int:
    """The index just past the quoted key starting at `at` (a basic string honours backslash escapes)."""
    quote = text[at]
    j = at + 1
    while j < len(text) and text[j] != "\n":
        if quote == '"' and text[j] == "\\":
            j += 2
            continue
        if text[j] == quote:
            return j + 1
        j += 1
    raise _Lost


def _unquoted(key: str) -> str:
    """A quoted key's name: a literal key is its text; a basic one is read with its escapes, as TOML reads it."""
    if key.startswith("'"):
        return key[1:-1]
    import tomllib

    name = tomllib.loads(f"k = {key}")["k"]
    return name if isinstance(name, str) else key[1:-1]


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
