"""Reading and writing encounter files: validated loads, atomic durable saves.

A save writes a temporary file in the same folder, flushes and fsyncs it, renames it over the
encounter file and fsyncs the folder, so a crash at any moment leaves either the old file or the new
one, never half of one (CONTRACT.md §5).
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tracker.rules.encounter import EncounterFile, validate_document
from tracker.store.tomlpos import Positions


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, at a position."""

    line: int
    col: int
    message: str

    def render(self, path: str) -> str:
        return f"{path}:{self.line}:{self.col}: {self.message}"


class FileInvalid(Exception):
    """The file cannot be used; `problems` says why, each with a position."""

    def __init__(self, path: str, problems: list[Problem]) -> None:
        super().__init__(problems[0].render(path) if problems else path)
        self.path = path
        self.problems = problems

    def lines(self) -> list[str]:
        return [p.render(self.path) for p in self.problems]


_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def _message(err: Any) -> str:
    kind = err["type"]
    loc = err["loc"]
    field = "".join(f"[{p + 1}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".") or "file"
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


def parse_text(text: str, path: str) -> EncounterFile:
    """Validate file text; raises FileInvalid with every problem positioned."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _AT.search(str(exc))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        reason = _AT.sub("", str(exc)).strip()
        raise FileInvalid(path, [Problem(line, col, f"TOML syntax: {reason}")]) from None
    try:
        return validate_document(data)
    except ValidationError as exc:
        pos = Positions(text)
        problems = []
        for err in exc.errors():
            loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
            # Unions report per branch ('int', 'literal'); keep the key path only.
            loc = tuple(
                p
                for p in loc
                if p
                not in ("int", "str", "bool", "list[str]", "TwistSuits", "literal['--']", "function-after[_wms(), str]")
            )
            line, col = pos.find(loc)
            problems.append(Problem(line, col, _message({**err, "loc": loc})))
        unique = list(dict.fromkeys(problems))
        raise FileInvalid(path, sorted(unique, key=lambda p: (p.line, p.col))) from None


def load(path: str | Path) -> EncounterFile:
    """Read and validate an encounter file; FileInvalid for a missing, unreadable or invalid one."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileInvalid(str(path), [Problem(1, 1, "no such file")]) from None
    except IsADirectoryError:
        raise FileInvalid(str(path), [Problem(1, 1, "is a folder, not an encounter file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FileInvalid(str(path), [Problem(1, 1, f"cannot read: {exc}")]) from None
    return parse_text(text, str(path))


def write_text(target: Path, text: str) -> None:
    """Write atomically and durably: temp file, flush, fsync, rename, fsync the folder.

    The text of an encounter comes from `tracker.store.save.encounter_text`; this only puts it on disk.
    """
    folder = target.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
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
