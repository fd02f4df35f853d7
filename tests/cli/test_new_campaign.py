"""`tracker new FILE --system S --party P --bestiary B --add "Guild Thug x3"` (docs/reference/cli.md,
docs/reference/file-format.md).

The encounter it writes is valid at once, names its files relative to itself, and says in a comment what
every key does; a bad ``--add`` or party is refused in one line and nothing is written.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli.campaign import CULT, GUILD, INVESTIGATORS, PARTY, by_name, write
from tests.conftest import Tracker

KEY_LINE = re.compile(r"^[a-z_]+ = ")


def campaign_files(folder: Path) -> tuple[Path, Path]:
    return write(folder, "bestiary/guild.toml", GUILD), write(folder, "party.toml", PARTY)


def test_new_with_party_bestiary_and_adds_is_ready_to_play(tracker: Tracker, tmp_path: Path) -> None:
    guild, party = campaign_files(tmp_path)
    target = tmp_path / "fights" / "docks_ambush.toml"
    target.parent.mkdir()
    result = tracker(
        "new", target, "--system", "ttb", "--party", party, "--bestiary", guild, "--add", "guild thug x3",
        "--add", "Guild Enforcer",
    )  # fmt: skip
    assert result.code == 0, result.err
    text = target.read_text(encoding="utf-8")
    assert 'bestiary = ["../bestiary/guild.toml"]' in text and 'party = "../party.toml"' in text
    assert 'name = "Docks Ambush"' in text
    assert tracker("check", target).code == 0
    names = [c["name"] for c in tracker("exec", target, "--json").json()["combatants"]]
    assert names == ["Sofia Ramos", "Ash Kettering", "Guild Thug 1", "Guild Thug 2", "Guild Thug 3", "Guild Enforcer"]


def test_every_key_the_new_file_writes_has_a_comment(tracker: Tracker, tmp_path: Path) -> None:
    guild, party = campaign_files(tmp_path)
    cult, investigators = write(tmp_path, "cult.toml", CULT), write(tmp_path, "inv.toml", INVESTIGATORS)
    for system, book, people, add in (("ttb", guild, party, "Guild Thug x2"), ("2d20", cult, investigators, "Cultist")):
        target = tmp_path / f"{system}.toml"
        assert tracker("new", target, "--system", system, "--party", people, "--bestiary", book, "--add", add).code == 0
        keys = [line for line in target.read_text(encoding="utf-8").splitlines() if KEY_LINE.match(line)]
        assert len(keys) >= 6 and all(" # " in line for line in keys), [k for k in keys if " # " not in k]


def test_new_2d20_with_a_party(tracker: Tracker, tmp_path: Path) -> None:
    cult = write(tmp_path, "cult.toml", CULT)
    party = write(tmp_path, "investigators.toml", INVESTIGATORS)
    target = tmp_path / "harbour.toml"
    result = tracker("new", target, "--system", "2d20", "--party", party, "--bestiary", cult, "--add", "Cultist x2")
    assert result.code == 0, result.err
    people = by_name(tracker("exec", target, "--json").json())
    assert list(people) == ["Ada Vance", "Brann Okafor", "Cultist 1", "Cultist 2"]


def test_new_with_a_party_only_lists_the_blocks_to_come(tracker: Tracker, tmp_path: Path) -> None:
    guild, party = campaign_files(tmp_path)
    target = tmp_path / "later.toml"
    assert tracker("new", target, "--system", "ttb", "--party", party, "--bestiary", guild).code == 0
    text = target.read_text(encoding="utf-8")
    assert "the bestiary has: Guild Thug, Guild Enforcer" in text
    assert tracker("check", target).code == 0


def test_an_unknown_block_is_refused_and_nothing_written(tracker: Tracker, tmp_path: Path) -> None:
    guild, _ = campaign_files(tmp_path)
    target = tmp_path / "x.toml"
    line = tracker("new", target, "--system", "ttb", "--bestiary", guild, "--add", "Guild Thog x2").one_line()
    assert line == "tracker: --add 'Guild Thog x2': no stat block named 'Guild Thog' (did you mean 'Guild Thug'?)"
    assert not target.exists()


def test_add_needs_a_bestiary(tracker: Tracker, tmp_path: Path) -> None:
    target = tmp_path / "x.toml"
    assert "--bestiary" in tracker("new", target, "--system", "ttb", "--add", "Guild Thug").one_line()
    assert not target.exists()


def test_a_bestiary_of_the_other_system_is_refused(tracker: Tracker, tmp_path: Path) -> None:
    guild, _ = campaign_files(tmp_path)
    target = tmp_path / "x.toml"
    line = tracker("new", target, "--system", "2d20", "--bestiary", guild, "--add", "Guild Thug").one_line()
    assert line == f"tracker: {target} not written: {guild} is a ttb bestiary; this encounter is 2d20"
    assert not target.exists()


def test_a_bad_party_is_reported_in_the_party_and_nothing_written(tracker: Tracker, tmp_path: Path) -> None:
    party = write(tmp_path, "party.toml", PARTY.replace("wounds = 7", "wounds = 0"))
    target = tmp_path / "x.toml"
    [(file, _, _, message)] = tracker("new", target, "--system", "ttb", "--party", party).problems()
    assert file == str(party) and "wounds" in message
    assert not target.exists()


def test_a_missing_bestiary_is_one_line(tracker: Tracker, tmp_path: Path) -> None:
    target = tmp_path / "x.toml"
    line = tracker("new", target, "--system", "ttb", "--bestiary", tmp_path / "none.toml").one_line()
    assert line.endswith("none.toml:1:1: no such file")
    assert not target.exists()


def test_plain_new_still_writes_the_starter(tracker: Tracker, tmp_path: Path) -> None:
    target = tmp_path / "s.toml"
    assert tracker("new", target, "--system", "ttb").code == 0
    assert "A Through the Breach 2E encounter. Check it with" in target.read_text(encoding="utf-8")
