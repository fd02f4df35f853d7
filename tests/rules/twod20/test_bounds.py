"""Counts of Challenge Dice are bounded (`challenge 100000000` hung, and Persistent 100000000
was accepted, then hung every later `next`).

The rules bound bought d20s (3, docs/rules/2d20.md#s3-2 [004:L492-498]) and the complication range (1-5 [004:L469-478]),
which `tracker.families.twod20.dice.rolls` already refuses beyond. They set no maximum on Challenge Dice
(docs/rules/2d20.md#s3-2, docs/rules/2d20-combat.md#s3-8, docs/rules/2d20-harm.md#s3-11), so every count of them has the
documented sane cap `MAX_CHALLENGE_DICE` (README "Limits"): in a command, in the file's combatants, and in a saved
[state].
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import d20_state, run, session_from
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count, is_number, signed_int
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.dice.rolls import MAX_CHALLENGE_DICE
from tracker.store.files import FileInvalid, parse_text
from tracker.store.save import encounter_text

CAP = MAX_CHALLENGE_DICE

FILE = """
[encounter]
name = "Bounds"
system = "2d20"
seed = 2
profile = "{profile}"

[[combatants]]
name = "Kit"
attributes = {{ agility = 10 }}
stress = {stress}
{extra}

[[combatants]]
name = "Thug"
npc_type = "minor"
stress = 9
"""


def text(extra: str = "", profile: str = "srd") -> str:
    stress = "{ vigour = 10, resolve = 8 }" if profile == "infinity" else "10"
    return FILE.format(extra=extra, profile=profile, stress=stress)


def fighting(profile: str = "srd") -> Session:
    return run(session_from(text(profile=profile)), "start", "pick Kit")


@pytest.mark.parametrize(
    "command",
    [
        f"challenge {CAP + 1}",
        f"damage Thug 2 cover={CAP + 1}",
        f"damage Thug 2 icons={CAP + 1}",
        f"damage Thug 2 icons=1 persistent={CAP + 1}",
        f"damage Thug 2 icons=1 vicious={CAP + 1}",
        f"add Thug persistent {CAP + 1}",
    ],
)
def test_s3_2_counts_of_challenge_dice_above_the_cap_are_refused(command: str) -> None:
    s = fighting()
    before = dump(s.state)
    with pytest.raises(Refusal, match=f"at most {CAP}"):
        s.execute(command)
    assert dump(s.state) == before


def test_s3_11_2_burning_above_the_cap_is_refused_in_infinity() -> None:
    s = fighting("infinity")
    with pytest.raises(Refusal, match=f"at most {CAP}"):
        s.execute(f"damage Thug 2 icons=1 incendiary={CAP + 1}")
    with pytest.raises(Refusal, match=f"Burning X rolls X\\[CD\\]: X is at most {CAP}"):
        s.execute(f"add Thug burning {CAP + 1}")


def test_s3_8_the_cap_itself_is_allowed_and_a_persistent_tick_rolls_it() -> None:
    """Persistent X at the cap: accepted, and the next turn end rolls X[CD] at once (no hang)."""
    s = run(fighting(), f"challenge {CAP}", f"add Kit persistent {CAP}")
    run(s, "next")
    assert any(f"Persistent {CAP} → {CAP}[CD]" in e.text for e in s.state.log)


@pytest.mark.parametrize(
    "extra",
    [
        f"cover = {CAP + 1}",
        f"morale = {CAP + 1}",
        f"initiative = {CAP + 1}",
        f"conditions = {{ persistent = {CAP + 1} }}",
    ],
)
def test_s3_1_file_counts_of_dice_above_the_cap_fail_the_check(extra: str) -> None:
    with pytest.raises(FileInvalid) as info:
        parse_text(text(extra), "x")
    assert str(CAP) in info.value.lines()[0]


def test_s3_4_attributes_the_initiative_variant_rolls_are_bounded() -> None:
    """docs/rules/2d20-turns.md#s3-4 random option: [CD] equal to max(Agility, Insight) [004:L1406-1416]."""
    with pytest.raises(FileInvalid, match=f"less than or equal to {CAP}"):
        parse_text(text().replace("agility = 10", "agility = 100000000"), "x")


def test_s3_8_a_saved_state_with_a_huge_persistent_is_refused_on_load() -> None:
    s = run(fighting(), "add Thug persistent 2")
    saved = encounter_text(s).replace("x = 2", "x = 100000000")
    with pytest.raises(FileInvalid, match=re.escape("state: fighters.Thug.persistent[1].x")):
        parse_text(saved, "x")


def test_a_roll_never_makes_more_than_its_ceiling_of_dice() -> None:
    """The guard behind every bound: a roll past four times the cap is refused, never rolled for hours."""
    s = fighting()
    with pytest.raises(Refusal, match="at most 200 Challenge Dice"):
        dice.roll_challenge(d20_state(s), 100_000_000)


# --- numbers in commands (README "Limits") -------------------------------------------------------------


@pytest.mark.parametrize("word", ["3", "+3", "-3", "0", "1234567890"])
def test_whole_numbers_are_ascii_digits_with_an_optional_sign(word: str) -> None:
    assert is_number(word)
    assert signed_int(word, "n") == int(word)


@pytest.mark.parametrize("word", ["²", "١", "1_000", " 3", "3.0", "", "+", "--3"])
def test_other_digits_are_not_numbers(word: str) -> None:
    """`str.isdigit` accepts "²", which `int` refuses (a ValueError traceback in a TTB answer)."""
    assert not is_number(word)
    with pytest.raises(Refusal, match="must be a whole number"):
        signed_int(word, "n")


def test_a_number_has_at_most_ten_digits() -> None:
    with pytest.raises(Refusal, match="n is too large \\(numbers have at most 10 digits\\)"):
        signed_int("9" * 11, "n")
    with pytest.raises(Refusal, match="too large"):
        signed_int("9" * 5000, "n")
    with pytest.raises(Refusal, match="n is at most 5 \\(not 6\\)"):
        count("6", "n", 5)
