"""docs/rules/2d20.md#s3-3 (Pools): the group Momentum pool (cap 6, overflow lost, −1 at scene end), Threat / Heat,
Fortune (per-character start, cap 5, decision B43), starting Threat (2 per PC), paying costs (PCs with
Momentum or Threat, NPCs with Threat), bought d20s (1/3/6, docs/rules/2d20.md#s3-2) and a test's Momentum going to the
pool; scenario checks C31 and C32. Every change is logged with its reason; every refusal changes nothing."""

from __future__ import annotations

import pytest

from tests.conftest import d20_state, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.twod20 import pools
from tracker.families.twod20.engine import TwoD20Engine
from tracker.store.files import FileInvalid, parse_text


def encounter(
    pcs: tuple[str, ...] = ("Kit", "Ada"),
    npcs: tuple[str, ...] = ("Thug",),
    momentum: int | None = 2,
    threat: int | None = 4,
    profile: str = "srd",
    kit: str = "",
) -> str:
    """The PCs and the minor NPCs, Stress 10 each (Vigour 10 in Infinity), in the one zone A."""
    stress = {"vigour": 10} if profile == "infinity" else 10
    blocks = [combatant(n, extra=kit if n == "Kit" else "", stress=stress, zone="A") for n in pcs]
    blocks += [combatant(n, npc_type="minor", stress=stress, zone="A") for n in npcs]
    return header("Pier", profile=profile, momentum=momentum, threat=threat) + zones("A") + "".join(blocks)


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


def last_log(s: Session) -> str:
    """The newest log line's text."""
    return str(d20_state(s).log[-1].text)


def engine_of(s: Session) -> TwoD20Engine:
    eng = s.rules
    assert isinstance(eng, TwoD20Engine)
    return eng


# --- Momentum ------------------------------------------------------------------------------------------


def test_s3_3_momentum_add_and_spend_logged_with_reason() -> None:
    """docs/rules/2d20.md#s3-3: `momentum ±N [reason]` changes the group pool; the log gives the reason and the
    change."""
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
    """docs/rules/2d20.md#s3-3, C31: with a pool of 5, +3 Momentum leaves 6 and the 2 over the cap are lost (logged)."""
    s = run(started(momentum=5), "momentum +3 test")
    assert d20_state(s).momentum == 6
    assert last_log(s) == "Momentum +3 (test): 5 → 6 (2 lost over the cap of 6)"


def test_s3_3_momentum_at_the_cap_loses_everything_added() -> None:
    """docs/rules/2d20.md#s3-3: a full pool keeps 6; all the new Momentum is lost."""
    s = run(started(momentum=6), "momentum +2")
    assert d20_state(s).momentum == 6
    assert "(2 lost over the cap of 6)" in last_log(s)


def test_s3_3_momentum_below_zero_refused() -> None:
    """docs/rules/2d20.md#s3-3: the pool cannot go below 0; the refusal says what it holds and changes nothing."""
    s = started(momentum=2)
    refused(s, "momentum -3", "the Momentum pool holds only 2")
    run(s, "momentum -2")
    assert d20_state(s).momentum == 0


def test_s3_3_momentum_amount_must_be_a_number() -> None:
    """docs/reference/language.md: `momentum ±N`; a non-number is refused."""
    refused(started(), "momentum lots", "whole number")


def test_s3_3_pool_changes_before_start_change_the_starting_pools() -> None:
    """docs/reference/language.md "Pools before start": ``momentum ±N`` / ``threat ±N`` before `start` change the pools
    the scene starts with (docs/rules/2d20.md#s3-3: the cap and the floor hold as ever); undo takes them back."""
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
    """docs/rules/2d20.md#s3-3 [004:L538], docs/rules/2d20-lifecycle.md#s3-13 scene_end, C31: at the end of the scene
    the pool loses 1 (6 → 5)."""
    s = run(started(momentum=5), "momentum +3", "end")
    assert d20_state(s).momentum == 5
    assert d20_state(s).phase == "ended"
    assert last_log(s) == "Momentum -1 (end of the scene): 6 → 5"


def test_s3_3_scene_end_with_an_empty_pool_stays_at_0() -> None:
    """docs/rules/2d20.md#s3-3: the decay never takes the pool below 0."""
    s = run(started(momentum=0), "end")
    assert d20_state(s).momentum == 0
    assert not any("end of the scene" in line.text for line in d20_state(s).log)


def test_s3_3_scene_end_is_once_per_scene() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13: `end` ends the scene; a second `end` is refused; the next `start` keeps the
    pools."""
    s = run(started(momentum=4, threat=5), "end")
    refused(s, "end", "the scene has ended")
    run(s, "start")
    assert (d20_state(s).momentum, d20_state(s).threat) == (3, 5)
    assert d20_state(s).scene == 2


def test_s3_3_end_before_start_refused() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13: there is no scene to end before `start`."""
    refused(session_from(encounter()), "end", "has not started")


# --- Threat / Heat -------------------------------------------------------------------------------------


def test_s3_3_threat_add_and_spend_logged() -> None:
    """docs/rules/2d20.md#s3-3: `threat ±N [reason]`; Threat has no cap; every change is logged with its reason."""
    s = run(started(threat=4), "threat +10 escalation")
    assert d20_state(s).threat == 14
    assert last_log(s) == "Threat +10 (escalation): 4 → 14"
    run(s, "threat -14 reinforcements")
    assert d20_state(s).threat == 0
    assert last_log(s) == "Threat -14 (reinforcements): 14 → 0"


def test_s3_3_threat_below_zero_refused() -> None:
    """docs/rules/2d20.md#s3-3: the GM cannot spend Threat it does not have."""
    s = started(threat=1)
    refused(s, "threat -2", "the Threat pool holds only 1")


def test_s3_3_infinity_gm_pool_is_heat() -> None:
    """docs/rules/2d20.md#s3-0, docs/rules/2d20.md#s3-3: under Infinity the GM's pool is Heat (same command, Heat in the
    log and JSON)."""
    s = run(started(threat=3, profile="infinity"), "threat +2 complication")
    assert d20_state(s).threat == 5
    assert last_log(s) == "Heat +2 (complication): 3 → 5"
    assert state_json(s)["pools"]["heat"] == 5
    refused(s, "threat -6", "the Heat pool holds only 5")


def test_s3_3_starting_threat_from_the_file() -> None:
    """docs/rules/2d20.md#s3-3: the encounter's `threat` sets the starting pool; its `momentum` the Momentum pool."""
    s = run(session_from(encounter(momentum=3, threat=7)), "start")
    assert (d20_state(s).momentum, d20_state(s).threat) == (3, 7)
    assert "Momentum 3, Threat 7" in d20_state(s).log[0].text


def test_s3_3_starting_threat_defaults_to_2_per_pc() -> None:
    """docs/rules/2d20.md#s3-3 [004:L560], docs/rules/2d20-lifecycle.md#s3-13 scene_start: without `threat`, the pool
    starts at 2 per PC (3 PCs → 6); without `momentum` the Momentum pool starts empty."""
    s = run(session_from(encounter(("Kit", "Ada", "Cy"), ("Thug", "Grunt"), momentum=None, threat=None)), "start")
    assert (d20_state(s).momentum, d20_state(s).threat) == (0, 6)
    assert "(2 per player character, 3)" in d20_state(s).log[0].text


def test_s3_3_explicit_zero_threat_is_kept() -> None:
    """docs/rules/2d20.md#s3-3: `threat = 0` in the file means 0, not the 2-per-PC default."""
    s = run(session_from(encounter(threat=0)), "start")
    assert d20_state(s).threat == 0


# --- Fortune ---------------------------------------------------------------------------------------------


def test_b43_starting_fortune_defaults_to_3() -> None:
    """docs/rules/2d20.md#s3-3, B43: each PC starts with its `starting_fortune`, 3 by default; NPCs have none."""
    s = session_from(encounter())
    assert d20_state(s).fighters["Kit"].fortune == 3
    assert d20_state(s).fighters["Ada"].fortune == 3
    assert d20_state(s).fighters["Thug"].fortune == 0
    data = state_json(s)
    assert data["combatants"][0]["fortune"] == 3
    assert "fortune" not in data["combatants"][2]


def test_b43_starting_fortune_per_character() -> None:
    """docs/rules/2d20.md#s3-3, B43: `starting_fortune` is per character (what character creation left)."""
    s = session_from(encounter(kit="starting_fortune = 1"))
    assert d20_state(s).fighters["Kit"].fortune == 1
    assert d20_state(s).fighters["Ada"].fortune == 3


def test_b43_current_fortune_field_wins_over_the_start() -> None:
    """docs/rules/2d20.md#s3-3, B43: a file carrying the character's current `fortune` starts from it."""
    s = session_from(encounter(kit="starting_fortune = 2\nfortune = 5"))
    assert d20_state(s).fighters["Kit"].fortune == 5


def test_b43_starting_fortune_above_5_is_a_file_error() -> None:
    """docs/rules/2d20.md#s3-3: Fortune's maximum is 5, so a starting Fortune of 6 is an invalid file."""
    with pytest.raises(FileInvalid) as info:
        parse_text(encounter(kit="starting_fortune = 6"), "f.toml")
    assert "starting_fortune" in info.value.lines()[0]


def test_s3_3_fortune_change_logged_with_reason() -> None:
    """docs/rules/2d20.md#s3-3: `fortune NAME ±N [reason]` changes one PC's Fortune, logged with the reason."""
    s = run(started(), "fortune Kit -2 Perfect Opportunity")
    assert d20_state(s).fighters["Kit"].fortune == 1
    assert last_log(s) == "Kit's Fortune -2 (Perfect Opportunity): 3 → 1"


def test_s3_3_fortune_capped_at_5() -> None:
    """docs/rules/2d20.md#s3-3 [004:L596], B43: max 5; the excess is discarded."""
    s = run(started(), "fortune Kit +4 voluntary failure")
    assert d20_state(s).fighters["Kit"].fortune == 5
    assert last_log(s) == "Kit's Fortune +4 (voluntary failure): 3 → 5"


def test_s3_3_fortune_below_zero_refused() -> None:
    """docs/rules/2d20.md#s3-3: a PC cannot spend Fortune it does not have."""
    refused(started(), "fortune Ada -4", "Ada has only 3 Fortune")


def test_s3_3_npcs_have_no_fortune() -> None:
    """docs/rules/2d20.md#s3-1 Resources: Fortune is a player-character resource."""
    refused(started(), "fortune Thug +1", "Thug is an NPC: no Fortune")


# --- paying costs (engine helpers) ------------------------------------------------------------------------


def test_s3_3_pc_costs_paid_with_momentum_or_threat() -> None:
    """docs/rules/2d20.md#s3-3: a PC pays from Momentum; short of it, or by choice, it adds Threat 1:1 instead."""
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
    """docs/rules/2d20.md#s3-3: an NPC's costs spend Threat; when the pool cannot pay, nothing changes."""
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
