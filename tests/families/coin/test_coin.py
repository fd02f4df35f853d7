"""A rule family outside the tracker's folders plays as the built-in ones do: registered through
``TRACKER_FAMILIES`` (docs/architecture/writing-a-family.md), it runs through ``tracker new``, ``tracker
exec`` and ``tracker check`` in a process of their own, and the GM screen draws it. (The seam's conformance
suite runs it too, from this folder's ``contract.py``.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.families.coin.contract import CASE
from tests.families.coin.family import REGISTERS
from tracker.families.registry import ENVIRONMENT, family_named, systems
from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text
from tracker.ui.app import TrackerApp

ROOT = Path(__file__).resolve().parents[3]


def tracker(*args: str | Path, stdin: str = "", registered: bool = True) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own, the coin duel registered (or not) through the environment."""
    env = {k: v for k, v in os.environ.items() if k != ENVIRONMENT}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    if registered:
        env[ENVIRONMENT] = REGISTERS
    argv = [sys.executable, "-m", "tracker", *map(str, args)]
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=60, check=False, env=env)


def test_the_registry_lists_the_coin_duel_only_while_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    assert "coin" not in systems()
    assert family_named("coin").name == "ttb"  # an unknown system is validated as the default family
    monkeypatch.setenv(ENVIRONMENT, REGISTERS)
    assert systems()[-1] == "coin" and family_named("coin").title == "Coin Duel"


def test_tracker_new_check_and_exec_play_a_coin_duel(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    made = tracker("new", path, "--system", "coin")
    assert made.returncode == 0, made.stderr
    assert tracker("check", path).returncode == 0
    done = tracker("exec", path, "--json", "--save", "--seed", "1", stdin="start\nattack Kit\n")
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert state["system"] == "coin" and state["round"] == 1
    coin = state["coin"]
    assert coin["heads"] + coin["tails"] == 1
    thug = next(c for c in state["combatants"] if c["name"] == "Thug")
    assert thug["down"] is (coin["heads"] == 1)
    assert thug["status"] == ("defeated" if thug["down"] else "ok")
    again = tracker("exec", path, "--json", stdin="undo\n")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["coin"] == {"heads": 0, "tails": 0}


def test_a_refused_coin_command_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(CASE.text, encoding="utf-8")
    refused = tracker("exec", path, stdin="start\nattack Thug Kit\n")
    assert refused.returncode == 2
    assert refused.stderr.strip() == "line 2: it is Kit's turn, not Thug's"


def test_unregistered_a_coin_file_is_refused_naming_the_families(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(CASE.text, encoding="utf-8")
    refused = tracker("check", path, registered=False)
    assert refused.returncode != 0
    assert "encounter.system: must be 'ttb' or '2d20'" in refused.stdout + refused.stderr
    assert "Traceback" not in refused.stdout + refused.stderr


def test_the_gm_screen_draws_a_coin_duel(
    snap_compare: Callable[..., bool], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENVIRONMENT, REGISTERS)
    monkeypatch.setenv("TRACKER_CONFIG_DIR", str(tmp_path / "config"))  # the user's theme stays out of the picture
    target = tmp_path / "duel.toml"
    target.write_text(CASE.text, encoding="utf-8")
    session = Session(files.load(target), seed=3)  # seed 3: heads
    for line in ("start", "add Thug dazed", "attack Kit Thug", "next"):
        session.execute(line)
    files.write_text(target, encounter_text(session))
    assert session.rules.state_json()["coin"] == {"heads": 1, "tails": 0} and session.state.active == "Spy"
    assert snap_compare(TrackerApp(session, target), terminal_size=(80, 24))
