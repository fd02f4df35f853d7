"""`tracker carry ENCOUNTER` (docs/reference/cli.md, docs/reference/file-format.md): the party's lasting state, back
into its file.

What lasts is decided per family from docs/rules/index.md (README "Campaigns"): TTB Wounds left, the conditions of
docs/rules/ttb-conditions.md#s2-7-2 that outlast a fight, the Control Hand and Fate Points; 2d20 Harms, Fatigue, Fortune
and the docs/rules/2d20-harm.md#s3-11 conditions ended only by treatment or rest, never stress
(docs/rules/2d20-harm.md#s3-10-4). The file keeps its comments; the write is atomic; a fight that never started, an
encounter without a party, a locked or missing party file are refused in one line with nothing written.
"""

from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path

import pytest

from tests.cli.campaign import INVESTIGATORS, PARTY, by_name, d20_campaign, ttb_campaign, write
from tests.conftest import Tracker, pinned
from tracker.store.lock import WriterLock

#: Sofia's and Ash's initiative cards are set, so the fight opens on Sofia's turn whatever the seed.
OPENING = "initiative sofia 13\ninitiative ash 12\nstart\nanswer 'Guild Thug 1'\nanswer 'Guild Thug 2'\n"


def comments(text: str) -> list[str]:
    """Every comment of a file (whole-line and trailing), in order."""
    return [line[line.index("#") :] for line in text.splitlines() if "#" in line]


def party_of(folder: Path, name: str = "party.toml") -> dict[str, dict[str, object]]:
    data = tomllib.loads((folder / name).read_text(encoding="utf-8"))
    return {str(c["name"]): c for c in data["combatants"]}


def fight(tracker: Tracker, enc: Path, lines: str) -> None:
    result = tracker("exec", enc, "--save", stdin=lines)
    assert result.code == 0, result.err


# --- Through the Breach -------------------------------------------------------------------------


def test_ttb_carries_wounds_lasting_conditions_and_the_hand(tracker: Tracker, tmp_path: Path) -> None:
    """docs/rules/ttb-conditions.md#s2-7-2: Bleeding Out (Doctor or death [000:L320]) and Crazy (a day's Centering
    [000:L328]) outlast the fight; Prone (Stand Up) and Burning (its own turn end [000:L324]) do not.
    docs/rules/ttb.md#s2-1: the Wounds left; docs/rules/ttb.md#s2-2-2: the Control Hand."""
    enc = ttb_campaign(tmp_path)
    fight(
        tracker,
        enc,
        OPENING + "damage sofia 4\nadd sofia bleeding_out 2\nadd sofia prone\nadd ash crazy 2\nadd ash burning 1\n",
    )
    state = tracker("exec", enc, "--json").json()
    hand = by_name(state)["Sofia Ramos"]["hand_cards"]
    result = tracker("carry", enc)
    assert result.code == 0, result.err
    party = party_of(tmp_path)
    sofia, ash = party["Sofia Ramos"], party["Ash Kettering"]
    assert sofia["wounds_left"] == 8 - (4 - 1)  # her Armor +1 took one
    assert sofia["conditions"] == {"bleeding_out": 2}
    assert sofia["hand"] == hand and len(hand) == 3
    assert ash["conditions"] == {"crazy": 2}
    assert "wounds_left" not in ash  # untouched Wounds: the sheet's "full" needs no key
    assert "Sofia Ramos: wounds_left = 5" in result.out


def test_ttb_unconscious_lasts_and_starts_the_next_fight_down(tracker: Tracker, tmp_path: Path) -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Unconscious: only healing to 1 Wound ends it [000:L354]; carried, the next
    fight starts with it (and Prone)."""
    enc = ttb_campaign(tmp_path)
    fight(tracker, enc, OPENING + "add ash unconscious\n")
    assert tracker("carry", enc).code == 0
    assert party_of(tmp_path)["Ash Kettering"]["conditions"] == {"unconscious": True}
    nxt = write(tmp_path, "next.toml", '[encounter]\nname = "Next"\nsystem = "ttb"\nparty = "party.toml"\n')
    ash = by_name(tracker("exec", nxt, "--json").json())["Ash Kettering"]
    assert ash["status"] == "unconscious" and ash["conditions"].get("prone") is True


def test_ttb_the_next_fight_starts_where_this_one_left_off(tracker: Tracker, tmp_path: Path) -> None:
    """A second encounter on the same party file starts with the carried Wounds, condition and hand."""
    enc = ttb_campaign(tmp_path)
    fight(tracker, enc, OPENING + "damage sofia 4\nadd sofia bleeding_out 2\n")
    hand = by_name(tracker("exec", enc, "--json").json())["Sofia Ramos"]["hand_cards"]
    assert tracker("carry", enc).code == 0
    nxt = write(tmp_path, "next.toml", '[encounter]\nname = "Next"\nsystem = "ttb"\nparty = "party.toml"\n')
    sofia = by_name(tracker("exec", nxt, "--json", stdin="start\n").json())["Sofia Ramos"]
    assert (sofia["wounds"], sofia["wounds_max"]) == (5, 8)
    assert sofia["conditions"] == {"bleeding_out": 2}
    assert sofia["hand_cards"] == hand  # the carried hand, not a fresh draw of three


def test_ttb_fatemaster_ally_carries_fate_points(tracker: Tracker, tmp_path: Path) -> None:
    """docs/rules/ttb-damage.md#s2-10: a Fatemaster character's Fate Points are spent and kept (Quick Action costs
    one)."""
    party = PARTY + '\n[[combatants]]\nname = "Hired Blade"\nrank = "enforcer"\nrank_value = 7\nwounds = 8\n'
    enc = ttb_campaign(tmp_path, party=party)
    fight(tracker, enc, "initiative sofia 1\ninitiative ash 1\nstart\nanswer 'Guild Thug 1'\nanswer 'Guild Thug 2'\n")
    state = tracker("exec", enc, "--json").json()
    while state["active"] != "Hired Blade":
        fight(tracker, enc, "next\n")
        state = tracker("exec", enc, "--json").json()
    fight(tracker, enc, "spend 'Hired Blade' quick-action\n")
    assert tracker("carry", enc).code == 0
    assert party_of(tmp_path)["Hired Blade"]["fate_points"] == 2 - 1  # an Enforcer starts with 2 [000:L421]


def test_carry_keeps_every_comment_and_only_changes_values(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path)
    fight(tracker, enc, OPENING + "damage sofia 4\nadd ash crazy 1\n")
    assert tracker("carry", enc).code == 0
    after = (tmp_path / "party.toml").read_text(encoding="utf-8")
    assert comments(after) == comments(PARTY)
    # Every line the GM wrote is still there, in order; only new keys were added.
    kept = [line for line in after.splitlines() if line in PARTY.splitlines()]
    assert kept == PARTY.splitlines()
    # A new key goes after the character's last key, before the comments that close the table.
    lines = after.splitlines()
    sofia_end = lines.index("# Our lead; her wounds are written back after each fight.") + 6
    assert lines[sofia_end : sofia_end + 2] == ["armor = 1", "wounds_left = 5"]
    assert lines[sofia_end + 2].startswith("hand = [") and lines[sofia_end + 3 : sofia_end + 5] == ["", "# The doctor"]


def test_carry_changes_a_written_value_in_place(tracker: Tracker, tmp_path: Path) -> None:
    party = PARTY.replace("armor = 1\n", "armor = 1\nwounds_left = 6   # after the bridge\n")
    enc = ttb_campaign(tmp_path, party=party)
    fight(tracker, enc, OPENING + "damage sofia 3\n")
    assert tracker("carry", enc).code == 0
    assert "wounds_left = 4   # after the bridge" in (tmp_path / "party.toml").read_text(encoding="utf-8")


def test_carry_writes_only_party_members(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path)
    fight(tracker, enc, OPENING + "damage 'guild thug 1' 3\nadd 'guild thug 1' crazy 2\n")
    assert tracker("carry", enc).code == 0
    text = (tmp_path / "party.toml").read_text(encoding="utf-8")
    assert "Guild Thug" not in text and "crazy" not in text
    assert list(party_of(tmp_path)) == ["Sofia Ramos", "Ash Kettering"]


def test_carry_twice_writes_nothing_the_second_time(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path)
    fight(tracker, enc, OPENING + "damage sofia 4\n")
    assert tracker("carry", enc).code == 0
    first = (tmp_path / "party.toml").stat().st_mtime_ns, (tmp_path / "party.toml").read_bytes()
    again = tracker("carry", enc)
    assert again.code == 0 and "nothing written" in again.out
    assert ((tmp_path / "party.toml").stat().st_mtime_ns, (tmp_path / "party.toml").read_bytes()) == first


def test_carry_says_the_fight_goes_on_until_end(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path)
    fight(tracker, enc, OPENING)
    assert "still in play (round 1)" in tracker("carry", enc).out
    fight(tracker, enc, "end\nanswer none\nanswer none\n")
    assert "still in play" not in tracker("carry", enc).out


# --- 2d20 ---------------------------------------------------------------------------------------


def test_2d20_carries_harms_fatigue_fortune_and_lasting_conditions_not_stress(tracker: Tracker, tmp_path: Path) -> None:
    """docs/rules/2d20-harm.md#s3-10-4: stress all goes at the end of the scene [004:L1906]; Harms stay until treated
    and healed (docs/rules/2d20-harm.md#s3-10-4 [004:L1914]); Fatigue until a test removes it [004:L1898]; Fortune lasts
    the adventure (docs/rules/2d20.md#s3-3, B43); Dazed lasts (it ends by Absterge [003:L413]), Prone and Stunned do
    not."""
    scene = d20_campaign(tmp_path)
    fight(
        tracker,
        scene,
        "start\npick Ada\ndamage Ada 6\nadd Ada fatigue 1\nadd Ada dazed\nadd Ada prone\nadd Brann stunned\n",
    )
    ada_live = by_name(tracker("exec", scene, "--json").json())["Ada Vance"]
    assert ada_live["stress"] == {"stress": 6} and ada_live["harms"]["wound"] == 1
    assert tracker("carry", scene).code == 0
    people = party_of(tmp_path, "investigators.toml")
    ada, brann = people["Ada Vance"], people["Brann Okafor"]
    assert ada["harms"] == {"wound": 1}
    assert ada["fatigue"] == 1
    assert ada["conditions"] == {"dazed": True}
    assert "stress" in ada and ada["stress"] == 11  # the maximum, untouched: stress taken is not carried
    assert "conditions" not in brann and "harms" not in brann
    text = (tmp_path / "investigators.toml").read_text(encoding="utf-8")
    assert comments(text) == comments(INVESTIGATORS)


def test_2d20_fortune_spent_is_carried(tracker: Tracker, tmp_path: Path) -> None:
    """docs/rules/2d20.md#s3-3: Fortune is restored only at the start of an adventure [004:L596], so a spent point stays
    spent."""
    scene = d20_campaign(tmp_path)
    fight(tracker, scene, "start\npick Ada\nfortune Ada -1\n")
    assert by_name(tracker("exec", scene, "--json").json())["Ada Vance"]["fortune"] == 2
    assert tracker("carry", scene).code == 0
    people = party_of(tmp_path, "investigators.toml")
    assert people["Ada Vance"]["fortune"] == 2
    assert "fortune" not in people["Brann Okafor"]  # still the profile's starting 3: nothing to write


# --- refusals: one line, nothing written --------------------------------------------------------


def test_never_started_is_refused(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path)
    before = (tmp_path / "party.toml").read_bytes()
    assert tracker("carry", enc).one_line() == f"tracker: {enc} has not started: there is nothing to carry"
    fight(tracker, enc, "start\nundo\n")  # saved, but back before the start
    assert "has not started" in tracker("carry", enc).one_line()
    assert (tmp_path / "party.toml").read_bytes() == before


def test_an_encounter_without_a_party_is_refused(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(
        tmp_path,
        '[encounter]\nname = "x"\nsystem = "ttb"\nbestiary = "bestiary/guild.toml"\n'
        '[[combatants]]\nfrom = "Guild Thug"\n',
    )
    fight(tracker, enc, "start\n")
    assert "names no party file" in tracker("carry", enc).one_line()


def test_a_locked_party_file_is_refused_naming_the_holder(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path)
    fight(tracker, enc, OPENING + "damage sofia 4\n")
    before = (tmp_path / "party.toml").read_bytes()
    with WriterLock(tmp_path / "party.toml"):
        line = tracker("carry", enc).one_line()
    assert line.startswith("tracker: not carried:") and f"(pid {os.getpid()})" in line
    assert (tmp_path / "party.toml").read_bytes() == before
    assert tracker("carry", enc).code == 0  # released: it goes through


def test_a_missing_party_file_is_refused(tracker: Tracker, tmp_path: Path) -> None:
    enc = ttb_campaign(tmp_path)
    fight(tracker, enc, OPENING)
    (tmp_path / "party.toml").unlink()
    assert "no such party file" in tracker("carry", enc).one_line()
    assert not (tmp_path / "party.toml").exists()


def test_the_write_is_atomic(tracker: Tracker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure at the rename (the atomic step, `files.write_text`) leaves the old party file whole, no temp file."""
    enc = ttb_campaign(tmp_path)
    fight(tracker, enc, OPENING + "damage sofia 4\n")
    before = (tmp_path / "party.toml").read_bytes()

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device", dst)

    monkeypatch.setattr(os, "replace", refuse)
    result = tracker("carry", enc)
    assert result.code == 1 and "No space left on device" in result.err
    assert (tmp_path / "party.toml").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_the_shipped_campaign_carries_from_fight_1_into_fight_2(tracker: Tracker, tmp_path: Path) -> None:
    """examples/campaign on a copy: fight 1's demo is played and saved, carried, and fight 2 starts from it."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    for folder in ("campaign", "bestiary"):
        shutil.copytree(examples / folder, tmp_path / folder, ignore=shutil.ignore_patterns(".*"))
    first, second = tmp_path / "campaign" / "1_ambush.toml", tmp_path / "campaign" / "2_warehouse.toml"
    first.write_text(pinned(first.read_text(encoding="utf-8")), encoding="utf-8")  # the demo's cards
    steps = [step["do"] for step in tomllib.loads(first.read_text(encoding="utf-8"))["demo"]]
    fight(tracker, first, "\n".join(steps) + "\n")
    ended = by_name(tracker("exec", first, "--json").json())
    party_text = (tmp_path / "campaign" / "party.toml").read_text(encoding="utf-8")
    result = tracker("carry", first)
    assert result.code == 0, result.err
    assert comments((tmp_path / "campaign" / "party.toml").read_text(encoding="utf-8")) == comments(party_text)
    party = party_of(tmp_path / "campaign")
    assert party["Ash Kettering"]["conditions"] == {"bleeding_out": 3}
    assert party["Marguerite Bell"]["conditions"] == {"dazed": True}
    assert party["Sofia Ramos"]["wounds_left"] == ended["Sofia Ramos"]["wounds"] < 8
    fresh = by_name(tracker("exec", second, "--json", stdin="start\n").json())
    for name in ("Sofia Ramos", "Ash Kettering", "Marguerite Bell"):
        assert fresh[name]["wounds"] == ended[name]["wounds"]
        assert fresh[name]["hand_cards"] == ended[name]["hand_cards"]
    assert tracker("check", second).code == 0
    # The carried fight keeps the sheets it was played with (`History.sheets`): it still checks and undoes.
    assert tracker("check", first).code == 0
    undone = by_name(tracker("exec", first, "--json", stdin="undo\n").json())
    assert undone["Sofia Ramos"]["wounds"] == ended["Sofia Ramos"]["wounds"]


def test_2d20_a_character_carried_defeated_starts_the_next_scene_defeated(tracker: Tracker, tmp_path: Path) -> None:
    """docs/rules/2d20-harm.md#s3-10-2 with docs/rules/2d20-harm.md#s3-10-4: Harms enough to defeat are carried, and are
    not healed by the next scene's start [004:L1906]; that scene starts with the character Defeated, not standing."""
    scene = d20_campaign(tmp_path)
    fight(tracker, scene, "start\npick Ada\ndamage Ada 12\ndamage Ada 3\n")
    assert by_name(tracker("exec", scene, "--json").json())["Ada Vance"]["status"] != "ok"
    assert tracker("carry", scene).code == 0
    assert sum(party_of(tmp_path, "investigators.toml")["Ada Vance"]["harms"].values()) >= 3  # type: ignore[attr-defined]
    nxt = write(tmp_path, "next.toml", '[encounter]\nname = "Next"\nsystem = "2d20"\nparty = "investigators.toml"\n')
    ada = by_name(tracker("exec", nxt, "--json", stdin="start\n").json())["Ada Vance"]
    assert ada["status"] == "defeated" and ada["conditions"].get("prone") is True


def test_ttb_the_twist_discard_pile_is_carried(tracker: Tracker, tmp_path: Path) -> None:
    """docs/rules/ttb.md#s2-1 ``twist_discard``, docs/rules/ttb.md#s2-2: the Twist discards stay out of the Twist Deck
    until it runs out [001:L36]; carried, the next fight starts with them."""
    party = PARTY.replace(
        "wounds = 8             # Wounds when fresh", 'wounds = 8\nhand = ["9R", "2C", "3T", "4M", "5R"]'
    )
    enc = ttb_campaign(tmp_path, party=party)
    flips = "flip 10\n" * 6
    result = tracker("exec", enc, "--save", stdin=OPENING + flips)
    assert result.code == 0, result.err
    fight(tracker, enc, "answer 9R\n")
    assert tracker("carry", enc).code == 0
    assert party_of(tmp_path)["Sofia Ramos"]["twist_discard"] == ["9R"]
    nxt = write(tmp_path, "next.toml", '[encounter]\nname = "Next"\nsystem = "ttb"\nparty = "party.toml"\n')
    assert tracker("check", nxt).code == 0
