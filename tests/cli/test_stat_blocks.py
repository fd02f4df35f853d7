"""Stat blocks, counts and parties (docs/reference/file-format.md) through `tracker exec` and `tracker check`.

Each form is played through `tracker exec --json`; each bad input is a `tracker check` problem, one line, at
the line of the file at fault (the encounter, its bestiary or its party).
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import tomli_w

from tests.cli.campaign import (
    CULT,
    ENCOUNTER,
    GUILD,
    PARTY,
    by_name,
    col_of,
    d20_campaign,
    line_of,
    ttb_campaign,
    write,
)
from tests.conftest import Tracker

# --- the forms, played ----------------------------------------------------------------------------


def test_from_takes_the_block_and_count_numbers_it_after_the_party(tracker: Tracker, tmp_path: Path) -> None:
    """The party first, in its file's order; ``count = 3`` makes Guild Thug 1-3; a field given overrides."""
    enc = ttb_campaign(tmp_path)
    state = tracker("exec", enc, "--json").json()
    names = [c["name"] for c in state["combatants"]]
    assert names == ["Sofia Ramos", "Ash Kettering", "Guild Thug 1", "Guild Thug 2", "Guild Thug 3", "Guild Enforcer"]
    people = by_name(state)
    assert people["Guild Thug 2"]["wounds"] == 6 and people["Guild Thug 2"]["rank_value"] == 5
    assert people["Sofia Ramos"]["side"] == "players"
    start = tracker("exec", enc, "--json", stdin="start\n").json()
    # The Enforcer's initiative is its block's Rank Value 7 + Initiative 2 (docs/rules/ttb-turns.md#s2-3).
    assert by_name(start)["Guild Enforcer"]["initiative"] == 9


def test_a_field_given_overrides_the_block(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path, ENCOUNTER.replace("armor = 2", "armor = 2\nwounds = 12"))
    assert by_name(tracker("exec", enc, "--json").json())["Guild Enforcer"]["wounds"] == 12
    plain = ttb_campaign(tmp_path / "plain")
    assert by_name(tracker("exec", plain, "--json").json())["Guild Enforcer"]["wounds"] == 9


def test_block_names_ignore_case(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path, ENCOUNTER.replace('from = "Guild Thug"', 'from = "guild THUG"'))
    names = [c["name"] for c in tracker("exec", enc, "--json").json()["combatants"]]
    assert "Guild Thug 1" in names  # named after the block as the bestiary writes it


def test_name_with_count_numbers_the_given_name(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path, ENCOUNTER.replace("count = 3", 'name = "Thug"\ncount = 2'))
    names = [c["name"] for c in tracker("exec", enc, "--json").json()["combatants"]]
    assert names[2:4] == ["Thug 1", "Thug 2"]


def test_name_with_from_renames_one(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path, ENCOUNTER.replace("armor = 2", 'armor = 2\nname = "Sergeant Vance"'))
    people = by_name(tracker("exec", enc, "--json").json())
    assert people["Sergeant Vance"]["wounds"] == 9


def test_count_on_a_whole_sheet(tracker: Tracker, tmp_path: Path) -> None:
    text = ENCOUNTER + '\n[[combatants]]\nname = "Rat"\nrank_value = 1\nwounds = 1\ncount = 2\n'
    names = [c["name"] for c in tracker("exec", ttb_campaign(tmp_path, text), "--json").json()["combatants"]]
    assert names[-2:] == ["Rat 1", "Rat 2"]


def test_inline_stat_blocks_and_one_bestiary_file_as_text(tracker: Tracker, tmp_path: Path) -> None:
    text = ENCOUNTER.replace('bestiary = ["bestiary/guild.toml"]', 'bestiary = "bestiary/guild.toml"') + (
        '\n[[stat_blocks]]\nname = "Dock Rat"\nrank_value = 1\nwounds = 2\n\n[[combatants]]\nfrom = "Dock Rat"\n'
    )
    people = by_name(tracker("exec", ttb_campaign(tmp_path, text), "--json").json())
    assert people["Dock Rat"]["wounds"] == 2 and "Guild Thug 3" in people


def test_2d20_blocks_counts_and_party(tracker: Tracker, tmp_path: Path) -> None:
    scene = d20_campaign(tmp_path)
    state = tracker("exec", scene, "--json").json()
    names = [c["name"] for c in state["combatants"]]
    assert names == ["Ada Vance", "Brann Okafor", "Cultist 1", "Cultist 2", "Cult Priest"]
    people = by_name(state)
    assert people["Cultist 2"]["zone"] == "Yard" and people["Cultist 2"]["stress_max"] == {"stress": 6}
    assert people["Cult Priest"]["zone"] == "Pier"
    assert people["Ada Vance"]["side"] == "players"


def test_a_save_keeps_the_gms_entries_not_the_expansion(tracker: Tracker, tmp_path: Path) -> None:
    """Saves write ``from``/``count``/``party`` back (docs/reference/file-format.md: the setup is the GM's), and the
    saved file plays on from where it was."""
    enc = ttb_campaign(tmp_path)
    assert tracker("exec", enc, "--save", stdin="start\n").code == 0
    saved = tomllib.loads(enc.read_text(encoding="utf-8"))
    assert saved["encounter"]["party"] == "party.toml"
    assert [c.get("from") for c in saved["combatants"]] == ["Guild Thug", "Guild Enforcer"]
    assert "stat_blocks" not in saved
    assert tracker("check", enc).code == 0
    again = tracker("exec", enc, "--json").json()
    assert again["round"] == 1 and "Guild Thug 3" in by_name(again)


def test_a_bestiary_and_a_party_check_on_their_own(tracker: Tracker, tmp_path: Path) -> None:
    ttb_campaign(tmp_path)
    assert tracker("check", tmp_path / "bestiary" / "guild.toml").code == 0
    assert tracker("check", tmp_path / "party.toml").code == 0
    assert tracker("check", write(tmp_path, "cult.toml", CULT.replace('system = "2d20"\n', ""))).code == 0
    bad = write(tmp_path, "bad.toml", GUILD.replace("wounds = 6", "wounds = 6\nwound = 2"))
    [(file, line, _, message)] = tracker("check", bad).problems()
    assert (file, line, message) == (str(bad), line_of(bad.read_text(), "wound = 2"), "unknown key 'wound'")


# --- bad input: one line each, in the file at fault -----------------------------------------------


def test_missing_bestiary_file(tracker: Tracker, tmp_path: Path) -> None:
    text = ENCOUNTER.replace('"bestiary/guild.toml"', '"bestiary/guild.toml", "bestiary/nope.toml"')
    enc = ttb_campaign(tmp_path, text)
    [(file, line, col, message)] = tracker("check", enc).problems()
    assert (file, line, col) == (str(enc), line_of(text, "nope"), col_of(text, '"bestiary/nope.toml"'))
    assert message == f"no such bestiary file: {tmp_path / 'bestiary' / 'nope.toml'}"


def test_missing_party_file(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path)
    (tmp_path / "party.toml").unlink()
    [(file, line, _, message)] = tracker("check", enc).problems()
    assert (file, line) == (str(enc), line_of(ENCOUNTER, "party ="))
    assert message.startswith("no such party file:") and message.endswith("party.toml")


def test_a_bestiary_that_is_a_folder_is_unreadable(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path, ENCOUNTER.replace('"bestiary/guild.toml"', '"bestiary"'))
    [(_, line, _, message)] = tracker("check", enc).problems()
    assert line == line_of(ENCOUNTER, "bestiary =") and "is a folder" in message


def test_unknown_block_names_the_close_match(tracker: Tracker, tmp_path: Path) -> None:
    text = ENCOUNTER.replace('from = "Guild Thug"', 'from = "Guild Thog"')
    enc = ttb_campaign(tmp_path, text)
    [(file, line, col, message)] = tracker("check", enc).problems()
    assert (file, line, col) == (str(enc), line_of(text, "Guild Thog"), 1)
    assert message == "no stat block named 'Guild Thog' (did you mean 'Guild Thug'?)"


def test_unknown_block_names_the_known_ones(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path, ENCOUNTER.replace('from = "Guild Thug"', 'from = "Kraken"'))
    [(_, _, _, message)] = tracker("check", enc).problems()
    assert message == "no stat block named 'Kraken' (known: Guild Thug, Guild Enforcer)"


def test_from_without_any_stat_blocks(tracker: Tracker, tmp_path: Path) -> None:
    text = ENCOUNTER.replace('bestiary = ["bestiary/guild.toml"]\n', "")
    [(_, line, _, message), _] = tracker("check", ttb_campaign(tmp_path, text)).problems()
    assert line == line_of(text, "Guild Thug") and "no bestiary" in message


def test_a_missing_bestiary_is_one_line_not_one_per_entry(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path)
    (tmp_path / "bestiary" / "guild.toml").unlink()
    [(_, _, _, message)] = tracker("check", enc).problems()
    assert message.startswith("no such bestiary file")


def test_count_clashing_with_a_name(tracker: Tracker, tmp_path: Path) -> None:
    text = ENCOUNTER + '\n[[combatants]]\nname = "Guild Thug 2"\nrank_value = 3\nwounds = 4\n'
    enc = ttb_campaign(tmp_path, text)
    [(file, line, col, message)] = tracker("check", enc).problems()
    assert (file, line, col) == (str(enc), line_of(text, "count = 3"), 1)
    assert message == "count = 3 makes 'Guild Thug 2', which is already a combatant's name"


def test_count_must_be_a_whole_number_from_1(tracker: Tracker, tmp_path: Path) -> None:
    for bad in ("0", '"three"', "true", "100"):
        text = ENCOUNTER.replace("count = 3", f"count = {bad}")
        [(_, line, _, message)] = tracker("check", ttb_campaign(tmp_path, text)).problems()
        assert line == line_of(text, "count =") and message.startswith("count: must be a whole number from 1 to 99")


def test_unknown_key_in_a_block_points_at_the_bestiary_once(tracker: Tracker, tmp_path: Path) -> None:
    """Three Guild Thugs share the block's typo: it is one problem, at the bestiary's line."""
    guild = GUILD.replace("speed = 4", "speed = 4\nsped = 4")
    enc = ttb_campaign(tmp_path, guild=guild)
    [(file, line, col, message)] = tracker("check", enc).problems()
    assert (file, line, col) == (str(tmp_path / "bestiary" / "guild.toml"), line_of(guild, "sped"), 1)
    assert message == "unknown key 'sped'"


def test_a_bad_value_in_a_block_is_named_as_the_bestiary_writes_it(tracker: Tracker, tmp_path: Path) -> None:
    guild = GUILD.replace("wounds = 9", "wounds = 0")
    enc = ttb_campaign(tmp_path, guild=guild)
    found = tracker("check", enc).problems()
    where = str(tmp_path / "bestiary" / "guild.toml")
    assert (
        where,
        line_of(guild, "wounds = 0"),
        1,
        "stat_blocks[2].wounds: must be greater than or equal to 1",
    ) in found


def test_a_problem_of_an_entrys_own_field_is_in_the_encounter(tracker: Tracker, tmp_path: Path) -> None:
    text = ENCOUNTER.replace("armor = 2", "armor = -1")
    [(file, line, _, message)] = tracker("check", enc := ttb_campaign(tmp_path, text)).problems()
    assert (file, line) == (str(enc), line_of(text, "armor = -1"))
    assert message.startswith("combatants[2].armor")


def test_duplicate_block_names_point_at_the_second(tracker: Tracker, tmp_path: Path) -> None:
    other = '[[stat_blocks]]\nname = "guild thug"\nrank_value = 2\nwounds = 3\n'
    write(tmp_path, "bestiary/more.toml", other)
    text = ENCOUNTER.replace('"bestiary/guild.toml"', '"bestiary/guild.toml", "bestiary/more.toml"')
    [(file, line, col, message)] = tracker("check", ttb_campaign(tmp_path, text)).problems()
    assert (file, line, col) == (str(tmp_path / "bestiary" / "more.toml"), 2, 1)
    first = tmp_path / "bestiary" / "guild.toml"
    assert message == f"two stat blocks are named 'guild thug' (the first at {first}:{line_of(GUILD, 'Guild Thug')}:1)"


def test_a_bestiary_of_the_other_system(tracker: Tracker, tmp_path: Path) -> None:
    write(tmp_path, "cult.toml", CULT)
    text = ENCOUNTER.replace('"bestiary/guild.toml"', '"bestiary/guild.toml", "cult.toml"')
    enc = ttb_campaign(tmp_path, text)
    [(file, line, col, message)] = tracker("check", enc).problems()
    assert (file, line, col) == (str(enc), line_of(text, "cult.toml"), col_of(text, '"cult.toml"'))
    assert message == f"{tmp_path / 'cult.toml'} is a 2d20 bestiary; this encounter is ttb"


def test_a_bestiary_of_the_other_system_without_a_header(tracker: Tracker, tmp_path: Path) -> None:
    """No ``[bestiary] system``: its sheets are valid 2d20 sheets and not TTB ones, so it is a 2d20 bestiary."""
    write(tmp_path, "cult.toml", CULT.replace('[bestiary]\nname = "Cult"\nsystem = "2d20"\n', ""))
    text = ENCOUNTER.replace('"bestiary/guild.toml"', '"bestiary/guild.toml", "cult.toml"')
    [(_, _, _, message)] = tracker("check", ttb_campaign(tmp_path, text)).problems()
    assert message.endswith("cult.toml is a 2d20 bestiary; this encounter is ttb")


def test_a_party_of_the_other_system(tracker: Tracker, tmp_path: Path) -> None:
    scene = d20_campaign(tmp_path, SCENE_WITH_TTB_PARTY)
    write(tmp_path, "party.toml", PARTY)
    [(_, line, _, message)] = tracker("check", scene).problems()
    assert line == line_of(SCENE_WITH_TTB_PARTY, "party =")
    assert message == f"{tmp_path / 'party.toml'} is a ttb party; this encounter is 2d20"


SCENE_WITH_TTB_PARTY = '[encounter]\nname = "x"\nsystem = "2d20"\nparty = "party.toml"\n'


def test_bestiary_syntax_error_is_at_its_position(tracker: Tracker, tmp_path: Path) -> None:
    guild = GUILD.replace("speed = 4", "speed = = 4")
    [(file, line, _, message)] = tracker("check", ttb_campaign(tmp_path, guild=guild)).problems()
    assert (file, line) == (str(tmp_path / "bestiary" / "guild.toml"), line_of(guild, "speed = = 4"))
    assert message.startswith("TOML syntax")


def test_a_party_lists_whole_sheets(tracker: Tracker, tmp_path: Path) -> None:
    party = PARTY.replace('name = "Ash Kettering"', 'name = "Ash Kettering"\nfrom = "Guild Thug"')
    [(file, line, _, message)] = tracker("check", ttb_campaign(tmp_path, party=party)).problems()
    assert (file, line) == (str(tmp_path / "party.toml"), line_of(party, "from ="))
    assert "whole character sheets" in message


def test_a_bad_party_sheet_is_at_its_line_in_the_party(tracker: Tracker, tmp_path: Path) -> None:
    party = PARTY.replace("wounds = 7", "wounds = 7\nwounds_left = 9")
    [(file, line, _, message)] = tracker("check", ttb_campaign(tmp_path, party=party)).problems()
    assert (file, line) == (str(tmp_path / "party.toml"), line_of(party, "wounds_left"))
    assert message == "combatants[2].wounds_left: wounds_left is 9, above wounds (7)"


def test_unknown_header_key_in_a_bestiary(tracker: Tracker, tmp_path: Path) -> None:
    guild = GUILD.replace('name = "Guild"', 'name = "Guild"\nauthor = "me"')
    [(file, line, _, message)] = tracker("check", ttb_campaign(tmp_path, guild=guild)).problems()
    assert (file, line) == (str(tmp_path / "bestiary" / "guild.toml"), line_of(guild, "author"))
    assert message.startswith("unknown key 'author'")


def test_a_party_member_and_an_enemy_of_the_same_name(tracker: Tracker, tmp_path: Path) -> None:
    text = ENCOUNTER + '\n[[combatants]]\nname = "sofia ramos"\nrank_value = 3\nwounds = 4\n'
    enc = ttb_campaign(tmp_path, text)
    [(file, line, _, message)] = tracker("check", enc).problems()
    assert (file, line) == (str(enc), line_of(text, "sofia ramos"))
    assert "two combatants are named 'sofia ramos'" in message


def test_exec_on_a_bad_bestiary_is_one_line_and_writes_nothing(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path, ENCOUNTER.replace('from = "Guild Thug"', 'from = "Guild Thog"'))
    before = enc.read_bytes()
    result = tracker("exec", enc, "--save", stdin="start\n")
    assert result.code == 1 and len(result.problems()) == 1
    assert enc.read_bytes() == before


def test_subprocess_check_reports_other_files_without_traceback(tmp_path: Path) -> None:
    guild = GUILD.replace("speed = 4", "speed = 4\nsped = 4")
    enc = ttb_campaign(tmp_path, guild=guild)
    done = subprocess.run(
        [sys.executable, "-m", "tracker", "check", str(enc)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"{tmp_path / 'bestiary' / 'guild.toml'}:{line_of(guild, 'sped')}:1: unknown key 'sped'"
    ]


def test_a_saved_fight_keeps_the_sheets_it_started_with(tracker: Tracker, tmp_path: Path) -> None:
    """The party and bestiary files are shared and change (`tracker carry` writes the party's): a saved fight
    keeps its own copy of the sheets in ``[history]``, so it resumes, checks and undoes as it was played."""
    enc = ttb_campaign(tmp_path)
    assert tracker("exec", enc, "--save", stdin="start\n").code == 0
    assert "sheets" in tomllib.loads(enc.read_text(encoding="utf-8"))["history"]
    write(tmp_path, "party.toml", PARTY.replace("wounds = 8", "wounds = 3") + NEWCOMER)
    write(tmp_path, "bestiary/guild.toml", GUILD.replace("wounds = 6", "wounds = 1"))
    assert tracker("check", enc).code == 0
    people = by_name(tracker("exec", enc, "--json", stdin="undo\nstart\n").json())
    assert "Newcomer" not in people
    assert (people["Sofia Ramos"]["wounds_max"], people["Guild Thug 1"]["wounds"]) == (8, 6)
    fresh = by_name(tracker("exec", write(tmp_path, "next.toml", ENCOUNTER), "--json").json())
    assert "Newcomer" in fresh and fresh["Guild Thug 1"]["wounds"] == 1


NEWCOMER = '\n[[combatants]]\nname = "Newcomer"\nkind = "fated"\nwounds = 5\n'


def test_a_combatant_added_to_a_saved_plain_file_is_one_line(tracker: Tracker, tmp_path: Path) -> None:
    """A saved fight has no live record of a combatant the GM added to its setup afterwards: opening it is one
    line at its [state], never a traceback."""
    enc = write(tmp_path, "plain.toml", '[encounter]\nname = "x"\nsystem = "ttb"\n' + NEWCOMER)
    assert tracker("exec", enc, "--save", stdin="start\n").code == 0
    saved = tomllib.loads(enc.read_text(encoding="utf-8"))
    saved["combatants"].append({"name": "Latecomer", "kind": "fated", "wounds": 4})
    text = tomli_w.dumps(saved)
    enc.write_text(text, encoding="utf-8")
    for command in ("check", "exec"):
        [(file, line, _, message)] = tracker(command, enc).problems()
        assert (file, line) == (str(enc), line_of(text, "[state"))
        assert message.startswith("the saved fight has no 'Latecomer'")


def test_2d20_block_problems_are_in_the_bestiary(tracker: Tracker, tmp_path: Path) -> None:
    """A 2d20 block's unknown key and a stress track the scene's profile lacks: each at its bestiary line."""
    scene = d20_campaign(tmp_path)
    cult = CULT.replace("stress = 6", "stress = { vigour = 6 }").replace("stress = 12", "stress = 12\nmorale_dice = 1")
    write(tmp_path, "cult.toml", cult)
    found = tracker("check", scene).problems()
    where = str(tmp_path / "cult.toml")
    assert (where, line_of(cult, "morale_dice"), 1, "unknown key 'morale_dice'") in found
    assert len(found) == 1  # the field error stops the profile check; fixed, the track is next:
    tracked = CULT.replace("stress = 6", "stress = { vigour = 6 }")
    write(tmp_path, "cult.toml", tracked)
    found = tracker("check", scene).problems()
    # The profile's check speaks of each combatant made from the block, each at the block's line.
    assert [(f, line, col) for f, line, col, _ in found] == [
        (where, line_of(tracked, "vigour"), col_of(tracked, "vigour"))
    ] * 2
    assert [m.split(": ")[1] for *_, m in found] == ["Cultist 1", "Cultist 2"]
    assert all(m.startswith("stat_blocks[1].stress.vigour: ") and "no stress track 'vigour'" in m for *_, m in found)
