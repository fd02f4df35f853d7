"""JSON text for the memo of validated files and for records' fingerprints, read and written by the C code of
the standard library's `json` package (its ``_json`` accelerator) without importing the package.

Why not ``import json``: a file read before reaches the GM screen's first frame through these two alone (its
memo entry is read, every combatant's row is fingerprinted), and the package's Python layers are a
millisecond of every such start for nothing the C parser and writer do not do themselves. Where ``_json``
is missing (another Python), the package is used.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


def _refuse(value: object) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON data")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON data")


class _Reading:
    """The settings the C parser reads off its decoder: `json.JSONDecoder`'s defaults, but NaN and Infinity
    are refused (nothing here writes them)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = staticmethod(_no_constant)


@functools.cache
def writer(default: Callable[[Any], Any] = _refuse, *, sort_keys: bool = False) -> Callable[[Any], str]:
    """A function that writes a value as compact JSON text (non-ASCII as it is; one per set of arguments);
    `default` turns any other object into JSON data or raises TypeError. NaN and the infinities are written
    as the json package writes them."""
    try:
        import _json
    except ImportError:  # pragma: no cover - a Python without the accelerator
        import json

        return json.JSONEncoder(
            default=default, check_circular=False, separators=(",", ":"), ensure_ascii=False, sort_keys=sort_keys
        ).encode
    chunks = _json.make_encoder(None, default, _json.encode_basestring, None, ":", ",", sort_keys, False, True)

    def write(value: Any) -> str:
        return "".join(chunks(value, 0))

    return write


@functools.cache
def reader() -> Callable[[str], Any]:
    """A function that reads JSON text (ValueError when it is not JSON)."""
    try:
        import _json
    except ImportError:  # pragma: no cover - a Python without the accelerator
        import json

        return json.loads
    scan = _json.make_scanner(_Reading())  # type: ignore[arg-type]  # it reads the settings off any object

    def read(text: str) -> Any:
        try:
            value, end = scan(text, 0)
        except StopIteration as exc:
            raise ValueError(f"not JSON at {exc.value}") from None
        if text[end:].strip():
            raise ValueError(f"extra data at {end}")
        return value

    return read
