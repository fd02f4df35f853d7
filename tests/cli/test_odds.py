"""`tracker odds FILE …` (README "The odds"): the odds the panels show, from the file's live state, as text
or JSON (`--json`); the options are the file's family's; bad input is one line and a non-zero exit."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import pinned
from tracker.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

DUEL = textwrap.dedent(
    """\
    [encounter]
    name = "Odds"
    system = "ttb"
    seed = 3

    [[combatants]]
    name = "Sofia Ramos"
    kind = "fated"
    wounds = 8
    skills = { melee = 5 }
    hand = ["9R", "3M"]

    [[combatants]]
    name = "Guild Thug"
    rank_value = 5
    wounds = 5
    """
)


def odds(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``tracker odds …`` (argparse's refusals exit through SystemExit)."""
    try:
        code = main(["odds", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = odds(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL, encoding="utf-8")
    return path


def test_the_table_of_the_next_flip_from_a_fresh_deck(capsys: pytest.CaptureFixture[str], duel: Path) -> None:
    code, out, err = odds(capsys, str(duel))
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[0] == "Next flip, % at least · 54 cards left"
    assert lines[1].split() == ["≥", *(str(v) for v in range(1, 14)), "RJ", "BJ"]
    # A plain flip: ≥V is 4(14 − V) + 1 of 54 (rounded); each Joker 1 in 54.
    assert lines[2].split() == [
        "flip",
        "98",
        "91",
        "83",
        "76",
        "69",
        "61",
        "54",
        "46",
        "39",
        "31",
        "24",
        "17",
        "9",
        "2",
        "2",
    ]


def test_json_has_the_same_numbers_unrounded(capsys: pytest.CaptureFixture[str], duel: Path) -> None:
    data = as_json(capsys, str(duel))
    assert data["deck"] == {"left": 54, "discards": 0, "reshuffles": 0}
    plain = next(f for f in data["flips"] if f["modifier"] == 0)
    assert plain["at_least"]["7"] == pytest.approx(29 / 54)
    assert plain["suits"]["rams"]["13"] == pytest.approx(2 / 54)
    assert [f["modifier"] for f in data["flips"]] == [0, 1, 2, -1, -2]
    assert data["duel"] is None


def test_a_duel_straight_and_with_the_hand(capsys: pytest.CaptureFixture[str], duel: Path) -> None:
    """TN 12 with Melee 5: 29/54 straight; the 9 of Rams in hand passes, so cheating fails only on the Black
    Joker: 53/54 (docs/rules/ttb.md#s2-2-4)."""
    data = as_json(capsys, str(duel), "--tn", "12", "--who", "sofia", "--skill", "melee")
    assert data["duel"]["straight"] == pytest.approx(float(Fraction(29, 54)))
    assert data["duel"]["cheat"] == pytest.approx(53 / 54)
    assert data["duel"]["winning_cards"] == ["9R"]
    code, out, _ = odds(capsys, str(duel), "--tn", "12", "--who", "sofia", "--skill", "melee")
    assert code == 0
    assert "Sofia Ramos, TN 12 with Melee 5: 54 % straight, 98 % cheating with 9♥" in out


def test_a_duel_with_minus_may_not_be_cheated(capsys: pytest.CaptureFixture[str], duel: Path) -> None:
    data = as_json(capsys, str(duel), "--tn", "12", "--av", "5", "--who", "Sofia", "--minus", "1")
    assert data["duel"]["modifier"] == -1
    assert data["duel"]["cheat"] is None and "⊟" in data["duel"]["no_cheat"]


def test_the_numbers_follow_the_saved_state(capsys: pytest.CaptureFixture[str], duel: Path) -> None:
    """After ``start`` (Sofia's initiative flip) and ``flip 4`` are saved, the odds are of the cards left."""
    stdin = sys.stdin
    sys.stdin = io.StringIO("start\nflip 4\n")
    try:
        assert main(["exec", str(duel), "--save", "--json"]) == 0
    finally:
        sys.stdin = stdin
    state = json.loads(capsys.readouterr().out)
    assert state["deck"]["left"] == 49
    data = as_json(capsys, str(duel))
    assert data["deck"]["left"] == 49
    plain = next(f for f in data["flips"] if f["modifier"] == 0)
    assert plain["black_joker"] in (0, pytest.approx(1 / 49))


def test_2d20_a_test_with_focus_bought_dice_and_damage(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "skirmish.toml"
    path.write_text(pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8")), encoding="utf-8")
    argv = ["--tn", "11", "--difficulty", "2", "--focus", "3", "--bought", "1", "--damage", "4"]
    data = as_json(capsys, str(path), *argv)
    test = data["test"]
    assert test["pools"][0]["success"] == pytest.approx(7 / 16)
    assert test["roll"] == test["pools"][1] and test["roll"]["cost"] == 1
    assert data["damage"] == {
        "dice": 4,
        "expected": pytest.approx(20 / 6),
        "icons": pytest.approx(4 / 3),
        "effect_chance": pytest.approx(1 - (2 / 3) ** 4),
    }
    code, out, _ = odds(capsys, str(path), *argv)
    assert code == 0
    assert "+1d20: 44 % → 67 %, costs 1" in out
    assert "Damage 4[CD]: 3.3 damage, 1.3 Effects expected; 80 % at least one Effect" in out


def test_2d20_who_alone_gives_the_zones_panel_chances(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "skirmish.toml"
    path.write_text(pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8")), encoding="utf-8")
    data = as_json(capsys, str(path), "--who", "ada")
    assert data["tn"] == 12
    assert [t["name"] for t in data["targets"]] == ["Cult Enforcer", "Cultist", "Cult Priest"]
    cultist = data["targets"][1]
    assert (cultist["range"], cultist["difficulty"]) == ("medium", 3)
    code, out, _ = odds(capsys, str(path), "--who", "ada")
    assert code == 0 and "Chance to hit, % · Ada Vance (Service pistol)" in out


def test_2d20_who_an_npc_gives_its_tn_and_pools_paid_in_threat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/rules/2d20.md#s3-2 (TN = attribute + skill), docs/rules/2d20.md#s3-3 (an NPC's side buys d20s with
    Threat)."""
    path = tmp_path / "skirmish.toml"
    path.write_text(pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8")), encoding="utf-8")
    data = as_json(capsys, str(path), "--who", "Cult Enforcer")
    assert (data["tn"], data["pays"]) == (11, "threat")
    assert [len(t["pools"]) for t in data["targets"]] == [4, 4]
    code, out, _ = odds(capsys, str(path), "--who", "Cult Enforcer")
    assert code == 0 and "bought d20s (cost 1, 2, 3 Threat)" in out


@pytest.mark.parametrize(
    ("example", "argv", "message"),
    [
        ("duel.toml", ["--tn", "x"], "argument --tn: 'x' is not a whole number"),
        ("duel.toml", ["--tn", "-3"], "argument --tn: '-3' is not a whole number"),
        ("duel.toml", ["--tn", "12"], "--tn needs the acting value"),
        ("duel.toml", ["--av", "3"], "--av goes with --tn"),
        ("duel.toml", ["--tn", "3", "--av", "1", "--who", "Nobody"], "no combatant named 'Nobody'"),
        ("duel.toml", ["--difficulty", "2"], "unrecognized arguments: --difficulty 2"),
        ("skirmish_srd.toml", ["--tn", "10"], "a test needs both --tn and --difficulty"),
        ("skirmish_srd.toml", ["--tn", "10", "--difficulty", "1", "--bought", "4"], "at most 3 bought d20s"),
        ("skirmish_srd.toml", [], "give --tn N --difficulty D"),
        ("skirmish_srd.toml", ["--plus", "1"], "unrecognized arguments: --plus 1"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, example: str, argv: list[str], message: str
) -> None:
    path = tmp_path / example
    path.write_text(pinned((EXAMPLES / example).read_text(encoding="utf-8")), encoding="utf-8")
    code, out, err = odds(capsys, str(path), *argv)
    assert code != 0 and not out
    assert err.count("\n") == 1 and err.startswith("tracker: ") and message in err


def test_a_missing_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = odds(capsys, str(tmp_path / "nope.toml"))
    assert code == 1 and not out and err.count("\n") == 1


def test_2d20_who_states_the_attacks_own_test_and_lists_what_it_counted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/rules/2d20.md#s3-2: the chance is the test the attack rolls: Ada's Focus "Pistols" counts with her Service
    pistol [004:L350-351] (a die ≤ Fight 2 scores 2), and each target lists the modifiers counted
    (docs/rules/2d20-combat.md#s3-6)."""
    from tracker.families.twod20.dice.odds import roll_odds

    path = tmp_path / "skirmish.toml"
    path.write_text(pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8")), encoding="utf-8")
    data = as_json(capsys, str(path), "--who", "ada")
    assert data["focus"] == "Pistols"
    cultist = data["targets"][1]
    assert cultist["chance"][0] == float(roll_odds(12, 3, 2, 2).success)
    assert cultist["modifiers"] == ["Medium range with a Close weapon +1", "focus 2 (Pistols)"]
    assert cultist["opposed_by"] is None
    code, out, _ = odds(capsys, str(path), "--who", "ada")
    assert code == 0 and "focus (Pistols)" in out and "Cultist: Medium range with a Close weapon +1" in out
