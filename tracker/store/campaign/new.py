"""`tracker new FILE --system S --party P --bestiary B --add "Guild Thug x3"`: an encounter of a campaign.

It names the party and bestiary files (relative to the new file, as docs/reference/file-format.md reads them) and writes
one ``[[combatants]]`` entry per ``--add``, each with a comment saying what its keys do. The header comes from
the family's template in ``tracker/data`` (``campaign_SYSTEM.toml.in``). The text is validated as the
encounter it will be before anything is written, so a bad party file or a misspelt block writes nothing.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from string import Template

from tracker.engine.errors import Refusal
from tracker.store.campaign.blocks import MAX_COUNT, unknown_block
from tracker.store.campaign.sheets import Included, read_include
from tracker.store.files import FileInvalid, Problem, parse_text, read_text

DATA = Path(__file__).resolve().parents[2] / "data"
#: ``--add`` text: a stat block's name, then optionally ``xN`` (or ``×N``) for how many.
_ADD = re.compile(r"^\s*(?P<name>.+?)(?:\s+[x×]\s*(?P<count>\d+))?\s*$")


def campaign_encounter(target: Path, system: str, party: str | None, bestiary: list[str], adds: list[str]) -> str:
    """The encounter's text; Refusal for a bad ``--add``, FileInvalid when the result would not be valid."""
    books = [_book(ref) for ref in bestiary]
    known = {str(row["name"]).casefold(): str(row["name"]) for book in books for row in book.rows if "name" in row}
    entries: list[str] = []
    for text in adds:
        m = _ADD.match(text)
        if m is None:
            raise Refusal(f"--add takes a stat block's name and an optional count, e.g. 'Guild Thug x3' (got {text!r})")
        if not books:
            raise Refusal("--add names a stat block: give the bestiary that has it with --bestiary FILE")
        name = known.get(m["name"].strip().casefold())
        if name is None:
            raise Refusal(f"--add {text!r}: {unknown_block(m['name'].strip(), list(known.values()))}")
        count = int(m["count"]) if m["count"] else 1
        if not 1 <= count <= MAX_COUNT:
            raise Refusal(f"--add {text!r}: the count must be from 1 to {MAX_COUNT}")
        entries.append(_entry(name, count))
    links = []
    if books:
        files = ", ".join(json.dumps(_relative(ref, target)) for ref in bestiary)
        links.append(_line(f"bestiary = [{files}]", "files of [[stat_blocks]], relative to this file"))
    if party is not None:
        links.append(_line(f"party = {json.dumps(_relative(party, target))}", "the players' characters, listed first"))
    template = Template((DATA / f"campaign_{system}.toml.in").read_text(encoding="utf-8"))
    name = _line(f"name = {json.dumps(_title(target))}", "shown in the title line")
    head = template.substitute(file=target.name, name_line=name, links="\n".join(links))
    if not entries:
        listed = ", ".join(known.values()) or "none yet"
        entries.append(
            f"# Enemies are [[combatants]] made from a stat block (the bestiary has: {listed}), e.g.\n"
            '# [[combatants]]\n# from = "Guild Thug"\n# count = 3\n'
        )
    text = head + "\n" + "\n".join(entries)
    # Validated where it will live, so the party and bestiary paths resolve as they will when it is run. A
    # problem in the party or a bestiary is shown at its line there; one of the unwritten file, in words.
    try:
        parse_text(text, str(target), target.resolve().parent)
    except FileInvalid as exc:
        own = [p for p in exc.problems if p.file is None]
        if own:
            raise Refusal(f"{target} not written: {own[0].message}") from None
        raise
    return text


def _line(code: str, comment: str) -> str:
    """A line of TOML with its comment in the starter files' comment column."""
    return f"{code:<27} # {comment}"


def _entry(name: str, count: int) -> str:
    """One ``[[combatants]]`` entry from a stat block, with what each key does."""
    lines = ["[[combatants]]", _line(f"from = {json.dumps(name)}", "a stat block of the bestiary (names ignore case)")]
    if count > 1:
        names = f"{name} 1 … {name} {count}" if count > 2 else f"{name} 1 and {name} 2"
        lines.append(_line(f"count = {count}", f"how many: named {names}"))
    lines.append('# any [[combatants]] field written here replaces the stat block\'s, e.g. side = "enemies"')
    return "\n".join(lines) + "\n"


def _book(ref: str) -> Included:
    """A bestiary named on the command line (relative to where the user stands)."""
    problems: list[Problem] = []
    book = read_include(read_text(ref), ref, "bestiary", problems, alone=True)
    if book is None or problems:
        raise FileInvalid(ref, problems)
    return book


def _relative(ref: str, target: Path) -> str:
    """`ref` (given from where the user stands) as the new encounter reads it: relative to its folder."""
    return Path(os.path.relpath(Path(ref).resolve(), target.resolve().parent)).as_posix()


def _title(target: Path) -> str:
    """The encounter's name from its file name: ``docks_ambush.toml`` is "Docks Ambush"."""
    words = re.sub(r"[_\-]+", " ", target.stem).strip()
    return words.title() if words else "New Encounter"
