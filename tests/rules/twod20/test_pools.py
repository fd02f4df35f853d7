"""RULES.md §3.3 (Pools): the group Momentum pool (cap 6, overflow lost, −1 at scene end), Threat / Heat,
Fortune (per-character start, cap 5, decision B43), starting Threat (2 per PC), paying costs (PCs with
Momentum or Threat, NPCs with Threat), bought d20s (1/3/6, §3.2) and a test's Momentum going to the pool;
scenario checks C31 and C32. Every change is logged with its reason; every refusal changes nothing."""

from __future__ import annotations

import re

import pytest

from tests.conftest import d20_state, run, session_from
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.twod20 import pools
from tracker.families.twod20.engine import TwoD20Engine
from tracker.store.files import FileInvalid, parse_text

PC = """
[[combatants]]
name = "{name}"
stress = 10
zone = "A"
{extra}
"""
NPC = """
[[combatants]]
name = "{name}"
npc_type = "minor"
stress = 5
zone = "A"
"""


def encounter(
    pcs: tuple[str, ...] = ("Kit", "Ada"),
    npcs: tuple[str, ...] = ("Thug",),
    momentum: int | None = 2,
    threat: int | None = 4,
    profile: str = "srd",
    kit: str = "",
) -> str:
    header = [
        "[encounter]",
        'name = "Pier"',
        'system = "2d20"',
        "seed = 1",
        f'profile = "{profile}"',
        'action_order = "alternating"',
    ]
    if momentum is not None:
        header.append(f"momentum = {momentum}")
    if threat is not None:
        header.append(f"threat = {threat}")
    stress = "{ vigour = 10 }" if profile == "infinity" else "10"
    blocks = [
        PC.format(name=n, extra=kit if n == "Kit" else "").replace("stress = 10", f"stress = {stress}") for n in pcs
    ]
    blocks += [NPC.format(name=n).replace("stress = 5", f"stress = {stress}") for n in npcs]
    return "\n".join(header) + '\n\n[[zones]]\nname = "A"\n' + "".join(blocks)


def started(
    momentum: int | None = 2,
    threat: int | None = 4,
    profile: str = "srd",
    kit: str = "",
    pcs: tuple[str, ...] = ("Kit", "Ada"),
) -> Session:
    """The scene started and Kit's turn open."""
    s = session_from(encounter(pcs, momentum=momentum, threat=threat, profile=profile, kit=kit))
    return run(s, "start", "pick Kit")


def refused(s: Session, line: str, match: str = "") -> Refusal:
    """RULES.md §1 / CONTRACT.md §3: a refused command raises Refusal and changes nothing."""
    before = dump(d20_state(s))
    history = list(s.history.commands)
    with pytest.raises(Refusal, match=re.escape(match)) as info:
        s.execute(line)
    assert dump(d20_state(s)) == before
    assert s.history.commands == history
    return info.value


def last_log(s: Session) -> str:
    """The newest log line's text."""
    return str(d20_state(s).log[-1].text)


def engine_of(s: Session) -> TwoD20Engine:
    eng = s.engine
    assert isinstance(eng, TwoD20Engine)
    return eng


# --- Momentum ------------------------------------------------------------------------------------------


def test_s3_3_momentum_add_and_spend_logged_with_reason() -> None:
    """RULES.md §3.3: `momentum ±N [reason]` changes the group pool; the log gives the reason and the change."""
    s = run(started(momentum=2), "momentum +3 Kit attack")
    assert d20_state(s).momentum == 5
    assert last_log(s) == "Momentum +3 (Kit attack): 2 → 5"
    run(s, "momentum -4 bonus damage")
    assert d20_state(s).momentum == 1
    assert last_log(s) == "Momentum -4 (bonus damage): 5 → 1"
    run(s, "momentum 1")
    assert last_log(s) == "Momentum +1 (GM): 1 → 2"
    assert state_json(s)["pools"] == {"momentum": 2, "threat": 4}


def test_c31_momentum_cap_6_overflow_lost_and_logged() -> None:
    """RULES.md §3.3, C31: with a pool of 5, +3 Momentum leaves 6 and the 2 over the cap are lost (logged)."""
    s = run(started(momentum=5), "momentum +3 test")
    assert d20_state(s).momentum == 6
    assert last_log(s) == "Momentum +3 (test): 5 → 6 (2 lost over the cap of 6)"


def test_s3_3_momentum_at_the_cap_loses_everything_added() -> None:
    """RULES.md §3.3: a full pool keeps 6; all the new Momentum is lost."""
    s = run(started(momentum=6), "momentum +2")
    assert d20_state(s).momentum == 6
    assert "(2 lost over the cap of 6)" in last_log(s)


def test_s3_3_momentum_below_zero_refused() -> None:
    """RULES.md §3.3: the pool cannot go below 0; the refusal says what it holds and changes nothing."""
    s = started(momentum=2)
    refused(s, "momentum -3", "the Momentum pool holds only 2")
    run(s, "momentum -2")
    assert d20_state(s).momentum == 0


def test_s3_3_momentum_amount_must_be_a_number() -> None:
    """CONTRACT.md §3: `momentum ±N`; a non-number is refused."""
    refused(started(), "momentum lots", "whole number")


def test_s3_3_pool_changes_before_start_change_the_starting_pools() -> None:
    """CONTRACT.md §3 "Pools before start": ``momentum ±N`` / ``threat ±N`` before `start` change the pools the
    scene starts with (RULES.md §3.3: the cap and the floor hold as ever); undo takes them back."""
    s = run(session_from(encounter(momentum=2, threat=4)), "threat +1", "momentum -2")
    assert state_json(s)["pools"] == {"momentum": 0, "threat": 5}
    refused(s, "momentum -1", "the Momentum pool holds only 0")
    run(s, "momentum +9")
    assert d20_state(s).momentum == 6
    run(s, "start")
    assert state_json(s)["pools"] == {"momentum": 6, "threat": 5}
    assert "Momentum 6, Threat 5" in " ".join(e.text for e in d20_state(s).log)
    run(s, "undo", "undo")
    assert state_json(s)["pools"] == {"momentum": 0, "threat": 5}


def test_c31_scene_end_lowers_momentum_by_1() -> None:
    """RULES.md §3.3 [004:L538], §3.13 scene_end, C31: at the end of the scene the pool loses 1 (6 → 5)."""
    s = run(started(momentum=5), "momentum +3", "end")
    assert d20_state(s).momentum == 5
    assert d20_state(s).phase == "ended"
    assert last_log(s) == "Momentum -1 (end of the scene): 6 → 5"


def test_s3_3_scene_end_with_an_empty_pool_stays_at_0() -> None:
    """RULES.md §3.3: the decay never takes the pool below 0."""
    s = run(started(momentum=0), "end")
    assert d20_state(s).momentum == 0
    assert not any("end of the scene" in line.text for line in d20_state(s).log)


def test_s3_3_scene_end_is_once_per_scene() -> None:
    """RULES.md §3.13: `end` ends the scene; a second `end` is refused; the next `start` keeps the pools."""
    s = run(started(momentum=4, threat=5), "end")
    refused(s, "end", "the scene has ended")
    run(s, "start")
    assert (d20_state(s).momentum, d20_state(s).threat) == (3, 5)
    assert d20_state(s).scene == 2


def test_s3_3_end_before_start_refused() -> None:
    """RULES.md §3.13: there is no scene to end before `start`."""
    refused(session_from(encounter()), "end", "has not started")


# --- Threat / Heat -------------------------------------------------------------------------------------


def test_s3_3_threat_add_and_spend_logged() -> None:
    """RULES.md §3.3: `threat ±N [reason]`; Threat has no cap; every change is logged with its reason."""
    s = run(started(threat=4), "threat +10 escalation")
    assert d20_state(s).threat == 14
    assert last_log(s) == "Threat +10 (escalation): 4 → 14"
    run(s, "threat -14 reinforcements")
    assert d20_state(s).threat == 0
    assert last_log(s) == "Threat -14 (reinforcements): 14 → 0"


def test_s3_3_threat_below_zero_refused() -> None:
    """RULES.md §3.3: the GM cannot spend Threat it does not have."""
    s = started(threat=1)
    refused(s, "threat -2", "the Threat pool holds only 1")


def test_s3_3_infinity_gm_pool_is_heat() -> None:
    """RULES.md §3.0, §3.3: under Infinity the GM's pool is Heat (same command, Heat in the log and JSON)."""
    s = run(started(threat=3, profile="infinity"), "threat +2 complication")
    assert d20_state(s).threat == 5
    assert last_log(s) == "Heat +2 (complication): 3 → 5"
    assert state_json(s)["pools"]["heat"] == 5
    refused(s, "threat -6", "the Heat pool holds only 5")


def test_s3_3_starting_threat_from_the_file() -> None:
    """RULES.md §3.3: the encounter's `threat` sets the starting pool; its `momentum` the Momentum pool."""
    s = run(session_from(encounter(momentum=3, threat=7)), "start")
    assert (d20_state(s).momentum, d20_state(s).threat) == (3, 7)
    assert "Momentum 3, Threat 7" in d20_state(s).log[0].text


def test_s3_3_starting_threat_defaults_to_2_per_pc() -> None:
    """RULES.md §3.3 [004:L560], §3.13 scene_start: without `threat`, the pool starts at 2 per PC (3 PCs → 6);
    without `momentum` the Momentum pool starts empty."""
    s = run(session_from(encounter(("Kit", "Ada", "Cy"), ("Thug", "Grunt"), momentum=None, threat=None)), "start")
    assert (d20_state(s).momentum, d20_state(s).threat) == (0, 6)
    assert "(2 per player character, 3)" in d20_state(s).log[0].text


def test_s3_3_explicit_zero_threat_is_kept() -> None:
    """RULES.md §3.3: `threat = 0` in the file means 0, not the 2-per-PC default."""
    s = run(session_from(encounter(threat=0)), "start")
    assert d20_state(s).threat == 0


# --- Fortune ---------------------------------------------------------------------------------------------


def test_b43_starting_fortune_defaults_to_3() -> None:
    """RULES.md §3.3, B43: each PC starts with its `starting_fortune`, 3 by default; NPCs have none."""
    s = session_from(encounter())
    assert d20_state(s).fighters["Kit"].fortune == 3
    assert d20_state(s).fighters["Ada"].fortune == 3
    assert d20_state(s).fighters["Thug"].fortune == 0
    data = state_json(s)
    assert data["combatants"][0]["fortune"] == 3
    assert "fortune" not in data["combatants"][2]


def test_b43_starting_fortune_per_character() -> None:
    """RULES.md §3.3, B43: `starting_fortune` is per character (what character creation left)."""
    s = session_from(encounter(kit="starting_fortune = 1"))
    assert d20_state(s).fighters["Kit"].fortune == 1
    assert d20_state(s).fighters["Ada"].fortune == 3


def test_b43_current_fortune_field_wins_over_the_start() -> None:
    """RULES.md §3.3, B43: a file carrying the character's current `fortune` starts from it."""
    s = session_from(encounter(kit="starting_fortune = 2\nfortune = 5"))
    assert d20_state(s).fighters["Kit"].fortune == 5


def test_b43_starting_fortune_above_5_is_a_file_error() -> None:
    """RULES.md §3.3: Fortune's maximum is 5, so a starting Fortune of 6 is an invalid file."""
    with pytest.raises(FileInvalid) as info:
        parse_text(encounter(kit="starting_fortune = 6"), "f.toml")
    assert "starting_fortune" in info.value.lines()[0]


def test_s3_3_fortune_change_logged_with_reason() -> None:
    """RULES.md §3.3: `fortune NAME ±N [reason]` changes one PC's Fortune, logged with the reason."""
    s = run(started(), "fortune Kit -2 Perfect Opportunity")
    assert d20_state(s).fighters["Kit"].fortune == 1
    assert last_log(s) == "Kit's Fortune -2 (Perfect Opportunity): 3 → 1"


def test_s3_3_fortune_capped_at_5() -> None:
    """RULES.md §3.3 [004:L596], B43: max 5; the excess is discarded."""
    s = run(started(), "fortune Kit +4 voluntary failure")
    assert d20_state(s).fighters["Kit"].fortune == 5
    assert last_log(s) == "Kit's Fortune +4 (voluntary failure): 3 → 5"


def test_s3_3_fortune_below_zero_refused() -> None:
    """RULES.md §3.3: a PC cannot spend Fortune it does not have."""
    refused(started(), "fortune Ada -4", "Ada has only 3 Fortune")


def test_s3_3_npcs_have_no_fortune() -> None:
    """RULES.md §3.1 Resources: Fortune is a player-character resource."""
    refused(started(), "fortune Thug +1", "Thug is an NPC: no Fortune")


# --- paying costs (engine helpers) ------------------------------------------------------------------------


def test_s3_3_pc_costs_paid_with_momentum_or_threat() -> None:
    """RULES.md §3.3: a PC pays from Momentum; short of it, or by choice, it adds Threat 1:1 instead."""
    s = started(momentum=3, threat=4)
    eng = engine_of(s)
    pools.pay(eng, "Kit", 2, "spend")
    assert (d20_state(s).momentum, d20_state(s).threat) == (1, 4)
    pools.pay(eng, "Kit", 2, "spend")
    assert (d20_state(s).momentum, d20_state(s).threat) == (1, 6)
    pools.pay(eng, "Kit", 1, "spend", use_threat=True)
    assert (d20_state(s).momentum, d20_state(s).threat) == (1, 7)
    pools.pay(eng, "Kit", 0, "nothing")
    assert (d20_state(s).momentum, d20_state(s).threat) == (1, 7)


def test_s3_3_npc_costs_paid_with_threat_or_refused() -> None:
    """RULES.md §3.3: an NPC's costs spend Threat; when the pool cannot pay, nothing changes."""
    s = started(momentum=3, threat=2)
    eng = engine_of(s)
    pools.pay(eng, "Thug", 2, "spend")
    assert (d20_state(s).momentum, d20_state(s).threat) == (3, 0)
    with pytest.raises(Refusal, match="costs 1 Threat; the pool holds 0"):
        pools.check_pay(eng, "Thug", 1, "spend")
    with pytest.raises(Refusal):
        pools.pay(eng, "Thug", 1, "spend")
    assert (d20_state(s).momentum, d20_state(s).threat) == (3, 0)
    pools.check_pay(eng, "Kit", 5, "a PC can always add Threat")


# --- tests and bought dice (C31, C32) ------------------------------------------------------------------


@pytest.mark.parametrize(("bought", "cost"), [(0, 0), (1, 1), (2, 3), (3, 6)])
def test_s3_3_bought_dice_cost_1_3_6_from_momentum(bought: int, cost: int) -> None:
    """RULES.md §3.2-§3.3 [004:L492-498]: the 1st bought d20 costs 1, the 2nd 2, the 3rd 3 (1, 3, 6 in all)."""
    s = started(momentum=6, threat=4)
    faces = ",".join(["20"] * (2 + bought))
    run(s, f"roll Kit 10 1 bought={bought} faces={faces}")
    assert (d20_state(s).momentum, d20_state(s).threat) == (6 - cost, 4)


def test_c32_three_bought_dice_cost_6_split_momentum_then_threat() -> None:
    """RULES.md §3.3, C32: with a pool of 3, buying 3 d20s costs 6: the 3 Momentum and +3 Threat."""
    s = run(started(momentum=3, threat=4), "roll Kit 10 1 bought=3 faces=20,20,20,20,20")
    assert (d20_state(s).momentum, d20_state(s).threat) == (0, 7)
    assert any("Momentum -3 (Kit buys d20s): 3 → 0" in line.text for line in d20_state(s).log)
    assert any("Threat +3 (Kit buys d20s): 4 → 7" in line.text for line in d20_state(s).log)


@pytest.mark.parametrize("momentum", [0, 1, 2, 3, 4, 5, 6])
def test_c32_total_cost_is_6_however_split(momentum: int) -> None:
    """RULES.md §3.3, C32: Momentum spent plus Threat added is always 6 for 3 bought dice."""
    s = run(started(momentum=momentum, threat=0), "roll Kit 10 1 bought=3 faces=20,20,20,20,20")
    spent = momentum - d20_state(s).momentum
    assert spent + d20_state(s).threat == 6


def test_c32_bought_dice_paid_all_with_threat_by_choice() -> None:
    """RULES.md §3.3: `pay=threat` puts the whole price on the GM's pool even with Momentum to spare."""
    s = run(started(momentum=6, threat=0), "roll Kit 10 1 bought=2 faces=20,20,20,20 pay=threat")
    assert (d20_state(s).momentum, d20_state(s).threat) == (6, 3)


def test_c32_a_fourth_bought_die_refused() -> None:
    """RULES.md §3.2, C32: at most 3 d20s can be bought; a 4th is refused and nothing is paid."""
    refused(started(momentum=6), "roll Kit 10 1 bought=4", "at most 3 bought d20s")


def test_s3_3_npc_bought_dice_spend_threat() -> None:
    """RULES.md §3.3: an NPC's bought dice are paid from Threat (2 dice: 3 Threat)."""
    s = run(started(momentum=2, threat=4), "roll Thug 10 1 bought=2 faces=20,20,20,20")
    assert (d20_state(s).momentum, d20_state(s).threat) == (2, 1)


def test_s3_3_npc_bought_dice_refused_when_threat_is_short() -> None:
    """RULES.md §3.3: an NPC cannot buy dice the Threat pool cannot pay for; nothing is paid or rolled."""
    refused(started(threat=2), "roll Thug 10 1 bought=2", "costs 3 Threat")


def test_s3_3_refused_roll_pays_nothing() -> None:
    """RULES.md §3.3 with §1: a roll refused for its dice (wrong number of faces, bad complication range)
    leaves the pools untouched even when dice were being bought."""
    s = started(momentum=3, threat=4)
    refused(s, "roll Kit 10 1 bought=1 faces=1,2", "d20 test")
    refused(s, "roll Kit 10 1 bought=2 range=9", "complication range")


def test_c31_pc_test_momentum_goes_to_the_pool_capped() -> None:
    """RULES.md §3.3, C31: a PC's test generates 3 Momentum (TN 10, D1, two natural 1s: 4 successes) and
    the pool of 5 becomes 6; the other 2 are lost (logged)."""
    s = run(started(momentum=5), "roll Kit 10 1 faces=1,1")
    assert d20_state(s).momentum == 6
    assert "Momentum +3 (Kit's test): 5 → 6 (2 lost over the cap of 6)" in last_log(s)


def test_s3_3_pc_test_after_buying_dice_adds_its_momentum() -> None:
    """RULES.md §3.3: the dice are paid first, then the test's Momentum is saved
    (pool 4 − 1 + 2 = 5: faces 1, 5, 20 score 3 successes against D1)."""
    s = run(started(momentum=4), "roll Kit 10 1 bought=1 faces=1,5,20")
    assert d20_state(s).momentum == 5


def test_s3_3_failed_or_d0_test_adds_no_momentum() -> None:
    """RULES.md §3.2: a failed test, and a Difficulty 0 test, generate no Momentum."""
    s = run(started(momentum=2), "roll Kit 10 2 faces=5,20")
    assert d20_state(s).momentum == 2
    run(s, "roll Kit 10 0 faces=1,1")
    assert d20_state(s).momentum == 2


def test_c31_npc_test_momentum_is_not_saved_to_the_pool() -> None:
    """RULES.md §3.3, C31: an NPC's Momentum is not the players' pool; the log offers to bank it as Threat."""
    s = run(started(momentum=2, threat=4), "roll Thug 10 1 faces=1,1")
    assert (d20_state(s).momentum, d20_state(s).threat) == (2, 4)
    assert "3 Momentum to spend now" in last_log(s)
    assert "'threat +3'" in last_log(s)


def test_s3_3_undo_gives_back_a_paid_roll() -> None:
    """RULES.md §3.3 with CONTRACT.md §3 undo: undoing a roll restores both pools exactly."""
    s = started(momentum=3, threat=4)
    before = dump(d20_state(s))
    run(s, "roll Kit 10 1 bought=3", "undo")
    assert dump(d20_state(s)) == before


def test_s3_3_pools_before_start_show_the_files_values() -> None:
    """CONTRACT.md §3 "Pools before start", RULES.md §3.3/§3.13: before `start` the JSON state, the header
    and `tracker exec` show the pools the scene will start with (the file's, or 2 Threat per PC)."""
    s = session_from(encounter(momentum=1, threat=5))
    assert state_json(s)["pools"] == {"momentum": 1, "threat": 5}
    assert s.engine.header().pools == "Momentum 1 · Threat 5"
    s.execute("start")
    assert state_json(s)["pools"] == {"momentum": 1, "threat": 5}
    unset = session_from(encounter(momentum=None, threat=None))
    assert state_json(unset)["pools"] == {"momentum": 0, "threat": 4}  # 2 per player character, 2 PCs


# --- CONTRACT.md §3 roll `spend=K`: Momentum spent on the spot ---------------------------------------------


def test_s3_3_roll_spend_spends_momentum_at_once_before_banking() -> None:
    """RULES.md §3.3 [004:L510, L530], CONTRACT.md §3 `spend=K`: a PC's test with 3 Momentum (faces 1, 1
    against D1) and `spend=2` spends 2 at once (logged) and banks only 1: the pool of 5 becomes 6 and
    nothing is lost over the cap."""
    s = run(started(momentum=5), "roll Kit 10 1 faces=1,1 spend=2")
    assert d20_state(s).momentum == 6
    texts = [line.text for line in d20_state(s).log]
    assert any("Kit spends 2 of the test's Momentum at once" in t for t in texts)
    assert "Momentum +1 (Kit's test): 5 → 6" in last_log(s)
    assert not any("lost over the cap" in t or "would waste" in t for t in texts)


def test_s3_3_roll_spend_all_banks_nothing() -> None:
    """RULES.md §3.3 [004:L510]: spending all of a test's Momentum at once leaves the pool as it was."""
    s = run(started(momentum=6), "roll Kit 10 1 faces=1,1 spend=3")
    assert d20_state(s).momentum == 6
    assert "3 left" not in last_log(s) and "0 left" in last_log(s)


def test_s3_3_roll_spend_more_than_generated_is_refused() -> None:
    """RULES.md §3.3 with §1: `spend=K` above the test's Momentum is refused and changes nothing, the dice
    drawn for it included (a refused roll leaves the state as it was)."""
    refused(started(momentum=2), "roll Kit 10 1 faces=1,1 spend=4", "generates only 3 Momentum")
    refused(started(momentum=2), "roll Kit 10 1 spend=9", "spend=9")


def test_s3_3_roll_spend_for_an_npc_leaves_the_rest_to_bank_as_threat() -> None:
    """RULES.md §3.3 [004:L510]: an NPC spends K at once; the log offers only the rest as Threat."""
    s = run(started(momentum=2, threat=4), "roll Thug 10 1 faces=1,1 spend=1")
    assert (d20_state(s).momentum, d20_state(s).threat) == (2, 4)
    assert "'threat +2'" in last_log(s)


def test_s3_3_roll_without_spend_warns_of_momentum_wasted_over_the_cap() -> None:
    """RULES.md §3.3 [004:L530]: banking a test's Momentum over the cap of 6 with no `spend=` says how much
    would be lost and how to spend it instead (undo replays the same dice)."""
    s = run(started(momentum=5), "roll Kit 10 1 faces=1,1")
    texts = [line.text for line in d20_state(s).log]
    assert any("would waste 2 Momentum over the cap of 6" in t and "spend=2" in t for t in texts)


def test_s3_3_roll_spend_undo_then_the_same_roll_replays_the_same_dice() -> None:
    """RULES.md §1.3 with §3.3: after the waste warning, `undo` and the same roll with `spend=` rolls the same
    faces (the draw counter is restored)."""
    s = run(started(momentum=5), "roll Kit 10 1")
    first = [line.text for line in d20_state(s).log if "Kit tests:" in line.text][-1]
    run(s, "undo", "roll Kit 10 1 spend=0")
    again = [line.text for line in d20_state(s).log if "Kit tests:" in line.text][-1]
    assert first == again
