"""Reading and writing encounter files: validated loads, atomic durable saves.

A save writes a temporary file in the same folder, flushes and fsyncs it, renames it over the
encounter file and fsyncs the folder, so a crash at any moment leaves either the old file or the new
one, never half of one (docs/guide/shared-box.md).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from tracker.engine.errors import Invalid
from tracker.engine.records import record
from tracker.engine.records.record import copied
from tracker.families.encounter import EncounterFile, validate_document
from tracker.store.reading import MAX_FILE_BYTES as MAX_FILE_BYTES
from tracker.store.reading import FileInvalid as FileInvalid
from tracker.store.reading import Problem as Problem
from tracker.store.reading import Read as Read
from tracker.store.reading import read_capped as read_capped
from tracker.store.reading import read_document as read_document
from tracker.store.reading import toml_data as toml_data
from tracker.store.reading import too_large as too_large
from tracker.store.reading import validation_problems as validation_problems
from tracker.store.writers import others_may_change

if TYPE_CHECKING:
    from tracker.families.rules import FamilyRules
    from tracker.store.campaign.blocks import Grown
    from tracker.store.tomlpos import Locator, Positions


def live_problems(setup: EncounterFile, text: str) -> list[Problem]:
    """The live part against the setup: ``[state]`` and ``[history]`` come together, and the state is one
    the family can resume (its types, and every combatant, zone, track and card it names is the setup's).

    Every load runs this, so an engine never meets a ``[state]`` that would crash it (a KeyError on a
    combatant the setup lacks); `tracker check` reports the same problems.
    """
    from tracker.store.tomlpos import Positions

    return _resumed(setup, Positions(text))[0]


def _resumed(setup: EncounterFile, pos: Positions) -> tuple[list[Problem], FamilyRules | None]:
    """`live_problems` (`pos`: where the file's keys stand), and the rules resuming the state made (None when
    there is no state or it failed): a session opened from the file plays on with them (`open_text`), rather
    than validating the state again."""
    if setup.state is None and setup.history is None:
        return [], None
    if setup.state is None or setup.history is None:
        line, col = pos.find(("state",) if setup.state is not None else ("history",))
        return [Problem(line, col, "[state] and [history] are written together; one is missing")], None
    try:
        from tracker.families.registry import family_of

        # On the setup as a session holds it (`Session`: no live tables), so the session can take the rules.
        played = copied(setup, state=None, history=None)
        rules = family_of(setup).resume(played, setup.state)
    except Invalid as exc:
        return [
            Problem(p.line, p.col, f"state: {p.message}")
            for p in validation_problems(exc, pos, setup.state, prefix=("state",))
        ], None
    return [], rules


def parse_text(text: str, path: str, folder: Path | None = None) -> EncounterFile:
    """Validate file text; raises FileInvalid with every problem positioned.

    `folder` is where the file's ``bestiary`` and ``party`` paths start (docs/reference/file-format.md): the folder of
    `path` unless given.
    """
    return open_text(text, path, folder)[0]


def open_text(text: str, path: str, folder: Path | None = None) -> tuple[EncounterFile, FamilyRules | None]:
    """`parse_text`, and the rules its check of a saved ``[state]`` resumed (None when it made none: no state,
    or the encounter was recalled), for a session to play on with (`Session`'s `rules`).

    One pass, each step a function of the one before: the memo's key for the text (the memo asked once);
    then, unless the memo recalls the encounter, `read_document` (the TOML data, and where each key stands)
    → `expand` (the party and stat blocks from other files) → `validated` (the family's records, the saved
    state resumed); then the entry kept once.

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
    from tracker.store.campaign.blocks import expand

    parsed = validated(expand(read_document(text, path, base)))
    if here is not None and key is not None:  # the other files by the paths they were read at, wherever from
        with contextlib.suppress(TypeError, RecursionError):  # a value JSON cannot hold (a TOML date): not kept
            record.keep(key, _entry(parsed.setup, [(os.path.join(here, name), read) for name, read in parsed.read]))
    return parsed.setup, parsed.rules


def _working_folder() -> str | None:
    """The working folder, which relative paths start from (None when it is gone: nothing is remembered)."""
    try:
        return os.getcwd()
    except OSError:
        return None


def _entry(setup: EncounterFile, read: list[tuple[str, str]]) -> dict[str, Any]:
    """A memo entry for `open_text`: the validated encounter as data with its class (its family's file record),
    the GM's setup tables and the sheets when it was expanded from other files, and those files' texts."""
    return {"class": [type(setup).__module__, type(setup).__qualname__], "setup": record.frozen(setup), "read": read}


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
            if read_capped(name) != text or others_may_change(name) is not None:
                return None
        return record.thawed(entry["setup"], _file_class(*entry["class"]))
    except (OSError, FileInvalid, KeyError, TypeError, ValueError, AttributeError):
        return None


def parse_located(text: str, path: str, folder: Path | None = None) -> tuple[EncounterFile, Locator]:
    """`parse_text`, and where each key of the validated encounter was written (for later problems)."""
    parsed = parse_parts(text, path, folder)
    return parsed.setup, parsed.locator


class Parsed(NamedTuple):
    """A validated encounter and what its load saw on the way: where each key was written, the file's own
    data, the data the family validated (the same object when no party or bestiary was expanded), the other
    files read with their text (`open_text` keeps them), and the rules the check of a saved state resumed."""

    setup: EncounterFile
    locator: Locator
    data: dict[str, Any]
    grown: dict[str, Any]
    read: list[tuple[str, str]]
    rules: FamilyRules | None


def parse_parts(text: str, path: str, folder: Path | None = None) -> Parsed:
    """`parse_located` with the data it validated (`tracker.store.follow` reuses the setup's part of it): the
    pass of `open_text` without the memo."""
    from tracker.store.campaign.blocks import expand

    return validated(expand(read_document(text, path, folder)))


def validated(grown: Grown) -> Parsed:
    """The expanded encounter (`expand`) as its family's records, its saved state resumed, every problem
    positioned (FileInvalid): the last step of opening a file before a session is made of it."""
    document = grown.document
    try:
        setup = validate_document(grown.data)
    except Invalid as exc:
        problems = validation_problems(exc, grown.locator, grown.data)
        raise FileInvalid(document.path, sorted([*grown.problems, *problems], key=Problem.order)) from None
    if grown.problems:
        raise FileInvalid(document.path, sorted(grown.problems, key=Problem.order))
    unsaved = unsaved_combatants(grown.data, setup.state)
    if unsaved:
        line, col = document.pos.find(("state", "fighters"))
        listed = ", ".join(f"'{name}'" for name in unsaved)
        message = (
            f"the saved fight has no {listed}: the file (or its party or bestiary) gained "
            f"{'them' if len(unsaved) > 1 else 'it'} after the fight was saved"
        )
        raise FileInvalid(document.path, [Problem(line, col, message)])
    data = document.data
    if grown.data is not data:
        sheets = {key: list(grown.data.get(key, [])) for key in ("combatants", "stat_blocks")}
        if grown.party_seats:
            sheets["seats"] = [grown.party_seats]
        setup.keep_written({k: v for k, v in data.items() if k not in ("state", "history")}, sheets)
    problems, rules = _resumed(setup, document.pos)
    if problems:
        raise FileInvalid(document.path, problems)
    return Parsed(setup, grown.locator, data, grown.data, grown.read, rules)


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
    except PermissionError as exc:
        from tracker.store.owner import owned_by_other

        owner = owned_by_other(path)
        said = f"it is {owner}'s, readable by its owner only" if owner else exc.strerror or str(exc)
        raise FileInvalid(shown, [Problem(1, 1, f"cannot read: {said}", file=file)]) from None
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
    fd, tmp = private_temporary(folder, target.name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
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


#: The mode of every file the tracker writes: its owner's only. An encounter holds secrets (Control Hands,
#: the Fate Deck's order and its seed, ``gm_only`` combatants, the GM's log; docs/guide/shared-box.md), and players
#: log in to the same machine, so no other account may read what is saved, not even for the moment between
#: the temporary file's creation and its rename.
PRIVATE_MODE = 0o600

#: How many names a save tries for its temporary file before giving up (each taken name is skipped).
_TEMP_TRIES = 100


def _temp_tag() -> str:
    """The random middle of a temporary file's name (a function so a test can choose it). `os.urandom`, not
    `secrets`: this module is read at every start, and `secrets` brings hashlib and OpenSSL with it."""
    return os.urandom(6).hex()


def private_temporary(folder: Path, name: str) -> tuple[int, Path]:
    """A new temporary file ``.NAME.TAG.tmp`` in `folder`, open for writing and readable by its owner only.

    It is created with mode 0600 from the start (never widened then narrowed), exclusively and without
    following a symbolic link: a link another account planted where the temporary goes is a name taken,
    not a way to make the save write elsewhere. The mode is then set exactly (the umask may have removed
    the owner's own bits) and read back; a folder where that cannot be done (a file system that ignores
    modes, a folder not the GM's to write in) refuses the save in one line, nothing written.
    """
    flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(_TEMP_TRIES):
        tmp = folder / f".{name}.{_temp_tag()}.tmp"
        try:
            fd = os.open(tmp, flags, PRIVATE_MODE)
        except FileExistsError:
            continue
        except OSError as exc:
            raise OSError(exc.errno, f"cannot write in {folder}: {exc.strerror or exc}") from None
        try:
            os.fchmod(fd, PRIVATE_MODE)
            mode = stat.S_IMODE(os.fstat(fd).st_mode)
            if mode != PRIVATE_MODE:
                raise OSError(errno.EPERM, f"the folder keeps it at mode {mode:04o}")
        except OSError as exc:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise OSError(
                exc.errno, f"cannot make a file in {folder} readable by its owner only: {exc.strerror or exc}"
            ) from None
        return fd, tmp
    raise OSError(errno.EEXIST, f"cannot write in {folder}: no free name for a temporary file")


def exposed_mode(path: str | Path) -> int | None:
    """The permission bits of `path` when accounts other than its owner may read or write it (group or
    other bits set), else None (also for a missing file); the next save makes it 0600."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None
    return mode if mode & 0o077 else None


def exposure_notice(path: str | Path) -> str | None:
    """The one line `tracker check` and `tracker run` say about an encounter other accounts can read, or None."""
    mode = exposed_mode(path)
    if mode is None:
        return None
    return f"{path}: readable by other accounts (mode {mode:04o}): the next save makes it {PRIVATE_MODE:04o}"


def remove_stale_temp_files(target: Path) -> int:
    """Temp files left by a writer killed mid-save (never the encounter itself); the lock holder calls this."""
    import glob  # here: only the lock holder's start needs it

    removed = 0
    # The name escaped (a `[` in it is no pattern), and a tag without a dot (`os.urandom` hex, or an older
    # tracker's `mkstemp` letters): `a.toml` does not take `a.toml.x.toml`'s temporaries for its own.
    prefix = f".{target.name}."
    for stale in target.resolve().parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        if "." in stale.name[len(prefix) : -len(".tmp")]:
            continue
        with contextlib.suppress(OSError):
            stale.unlink()
            removed += 1
    return removed
