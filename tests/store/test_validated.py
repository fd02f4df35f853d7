"""Validated documents are remembered on disk, as JSON data (tracker.store.validated: start-up speed).

What must hold: a remembered load is the same encounter a fresh validation gives; a file with problems is
never remembered (pydantic reports them every time); a damaged entry, another version of the rules' code or a
document JSON cannot key are all misses, never wrong answers; and a file opened again does not load
pydantic at all, which is the point.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from tracker.engine.records import record
from tracker.engine.records.record import dump, validate
from tracker.families.session import Session
from tracker.families.twod20.records.file import TwoD20File
from tracker.store import files, validated
from tracker.store.save import encounter_text

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").rglob("*.toml"))
ENCOUNTERS = [p for p in EXAMPLES if "\n[encounter]" in "\n" + p.read_text(encoding="utf-8")]


@pytest.fixture
def memo(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "cache"
    record.use_memo(validated.FolderMemo(folder))
    try:
        yield folder
    finally:
        record.use_memo(None)


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.exists() else []


@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: p.name)
def test_a_remembered_load_is_the_encounter_a_fresh_validation_gives(path: Path, memo: Path) -> None:
    text = path.read_text(encoding="utf-8")
    first = files.parse_text(text, str(path))
    assert _entries(memo), "a valid file is remembered"
    again = files.parse_text(text, str(path))
    record.use_memo(None)
    fresh = files.parse_text(text, str(path))
    assert again == fresh == first
    assert again is not first
    played = [Session(s, seed=s.encounter.demo_seed) for s in (again, fresh)]  # the demo answers its seed's cards
    for session in played:
        for step in session.setup.demo:
            session.execute(step.do)
    assert encounter_text(played[0]) == encounter_text(played[1])


def test_a_file_with_problems_is_never_remembered(memo: Path) -> None:
    text = '[encounter]\nname = "Bad"\nsystem = "ttb"\n\n[[combatants]]\nname = "Nobody"\nwounds = 0\n'
    for _ in range(2):
        with pytest.raises(files.FileInvalid, match="wounds"):
            files.parse_text(text, "bad.toml")
    assert _entries(memo) == []


def test_a_damaged_entry_is_a_miss_not_a_wrong_answer(memo: Path) -> None:
    """A damaged entry (of the validated data or of the file's text), or one of the wrong shape, is a miss."""
    path = ROOT / "examples" / "duel.toml"
    text = path.read_text(encoding="utf-8")
    fresh = files.parse_text(text, str(path))
    for entry in _entries(memo):
        entry.write_bytes(b"not JSON")
    assert files.parse_text(text, str(path)) == fresh
    key = record.text_key("encounter", text, os.path.abspath(path.parent))
    assert key is not None
    record.keep(key, ("not an encounter", ()))  # the wrong shape is a miss too
    assert files.parse_text(text, str(path)) == fresh


def test_another_version_of_the_rules_code_does_not_read_the_entry(memo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "examples" / "duel.toml"
    files.parse_text(path.read_text(encoding="utf-8"), str(path))
    before = _entries(memo)
    monkeypatch.setattr(record, "_versions", "another installed version")
    files.parse_text(path.read_text(encoding="utf-8"), str(path))
    assert len(_entries(memo)) == 2 * len(before)


def test_an_entry_kept_before_a_record_gained_a_field_is_a_miss(memo: Path) -> None:
    """The versions in the key do not change while the code does (an editable install, a change in
    development): an entry kept before a record gained a field would give records without it (an
    AttributeError in play). It is a miss, and validating again gives the full record."""
    path = ROOT / "examples" / "skirmish_srd.toml"
    text = path.read_text(encoding="utf-8")
    fresh = files.parse_text(text, str(path))
    for entry in _entries(memo):
        held = entry.read_text(encoding="utf-8")
        entry.write_text(held.replace('"cover_effects":[],', ""), encoding="utf-8")
    assert any('"cover_effects"' not in e.read_text(encoding="utf-8") for e in _entries(memo))
    again = files.parse_text(text, str(path))
    assert again == fresh
    assert isinstance(again, TwoD20File) and all(c.cover_effects == [] for c in again.combatants)


def test_a_document_json_cannot_key_is_validated_every_time() -> None:
    from tracker.engine.records.model import DemoStep

    assert record._memo_key(DemoStep, {"do": "start", "when": datetime.date(2026, 11, 23)}) is None
    assert record._memo_key(DemoStep, {"do": "start"}) is not None


def test_the_folder_keeps_at_most_its_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validated, "MAX_ENTRIES", 10)
    memo = validated.FolderMemo(tmp_path)
    for n in range(25):
        memo.put(f"{n:040x}", "x")
    kept = list(tmp_path.glob("*.json"))
    assert 5 <= len(kept) <= 10
    assert memo.get(f"{24:040x}") == "x"


def test_the_cache_folder_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACKER_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TRACKER_NO_CACHE", raising=False)
    assert validated.cache_folder() == tmp_path
    monkeypatch.setenv("TRACKER_NO_CACHE", "1")
    assert validated.cache_folder() is None
    monkeypatch.delenv("TRACKER_NO_CACHE")
    monkeypatch.delenv("TRACKER_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    folder = validated.cache_folder()
    assert folder is not None and folder.is_relative_to(tmp_path / "xdg")


PROBE = textwrap.dedent(
    """\
    import io, json, sys
    import tracker.cli.main
    sys.stdin = io.StringIO("start\\n")
    code = tracker.cli.main.main(["exec", sys.argv[1], "--json", "--seed", "11"])  # the same fight both times
    print(json.dumps({"code": code, "pydantic": "pydantic" in sys.modules}), file=sys.stderr)
    """
)


@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: p.name)
def test_the_live_tables_remembered_at_a_save_are_what_validating_them_gives(path: Path) -> None:
    """`remember_live` puts the session's own state and history in the memo under the tables it saved: sound
    only if validating those tables gives equal records, after every step of every example's script."""
    from tracker.engine.records.model import History
    from tracker.store.save import live_document

    setup = files.parse_text(path.read_text(encoding="utf-8"), str(path))
    session = Session(setup, seed=setup.encounter.demo_seed)  # the demo answers its seed's cards
    steps = [step.do for step in session.setup.demo] or ["start", "next"]
    for line in steps:
        session.execute(line)
        doc = live_document(session)
        assert validate(type(session.state), doc["state"]) == session.state, line
        assert validate(History, doc["history"]) == session.history, line


def test_a_key_does_not_depend_on_how_the_document_was_built() -> None:
    """The same content is the same key however its objects are shared or ordered (a canonical record's)."""
    from tracker.engine.records.model import History

    name = "".join(["Sofia", " Ramos"])
    shared = {"seed": 1, "commands": [name, name]}
    apart = {"seed": 1, "commands": ["Sofia Ramos", "Sofia Ramos"]}
    assert record._memo_key(History, shared) == record._memo_key(History, apart)
    assert record._memo_key(History, {"commands": [], "seed": 1}) == record._memo_key(
        History, {"seed": 1, "commands": []}
    )


def test_a_fight_saved_by_exec_is_not_validated_again(tmp_path: Path) -> None:
    """`tracker exec --save` remembers the live tables it wrote: the next exec on the file, mid-fight, loads
    without pydantic and plays on as a fresh validation would."""
    path = tmp_path / "duel.toml"
    path.write_text((ROOT / "examples" / "duel.toml").read_text(encoding="utf-8"), encoding="utf-8")
    env = {**os.environ, "TRACKER_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("TRACKER_NO_CACHE", None)
    probe = SAVING_PROBE
    seen = []
    for line in ("start", "next", "next"):
        proc = subprocess.run(
            [sys.executable, "-c", probe, str(path), line],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        seen.append(json.loads(proc.stderr.strip().splitlines()[-1])["pydantic"])
    assert seen[1:] == [False, False]
    record.use_memo(None)
    fresh = Session(files.parse_text(path.read_text(encoding="utf-8"), str(path)))
    assert fresh.history.commands == ["start", "next", "next"]


SAVING_PROBE = textwrap.dedent(
    """\
    import io, json, sys
    import tracker.cli.main
    sys.stdin = io.StringIO(sys.argv[2] + "\\n")
    code = tracker.cli.main.main(["exec", sys.argv[1], "--save"])
    print(json.dumps({"code": code, "pydantic": "pydantic" in sys.modules}), file=sys.stderr)
    """
)


def test_a_file_opened_again_does_not_load_pydantic(tmp_path: Path) -> None:
    """The point of remembering: the second `tracker exec` on the same file skips pydantic's import and
    schema building altogether, and prints the same state."""
    path = tmp_path / "duel.toml"
    path.write_text((ROOT / "examples" / "duel.toml").read_text(encoding="utf-8"), encoding="utf-8")
    env = {**os.environ, "TRACKER_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("TRACKER_NO_CACHE", None)
    runs = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, timeout=60, env=env, check=False
        )
        assert proc.returncode == 0, proc.stderr
        runs.append((json.loads(proc.stderr.strip().splitlines()[-1]), json.loads(proc.stdout)))
    (first, first_state), (second, second_state) = runs
    assert first == {"code": 0, "pydantic": True}
    assert second == {"code": 0, "pydantic": False}
    assert first_state == second_state


# --- a file read before is recalled by its text (the first frame) ------------------------------------------


def _campaign(folder: Path) -> Path:
    """A copy of the campaign's first fight with its party and bestiary, in `folder` (returns the encounter)."""
    for part in ("campaign", "bestiary"):
        (folder / part).mkdir(parents=True)
        for source in (ROOT / "examples" / part).glob("*.toml"):
            (folder / part / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    return folder / "campaign" / "1_ambush.toml"


def _no_toml_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("tomllib parsed a file the memo holds")

    monkeypatch.setattr(tomllib, "loads", refuse)


@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: p.name)
def test_a_file_read_before_is_not_parsed_again(path: Path, memo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`files.open_text` keys the memo on the file's bytes: the second read of the same text neither parses it
    (`tomllib`) nor validates it, and gives the encounter the full load gave."""
    text = path.read_text(encoding="utf-8")
    first = files.parse_text(text, str(path))
    with monkeypatch.context() as patch:
        _no_toml_parsing(patch)
        again = files.parse_text(text, str(path))
    assert again == first and again is not first
    assert again.written == first.written and again.sheets == first.sheets


def test_a_text_differing_by_one_byte_is_read_afresh(memo: Path) -> None:
    path = ROOT / "examples" / "duel.toml"
    text = path.read_text(encoding="utf-8")
    files.parse_text(text, str(path))
    renamed = text.replace('name = "', 'name = "X', 1)
    assert files.parse_text(renamed, str(path)).encounter.name.startswith("X")
    with pytest.raises(files.FileInvalid):  # a text that breaks is reported, whatever the memo holds
        files.parse_text(text + "\n[[combatants]]\nname = 3\n", str(path))


def test_an_expansion_is_recalled_only_while_its_party_and_bestiary_are_unchanged(
    tmp_path: Path, memo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is the encounter's own bytes; the entry holds the other files the expansion read, with their
    text, and is used only while each still reads the same: an edited party, a bestiary gone, are seen."""
    path = _campaign(tmp_path)
    text = path.read_text(encoding="utf-8")
    first = files.parse_text(text, str(path))
    with monkeypatch.context() as patch:
        _no_toml_parsing(patch)
        assert files.parse_text(text, str(path)) == first
    party = tmp_path / "campaign" / "party.toml"
    party.write_text(party.read_text(encoding="utf-8").replace("wounds = 8", "wounds = 9", 1), encoding="utf-8")
    edited = files.parse_text(text, str(path))
    assert edited != first
    sofia = next(c for c in dump(edited)["combatants"] if c["name"] == "Sofia Ramos")
    assert sofia["wounds"] == 9
    (tmp_path / "bestiary" / "docks.toml").unlink()
    with pytest.raises(files.FileInvalid, match="no such bestiary file"):
        files.parse_text(text, str(path))


def test_the_same_text_in_another_folder_reads_that_folders_files(tmp_path: Path, memo: Path) -> None:
    """An encounter's paths start from its folder, so the folder is part of the key: the same bytes beside
    another party are that party's fight."""
    here, there = _campaign(tmp_path / "a"), _campaign(tmp_path / "b")
    party = tmp_path / "b" / "campaign" / "party.toml"
    party.write_text(party.read_text(encoding="utf-8").replace("Sofia Ramos", "Sofia Reyes"), encoding="utf-8")
    text = here.read_text(encoding="utf-8")
    names = [[c["name"] for c in dump(files.parse_text(text, str(where)))["combatants"]] for where in (here, there)]
    assert "Sofia Ramos" in names[0] and "Sofia Reyes" in names[1]


def test_a_relative_path_reads_the_files_beside_it_from_any_working_folder(
    tmp_path: Path, memo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same relative path from two working folders is two files: each reads its own party, and a file
    recalled from one folder is checked against the party files it read, wherever the process now runs."""
    here, there = _campaign(tmp_path / "a"), _campaign(tmp_path / "b")
    party = tmp_path / "b" / "campaign" / "party.toml"
    party.write_text(party.read_text(encoding="utf-8").replace("Sofia Ramos", "Sofia Reyes"), encoding="utf-8")
    text = here.read_text(encoding="utf-8")
    seen = []
    for folder in (here.parent, there.parent, here.parent, there.parent):
        monkeypatch.chdir(folder)
        seen.append("Sofia Ramos" in [c["name"] for c in dump(files.parse_text(text, here.name))["combatants"]])
    assert seen == [True, False, True, False]


def test_another_version_of_the_code_does_not_recall_a_text(memo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "examples" / "duel.toml").read_text(encoding="utf-8")
    key = record.text_key("encounter", text, "/somewhere")
    monkeypatch.setattr(record, "_versions", "another installed version")
    assert record.text_key("encounter", text, "/somewhere") != key
    assert record.text_key("encounter", text, "/elsewhere") != record.text_key("encounter", text, "/somewhere")
    assert record.text_key("theme", text, "/somewhere") != record.text_key("encounter", text, "/somewhere")


def test_a_saved_state_is_resumed_once_per_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A load checks a saved ``[state]`` by resuming it; the session opened from the file plays on with that
    engine instead of resuming (and validating) the state a second time. With the memo on, a text read
    before is not checked again: its session resumes it, once."""
    from tracker.families.file import EncounterFile
    from tracker.families.rules import FamilyRules
    from tracker.families.seam import RuleFamily
    from tracker.store.opening import load_session

    path = tmp_path / "duel.toml"
    session = Session(files.parse_text((ROOT / "examples" / "duel.toml").read_text(encoding="utf-8"), str(path)))
    for line in ("start", "next"):
        session.execute(line)
    files.write_text(path, encounter_text(session))
    resumed: list[object] = []
    real = RuleFamily.resume

    def counted(self: RuleFamily, setup: EncounterFile, state: Mapping[str, object]) -> FamilyRules:
        resumed.append(state)
        return real(self, setup, state)

    monkeypatch.setattr(RuleFamily, "resume", counted)
    for memo_folder in (None, tmp_path / "cache", tmp_path / "cache"):
        record.use_memo(validated.FolderMemo(memo_folder) if memo_folder else None)
        try:
            resumed.clear()
            loaded = load_session(path)
        finally:
            record.use_memo(None)
        assert len(resumed) == 1, memo_folder
        assert loaded.history.commands == ["start", "next"]
        assert dump(loaded.state) == dump(session.state)


# --- what the memo holds, and where ------------------------------------------------------------------------


def test_an_entry_is_json_data_and_the_memo_never_pickles(memo: Path) -> None:
    path = ROOT / "examples" / "skirmish_srd.toml"
    text = path.read_text(encoding="utf-8")
    first = files.parse_text(text, str(path))
    entries = _entries(memo)
    assert entries
    for entry in entries:
        data = json.loads(entry.read_text(encoding="utf-8"))  # plain JSON: nothing to execute
        assert isinstance(data, dict)
    # The whole file's entry holds the encounter as `record.frozen` writes it: data that thaws to the same records.
    setups = [json.loads(e.read_text(encoding="utf-8")).get("setup") for e in entries]
    assert any(record.thawed(setup, type(first)) == first for setup in setups if setup is not None)
    for module in ("tracker/engine/records/record.py", "tracker/store/validated.py", "tracker/store/files.py"):
        source = (ROOT / module).read_text(encoding="utf-8")
        assert "pickle" not in source and "marshal" not in source, module


def test_a_changed_byte_misses(memo: Path) -> None:
    path = ROOT / "examples" / "duel.toml"
    text = path.read_text(encoding="utf-8")
    files.parse_text(text, str(path))
    here = os.path.abspath(path.parent)
    key = record.text_key("encounter", text, here)
    changed = record.text_key("encounter", text.replace("\n", "\n ", 1), here)
    assert record.recall(key) is not None
    assert changed != key and record.recall(changed) is None


def test_a_folder_others_may_write_to_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo is used only in a folder of the user's own that no one else may write to; otherwise nothing
    is remembered (what is said, and the folders above, are tests/store/test_private_folder.py's). Its group
    here has other members (the owner's private group would be the owner's: `tracker.store.writers`)."""
    from tracker.store import writers

    monkeypatch.setattr(writers, "group_others", lambda gid, uid: "group table, with bob")
    folder = tmp_path / "cache"
    monkeypatch.setenv("TRACKER_CACHE_DIR", str(folder))
    monkeypatch.delenv("TRACKER_NO_CACHE", raising=False)
    try:
        validated.remember_validations()
        assert isinstance(record._memo, validated.FolderMemo)  # made for the user alone
        assert (folder.stat().st_mode & 0o077) == 0
        for mode in (0o770, 0o707, 0o777, 0o720):
            folder.chmod(mode)
            validated.remember_validations()
            assert record._memo is None, oct(mode)
        folder.chmod(0o755)  # others may read, not write
        validated.remember_validations()
        assert record._memo is not None
    finally:
        record.use_memo(None)


def test_a_folder_owned_by_someone_else_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(folder).st_uid + 1)
    assert not validated.safe_folder(folder)
    monkeypatch.undo()
    assert validated.safe_folder(folder)


def test_the_key_names_the_installed_versions() -> None:
    """The memo is keyed by the installed tracker, pydantic and pydantic-core (as `importlib.metadata` reads
    them) and Python, not by a scan of the package's modules."""
    from importlib.metadata import version

    for name in ("tracker", "pydantic", "pydantic-core"):
        assert record.installed_version(name) == version(name)
        assert f"{name.replace('-', '_')}={version(name)}" in record.versions()
    assert sys.version in record.versions()
    assert record.installed_version("no-such-distribution") == "?"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the folder is worked out here on Linux only")
@pytest.mark.parametrize(
    "env",
    [
        {"HOME": "/home/gm"},
        {"HOME": "/home/gm", "XDG_CACHE_HOME": "/var/cache/gm"},
        {"HOME": "/home/gm", "XDG_CACHE_HOME": "relative/cache"},  # not absolute: ignored, as platformdirs does
        {"HOME": "/home/gm", "XDG_CACHE_HOME": ""},
    ],
)
def test_the_cache_folder_is_the_one_platformdirs_names(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    """docs/guide/shared-box.md: the memo lives in the platform's cache folder for "tracker"; worked out without
    importing platformdirs (and the `tempfile` and `shutil` it brings) at every start, it must be the same folder."""
    import platformdirs

    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert validated.user_cache_folder() == platformdirs.user_cache_dir("tracker", appauthor=False)
