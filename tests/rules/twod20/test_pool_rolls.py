"""docs/rules/2d20.md#s3-2 to #s3-3 (Pools, continued): bought d20s (1/3/6) paid from Momentum, then
Threat, a test's Momentum going to the pool (an NPC's not), ``roll spend=K`` spending Momentum on the spot; scenario
checks C31 and C32. Every refusal changes nothing. The encounters are `tests.rules.twod20.test_pools`'s."""

from __future__ import annotations

import pytest

from tests.conftest import d20_state, run, session_from
from tests.rules.twod20.scenes import refused
from tests.rules.twod20.test_pools import encounter, last_log, started
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.snapshot import state_json

# --- tests and bought dice (C31, C32) ------------------------------------------------------------------


@pytest.mark.parametrize(("bought", "cost"), [(0, 0), (1, 1), (2, 3), (3, 6)])
def test_s3_3_bought_dice_cost_1_3_6_from_momentum(bought: int, cost: int) -> None:
    """docs/rules/2d20.md#s3-2 to #s3-3 [004:L492-498]: the 1st bought d20 costs 1, the 2nd 2, the 3rd 3
    (1, 3, 6 in all)."""
    s = started(momentum=6, threat=4)
    faces = ",".join(["20"] * (2 + bought))
    run(s, f"roll Kit 10 1 bought={bought} faces={faces}")
    assert (d20_state(s).momentum, d20_state(s).threat) == (6 - cost, 4)


def test_c32_three_bought_dice_cost_6_split_momentum_then_threat() -> None:
    """docs/rules/2d20.md#s3-3, C32: with a pool of 3, buying 3 d20s costs 6: the 3 Momentum and +3 Threat."""
    s = run(started(momentum=3, threat=4), "roll Kit 10 1 bought=3 faces=20,20,20,20,20")
    assert (d20_state(s).momentum, d20_state(s).threat) == (0, 7)
    assert any("Momentum -3 (Kit buys d20s): 3 → 0" in line.text for line in d20_state(s).log)
    assert any("Threat +3 (Kit buys d20s): 4 → 7" in line.text for line in d20_state(s).log)


@pytest.mark.parametrize("momentum", [0, 1, 2, 3, 4, 5, 6])
def test_c32_total_cost_is_6_however_split(momentum: int) -> None:
    """docs/rules/2d20.md#s3-3, C32: Momentum spent plus Threat added is always 6 for 3 bought dice."""
    s = run(started(momentum=momentum, threat=0), "roll Kit 10 1 bought=3 faces=20,20,20,20,20")
    spent = momentum - d20_state(s).momentum
    assert spent + d20_state(s).threat == 6


def test_c32_bought_dice_paid_all_with_threat_by_choice() -> None:
    """docs/rules/2d20.md#s3-3: `pay=threat` puts the whole price on the GM's pool even with Momentum to spare."""
    s = run(started(momentum=6, threat=0), "roll Kit 10 1 bought=2 faces=20,20,20,20 pay=threat")
    assert (d20_state(s).momentum, d20_state(s).threat) == (6, 3)


def test_c32_a_fourth_bought_die_refused() -> None:
    """docs/rules/2d20.md#s3-2, C32: at most 3 d20s can be bought; a 4th is refused and nothing is paid."""
    refused(started(momentum=6), "roll Kit 10 1 bought=4", "at most 3 bought d20s")


def test_s3_3_npc_bought_dice_spend_threat() -> None:
    """docs/rules/2d20.md#s3-3: an NPC's bought dice are paid from Threat (2 dice: 3 Threat)."""
    s = run(started(momentum=2, threat=4), "roll Thug 10 1 bought=2 faces=20,20,20,20")
    assert (d20_state(s).momentum, d20_state(s).threat) == (2, 1)


def test_s3_3_npc_bought_dice_refused_when_threat_is_short() -> None:
    """docs/rules/2d20.md#s3-3: an NPC cannot buy dice the Threat pool cannot pay for; nothing is paid or rolled."""
    refused(started(threat=2), "roll Thug 10 1 bought=2", "costs 3 Threat")


def test_s3_3_refused_roll_pays_nothing() -> None:
    """docs/rules/2d20.md#s3-3 with docs/rules/index.md#s1: a roll refused for its dice (wrong number of faces, bad
    complication range) leaves the pools untouched even when dice were being bought."""
    s = started(momentum=3, threat=4)
    refused(s, "roll Kit 10 1 bought=1 faces=1,2", "d20 test")
    refused(s, "roll Kit 10 1 bought=2 range=9", "complication range")


def test_c31_pc_test_momentum_goes_to_the_pool_capped() -> None:
    """docs/rules/2d20.md#s3-3, C31: a PC's test generates 3 Momentum (TN 10, D1, two natural 1s: 4 successes) and
    the pool of 5 becomes 6; the other 2 are lost (logged)."""
    s = run(started(momentum=5), "roll Kit 10 1 faces=1,1")
    assert d20_state(s).momentum == 6
    assert "Momentum +3 (Kit's test): 5 → 6 (2 lost over the cap of 6)" in last_log(s)


def test_s3_3_pc_test_after_buying_dice_adds_its_momentum() -> None:
    """docs/rules/2d20.md#s3-3: the dice are paid first, then the test's Momentum is saved
    (pool 4 − 1 + 2 = 5: faces 1, 5, 20 score 3 successes against D1)."""
    s = run(started(momentum=4), "roll Kit 10 1 bought=1 faces=1,5,20")
    assert d20_state(s).momentum == 5


def test_s3_3_failed_or_d0_test_adds_no_momentum() -> None:
    """docs/rules/2d20.md#s3-2: a failed test, and a Difficulty 0 test, generate no Momentum."""
    s = run(started(momentum=2), "roll Kit 10 2 faces=5,20")
    assert d20_state(s).momentum == 2
    run(s, "roll Kit 10 0 faces=1,1")
    assert d20_state(s).momentum == 2


def test_c31_npc_test_momentum_is_not_saved_to_the_pool() -> None:
    """docs/rules/2d20.md#s3-3, C31: an NPC's Momentum is not the players' pool; the log offers to bank it as Threat."""
    s = run(started(momentum=2, threat=4), "roll Thug 10 1 faces=1,1")
    assert (d20_state(s).momentum, d20_state(s).threat) == (2, 4)
    assert "3 Momentum to spend now" in last_log(s)
    assert "'threat +3'" in last_log(s)


def test_s3_3_undo_gives_back_a_paid_roll() -> None:
    """docs/rules/2d20.md#s3-3 with docs/reference/language.md undo: undoing a roll restores both pools exactly."""
    s = started(momentum=3, threat=4)
    before = dump(d20_state(s))
    run(s, "roll Kit 10 1 bought=3", "undo")
    assert dump(d20_state(s)) == before


def test_s3_3_pools_before_start_show_the_files_values() -> None:
    """docs/reference/language.md "Pools before start", docs/rules/2d20.md#s3-3/docs/rules/2d20-lifecycle.md#s3-13:
    before `start` the JSON state, the header and `tracker exec` show the pools the scene will start with (the file's,
    or 2 Threat per PC)."""
    s = session_from(encounter(momentum=1, threat=5))
    assert state_json(s)["pools"] == {"momentum": 1, "threat": 5}
    assert s.presenter.header().pools == "Momentum 1 · Threat 5"
    s.execute("start")
    assert state_json(s)["pools"] == {"momentum": 1, "threat": 5}
    unset = session_from(encounter(momentum=None, threat=None))
    assert state_json(unset)["pools"] == {"momentum": 0, "threat": 4}  # 2 per player character, 2 PCs


# --- docs/reference/language.md roll `spend=K`: Momentum spent on the spot --------------------------------------------


def test_s3_3_roll_spend_spends_momentum_at_once_before_banking() -> None:
    """docs/rules/2d20.md#s3-3 [004:L510, L530], docs/reference/language.md `spend=K`: a PC's test with 3 Momentum
    (faces 1, 1 against D1) and `spend=2` spends 2 at once (logged) and banks only 1: the pool of 5 becomes 6 and
    nothing is lost over the cap."""
    s = run(started(momentum=5), "roll Kit 10 1 faces=1,1 spend=2")
    assert d20_state(s).momentum == 6
    texts = [line.text for line in d20_state(s).log]
    assert any("Kit spends 2 of the test's Momentum at once" in t for t in texts)
    assert "Momentum +1 (Kit's test): 5 → 6" in last_log(s)
    assert not any("lost over the cap" in t or "would waste" in t for t in texts)


def test_s3_3_roll_spend_all_banks_nothing() -> None:
    """docs/rules/2d20.md#s3-3 [004:L510]: spending all of a test's Momentum at once leaves the pool as it was."""
    s = run(started(momentum=6), "roll Kit 10 1 faces=1,1 spend=3")
    assert d20_state(s).momentum == 6
    assert "3 left" not in last_log(s) and "0 left" in last_log(s)


def test_s3_3_roll_spend_more_than_typed_faces_generate_is_refused() -> None:
    """docs/rules/2d20.md#s3-3 with docs/rules/index.md#s1: with the table's own faces, `spend=K` above their Momentum
    is refused and changes nothing (the faces are the table's: naming them shows nothing to come)."""
    refused(started(momentum=2), "roll Kit 10 1 faces=1,1 spend=4", "generates only 3 Momentum")


@pytest.mark.parametrize(("line", "most"), [("roll Kit 10 1 spend=9", 3), ("roll Kit 10 2 bought=1 spend=5", 4)])
def test_s3_3_roll_spend_no_roll_could_generate_is_refused_before_a_die_is_drawn(line: str, most: int) -> None:
    """docs/rules/2d20.md#s3-3, docs/guide/shared-box.md: a `spend=K` no roll of these dice could generate (every die
    scoring 2) is refused before any die is drawn: the refusal names no face and no Momentum of the roll to come."""
    s = started(momentum=2)
    exc = refused(s, line, f"generates at most {most} Momentum")
    assert "tests:" not in str(exc) and "[" not in str(exc)


def test_s3_3_a_refused_roll_names_none_of_the_dice_the_next_roll_gets() -> None:
    """docs/guide/shared-box.md (the seed's future is the GM's): whatever `spend=` a refused roll asked, the next roll
    draws the dice it would have drawn without the refusal, and no refusal text holds one of those faces."""
    plain = run(started(momentum=2), "roll Kit 10 1")
    faces = [t for t in (line.text for line in d20_state(plain).log) if "Kit tests:" in t][-1]
    s = started(momentum=2)
    texts = []
    for k in range(4, 10):
        try:
            s.execute(f"roll Kit 10 1 spend={k}")
        except Refusal as exc:
            texts.append(str(exc))
    assert len(texts) == 6 and all("at most 3 Momentum" in t for t in texts)
    run(s, "roll Kit 10 1")
    assert [t for t in (line.text for line in d20_state(s).log) if "Kit tests:" in t][-1] == faces


def test_s3_3_roll_spend_above_what_the_drawn_dice_generate_spends_all_of_it() -> None:
    """docs/rules/2d20.md#s3-3 [004:L510], docs/guide/shared-box.md: a possible `spend=K` above what the tracker's dice
    generated is not refused (that would tell the table about dice it then rolls again): all the test's Momentum is
    spent at once, and the log says so."""
    s = run(started(momentum=2), "seed 3", "roll Kit 1 1 spend=3")  # TN 1: only a 1 succeeds
    texts = [line.text for line in d20_state(s).log]
    assert "D1: fail" in [t for t in texts if "Kit tests:" in t][-1]
    assert any("spend=3: the test generated only 0 Momentum, all of it spent at once" in t for t in texts)
    assert d20_state(s).momentum == 2


def test_s3_3_roll_spend_for_an_npc_leaves_the_rest_to_bank_as_threat() -> None:
    """docs/rules/2d20.md#s3-3 [004:L510]: an NPC spends K at once; the log offers only the rest as Threat."""
    s = run(started(momentum=2, threat=4), "roll Thug 10 1 faces=1,1 spend=1")
    assert (d20_state(s).momentum, d20_state(s).threat) == (2, 4)
    assert "'threat +2'" in last_log(s)


def test_s3_3_roll_without_spend_warns_of_momentum_wasted_over_the_cap() -> None:
    """docs/rules/2d20.md#s3-3 [004:L530]: banking a test's Momentum over the cap of 6 with no `spend=` says how much
    would be lost and how to spend it instead (undo replays the same dice)."""
    s = run(started(momentum=5), "roll Kit 10 1 faces=1,1")
    texts = [line.text for line in d20_state(s).log]
    assert any("would waste 2 Momentum over the cap of 6" in t and "spend=2" in t for t in texts)


def test_s3_3_roll_spend_undo_then_the_same_faces_with_spend() -> None:
    """docs/rules/index.md#s1-3 with docs/rules/2d20.md#s3-3: the waste warning names the faces, so `undo` and the same
    roll with those faces and `spend=` is the same test (an untyped roll after an undo draws new dice: the undone ones
    were seen)."""
    s = run(started(momentum=6), "roll Kit 20 1")  # TN 20: every die succeeds, so Momentum is wasted
    first = [line.text for line in d20_state(s).log if "Kit tests:" in line.text][-1]
    hint = [line.text for line in d20_state(s).log if "would waste" in line.text]
    again_line = hint[-1].split("then the same roll with ")[1].rstrip(")")
    run(s, "undo", f"roll Kit 20 1 {again_line}")
    again = [line.text for line in d20_state(s).log if "Kit tests:" in line.text][-1]
    assert first == again
