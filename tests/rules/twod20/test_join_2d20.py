"""2d20 ``join`` (Reinforcements) and ``leave`` (docs/reference/language.md; docs/rules/2d20.md#s3-3 [004:L585],
docs/rules/2d20-turns.md#s3-4 the order).

Reinforcements cost the GM's pool 1 Threat per minor NPC and 2 per notable NPC once the scene has started
[004:L585]. Decisions tested here (README "Joining and leaving"): a major NPC costs 2; arrivals before ``start``,
on a side with a player character, or with ``free`` cost nothing; a join the pool cannot pay is refused whole;
a newcomer has not acted this round and may act in it; ``leave`` on the active character hands over as ``next``.
"""

from __future__ import annotations

from tests.conftest import d20_state, pending, refused_like, run, session_from
from tests.rules.twod20.scenes import combatant, header, stat_block, zones
from tracker.families.session import Session
from tracker.families.snapshot import state_json

BODY = (
    combatant("Kit", attributes={"agility": 10}, stress=10, zone="Pier")
    + combatant("Thug", npc_type="minor", attributes={"agility": 8}, stress=5, zone="Pier")
    + stat_block("Goon", npc_type="minor", attributes={"agility": 11}, stress=5, zone="Warehouse")
    + stat_block("Lieutenant", npc_type="notable", stress=8)
    + stat_block("Baron", npc_type="major", stress=12)
    + stat_block("Medic", stress=9)
)


def fight(threat: int = 6, order: str = "alternating") -> Session:
    head = header("Pier", seed=3, profile=None, order=order, momentum=None, threat=threat)
    return session_from(head + zones("Pier", "Warehouse") + BODY)


def kits_turn(threat: int = 6) -> Session:
    """The scene started, Kit's turn open."""
    return run(fight(threat), "start", "pick Kit")


def threat(s: Session) -> int:
    return int(state_json(s)["pools"]["threat"])


def test_s3_3_reinforcements_cost_1_per_minor_and_2_per_notable_npc() -> None:
    """docs/rules/2d20.md#s3-3 [004:L585]: once the scene runs, the GM spends 1 Threat per minor NPC and 2 per notable
    one."""
    s = run(kits_turn(threat=6), "join Goon count=2")
    assert threat(s) == 4
    assert "Reinforcements: Goon 1 (minor) 1, Goon 2 (minor) 1" in d20_state(s).log[-1].text
    run(s, "join Lieutenant")
    assert threat(s) == 2


def test_s3_3_a_major_npc_costs_2() -> None:
    """docs/rules/2d20.md#s3-3 [004:L585] names no price for a major NPC: the README's decision is 2, like a notable."""
    s = run(kits_turn(threat=6), "join Baron")
    assert threat(s) == 4


def test_s3_3_reinforcements_the_pool_cannot_pay_are_refused_whole() -> None:
    """docs/rules/2d20.md#s3-3 [004:L585]: the GM spends Threat it has; three minors at 1 each from a pool of 2 are
    refused with the price and the pool, and nothing changes (not even the first two)."""
    s = kits_turn(threat=2)
    refused_like(s, "join Goon count=3", r"Reinforcements cost 3 Threat .*the pool holds 2 \(add 'free'")
    run(s, "join Goon count=2")
    assert threat(s) == 0


def test_s3_3_free_and_arrivals_before_the_scene_cost_nothing() -> None:
    """docs/rules/2d20.md#s3-3 [004:L585] ("does not apply to NPCs present at the start of the scene"): a join before
    ``start`` is free; ``free`` waives the price when the table agrees."""
    s = run(fight(threat=1), "join Lieutenant", "start", "pick Kit", "join Baron free")
    assert threat(s) == 1
    refused_like(s, "join Lieutenant count=1", "Reinforcements cost 2 Threat")


def test_s3_3_player_side_arrivals_cost_nothing() -> None:
    """README decision: a player character, or an NPC joining a side with a player character, is no GM
    reinforcement and costs nothing."""
    s = run(kits_turn(threat=0), "join Medic", "join Ally from=Goon side=players")
    assert threat(s) == 0
    assert state_json(s)["combatants"][-1]["side"] == "players"


def test_s3_6_zone_option_places_the_newcomer() -> None:
    """docs/rules/2d20-combat.md#s3-6: ``zone=`` places the newcomer in a zone of the encounter (any case, a prefix);
    without it the stat block's zone; an unknown zone is refused."""
    s = run(kits_turn(), "join Goon zone=pier", "join Lieutenant")
    entries = {c["name"]: c for c in state_json(s)["combatants"]}
    assert entries["Goon"]["zone"] == "Pier"
    assert entries["Lieutenant"]["zone"] is None
    refused_like(s, "join Goon count=1 zone=Moon", "no zone named 'Moon'")
    run(s, "join Goon count=1")
    assert state_json(s)["combatants"][-1]["zone"] == "Warehouse"


def test_s3_4_a_newcomer_may_act_this_round() -> None:
    """docs/rules/2d20-turns.md#s3-4 (the opposing side picks a character who has not yet acted this round) and the
    README's decision: a reinforcement has not acted, so the next hand-over offers it."""
    s = run(kits_turn(), "join Goon", "next")
    assert "Goon" in pending(d20_state(s)).options
    run(s, "pick Goon")
    assert d20_state(s).active == "Goon"


def test_s3_4_initiative_scores_place_a_newcomer_by_its_score() -> None:
    """docs/rules/2d20-turns.md#s3-4 Initiative Scores [004:L1406-1416]: the newcomer's score is max(Agility, Insight)
    (11) and it acts in this round by it, ahead of the Thug's 8."""
    s = run(fight(order="initiative"), "start", "pick Kit", "join Goon")
    assert state_json(s)["combatants"][-1]["initiative"] == 11
    run(s, "next")
    assert d20_state(s).active == "Goon"


def test_leave_on_its_own_turn_hands_over_as_next_would() -> None:
    """docs/reference/language.md ``leave`` (README decision): the active character leaves, the turn ends without its
    end-of-turn effects (Persistent does not tick, docs/rules/2d20-lifecycle.md#s3-13), and the other side is asked to
    pick."""
    s = run(kits_turn(), "add Kit persistent 2", "leave Kit")
    assert d20_state(s).active is None
    assert pending(d20_state(s)).options == ["Thug"]
    assert d20_state(s).fighters["Kit"].stress == {"stress": 0}
    assert state_json(s)["order"] == []


def test_s3_6_leave_ends_its_reach() -> None:
    """docs/rules/2d20-combat.md#s3-6 (Reach is a declared state between those present, B22): who leaves is within
    nobody's Reach."""
    s = run(kits_turn(), "reach Kit Thug", "leave Thug")
    assert d20_state(s).reach == []


def test_nobody_left_then_reinforcements_carry_on() -> None:
    """docs/rules/2d20-turns.md#s3-4: when nobody can act the scene waits; reinforcements joining then are asked for at
    once."""
    s = run(kits_turn(), "leave Thug", "leave Kit")
    assert d20_state(s).prompt is None and d20_state(s).active is None
    run(s, "join Goon")
    assert pending(d20_state(s)).options == ["Goon"]
