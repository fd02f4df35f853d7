"""The future is the GM's: what keys the draws, and what an undo does to it (docs/guide/shared-box.md,
docs/rules/index.md#s1-3).

docs/guide/shared-box.md counts the seed the Fate Deck comes from among the GM's secrets; docs/rules/index.md#s1-3 asks
that a replay draw exactly what the fight drew. A file that names no seed draws from a 128-bit secret kept in the
GM's own file; an explicit seed (demos, tests) keeps the derivation it always had. An undone draw was seen
by the table, so the first new command after an undo takes a new branch of the future; redo keeps the
undone command's branch, and every replay (undo, a restart, the story) enters each branch where it began.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tests.conftest import Tracker, reloaded, run, ttb_state
from tracker.engine.records.record import dump
from tracker.families.registry import systems
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.ttb.fate.cards import full_deck
from tracker.report.telling import Teller
from tracker.store.files import parse_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def fresh(example: str = "duel.toml", seed: int | None = None) -> Session:
    """A fight from a shipped example as a GM starts one: no seed unless the test gives one."""
    return Session(parse_text((EXAMPLES / example).read_text(), example), seed=seed)


def seen(s: Session, mark: str = "GM flip: flipped") -> list[str]:
    """What the log says was drawn, in order (the GM's flips, or the 2d20 Challenge Dice rolled)."""
    return [e.text for e in s.state.log if mark in e.text]


def test_examples_and_starters_name_no_seed() -> None:
    """docs/guide/shared-box.md: no shipped file a GM copies to play names a seed (only the built-in demo does); the
    examples keep `demo_seed`, which only `tracker demo` reads."""
    data = Path(__file__).resolve().parents[2] / "tracker" / "data"
    for path in [*EXAMPLES.glob("*.toml"), *EXAMPLES.glob("campaign/*.toml"), *data.glob("*.toml*")]:
        if path.name == "demo.toml":
            continue
        assert re.search(r"^seed\s*=", path.read_text(), re.M) is None, path


@pytest.mark.parametrize("system", systems())
def test_tracker_new_writes_no_seed_and_the_first_save_keeps_the_secret(
    tracker: Tracker, tmp_path: Path, system: str
) -> None:
    """docs/guide/shared-box.md: `tracker new` names no seed; the first `tracker exec --save` keeps the fight's secret
    in the file (0600), in `[state]` and `[history]`, and the JSON state printed beside it holds none of it."""
    path = tmp_path / "new.toml"
    assert tracker("new", path, "--system", system).code == 0
    assert re.search(r"^seed\s*=", path.read_text(), re.M) is None
    done = tracker("exec", path, "--save", "--json", stdin="start\n")
    assert done.code == 0, done.err
    text = path.read_text()
    found = re.findall(r'^secret = "([0-9a-f]{32})"$', text, re.M)
    assert len(found) == 2 and found[0] == found[1]
    assert path.stat().st_mode & 0o777 == 0o600
    assert found[0] not in done.out and str(int(found[0], 16)) not in done.out


def test_a_fight_without_a_seed_draws_from_a_128_bit_secret() -> None:
    """docs/guide/shared-box.md: the secret is 128 bits from the OS (32 hex digits), kept in the live state and the
    history; the explicit seed stays 0 and the Fate Deck is not the one seed 0 would deal."""
    s = fresh()
    secret = s.history.secret
    assert secret is not None and re.fullmatch(r"[0-9a-f]{32}", secret)
    assert s.state.secret == secret and s.history.seed == 0 and s.state.seed == 0
    zero = fresh(seed=0)
    assert zero.state.secret is None and ttb_state(zero).deck != ttb_state(s).deck


def test_two_fresh_fights_from_the_same_file_flip_different_cards() -> None:
    """docs/guide/shared-box.md: knowing the file and the public code tells nothing of the deck: two fights started
    from the same example (no seed) deal different decks and flip different cards."""
    a, b = run(fresh(), "start", "flip 10"), run(fresh(), "start", "flip 10")
    assert a.history.secret != b.history.secret
    assert ttb_state(a).deck != ttb_state(b).deck
    assert seen(a) != seen(b)


def test_two_fresh_2d20_fights_roll_different_dice() -> None:
    """docs/guide/shared-box.md for 2d20: dice are drawn from the secret too."""
    a = run(fresh("skirmish_srd.toml"), "challenge 20")
    b = run(fresh("skirmish_srd.toml"), "challenge 20")
    assert seen(a, "20[CD]") and seen(a, "20[CD]") != seen(b, "20[CD]")


def test_an_undone_2d20_roll_is_not_the_next_roll() -> None:
    """docs/guide/shared-box.md for 2d20: the dice an undone roll showed are not the next roll's; redo shows them
    again."""
    s = run(fresh("skirmish_srd.toml"), "challenge 20")
    shown = seen(s, "20[CD]")[-1]
    run(s, "undo", "redo")
    assert seen(s, "20[CD]")[-1] == shown
    run(s, "undo", "challenge 20")
    assert seen(s, "20[CD]")[-1] != shown


def test_an_explicit_seed_keeps_its_derivation() -> None:
    """docs/rules/index.md#s1-3: a file's (or `--seed`'s) seed deals what it always dealt: the Fate Deck is the full
    deck shuffled by ``Random("seed:0")``, so demos and tests stay exactly reproducible."""
    s = fresh(seed=42)
    deck = [c for c in full_deck()]
    random.Random("42:0").shuffle(deck)
    assert ttb_state(s).deck == deck and s.state.secret is None and s.history.secret is None


@pytest.mark.parametrize("seed", [None, 7])
def test_an_undone_flip_is_not_the_next_flip(seed: int | None) -> None:
    """docs/guide/shared-box.md, docs/rules/index.md#s1-3: the cards an undone flip showed are not the known future: the
    next flip after the undo draws from a new branch (the unseen cards shuffled anew), with a secret or an
    explicit seed alike."""
    s = run(fresh(seed=seed), "start", "flip 5")
    shown = seen(s)[-1]
    run(s, "undo", "flip 5")
    assert seen(s)[-1] != shown
    assert s.history.forks and s.history.forks[-1].at == len(s.history.commands) - 1


def test_undo_and_redo_replay_exactly_across_branches() -> None:
    """docs/rules/index.md#s1-3: redo draws what the undone command drew; undo, a restart and the story replay every
    branch where it began, so each gives the very state the fight had."""
    s = run(fresh(), "start", "flip 3")
    run(s, "undo", "flip 3", "flip 2")  # a new branch at the second command
    after = dump(s.state)
    run(s, "undo", "undo", "redo", "redo")
    assert dump(s.state) == after
    run(s, "undo", "flip 4", "undo", "redo")  # a third branch, undone and redone
    after = dump(s.state)
    assert s.history.branches == 2 and [f.at for f in s.history.forks] == [1, 2]
    assert dump(s.replay(list(s.history.commands)).state) == after
    assert dump(reloaded(s).state) == after
    back = reloaded(s)
    back.undo()
    back.redo()
    assert dump(back.state) == after
    teller = Teller(s.setup, s.history)
    teller.tell_all(s.history.commands)
    assert dump(teller.session.state) == after


def test_a_refused_first_command_after_an_undo_changes_nothing() -> None:
    """docs/rules/index.md#s1 with docs/rules/index.md#s1-3: a refused command after an undo takes no branch: the state
    and the history are as they were, and redo still draws what the undone command drew."""
    s = run(fresh(), "start", "flip 3")
    shown = seen(s)[-1]
    s.undo()
    before, forks = dump(s.state), list(s.history.forks)
    with pytest.raises(Exception, match="flip 1 to 10"):
        s.execute("flip 11")
    assert dump(s.state) == before and s.history.forks == forks and s.history.undone
    s.redo()
    assert seen(s)[-1] == shown


def test_the_seed_command_replaces_the_secret() -> None:
    """docs/reference/language.md ``seed N``: the GM's explicit seed keys the draws from there on, as a file's seed
    would."""
    s = run(fresh(), "start", "seed 9")
    assert s.state.secret is None and s.state.seed == 9 and s.history.secret is not None
    assert dump(reloaded(s).state) == dump(s.state)


def test_the_secret_is_never_in_the_json_state() -> None:
    """docs/reference/json-state.md/docs/guide/shared-box.md: the JSON state (what `tracker exec --json` prints) holds
    no seed and no secret."""
    s = run(fresh(), "start", "flip 2")
    text = json.dumps(state_json(s))
    assert str(s.history.secret) not in text and "secret" not in text
