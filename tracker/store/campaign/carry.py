"""`tracker carry ENCOUNTER`: the party's lasting state from a fight, back into its party file (docs/reference/cli.md).

The party file is the GM's own text, shared by the encounters of a campaign, so it is edited in place with
`tomlkit` (the style-preserving TOML editor): only the values that changed are rewritten, and comments, key
order and blank lines stay as the GM left them. What lasts is the rule family's answer
(`FamilyRules.lasting`, README "Campaigns"); only the party file's own characters are written, never a
combatant of the encounter or one that joined mid-fight.

It refuses, writing nothing, when the encounter never started, names no party, when the party file is another
account's (`tracker.store.owner`), or when another writer holds the party file (the same sidecar lock
`tracker run` takes on an encounter, `tracker.store.lock`). The new text is checked as the family's sheets
before the atomic write (`files.write_text`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AbstractTable, AoT, Item

from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.families.values import Carried
from tracker.store import files
from tracker.store.campaign.sheets import read_include, sheet_problems, shown_path
from tracker.store.lock import FileHeld, WriterLock
from tracker.store.owner import refuse_unless_owner


@dataclass
class CarryReport:
    """What `carry` did: the party file, one line per character, and whether the file was written."""

    party: str
    lines: list[str] = field(default_factory=list)
    written: bool = False


def carry(path: str) -> CarryReport:
    """Write the lasting state of `path`'s party members into its party file; Refusal (nothing written) or
    FileInvalid when it cannot."""
    setup = files.load(path)
    ref = setup.encounter.party
    if ref is None:
        raise Refusal(f'{path} names no party file (give [encounter] party = "party.toml")')
    if setup.state is None or setup.history is None:
        raise Refusal(f"{path} has not started: there is nothing to carry")
    session = Session(setup)
    if session.state.phase == "setup":
        raise Refusal(f"{path} has not started: there is nothing to carry")
    target = Path(path).parent / ref
    shown = shown_path(path, ref)
    report = CarryReport(shown)
    if not target.is_file():
        raise Refusal(f"not carried: no such party file: {shown}")
    refuse_unless_owner(target, "writes it", said="not carried")
    lock = WriterLock(target)
    try:
        lock.acquire()
    except FileHeld as exc:
        raise Refusal(f"not carried: {exc}") from None
    try:
        text = files.read_text(target, shown)
        doc = tomlkit.parse(text)
        people = doc.get("combatants")
        if not isinstance(people, AoT | list):
            raise Refusal(f"{shown} lists no [[combatants]]")
        fighters = set(session.rules.combatant_names())
        for sheet in people:
            if not isinstance(sheet, AbstractTable):
                continue
            name = sheet.get("name")
            if not isinstance(name, str) or name not in fighters:
                report.lines.append(f"{name}: not in {path}; left as it is")
                continue
            changed = [_put(sheet, item) for item in session.rules.lasting(name)]
            said = [c for c in changed if c]
            status = session.rules.status(name)
            report.lines.append(
                f"{name}: {', '.join(said) if said else 'no change'}" + (f" ({status})" if status != "ok" else "")
            )
        new = tomlkit.dumps(doc)
        _check(new, shown, session.family.name)
        if new != text:
            files.write_text(target, new)
            report.written = True
    finally:
        lock.release()
    if session.state.phase != "ended":
        report.lines.append(f"note: {path} is still in play (round {session.state.round}); carry again after 'end'")
    return report


def _put(sheet: AbstractTable, item: Carried) -> str:
    """Set one field of a character's table in place; '' when it already says so (or need not say it).

    Field names ignore case (docs/reference/file-format.md): a sheet's ``Wounds_Left`` is the field set, in its own
    spelling.
    """
    key = next((k for k in sheet if isinstance(k, str) and k.lower() == item.key), item.key)
    here = sheet.get(key)
    current = here.unwrap() if isinstance(here, Item) else here
    if key in sheet and current == item.value:
        return ""
    if key not in sheet and item.value == item.unset:
        return ""
    value = _toml(item.value)
    if key in sheet:
        sheet[key] = value
    else:
        keys = [key for key, _ in sheet.value.body if key is not None]
        if keys:
            # After the table's last key, not after the comments that close it (they belong to what follows).
            sheet.value._insert_after(keys[-1], item.key, value)
        else:
            sheet[item.key] = value
    return f"{key} = {tomlkit.item(value).as_string()}"


def _toml(value: Any) -> Any:
    """A value as TOML writes it on one line: a table inline (``{ dazed = true }``), a list as an array."""
    if isinstance(value, dict):
        table = tomlkit.inline_table()
        table.update(value)
        return table
    return value


def _check(text: str, shown: str, system: str) -> None:
    """The carried party file must still be valid sheets of the encounter's family (else nothing is written)."""
    problems: list[files.Problem] = []
    book = read_include(text, shown, "party", problems, alone=True)
    if book is not None:
        problems += sheet_problems(system, book)
    if problems:
        raise Refusal(f"not carried: the party file would not be valid: {problems[0].render(shown)}")
