"""An encounter file's text and TOML data, and its problems: each at a line and column.

The bottom of the store: `tracker.store.files` (validated loads, saves) and `tracker.store.campaign` (the
bestiary and party files an encounter expands) both read files and word their problems with these, so
neither imports the other for them.

Opening a file is one pass, each step a function of the one before (`tracker.store.files.open_text`):
`read_document` here (the text's TOML data, and where each key stands) → `tracker.store.campaign.blocks.expand`
(the party and stat blocks it takes from other files) → `tracker.store.files.validated` (the family's records,
the saved state resumed) → a session (`tracker.store.opening`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from tracker.engine.errors import Invalid
from tracker.engine.records.model import LOCATED, Loc

if TYPE_CHECKING:
    from tracker.store.tomlpos import Locator, Positions


class Read(NamedTuple):
    """An encounter file as read: its text, its name as problems give it, the folder its ``bestiary`` and
    ``party`` paths start from, its TOML data, and where each key stands (worked out only when a problem
    asks: `tracker.store.tomlpos`). The first step of opening a file; `expand` takes it from here."""

    text: str
    path: str
    folder: Path
    data: dict[str, Any]
    pos: Positions


def read_document(text: str, path: str, folder: Path | None = None) -> Read:
    """The file's text read as TOML (`toml_data`; FileInvalid with every problem positioned). `folder` is where
    its other files' paths start: the folder of `path` unless given (docs/reference/file-format.md)."""
    from tracker.store.tomlpos import Positions

    pos = Positions(text)
    return Read(text, path, Path(path).parent if folder is None else folder, toml_data(text, path, pos), pos)


class Problem(NamedTuple):
    """One thing wrong with a file, at a position; a `warning` is allowed but worth a look.

    `file` is the file at fault when it is not the one being read: the bestiary or party file an encounter
    takes its stat blocks or characters from (docs/reference/file-format.md).
    """

    line: int
    col: int
    message: str
    warning: bool = False
    file: str | None = None

    def render(self, path: str) -> str:
        return f"{self.file or path}:{self.line}:{self.col}: {'warning: ' if self.warning else ''}{self.message}"

    def order(self) -> tuple[bool, str, int, int]:
        """Sort key: the file being read first, then the other files, each in line order."""
        return (self.file is not None, self.file or "", self.line, self.col)


class FileInvalid(Exception):
    """The file cannot be used; `problems` says why, each with a position."""

    def __init__(self, path: str, problems: list[Problem]) -> None:
        super().__init__(problems[0].render(path) if problems else path)
        self.path = path
        self.problems = problems

    def lines(self) -> list[str]:
        return [p.render(self.path) for p in self.problems]


_AT = re.compile(r"\(at line (\d+), column (\d+)\)")

#: How a wrong-type error names what the key takes, for the one-line message of a union field.
_TAKES = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "string_type": "text",
    "bool_type": "true/false",
    "bool_parsing": "true/false",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
    "list_type": "a list",
    "none_required": "nothing",
}


def _field(loc: Loc) -> str:
    return "".join(f"[{p + 1}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".") or "file"


def _message(err: Any) -> str:
    kind = err["type"]
    loc = err["loc"]
    field = _field(loc)
    if kind == "extra_forbidden":
        return f"unknown key '{loc[-1]}'"
    if kind == "missing":
        return f"missing required key '{loc[-1]}'"
    msg = str(err["msg"])
    msg = msg.removeprefix("Value error, ")
    if kind in ("literal_error",):
        return f"{field}: {msg.replace('Input should be', 'must be')}"
    if kind.endswith("_type") or kind.endswith("_parsing"):
        return f"{field}: {msg.replace('Input should be', 'must be')} (got {err.get('input')!r})"
    return f"{field}: {msg.replace('Input should be', 'must be')}"


def _takes(err: Any) -> str | None:
    """What a wrong-type error says the key takes ("a whole number", "'--'"); None for other errors."""
    if err["type"] == "literal_error":
        return str(err.get("ctx", {}).get("expected", "")) or None
    return _TAKES.get(err["type"])


def _keys(loc: Loc, data: object, kind: str) -> tuple[Loc, int | None]:
    """The key path of `loc` without pydantic's branch tags, and where the first tag was (None if none).

    pydantic names the branch of a union inside the loc (``stress.int``, ``twist_deck.TwistSuits.bogus``),
    and validator wrappers likewise (``function-after[…]``). Walking the file's own data tells them
    apart from keys, whatever the field: a tag is a step that is not a key of the table at that point
    (the last step of a missing-key error is a key that is, by definition, absent).
    """
    node = data
    keys: list[str | int] = []
    first: int | None = None
    for i, part in enumerate(loc):
        if isinstance(part, int):
            node = node[part] if isinstance(node, list) and 0 <= part < len(node) else None
            keys.append(part)
        elif isinstance(node, dict) and part in node:
            node = node[part]
            keys.append(part)
        elif i == len(loc) - 1 and kind == "missing":
            keys.append(part)
        else:
            first = len(keys) if first is None else first
    return tuple(keys), first


def validation_problems(exc: Invalid, where: Positions | Locator, data: object, prefix: Loc = ()) -> list[Problem]:
    """Every problem of a pydantic error, one line each, at the key it is about.

    A union field (``stress``: a number or a table) fails once per branch; when no branch got past the
    type of the value, the branches become one line naming every form the key takes, and otherwise
    only the branch the value's shape matched speaks. A `located` error (a model validator's) carries
    its own problems, each at its key. `where` says in which file and at which line each key was written
    (a `Locator` for an encounter expanded from stat blocks and a party, docs/reference/file-format.md); messages
    name the
    key as that file wrote it.
    """
    from tracker.store.tomlpos import Locator

    locator = where if isinstance(where, Locator) else Locator(where)

    def at(keys: Loc) -> tuple[str | None, Loc, tuple[int, int]]:
        file, local, place = locator.place((*prefix, *keys))
        return file, local[len(prefix) :] if file is None else local, place

    found: list[tuple[Loc, Any]] = []
    for err in exc.errors():
        keys, tag_at = _keys(tuple(err["loc"]), data, err["type"])
        if err["type"] == LOCATED:
            for loc, msg in err["ctx"]["problems"]:
                found.append(((*keys, *loc), {"type": LOCATED, "msg": msg}))
        else:
            found.append((keys, {**err, "loc": keys, "_union": keys[:tag_at] if tag_at is not None else None}))
    unions: dict[Loc, list[Any]] = {}
    for _, err in found:
        if err.get("_union") is not None:
            unions.setdefault(err["_union"], []).append(err)
    problems: list[Problem] = []
    merged: set[Loc] = set()
    for keys, err in found:
        base = err.get("_union")
        if base is not None and len(unions[base]) > 1:
            branch = unions[base]
            shallow = [e for e in branch if e["loc"] == base and _takes(e) is not None]
            if len(shallow) < len(branch):
                if err in shallow:
                    continue  # another branch matched the value's shape: its errors are the ones to show
            else:
                if base in merged:
                    continue
                merged.add(base)
                forms = list(dict.fromkeys(str(_takes(e)) for e in branch))
                takes = " or ".join([", ".join(forms[:-1]), forms[-1]] if len(forms) > 1 else forms)
                file, local, (line, col) = at(base)
                text = f"{_field(local)}: must be {takes} (got {err.get('input')!r})"
                problems.append(Problem(line, col, text, file=file))
                continue
        file, local, (line, col) = at(keys)
        text = f"{_field(local)}: {err['msg']}" if err["type"] == LOCATED else _message({**err, "loc": local})
        problems.append(Problem(line, col, text, file=file))
    unique = list(dict.fromkeys(problems))
    return sorted(unique, key=Problem.order)


#: The largest encounter file read: 1 MiB. A played file is a few kilobytes plus ~40 bytes per command of
#: its history (the log is capped), so this holds tens of thousands of commands, while a hostile file is
#: refused before it is parsed (a megabyte of unknown keys takes seconds to report). README "Limits".
MAX_FILE_BYTES = 1024 * 1024


def toml_data(text: str, path: str, pos: Positions | None = None) -> dict[str, Any]:
    """The parsed TOML; hostile text (too large, nested too deep, a number too long) is one problem too. `pos`:
    the text's key positions when the caller has them (a key given twice is reported at its line)."""
    import tomllib  # here: a file read before is recalled by its bytes (`open_text`), unparsed

    if too_large(text):
        raise FileInvalid(path, [_too_large()])
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _AT.search(str(exc))
        line, col = (int(m.group(1)), int(m.group(2))) if m else _end_or_start(text, str(exc))
        reason = _AT.sub("", str(exc)).replace("(at end of document)", "at the end of the file").strip()
        raise FileInvalid(path, [Problem(line, col, f"TOML syntax: {reason}")]) from None
    except RecursionError:
        m = re.search(r"(?:[\[{]\s*){50,}", text)
        line, col = _position(text, m.start()) if m else (1, 1)
        raise FileInvalid(path, [Problem(line, col, "TOML: arrays or tables nested too deeply")]) from None
    except ValueError:
        # tomllib converts digits with int(), which refuses more than sys.get_int_max_str_digits() of them.
        limit = sys.get_int_max_str_digits()
        m = re.search(rf"[0-9][0-9_]{{{limit},}}", text)
        line, col = _position(text, m.start()) if m else (1, 1)
        raise FileInvalid(path, [Problem(line, col, f"TOML: a number with more than {limit} digits")]) from None
    clashes = fold_sheet_keys(data)
    if clashes:
        if pos is None:
            from tracker.store.tomlpos import Positions

            pos = Positions(text)
        problems = []
        for loc, first in clashes:
            line, col = pos.find(loc)
            message = f"key '{loc[-1]}' is given twice: '{first}' is the same key (field names ignore case)"
            problems.append(Problem(line, col, message))
        raise FileInvalid(path, problems)
    return data


#: The tables whose entries are sheets: their keys ignore case (docs/reference/file-format.md) and are kept in
#: lower case.
SHEET_TABLES = ("combatants", "stat_blocks")


def fold_sheet_keys(data: dict[str, Any]) -> list[tuple[Loc, str]]:
    """Lower-case the keys of every ``[[combatants]]`` and ``[[stat_blocks]]`` entry in place.

    Field names are case-insensitive in input (docs/reference/file-format.md: ``Wounds = 6`` is ``wounds = 6``), and the
    records know them in snake_case, so they are folded before validation; `tomlpos.Positions` finds a folded
    key at the line that wrote it. A key an entry gives twice in different cases (``wounds`` and ``Wounds``)
    cannot be told apart: each second one is returned, as (its path as written, the first spelling), and the
    entry keeps the first.
    """
    clashes: list[tuple[Loc, str]] = []
    for table in SHEET_TABLES:
        rows = data.get(table)
        if not isinstance(rows, list):
            continue
        for n, row in enumerate(rows):
            if not isinstance(row, dict) or all(k == k.lower() for k in row):
                continue
            folded: dict[str, Any] = {}
            spelt: dict[str, str] = {}
            for key, value in row.items():
                low = key.lower()
                if low in folded:
                    clashes.append(((table, n, key), spelt[low]))
                    continue
                folded[low] = value
                spelt[low] = key
            rows[n] = folded
    return clashes


def too_large(text: str) -> bool:
    """Whether `text` is over `MAX_FILE_BYTES` as UTF-8 (encoded only when it may be: 4 bytes a character at most)."""
    return len(text) > MAX_FILE_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES


def _too_large() -> Problem:
    return Problem(1, 1, f"file too large: an encounter file holds at most {MAX_FILE_BYTES // 1024} KiB")


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _end_or_start(text: str, message: str) -> tuple[int, int]:
    """Where a syntax error without a line is: the file's end when tomllib says so, else its start."""
    if "end of document" not in message:
        return (1, 1)
    body = text.rstrip("\n")
    return _position(body, len(body))


def read_capped(path: str | Path) -> str:
    """The text of an encounter file, read at most `MAX_FILE_BYTES` deep.

    OSError as the system raises it (missing, a folder, unreadable: the caller words it); FileInvalid
    when the file is too large or not UTF-8 (at the first bad byte).
    """
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise FileInvalid(str(path), [_too_large()])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start : exc.start + 1].hex()
        raise FileInvalid(str(path), [Problem(line, col, f"not UTF-8 text (byte 0x{bad})")]) from None
