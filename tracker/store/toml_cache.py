"""TOML text for the live part of the file, written again only where it changed since the last save.

A durable save after each command writes the whole ``[state]`` and ``[history]`` (docs/guide/shared-box.md).
With hundreds of combatants, writing them with tomli_w was most of a keypress's cost
(~8 ms of TOML at 500 combatants), though a `next` changes two combatants and a few lines of
``[state]``. `LiveWriter` keeps, per session, the text of each piece it wrote with the value it wrote
it from, and writes anew only the pieces whose value changed. The result is the very text
``tomli_w.dumps`` writes for the whole document, byte for byte (tests/store/test_toml_cache.py
compares them over many commands): the file a save writes never depends on what was saved before.

**How the pieces are cut.** tomli_w writes a table as its header, its plain keys, then each sub-table
(and array of tables) after a blank line, recursively. `LiveWriter` walks the document the same way
and asks tomli_w itself, through its public `dumps`, for the text of each piece:

- a plain key (``round = 2``, ``log = [ … ]``): the line ``key = value``; an array of strings (the
  log, the history's commands, the deck) is put together from each string's text, kept while the
  string stays in the array (a new log line costs one string, not two hundred);
- a member of a collection (a table whose values are all tables: ``[state.fighters]``): the whole
  member, from its header down, written by tomli_w in one piece (a fighter who did not change is
  not written again);
- an array of tables (``[[state.joined]]``): all of its tables at once.

**Unchanged means the same value of the same types.** Python's ``==`` holds ``1 == True == 1.0``,
which TOML writes differently (``1``, ``true``, ``1.0``): a condition going from ``true`` to ``1``
must change the file. So a piece's value is compared by its JSON text, which keeps each value's type
(``1``, ``true``, ``1.0``) and the order of a table's keys (which the text follows), and costs a fraction of
writing TOML.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import tomli_w

#: A piece's place in the document: the keys down to it.
Path = tuple[str, ...]


def _nest(path: Path, value: Any) -> dict[str, Any]:
    """`value` placed at `path` in an otherwise empty document (tomli_w writes no header for the
    tables on the way down, which hold nothing but the next one)."""
    doc: dict[str, Any] = {path[-1]: value}
    for key in reversed(path[:-1]):
        doc = {key: doc}
    return doc


@functools.cache
def _key_part(key: str) -> str:
    """A key as tomli_w writes it in a line or a header (bare, or quoted); the keys are the models' field
    names and the combatants' names, so the cache stays the size of the encounter."""
    return tomli_w.dumps({key: 0})[: -len(" = 0\n")]


def _string(text: str) -> str:
    """A string as tomli_w writes it as a value."""
    return tomli_w.dumps({"k": text})[len("k = ") : -1]


def _string_array(items: list[str], texts: Mapping[str, str]) -> str:
    """An array of strings as tomli_w writes it at the top of a table, from each string's text."""
    if not items:
        return "[]"
    return "[\n" + ",\n".join("    " + texts[item] for item in items) + ",\n]"


def _shape_holds() -> bool:
    """Whether `_string_array` still writes what tomli_w writes (checked once, on this tomli_w): if a
    tomli_w release wrote arrays otherwise, every array would go through tomli_w instead."""
    sample = ["a", 'b "c"', "d\\e", "ünï", ""]
    return f"k = {_string_array(sample, {s: _string(s) for s in sample})}\n" == tomli_w.dumps({"k": sample})


_ARRAYS_BY_STRING = _shape_holds()


def _is_table(value: Any) -> bool:
    """What tomli_w writes as a table: a mapping (the dumped models' tables are plain dicts, checked first)."""
    return type(value) is dict or isinstance(value, Mapping)


_encode = json.JSONEncoder(check_circular=False, separators=(",", ":")).encode


def _signature(value: Any) -> str | None:
    """The value as text that keeps its types (None: a value JSON cannot write, such as a TOML date, which is
    never taken as unchanged)."""
    try:
        return _encode(value)
    except (TypeError, ValueError):
        return None


class LiveWriter:
    """The live part's text for one session, each piece kept with the value it was written from."""

    def __init__(self) -> None:
        #: Arrays of tables: signature and text, by path.
        self._pieces: dict[Path, tuple[str, str]] = {}
        #: Members of each collection (by the collection's path): signature, text and the value written, by key.
        self._members: dict[Path, dict[str, tuple[str, str, Any]]] = {}
        #: Plain keys' lines by path ("" for a key whose value tomli_w writes as an array of tables).
        self._lines: dict[Path, tuple[str, str]] = {}
        #: The text of each string in an array of strings, by the array's path (only the strings it holds now).
        self._strings: dict[Path, dict[str, str]] = {}

    def dumps(self, document: Mapping[str, Any]) -> str:
        """``tomli_w.dumps(document)``, byte for byte."""
        out: list[str] = []
        self._table(document, (), "", out)
        return "".join(out)

    def _table(self, table: Mapping[str, Any], path: Path, name: str, out: list[str]) -> None:
        """The table at `path` (header `name`) the way tomli_w's table writer lays it out."""
        if path and table and all(_is_table(v) for v in table.values()):
            self._collection(table, path, name, out)
            return
        literals: list[str] = []
        tables: list[tuple[str, Any, bool]] = []  # (key, value, an array of tables)
        for key, value in table.items():
            if _is_table(value):
                tables.append((key, value, False))
                continue
            line = self._literal((*path, key), key, value)
            if line is None:
                tables.append((key, value, True))
            else:
                literals.append(line)
        said = False
        if name and (literals or not tables):
            said = True
            out.append(f"[{name}]\n")
        if literals:
            said = True
            out.extend(literals)
        for key, value, array in tables:
            if said:
                out.append("\n")
            said = True
            if array:
                out.append(self._piece((*path, key), value))  # every [[table]] of the array, at once
            else:
                key_part = _key_part(key)
                self._table(value, (*path, key), f"{name}.{key_part}" if name else key_part, out)

    def _collection(self, table: Mapping[str, Any], path: Path, name: str, out: list[str]) -> None:
        """A table of tables only (``[state.fighters]``): no header, its members one after another (a
        blank line between), each written whole and kept while it stays the same. The loop is `_piece`
        written out: it runs for each of hundreds of combatants after every command."""
        kept = self._members.setdefault(path, {})
        texts = []
        for key, value in table.items():
            piece = kept.get(key)
            if piece is not None and piece[2] is value:
                # The very value written last time: the save's keeper hands back an unchanged member's dict
                # (`tracker.engine.records.record.SavedMembers`), and nothing changes those dicts.
                texts.append(piece[1])
                continue
            signature = _signature(value)
            if piece is None or signature is None or piece[0] != signature:
                piece = (signature or "", tomli_w.dumps(_nest((*path, key), value)), value)
                if signature is not None:
                    kept[key] = piece
            else:
                kept[key] = (piece[0], piece[1], value)
            texts.append(piece[1])
        out.append("\n".join(texts))

    def _piece(self, path: Path, value: Any) -> str:
        """The text tomli_w writes for the table (or array of tables) at `path`: kept while its value stays."""
        signature = _signature(value)
        kept = self._pieces.get(path)
        if kept is not None and signature is not None and kept[0] == signature:
            return kept[1]
        text = tomli_w.dumps(_nest(path, value))
        if signature is not None:
            self._pieces[path] = (signature, text)
        return text

    def _literal(self, path: Path, key: str, value: Any) -> str | None:
        """The line ``key = value``; None when tomli_w writes `value` as an array of tables instead."""
        signature = _signature(value)
        kept = self._lines.get(path)
        if kept is not None and signature is not None and kept[0] == signature:
            return kept[1] or None
        if _ARRAYS_BY_STRING and isinstance(value, list) and all(type(item) is str for item in value):
            before = self._strings.get(path, {})
            texts = {item: before.get(item) or _string(item) for item in value}
            self._strings[path] = texts
            line = f"{_key_part(key)} = {_string_array(value, texts)}\n"
        else:
            line = tomli_w.dumps({key: value})
            if not line.startswith(f"{_key_part(key)} = "):
                line = ""  # an array of tables: written with the tables (`_piece`)
        if signature is not None:
            self._lines[path] = (signature, line)
        return line or None
