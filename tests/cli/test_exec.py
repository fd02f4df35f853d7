"""`tracker exec FILE [--seed N] [--json] [--save]` (docs/reference/cli.md, docs/reference/language.md,
docs/reference/json-state.md), run in-process.

Every run goes through `tracker.cli.main.main` with stdin replaced; one test runs ``python -m tracker`` in a
subprocess to prove that a refused command and a bad file reach the user without a traceback.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tracker.cli.main import main
from tracker.store import files

ENCOUNTER = textwrap.dedent(
    """\
    [encounter]
    name = "Ambush"
    system = "ttb"
    seed = 42

    [[combatants]]
    name = "Sofia Ramos"
    kind = "fated"
    initiative = 2
    wounds = 8
    armor = 1

    [[combatants]]
    name = "Guild Thug"
    rank = "minion"
    rank_value = 5
    wounds = 5
    conditions = { burning = 1 }

    [[combatants]]
    name = "Clockwork Spider"
    rank_value = 3
    living = false
    wounds = 6
    """
)

CONTRACT_KEYS = {"system", "round", "active", "order", "combatants", "deck", "prompt"}
COMBATANT_KEYS = {"name", "side", "status", "initiative", "wounds", "ap", "combat_ap", "conditions"}

#: Sofia acts first whatever the seed: her initiative card is set, 13 + 2 beats the Thug's 5.
SOFIA_FIRST = "initiative sofia 13\nstart\n"


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> dict[str, Any]:
        data = json.loads(self.out)
        assert isinstance(data, dict)
        return data


@pytest.fixture
def encounter(tmp_path: Path) -> Path:
    path = tmp_path / "ambush.toml"
    path.write_text(ENCOUNTER, encoding="utf-8")
    return path


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    """Run the command line in-process with `stdin` as input; argparse exits become exit codes."""

    def run(*args: str | Path, stdin: str = "") -> Result:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def one_line_error(result: Result) -> str:
    """The refusal as the contract wants it: non-zero exit, one line on stderr, no traceback."""
    assert result.code != 0
    assert "Traceback" not in result.err + result.out
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    return lines[0]


# --- JSON state (docs/reference/json-state.md) ---------------------------------------------------------------


def test_json_state_carries_the_contract_keys(cli: Any, encounter: Path) -> None:
    result = cli("exec", encounter, "--json", stdin=SOFIA_FIRST)
    assert result.code == 0, result.err
    state = result.json()
    assert set(state) >= CONTRACT_KEYS
    assert state["system"] == "ttb"
    assert state["round"] == 1
    assert state["active"] == "Sofia Ramos"
    # docs/rules/ttb-turns.md#s2-3: 13 + 2 = 15, then Rank Value + Initiative: the Thug's 5 before the Spider's 3.
    assert state["order"] == ["Sofia Ramos", "Guild Thug", "Clockwork Spider"]
    assert state["prompt"] is None
    by_name = {c["name"]: c for c in state["combatants"]}
    assert list(by_name) == ["Sofia Ramos", "Guild Thug", "Clockwork Spider"]
    for entry in by_name.values():
        assert set(entry) >= COMBATANT_KEYS, entry
        assert entry["status"] == "ok"
    sofia, thug = by_name["Sofia Ramos"], by_name["Guild Thug"]
    assert sofia["side"] == "players" and thug["side"] == "fatemaster"
    assert sofia["initiative"] == 15 and thug["initiative"] == 5
    assert sofia["wounds"] == 8 and thug["wounds"] == 5
    # docs/rules/ttb-turns.md#s2-4: the active character has 2 General + 1 Combat AP; the others 0 outside their turn.
    assert (sofia["ap"], sofia["combat_ap"]) == (2, 1)
    assert (thug["ap"], thug["combat_ap"]) == (0, 0)
    assert thug["conditions"] == {"burning": 1}
    # Fated carry their Control Hand: three Twist cards at the end of the Prologue (docs/rules/ttb.md#s2-2-2).
    assert sofia["hand"] == 3
    assert "hand" not in thug
    # The initiative card was set, not flipped: the whole Fate Deck is still in the deck.
    assert state["deck"]["left"] == 54 and state["deck"]["discards"] == 0


def test_json_deck_counts_follow_flips(cli: Any, encounter: Path) -> None:
    result = cli("exec", encounter, "--json", stdin="start\nflip 3\n")
    deck = result.json()["deck"]
    # One initiative flip for the Fated and three GM flips, all in the discard pile (docs/rules/ttb.md#s2-2-1).
    assert deck["left"] == 50 and deck["discards"] == 4


def test_json_shows_the_pending_prompt_as_its_question(cli: Any, encounter: Path) -> None:
    result = cli("exec", encounter, "--json", stdin=SOFIA_FIRST + "damage sofia 12\n")
    state = result.json()
    assert result.code == 0
    sofia = state["combatants"][0]
    assert sofia["wounds"] == 8 - 11  # armor 1
    assert isinstance(state["prompt"], str) and "Critical" in state["prompt"]


def test_conditions_and_statuses_in_json(cli: Any, encounter: Path) -> None:
    result = cli(
        "exec",
        encounter,
        "--json",
        stdin=SOFIA_FIRST + "add thug burning 2\nadd sofia dazed\ndamage spider 9\nanswer 5R\n",
    )
    state = result.json()
    assert state["prompt"] is None
    by_name = {c["name"]: c for c in state["combatants"]}
    assert by_name["Guild Thug"]["conditions"] == {"burning": 3}
    assert by_name["Sofia Ramos"]["conditions"] == {"dazed": True}
    # A Fatemaster character at 0 Wounds or less fails its check: unconscious and Prone
    # (docs/rules/ttb-damage.md#s2-8-2).
    assert by_name["Clockwork Spider"]["status"] == "unconscious"
    assert by_name["Clockwork Spider"]["conditions"].get("prone") is True
    assert by_name["Clockwork Spider"]["wounds"] == -3


def test_without_json_prints_a_summary(cli: Any, encounter: Path) -> None:
    result = cli("exec", encounter, stdin=SOFIA_FIRST)
    assert result.code == 0
    assert "round 1" in result.out and "Sofia Ramos" in result.out
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.out)


# --- --seed ----------------------------------------------------------------------------------


def test_same_seed_same_output(cli: Any, encounter: Path) -> None:
    lines = "start\nflip 5\nreshuffle\nflip 2\n"
    first = cli("exec", encounter, "--json", "--seed", "7", stdin=lines)
    second = cli("exec", encounter, "--json", "--seed", "7", stdin=lines)
    assert first.code == second.code == 0
    assert first.out == second.out


def test_different_seeds_flip_different_cards(cli: Any, encounter: Path) -> None:
    lines = "start\nflip 5\n"
    outs = [cli("exec", encounter, "--json", "--seed", str(seed), stdin=lines).json() for seed in (1, 2)]
    hands = [o["combatants"][0]["hand_cards"] for o in outs]
    inits = [o["combatants"][0]["initiative"] for o in outs]
    assert (hands[0], inits[0]) != (hands[1], inits[1])


def test_file_seed_is_used_without_the_option(cli: Any, encounter: Path) -> None:
    lines = "start\nflip 3\n"
    assert cli("exec", encounter, "--json", stdin=lines).out == cli("exec", encounter, "--json", stdin=lines).out
    assert (
        cli("exec", encounter, "--json", stdin=lines).out
        == cli("exec", encounter, "--json", "--seed", "42", stdin=lines).out
    )


# --- --save ----------------------------------------------------------------------------------


def test_save_writes_the_state_and_a_restart_continues(cli: Any, encounter: Path) -> None:
    played = cli("exec", encounter, "--json", "--save", stdin=SOFIA_FIRST + "spend sofia walk\nflip 2\n")
    assert played.code == 0, played.err
    saved = files.load(encounter)
    assert saved.state is not None and saved.history is not None
    assert saved.history.commands == ["initiative sofia 13", "start", "spend sofia walk", "flip 2"]
    # A restart with no new command shows exactly the saved state.
    resumed = cli("exec", encounter, "--json", stdin="")
    assert resumed.json() == played.json()
    # It continues where it was: Sofia has 1 General AP left after the Walk.
    more = cli("exec", encounter, "--json", "--save", stdin="spend sofia walk\n")
    assert more.code == 0, more.err
    assert more.json()["combatants"][0]["ap"] == 0
    refused = cli("exec", encounter, stdin="spend sofia walk\n")
    assert one_line_error(refused).startswith("line 1: Sofia Ramos has 0 General AP")


def test_undo_works_after_a_restart(cli: Any, encounter: Path) -> None:
    before = cli("exec", encounter, "--json", stdin=SOFIA_FIRST)
    cli("exec", encounter, "--save", stdin=SOFIA_FIRST + "damage thug 3\n")
    undone = cli("exec", encounter, "--json", "--save", stdin="undo\n")
    assert undone.code == 0, undone.err
    assert undone.json() == before.json()
    saved = files.load(encounter)
    assert saved.history is not None and saved.history.undone == ["damage thug 3"]
    redone = cli("exec", encounter, "--json", stdin="redo\n")
    assert {c["name"]: c["wounds"] for c in redone.json()["combatants"]}["Guild Thug"] == 2


def test_without_save_the_file_is_not_written(cli: Any, encounter: Path) -> None:
    before = encounter.read_bytes()
    assert cli("exec", encounter, "--json", stdin="start\nflip 4\n").code == 0
    assert encounter.read_bytes() == before


def test_a_refused_command_exits_2_and_leaves_the_file_byte_for_byte(cli: Any, encounter: Path) -> None:
    cli("exec", encounter, "--save", stdin="start\n")
    before = encounter.read_bytes()
    result = cli("exec", encounter, "--json", "--save", stdin="flip 2\nheal sofia 1\nspend sofia dance\nflip\n")
    assert result.code == 2
    assert one_line_error(result).startswith("line 3: no action named 'dance'")
    assert result.out == ""
    # Lines 1-2 were accepted but the run stopped at line 3: nothing is saved.
    assert encounter.read_bytes() == before


def test_comment_and_blank_lines_are_skipped_but_counted(cli: Any, encounter: Path) -> None:
    stdin = "# set up the fight\n\nstart\n   # indented comment\n   \nanswer pass\n"
    result = cli("exec", encounter, stdin=stdin)
    assert result.code == 2
    assert one_line_error(result) == "line 6: there is no question to answer"
    ok = cli("exec", encounter, "--json", stdin="# only comments\n\n#start\n")
    assert ok.code == 0 and ok.json()["round"] == 0


# --- bad inputs: one line, non-zero exit, no traceback, file unchanged --------------------------

REFUSED = [
    pytest.param("add Nobody burning\n", "line 1: no combatant named 'Nobody'", id="unknown-combatant"),
    pytest.param("add sofia onfire\n", "line 1: no condition named 'onfire'", id="unknown-condition"),
    pytest.param(SOFIA_FIRST + "spend sofia dance\n", "line 3: no action named 'dance'", id="unknown-action"),
    pytest.param(
        SOFIA_FIRST + "spend sofia run\nspend sofia walk\n",
        "line 4: Sofia Ramos has 0 General AP left; Walk costs 1",
        id="ap-you-do-not-have",
    ),
    pytest.param(
        SOFIA_FIRST + "engage sofia thug\nspend sofia charge thug\n",
        "line 4: Sofia Ramos is engaged with Guild Thug: no Charge",
        id="charge-while-engaged",
    ),
    pytest.param("start\nanswer pass\n", "line 2: there is no question to answer", id="answer-nothing-pending"),
    pytest.param("undo\n", "line 1: nothing to undo", id="undo-no-history"),
    pytest.param("redo\n", "line 1: nothing to redo", id="redo-nothing-undone"),
    pytest.param("start\ndance\n", "line 2: unknown command 'dance'", id="unknown-command"),
    pytest.param("add 'Guild Thug burning\n", "line 1: cannot read", id="unclosed-quote"),
    pytest.param("start\nstart\n", "line 2: Dramatic Time has already started", id="start-twice"),
    pytest.param("add spider bleeding\n", "line 1: Clockwork Spider is not Living", id="living-only"),
    pytest.param(SOFIA_FIRST + "damage sofia 12\nnext\n", "line 4: waiting for an answer", id="prompt-pending"),
]


@pytest.mark.parametrize(("stdin", "expected"), REFUSED)
def test_refused_commands(cli: Any, encounter: Path, stdin: str, expected: str) -> None:
    before = encounter.read_bytes()
    result = cli("exec", encounter, "--json", "--save", stdin=stdin)
    assert result.code == 2
    assert one_line_error(result).startswith(expected)
    assert encounter.read_bytes() == before


BAD_FILES = [
    pytest.param('[encounter]\nname = "x"\nsystem = ttb\n', r":3:\d+: TOML syntax", id="malformed-toml"),
    pytest.param(ENCOUNTER.replace("wounds = 8", 'wounds = "eight"'), r":10:1: .*wounds", id="wrong-type"),
    pytest.param(ENCOUNTER.replace("armor = 1", "armour = 1"), r":11:1: unknown key 'armour'", id="unknown-key"),
    pytest.param(ENCOUNTER.replace('system = "ttb"', 'system = "d6"'), r":3:\d+: .*system", id="bad-system"),
]


@pytest.mark.parametrize(("text", "pattern"), BAD_FILES)
def test_invalid_files_are_refused_with_their_line(cli: Any, tmp_path: Path, text: str, pattern: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    before = path.read_bytes()
    result = cli("exec", path, "--json", "--save", stdin="start\n")
    assert result.code == 1
    assert "Traceback" not in result.err
    first = result.err.splitlines()[0]
    assert first.startswith(str(path) + ":")
    assert re.search(pattern, first), first
    assert result.out == ""
    assert path.read_bytes() == before


def test_a_missing_file(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    result = cli("exec", path, "--json", "--save", stdin="start\n")
    assert one_line_error(result) == f"{path}:1:1: no such file"
    assert not path.exists()


def test_a_folder_instead_of_a_file(cli: Any, tmp_path: Path) -> None:
    assert "folder" in one_line_error(cli("exec", tmp_path, stdin="start\n"))


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["exec", "{file}", "--seed", "many"], id="seed-not-a-number"),
        pytest.param(["exec"], id="no-file"),
        pytest.param(["exec", "{file}", "--speed", "3"], id="unknown-option"),
        pytest.param(["execute-all", "{file}"], id="unknown-command"),
    ],
)
def test_bad_arguments(cli: Any, encounter: Path, args: list[str]) -> None:
    before = encounter.read_bytes()
    result = cli(*(a.replace("{file}", str(encounter)) for a in args), stdin="start\n")
    line = one_line_error(result)
    assert line.startswith("tracker: ")
    assert result.code == 2
    assert encounter.read_bytes() == before


# --- the real process ----------------------------------------------------------------------------


def test_subprocess_has_no_traceback(encounter: Path) -> None:
    def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tracker", *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    before = encounter.read_bytes()
    refused = run("exec", str(encounter), "--json", "--save", stdin="start\nspend sofia dance\n")
    assert refused.returncode == 2
    assert refused.stderr.strip().startswith("line 2: no action named 'dance'")
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "Traceback" not in refused.stderr + refused.stdout
    assert encounter.read_bytes() == before

    ok = run("exec", str(encounter), "--json", "--save", "--seed", "3", stdin=SOFIA_FIRST + "flip 2\n")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["active"] == "Sofia Ramos"
    assert files.load(encounter).history is not None

    missing = run("exec", str(encounter.with_name("missing.toml")), stdin="")
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
    assert missing.stderr.strip().endswith("no such file")
