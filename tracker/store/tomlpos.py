"""Where each key of a TOML file sits, so validation errors can say ``FILE:LINE:COL``.

`tomllib` gives values but no positions. This scanner walks the lines once and records the position
of every table header and every ``key =`` (inline tables included) under its full path, with array
of tables entries numbered as pydantic numbers them (``combatants.2.rank_value``).
"""

from __future__ import annotations

import re

Path = tuple[str | int, ...]

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_\-\.]+)\s*=""")
_INLINE_KEY = re.compile(r"""[{,]\s*("[^"]*"|'[^']*'|[A-Za-z0-9_\-]+)\s*=""")


def _split_key(text: str) -> list[str]:
    parts = re.findall(r'"[^"]*"|\'[^\']*\'|[^.\s]+', text)
    return [p.strip("\"'") for p in parts]


class Positions:
    """Map from key paths to (line, column), both 1-based."""

    def __init__(self, text: str) -> None:
        self.where: dict[Path, tuple[int, int]] = {}
        counters: dict[tuple[str, ...], int] = {}
        table: Path = ()
        for lineno, line in enumerate(text.splitlines(), 1):
            header = _HEADER.match(line)
            if header and not _KEY.match(line):
                names = _split_key(header.group(2))
                col = line.index("[") + 1
                if header.group(1) == "[[":
                    prefix = tuple(names)
                    counters[prefix] = counters.get(prefix, -1) + 1
                    table = self._array_path(names, counters)
                else:
                    table = self._array_path(names, counters, array=False)
                self.where.setdefault(table, (lineno, col))
                continue
            key = _KEY.match(line)
            if not key:
                continue
            path = (*table, *_split_key(key.group(1)))
            self.where.setdefault(path, (lineno, key.start(1) + 1))
            brace = line.find("{", key.end())
            if brace != -1:
                for inner in _INLINE_KEY.finditer(line, brace):
                    self.where.setdefault((*path, inner.group(1).strip("\"'")), (lineno, inner.start(1) + 1))

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

    def find(self, loc: Path) -> tuple[int, int]:
        """The position of the longest known prefix of `loc` (the file start if none)."""
        for end in range(len(loc), 0, -1):
            hit = self.where.get(tuple(loc[:end]))
            if hit:
                return hit
        return (1, 1)
