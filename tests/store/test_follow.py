"""A viewer reads only the live part while the setup's bytes stay the same ("Five live viewers").

`Follower.load` must give exactly what a full load (`files.parse_text`) gives, for every write of a fight
of either family, and fall back to the full load whenever the setup could differ: the GM edited it, a
table follows the live part, the fight's kept sheets changed, or the setup reads a party or bestiary
file. An invalid live part is reported exactly as the full load reports it.
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.rules import test_properties as ttb_props
from tests.rules.twod20 import test_properties_2d20 as d20_props
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.file import EncounterFile
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.ttb.records.file import TTBFile
from tracker.store import files
from tracker.store.follow import Follower
from tracker.store.save import encounter_text, load_session
from tracker.store.setup_text import split_setup

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Both families, a file with stat blocks and counts, and one with a party and a bestiary.
FILES = ["duel.toml", "brawl.toml", "skirmish_srd.toml", "firefight_infinity.toml", "campaign/1_ambush.toml"]


def as_json(setup: EncounterFile) -> str:
    """Everything a viewer takes from a load: the session's state JSON, its history, setup and saved text. A
    file with no live part starts a fight of its own secret at each load: seed 0 here, so two loads compare."""
    session = Session(setup, seed=0 if setup.state is None else None)
    return json.dumps(
        {
            "state": state_json(session),
            "history": dump(session.history, mode="json"),
            "file": dump(setup, mode="json"),
            "written": setup.written,
            "sheets": setup.sheets,
            "text": encounter_text(session),
        },
        sort_keys=True,
    )


def same_as_full(follower: Follower, text: str, path: str) -> str:
    """Load `text` both ways; they must agree. Returns how the follower loaded it."""
    assert as_json(follower.load(text)) == as_json(files.parse_text(text, path))
    return follower.last


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES, tmp_path, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".*"))
    return tmp_path


@pytest.mark.parametrize("name", FILES)
def test_each_write_of_a_demo_reads_like_a_full_load(examples: Path, name: str) -> None:
    """Every save of the example's demo (its [[demo]] steps, as a GM would play them) gives the same
    session through the live part as through a full load; after the first save, only the live part is read.
    A setup that reads the party and bestiary (no fight saved yet) is loaded in full."""
    path = examples / name
    session = load_session(path, seed=files.load(path).encounter.demo_seed)  # the demo answers its seed's cards
    follower = Follower(path)
    first = same_as_full(follower, files.read_text(path), str(path))
    assert first == "full"
    ways = []
    for step in session.setup.demo:
        try:
            session.execute(step.do)
        except Refusal:
            continue
        text = encounter_text(session)
        files.write_text(path, text)
        ways.append(same_as_full(follower, files.read_text(path), str(path)))
    assert len(ways) > 5
    # The first save of a fight from shared sheets writes them into [history]: one more full load.
    assert ways[0] == ("full" if name.startswith("campaign") else "live")
    assert set(ways[1:]) == {"live"}


def _fight(session: Session, data: st.DataObject, lines: st.SearchStrategy[str], path: str) -> None:
    follower = Follower(path)
    follower.load(encounter_text(session))
    for _ in range(12):
        try:
            session.execute(data.draw(lines))
        except Refusal:
            continue
        assert same_as_full(follower, encounter_text(session), path) == "live"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(session=ttb_props.sessions(), data=st.data())
def test_random_ttb_fights_read_like_full_loads(session: Session, data: st.DataObject) -> None:
    """Through the Breach: random command sequences (the rules' property tests' own), every accepted one saved."""
    _fight(session, data, st.deferred(lambda: ttb_props.command_lines(session, pace=2)), "<property>")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(session=d20_props.sessions(), data=st.data())
def test_random_2d20_fights_read_like_full_loads(session: Session, data: st.DataObject) -> None:
    """2d20 (SRD and Infinity profiles): random command sequences, every accepted one saved."""
    _fight(session, data, st.deferred(lambda: d20_props.command_lines(session)), "<property>")


def played(examples: Path, name: str = "duel.toml") -> tuple[Path, Session, Follower]:
    """A fight a few commands in, its follower on the quick path."""
    path = examples / name
    session = load_session(path, seed=3)
    follower = Follower(path)
    follower.load(files.read_text(path))
    for line in ("initiative Sofia 9", "start", "next"):
        session.execute(line)
        follower.load(encounter_text(session))
    assert follower.last == "live"
    return path, session, follower


def test_an_edited_setup_is_loaded_in_full(examples: Path) -> None:
    """The GM changed the setup under a fight (the encounter's name, a combatant's armor): a full load."""
    path, session, follower = played(examples)
    text = encounter_text(session)
    edited = text.replace('name = "Duel on the Burning Pier"', 'name = "Duel at Dawn"', 1)
    assert edited != text
    assert same_as_full(follower, edited, str(path)) == "full"
    assert follower.load(edited).encounter.name == "Duel at Dawn"
    # The edited setup is the one kept now: the fight's next write reads only its live part again.
    session.execute("next")
    after = encounter_text(session).replace('name = "Duel on the Burning Pier"', 'name = "Duel at Dawn"', 1)
    assert same_as_full(follower, after, str(path)) == "live"
    assert follower.load(after).encounter.name == "Duel at Dawn"


def test_a_setup_table_after_the_live_part_is_loaded_in_full(examples: Path) -> None:
    """A table appended below [history] belongs to the setup: the same leading bytes, another setup."""
    path, session, follower = played(examples)
    text = encounter_text(session) + "\n[settings]\ncombat_ap = 0\n"
    assert same_as_full(follower, text, str(path)) == "full"
    setup = follower.load(text)
    assert isinstance(setup, TTBFile) and setup.settings.combat_ap == 0
    # Plain keys before the first live header would belong to the setup's last table: a full load too.
    keyed = encounter_text(session).replace("[state]", "wounds = 3\n[state]", 1)
    with pytest.raises(files.FileInvalid) as full:
        files.parse_text(keyed, str(path))
    with pytest.raises(files.FileInvalid) as quick:
        follower.load(keyed)
    assert quick.value.lines() == full.value.lines()
    assert follower.last == "full"


def test_live_keys_before_the_first_live_header_are_the_setup_s(examples: Path) -> None:
    """``state.round = 1`` written before any header parses, alone, to a [state] table; in the file it is a key
    of the setup's last table (a [[demo]] step here): the full load's problem, not a quick success."""
    path, session, follower = played(examples)
    text = encounter_text(session)
    live = text.index("[state]\n")
    block = text.index("\n[", live + 1)
    dotted = re.sub(r"^(\w+) = ", r"state.\1 = ", text[live + len("[state]\n") : block], flags=re.M)
    moved = text[:live] + dotted + text[block:]
    assert tomllib.loads(moved[live:]).keys() == {"state", "history"}
    with pytest.raises(files.FileInvalid) as full:
        files.parse_text(moved, str(path))
    with pytest.raises(files.FileInvalid) as quick:
        follower.load(moved)
    assert quick.value.lines() == full.value.lines()


def test_changed_kept_sheets_are_loaded_in_full(examples: Path) -> None:
    """A fight from a party keeps its sheets in [history]; those are the setup too: when they change, a
    full load reads them (Sofia's wounds below, 8 in the party file)."""
    path = examples / "campaign" / "1_ambush.toml"
    session = load_session(path, seed=3)
    follower = Follower(path)
    session.execute("start")
    follower.load(encounter_text(session))
    session.execute("undo")
    session.execute("start")
    text = encounter_text(session)
    assert same_as_full(follower, text, str(path)) == "live"
    sheets = text.index("[[history.sheets.combatants]]")
    tougher = text[:sheets] + text[sheets:].replace("wounds = 8", "wounds = 9", 1)
    assert tougher != text
    assert same_as_full(follower, tougher, str(path)) == "full"
    setup = follower.load(tougher)
    assert isinstance(setup, TTBFile)
    assert (setup.combatants[0].name, setup.combatants[0].wounds) == ("Sofia Ramos", 9)


def test_a_setup_read_from_the_party_file_is_never_kept(examples: Path) -> None:
    """Before the fight is saved, the party file itself is read: it may change under the same encounter bytes."""
    path = examples / "campaign" / "1_ambush.toml"
    follower = Follower(path)
    text = split_setup(files.read_text(path)).setup  # the file as a save writes its setup: a prefix of itself
    assert text is not None
    assert same_as_full(follower, text, str(path)) == "full"
    party = examples / "campaign" / "party.toml"
    party.write_text(party.read_text(encoding="utf-8").replace("wounds = 8", "wounds = 9", 1), encoding="utf-8")
    assert same_as_full(follower, text, str(path)) == "full"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("[history]", "[history"),  # TOML syntax
        ("round = ", 'round = "two"\nwas_round = '),  # a wrong type in [state]
        ("[state.fighters.", "[state.fighters.Nobody]\nwounds = 3\n\n[state.fighters."),  # not the setup's
        ("[history]\n", "[gone]\n"),  # [state] without [history] (and a table the file does not have)
        ("[history]\nseed = ", "[history]\nseed = 'x'\nold_seed = "),  # a wrong type, an unknown key in [history]
    ],
    ids=["syntax", "state-type", "stranger", "no-history", "history-type"],
)
def test_an_invalid_live_part_is_reported_as_a_full_load_reports_it(examples: Path, old: str, new: str) -> None:
    """Every problem of the live part, at the same line, in the same words; the next good write is quick again."""
    path, session, follower = played(examples)
    text = encounter_text(session)
    assert old in text
    broken = text.replace(old, new, 1)
    with pytest.raises(files.FileInvalid) as full:
        files.parse_text(broken, str(path))
    with pytest.raises(files.FileInvalid) as quick:
        follower.load(broken)
    assert quick.value.lines() == full.value.lines()
    session.execute("next")
    assert same_as_full(follower, encounter_text(session), str(path)) == "live"


def test_a_hostile_live_part_is_refused_like_a_full_load(examples: Path) -> None:
    """Deep nesting, overlong numbers, over 1 MiB in the live part: the full load's one-line problems."""
    path, session, follower = played(examples)
    text = encounter_text(session)
    for hostile in (
        "[state.x]\ny = " + "[" * 600 + "]" * 600 + "\n",
        "[state.x]\ny = " + "9" * 5000 + "\n",
        "# " + "x" * files.MAX_FILE_BYTES + "\n",
    ):
        broken = text + hostile
        with pytest.raises(files.FileInvalid) as full:
            files.parse_text(broken, str(path))
        with pytest.raises(files.FileInvalid) as quick:
            follower.load(broken)
        assert quick.value.lines() == full.value.lines()


def test_the_fight_undone_to_its_start_reads_like_a_full_load(examples: Path) -> None:
    """Undo back to before `start`, and a file with no live part at all (the GM cleared it)."""
    path, session, follower = played(examples)
    for _ in range(3):
        session.execute("undo")
    assert same_as_full(follower, encounter_text(session), str(path)) == "live"
    bare = encounter_text(session).split("[state]", 1)[0]
    assert same_as_full(follower, bare, str(path)) == "live"
    assert follower.load(bare).state is None
