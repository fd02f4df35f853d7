"""Reading and writing encounter files: validated loads, atomic durable saves.

A save writes a temporary file in the same folder, flushes and fsyncs it, renames it over the
encounter file and fsyncs the folder, so a crash at any moment leaves either the old file or the new
one, never half of one (CONTRACT.md §5).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from tracker.engine.records import record
from tracker.engine.records.model import LOCATED, Loc
from tracker.engine.records.record import Invalid, copied
from tracker.families.encounter import EncounterFile, validate_document

if TYPE_CHECKING:
    from tracker.families.seam import FamilyEngine
    from tracker.store.tomlpos import Locator, Positions


class Problem(NamedTuple):
    """One thing wrong with a file, at a position; a `warning` is allowed but worth a look.

    `file` is the file at fault when it is not the one being read: the bestiary or party file an encounter
    takes its stat blocks or characters from (CONTRACT.md §2.1).
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
    (a `Locator` for an encounter expanded from stat blocks and a party, CONTRACT.md §2.1); messages name the
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


def toml_data(text: str, path: str) -> dict[str, Any]:
    """The parsed TOML; hostile text (too large, nested too deep, a number too long) is one problem too."""
    import tomllib  # here: a file read before is recalled by its bytes (`open_text`), unparsed

    if too_large(text):
        raise FileInvalid(path, [_too_large()])
    try:
        return tomllib.loads(text)
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


def live_problems(setup: EncounterFile, text: str) -> list[Problem]:
    """The live part against the setup: ``[state]`` and ``[history]`` come together, and the state is one
    the family can resume (its types, and every combatant, zone, track and card it names is the setup's).

    Every load runs this, so an engine never meets a ``[state]`` that would crash it (a KeyError on a
    combatant the setup lacks); `tracker check` reports the same problems.
    """
    return _resumed(setup, text)[0]


def _resumed(setup: EncounterFile, text: str) -> tuple[list[Problem], FamilyEngine | None]:
    """`live_problems`, and the engine resuming the state made (None when there is no state or it failed):
    a session opened from the file plays on with it (`open_text`), rather than validating the state again."""
    if setup.state is None and setup.history is None:
        return [], None
    from tracker.store.tomlpos import Positions

    if setup.state is None or setup.history is None:
        line, col = Positions(text).find(("state",) if setup.state is not None else ("history",))
        return [Problem(line, col, "[state] and [history] are written together; one is missing")], None
    try:
        # On the setup as a session holds it (`Session`: no live tables), so the session can take the engine.
        engine = copied(setup, state=None, history=None).resume(setup.state)
    except Invalid as exc:
        return [
            Problem(p.line, p.col, f"state: {p.message}")
            for p in validation_problems(exc, Positions(text), setup.state, prefix=("state",))
        ], None
    return [], engine


def parse_text(text: str, path: str, folder: Path | None = None) -> EncounterFile:
    """Validate file text; raises FileInvalid with every problem positioned.

    `folder` is where the file's ``bestiary`` and ``party`` paths start (CONTRACT.md §2.1): the folder of
    `path` unless given.
    """
    return open_text(text, path, folder)[0]


def open_text(text: str, path: str, folder: Path | None = None) -> tuple[EncounterFile, FamilyEngine | None]:
    """`parse_text`, and the engine its check of a saved ``[state]`` resumed (None when it made none: no state,
    or the encounter was recalled), for a session to play on with (`Session`'s `engine`).

    A file read before is recalled by its text, with the memo of validated documents (`record.text_key`),
    and neither parsed nor validated again: the key is the file's bytes, the folder its ``bestiary`` and
    ``party`` paths start from (as an absolute path) and the tracker's code, and the entry holds the other
    files the expansion read, by absolute path, with their text, so it is used only while each still has
    that text. A file with a problem is never
    kept, so its problems are found, and positioned, by the full load every time.
    """
    here = _working_folder()
    base = Path(path).parent if folder is None else folder
    # Joined, not normalised: ``a/link/..`` is not ``a`` when ``link`` is a symbolic link.
    key = None if here is None else record.text_key("encounter", text, os.path.join(here, base))
    found = _recalled(record.recall(key))
    if found is not None:
        return found, None
    parsed = parse_parts(text, path, folder)
    if here is not None:  # the other files by the paths they were read at, whatever the working folder then
        record.keep(key, _entry(parsed.setup, [(os.path.join(here, name), read) for name, read in parsed.read]))
    return parsed.setup, parsed.engine


def _working_folder() -> str | None:
    """The working folder, which relative paths start from (None when it is gone: nothing is remembered)."""
    try:
        return os.getcwd()
    except OSError:
        return None


def _entry(setup: EncounterFile, read: list[tuple[str, str]]) -> dict[str, Any]:
    """A memo entry for `open_text`: the validated encounter as data with its class (its family's file record),
    the GM's setup tables and the sheets when it was expanded from other files, and those files' texts."""
    return {
        "class": [type(setup).__module__, type(setup).__qualname__],
        "setup": record.dump(setup, mode="json"),
        "written": setup.written,
        "sheets": setup.sheets,
        "read": read,
    }


def _file_class(module: str, name: str) -> type[EncounterFile]:
    """The family's file record a memo entry names (one of the tracker's families', or ValueError)."""
    import importlib

    if not module.startswith("tracker.families."):
        raise ValueError(module)
    cls = getattr(importlib.import_module(module), name)
    if not (isinstance(cls, type) and issubclass(cls, EncounterFile)):
        raise ValueError(name)
    return cls


def _recalled(entry: object) -> EncounterFile | None:
    """The encounter of a memo entry (`open_text`), when it is one and the other files it read are unchanged;
    rebuilt from its data without validating it again."""
    if not isinstance(entry, dict):
        return None
    try:
        for name, text in entry["read"]:
            if read_capped(name) != text:
                return None
        setup = record.rebuild(_file_class(*entry["class"]), entry["setup"])
        if entry["written"] is not None:
            setup.keep_written(entry["written"], entry["sheets"])
    except (OSError, FileInvalid, KeyError, TypeError, ValueError, AttributeError):
        return None
    return setup


def parse_located(text: str, path: str, folder: Path | None = None) -> tuple[EncounterFile, Locator]:
    """`parse_text`, and where each key of the validated encounter was written (for later problems)."""
    parsed = parse_parts(text, path, folder)
    return parsed.setup, parsed.locator


class Parsed(NamedTuple):
    """A validated encounter and what its load saw on the way: where each key was written, the file's own
    data, the data the family validated (the same object when no party or bestiary was expanded), the other
    files read with their text (`open_text` keeps them), and the engine the check of a saved state resumed."""

    setup: EncounterFile
    locator: Locator
    data: dict[str, Any]
    grown: dict[str, Any]
    read: list[tuple[str, str]]
    engine: FamilyEngine | None


def parse_parts(text: str, path: str, folder: Path | None = None) -> Parsed:
    """`parse_located` with the data it validated (`tracker.store.follow` reuses the setup's part of it)."""
    from tracker.store.campaign.blocks import expand
    from tracker.store.tomlpos import Positions

    data = toml_data(text, path)
    pos = Positions(text)
    grown = expand(data, path, Path(path).parent if folder is None else folder, pos)
    try:
        setup = validate_document(grown.data)
    except Invalid as exc:
        problems = validation_problems(exc, grown.locator, grown.data)
        raise FileInvalid(path, sorted([*grown.problems, *problems], key=Problem.order)) from None
    if grown.problems:
        raise FileInvalid(path, sorted(grown.problems, key=Problem.order))
    unsaved = unsaved_combatants(grown.data, setup.state)
    if unsaved:
        line, col = pos.find(("state", "fighters"))
        listed = ", ".join(f"'{name}'" for name in unsaved)
        message = (
            f"the saved fight has no {listed}: the file (or its party or bestiary) gained "
            f"{'them' if len(unsaved) > 1 else 'it'} after the fight was saved"
        )
        raise FileInvalid(path, [Problem(line, col, message)])
    if grown.data is not data:
        sheets = {key: list(grown.data.get(key, [])) for key in ("combatants", "stat_blocks")}
        setup.keep_written({k: v for k, v in data.items() if k not in ("state", "history")}, sheets)
    problems, engine = _resumed(setup, text)
    if problems:
        raise FileInvalid(path, problems)
    return Parsed(setup, grown.locator, data, grown.data, grown.read, engine)


def unsaved_combatants(data: Mapping[str, Any], state: Mapping[str, object] | None) -> list[str]:
    """The setup's combatants that a saved ``[state]`` has no record of (a party member added since the fight
    was saved, say): resuming would find no live record for them. Combatants that joined mid-fight live in the
    state only, so the other way round is allowed."""
    fighters = state.get("fighters") if state is not None else None
    people = data.get("combatants")
    if not isinstance(fighters, dict) or not isinstance(people, list):
        return []
    names = [c.get("name") for c in people if isinstance(c, dict)]
    return [n for n in names if isinstance(n, str) and n not in fighters]


def warnings_of(setup: EncounterFile, where: str | Locator) -> list[Problem]:
    """The family's warnings for a valid file (allowed, but probably a slip), each at its key."""
    from tracker.store.tomlpos import Locator, Positions

    locator = where if isinstance(where, Locator) else Locator(Positions(where))
    out = []
    for loc, message in setup.warnings():
        file, _, (line, col) = locator.place(loc)
        out.append(Problem(line, col, message, warning=True, file=file))
    return out


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


def load(path: str | Path) -> EncounterFile:
    """Read and validate an encounter file; FileInvalid for a missing, unreadable or invalid one."""
    return parse_text(read_text(path), str(path))


def read_text(path: str | Path, file: str | None = None) -> str:
    """A file's text exactly as on disk (CRLF kept, for saves that keep the GM's setup byte for byte), read
    at most `MAX_FILE_BYTES` deep; FileInvalid (in `file` if given) for a missing, unreadable, folder, too
    large or not UTF-8 path (the last at its first bad byte)."""
    shown = str(path) if file is None else file
    try:
        return read_capped(path)
    except FileInvalid as exc:
        raise FileInvalid(shown, [Problem(p.line, p.col, p.message, file=file) for p in exc.problems]) from None
    except FileNotFoundError:
        raise FileInvalid(shown, [Problem(1, 1, "no such file", file=file)]) from None
    except IsADirectoryError:
        raise FileInvalid(shown, [Problem(1, 1, "is a folder, not a file", file=file)]) from None
    except OSError as exc:
        raise FileInvalid(shown, [Problem(1, 1, f"cannot read: {exc.strerror or exc}", file=file)]) from None


def read_or_invalid(path: str | Path) -> str:
    """`read_text` (kept for the callers that name it)."""
    return read_text(path)


def write_text(target: Path, text: str) -> None:
    """Write atomically and durably: temp file, flush, fsync, rename, fsync the folder.

    The text of an encounter comes from `tracker.store.save.encounter_text`; this only puts it on disk.
    Text over `MAX_FILE_BYTES` is refused (OSError EFBIG) before anything is written: the loader would
    refuse the file, so the save must not make it.
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        raise OSError(errno.EILSEQ, "the text holds characters that are not UTF-8 (nothing written)") from None
    if len(data) > MAX_FILE_BYTES:
        raise OSError(errno.EFBIG, f"the file would be over {MAX_FILE_BYTES // 1024} KiB, the most a load reads")
    folder = target.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, os.stat(target).st_mode & 0o777)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def remove_stale_temp_files(target: Path) -> int:
    """Temp files left by a writer killed mid-save (never the encounter itself); the lock holder calls this."""
    removed = 0
    for stale in target.resolve().parent.glob(f".{target.name}.*.tmp"):
        with contextlib.suppress(OSError):
            stale.unlink()
            removed += 1
    return removed
