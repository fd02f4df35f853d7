"""The table's messages: one JSON object a line, each way, with a name saying what it is.

From a player's program: ``{"hello": {"mode": "play"|"view", "as": NAME|null}}`` first, then
``{"command": {"id": N, "line": "spend Sofia walk", "seen": REVISION}}`` and ``{"story": true|false}``.
From the GM's process: ``{"projection": …}`` after every accepted command (`projection`), ``{"reply": {"id":
N, …}}`` for each command, and ``{"bye": "why"}`` before it closes a connection it refuses.

A line is at most `MAX_LINE` bytes from a player (a command is a line of text); the GM's lines are as long as
a projection is.
"""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from typing import Any

#: The longest line a player's program may send (a command, a hello): longer closes the connection.
MAX_LINE = 16 * 1024
#: The longest line the GM's process sends (a projection of a 500-combatant fight with its story is ~1 MB).
MAX_PROJECTION = 64 * 1024 * 1024


class WireError(Exception):
    """A line that is not one of the table's messages; the text says what is wrong with it."""


def message(kind: str, body: Any) -> bytes:
    """One message as its line."""
    return dumps({kind: body}) + b"\n"


def dumps(value: Any) -> bytes:
    """`value` as JSON the way every line writes it (also a part of a line, made once for many lines): a
    record as the object of its fields, a tuple (a named one too) as an array."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_fields).encode()


def _fields(value: Any) -> dict[str, Any]:
    """A record (a dataclass) as the object of its fields, as `dataclasses.asdict` makes it, but left to
    `json` to walk: `asdict` deep-copies every string and number on the way, which at 500 combatants made
    nine tenths of the time a projection took."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in fields(value)}
    raise TypeError(f"{type(value).__name__} is not one of the table's values")


def read(line: bytes) -> tuple[str, Any]:
    """The (kind, body) of one received line."""
    try:
        data = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise WireError("not a JSON line") from None
    except RecursionError:  # ``[[[[…]]]]`` deeper than the parser's stack: what a line that long can hold
        raise WireError("not a JSON line (nested too deep)") from None
    if not isinstance(data, dict) or len(data) != 1:
        raise WireError("a message is an object with one key")
    ((kind, body),) = data.items()
    return str(kind), body
