"""The GM's own setup text: the part of an encounter file that saves keep byte for byte (docs/reference/file-format.md).

An encounter file is the setup the GM wrote (``[encounter]``, ``[settings]``, ``[[zones]]``,
``[[combatants]]``, ``[[demo]]`` … with its comments, key order, blank lines and formatting) followed by
the live tables the tracker writes, ``[state]`` and ``[history]``. `split_setup` finds where the live
part starts, so that a save writes the GM's text as it is and regenerates only what comes after it.

**Finding the live part.** A small TOML lexer (`headers`) walks the text and lists every table header
that is really one: a ``[`` first on a line, outside any string (multi-line ones included), comment,
array or inline table. A header belongs to the live part when its first key is ``state`` or ``history``
(``[state]``, ``[state.decks]``, ``[[history.done]]``, ``["state"]`` alike). The lexer stops at the
first live header; the rest (the part the tracker wrote, often most of the file) is only lexed when one
of its lines opens like a setup table's header. Nothing is trusted on the lexer's word alone: the kept
text is parsed with tomllib and must give exactly the file's data without ``state`` and ``history``.

**A hand-edited file.** A GM may add a table after the live ones (a ``[[combatants]]`` appended at
the end of a file that has been played). Such a file still keeps every byte the GM wrote: the live
sections are cut out, and what follows them (each setup table with the comment lines just above its
header) moves up, in its order, above the regenerated live part. If even that does not parse to the same
setup (say ``state = …`` written as a plain key at the top), the text cannot be kept: `Split.setup` is
None with the reason, the save falls back to writing the setup from the models (the behaviour of
sessions with no file text) and logs a warning, and `tracker check` says so as a warning too.

**Layout.** The kept text ends with a blank line before the live part, so that save after save the
file neither grows nor shrinks: a file with no trailing newline gets one (and the blank line), a file
ending in a blank line gets nothing more. A file with CRLF line endings keeps them, and the live part
is written with CRLF too.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any, NamedTuple

#: The live tables a save regenerates; every other table of the file is the GM's setup.
LIVE_TABLES = frozenset({"state", "history"})

_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:\\.|[^"\\\n])*"|'[^'\n]*')"""
#: A table header from its first bracket: ``[`` or ``[[``, dotted key, the closing bracket(s).
_HEADER = re.compile(rf"(\[\[?)[ \t]*({_KEY})(?:[ \t]*\.[ \t]*{_KEY})*[ \t]*\]\]?")
#: What the lexer must not look inside (strings, comments) and what it counts (brackets), plus a
#: bracket first on a line (a header when no array or inline table is open). Longest string forms first.
_TOKEN = re.compile(
    r'(?P<mlb>"""(?:\\.|[^\\])*?"""(?:"{0,2}))'
    r"|(?P<mll>'''.*?'''(?:'{0,2}))"
    r'|(?P<str>"(?:\\.|[^"\\\n])*"|' + r"'[^'\n]*')"
    r"|(?P<comment>#[^\n]*)"
    r"|(?P<head>^[ \t]*\[)"
    r"|(?P<open>[\[{])"
    r"|(?P<close>[\]}])",
    re.S | re.M,
)
#: A line opening with a bracket: what a table header looks like before the lexer says it is one.
_BRACKET_LINE = re.compile(r"^[ \t]*\[", re.M)


class Header(NamedTuple):
    """One table header of the file: where its line starts, its line number, its first key."""

    start: int
    line: int
    key: str

    @property
    def live(self) -> bool:
        return self.key in LIVE_TABLES


class Split(NamedTuple):
    """What a save keeps of a file's text.

    `setup` is the text to write before the live part (the GM's bytes, ending in a blank line), or None
    when the file's setup cannot be kept as written (`problem` says why, at `line`). `moved` lists the
    lines of setup tables the GM put after live tables: kept, but written above the live part.
    `newline` is the file's line ending, for the live part.
    """

    setup: str | None
    newline: str = "\n"
    moved: tuple[Header, ...] = ()
    problem: str | None = None
    line: int = 1


def _first_key(raw: str) -> str:
    """A header's first key as TOML reads it (quotes and escapes resolved)."""
    if raw[0] == '"':
        return str(tomllib.loads(f"k = {raw}")["k"])
    if raw[0] == "'":
        return raw[1:-1]
    return raw


def headers(text: str, start: int = 0, *, until_live: bool = False) -> list[Header]:
    """Every table header of `text` that TOML reads as one, in order, from `start` (0, or where a
    header's line starts: a point outside any string or array). `until_live` stops at the first live one."""
    found: list[Header] = []
    depth = 0
    line, counted = text.count("\n", 0, start) + 1, start
    pos = start
    while (m := _TOKEN.search(text, pos)) is not None:
        kind = m.lastgroup
        pos = m.end()
        if kind == "head":
            if depth == 0:
                bracket = m.end() - 1
                header = _HEADER.match(text, bracket)
                if header is None:  # not TOML; the parser has already said so
                    pos = bracket + 1
                    continue
                start = m.start()
                line += text.count("\n", counted, start)
                counted = start
                found.append(Header(start, line, _first_key(header.group(2))))
                if until_live and found[-1].live:
                    break
                pos = header.end()
            else:
                depth += 1
        elif kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
    return found


def _only_live_from(text: str, start: int) -> bool:
    """Whether every line from `start` that opens with a bracket is a live table's header.

    Every real table header is such a line (strings and arrays may hold more of them), so when they all
    name ``state`` or ``history`` no setup table follows: the part tracker writes need not be lexed.
    """
    for line in _BRACKET_LINE.finditer(text, start):
        header = _HEADER.match(text, line.end() - 1)
        if header is None or _first_key(header.group(2)) not in LIVE_TABLES:
            return False
    return True


def _line_start(text: str, at: int) -> int:
    return text.rfind("\n", 0, at) + 1


def _lead(text: str, start: int, floor: int) -> int:
    """Where a header's leading comment block starts: the comment lines just above it (not below `floor`)."""
    begin = start
    cursor = start
    while cursor > floor:
        above = _line_start(text, cursor - 1)
        if above < floor:
            break
        stripped = text[above:cursor].strip()
        if stripped.startswith("#"):
            begin = cursor = above
        elif not stripped:
            cursor = above
        else:
            break
    return begin


def _without_live(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in LIVE_TABLES}


def split_setup(text: str) -> Split:
    """The part of `text` a save keeps (see the module docstring); `text` must be valid TOML."""
    eol = text.find("\n")
    newline = "\r\n" if eol > 0 and text[eol - 1] == "\r" else "\n"
    found = headers(text, until_live=True)
    if found and found[-1].live and not _only_live_from(text, found[-1].start):
        found += headers(text, found[-1].start)[1:]  # a table may follow the live part: lex it too
    moved: list[Header] = []
    pieces: list[str] = []
    kept_from = 0  # where the current run of setup text began
    live_from: int | None = None  # where the current run of live tables began
    for header in found:
        if header.live and live_from is None:
            pieces.append(text[kept_from : header.start])
            live_from = header.start
        elif not header.live and live_from is not None:
            # A setup table after live ones: it moves up with the comment lines just above its header.
            kept_from = _lead(text, header.start, floor=live_from + 1)
            moved.append(header)
            live_from = None
    if live_from is None:
        pieces.append(text[kept_from:])
    setup = "".join(pieces)
    data = tomllib.loads(text)
    try:
        same = tomllib.loads(setup) == _without_live(data) if setup != text else not (data.keys() & LIVE_TABLES)
    except tomllib.TOMLDecodeError:
        same = False
    if not same:
        line = next((h.line for h in found if h.live), 1)
        return Split(
            None,
            newline,
            problem="the live state and history are not in their own [state] / [history] tables after the setup",
            line=line,
        )
    if setup and not setup.endswith("\n"):
        setup += newline
    if setup and not setup.endswith("\n" + newline) and setup != newline:
        setup += newline
    return Split(setup, newline, tuple(moved))
