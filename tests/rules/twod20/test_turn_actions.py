"""docs/rules/2d20-turns.md#s3-5 (2d20 actions and turn bookkeeping) driven by `spend NAME ACTION`: one Major a turn,
Swift Action and Surge of Activity for another, never more than 2 Majors a round (B8, B31); Minors (the first
free, extra ones paid, each type once a turn, own turn only); Movement and Disengage against declared Reach
(B22); Drop Prone / Stand; Rush; Prone; Reactions (SRD one a round, Infinity escalating Heat, B23);
Defeated (one Free Action), Stunned (no actions), Undefeated (1 Fortune). Also docs/rules/2d20-lifecycle.md#s3-13
turn_start/round_start bookkeeping. Every refused command leaves the state unchanged."""

from __future__ import annotations

import pytest

from tests.conftest import d20, d20_state, run, session_from
from tests.rules.twod20.scenes import KIT_ATTRIBUTES, KIT_SKILLS, combatant, header, refused, zones
from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.twod20.actions import action_key
from tracker.families.twod20.tables.actions import ACTIONS

INFINITY_STRESS = {"vigour": 10, "resolve": 8, "firewall": 6}


def encounter(
    profile: str = "srd",
    momentum: int = 2,
    threat: int = 4,
    kit: str = "",
    thug: str = "",
    row: tuple[str, ...] = ("A", "B"),
) -> str:
    """Kit and Ada (PCs) and Thug (minor NPC) in zone A, Boss (major NPC) in zone B next door (in a `row` of zones)."""
    stress = INFINITY_STRESS if profile == "infinity" else 10
    return (
        header(profile=profile, momentum=momentum, threat=threat)
        + zones(*row)
        + combatant("Kit", extra=kit, attributes=KIT_ATTRIBUTES, skills=KIT_SKILLS, stress=stress, zone="A")
        + combatant("Ada", stress=stress, zone="A")
        + combatant("Thug", extra=thug, npc_type="minor", stress=stress, zone="A")
        + combatant("Boss", npc_type="major", stress=stress, zone="B")
    )


#: From Kit's turn round to Kit's next: the three others take their turns and a new round opens.
ROUND = ("next", "pick Thug", "next", "pick Ada", "next", "pick Boss", "next", "pick Kit")


def session(profile: str = "srd", momentum: int = 2, threat: int = 4, kit: str = "", thug: str = "") -> Session:
    return session_from(encounter(profile, momentum, threat, kit, thug))


def kit_turn(profile: str = "srd", momentum: int = 2, threat: int = 4, kit: str = "", thug: str = "") -> Session:
    """The scene started and Kit's turn open (Kit picked first)."""
    return run(session(profile, momentum, threat, kit, thug), "start", "pick Kit")


def thug_turn(profile: str = "srd", momentum: int = 2, threat: int = 4, thug: str = "") -> Session:
    """Kit's turn passed (with a Minor, so it counts) and Thug's turn open."""
    return run(kit_turn(profile, momentum, threat, thug=thug), "spend Kit aim", "next", "pick Thug")


def pools(s: Session) -> tuple[int, int]:
    return d20_state(s).momentum, d20_state(s).threat


# --- the catalogue -------------------------------------------------------------------------------------


def test_s3_5_catalogue_kinds() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 to #s3-5-2: the action table's types (Major, Minor, Free,
    Reaction, Momentum/Fortune spends)."""
    majors = {
        "attack",
        "aid",
        "assist",
        "create_advantage",
        "overcome",
        "pass",
        "protect",
        "ready",
        "recover",
        "rush",
        "skill_test",
    }
    minors = {
        "aim",
        "bolster",
        "defend",
        "disengage",
        "draw_item",
        "drop_prone",
        "stand",
        "interact",
        "movement",
        "prepare",
    }
    assert all(ACTIONS[k].kind == "major" for k in majors)
    assert all(ACTIONS[k].kind == "minor" for k in minors)
    assert ACTIONS["speak"].kind == ACTIONS["shift"].kind == ACTIONS["drop"].kind == "free"
    assert ACTIONS["hit_the_dirt"].kind == "reaction"
    assert {ACTIONS[k].kind for k in ("defence", "guard", "retaliate", "return_fire")} == {"reaction"}
    assert {ACTIONS[k].kind for k in ("swift", "surge", "undefeated")} == {"spend"}
    assert ACTIONS["rush"].movement and ACTIONS["sprint"].movement and ACTIONS["withdraw"].movement
    assert ACTIONS["movement"].movement and not ACTIONS["attack"].movement


def test_s3_5_action_names_accept_aliases_prefixes_and_dashes() -> None:
    """docs/reference/language.md / docs/rules/2d20-turns.md#s3-5: action names are case-insensitive; `move` and `prone`
    are aliases."""
    assert action_key("move") == "movement"
    assert action_key("prone") == "drop_prone"
    assert action_key("Hit-The-Dirt") == "hit_the_dirt"
    assert action_key("disen") == "disengage"
    with pytest.raises(Refusal, match="no action named"):
        action_key("fly")


def test_s3_5_spend_unknown_action_is_refused() -> None:
    """docs/rules/2d20-turns.md#s3-5: only catalogued actions can be spent."""
    refused(kit_turn(), "spend Kit teleport", "no action named")


def test_s3_5_spend_before_start_is_refused() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13: actions happen in turns, after scene_start."""
    refused(session(), "spend Kit attack", "has not started")


# --- Major Actions ---------------------------------------------------------------------------------------


def test_s3_5_one_major_per_turn() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1448]: one Major Action per turn; a second is refused."""
    s = run(kit_turn(), "spend Kit attack")
    kit = d20_state(s).fighters["Kit"]
    assert (kit.majors, kit.majors_turn) == (1, 1)
    assert "Kit: Attack (Major 1 this round)" in d20_state(s).log[-1].text
    refused(s, "spend Kit protect", "has taken its Major Action this turn")
    assert state_json(s)["combatants"][0]["majors_this_round"] == 1


def test_s3_5_swift_action_costs_2_momentum_for_another_major() -> None:
    """docs/rules/2d20.md#s3-0 Swift Action / B8: 2 Momentum buys a second Major Action this turn (logged)."""
    s = run(kit_turn(momentum=3), "spend Kit attack", "spend Kit swift", "spend Kit attack")
    assert d20_state(s).fighters["Kit"].majors == 2
    assert pools(s) == (1, 4)
    assert any("Momentum -2" in line.text and "Swift Action" in line.text for line in d20_state(s).log)


def test_s3_5_swift_before_the_first_major() -> None:
    """docs/rules/2d20-turns.md#s3-5-1: the extra Major may be bought before the first one is taken."""
    s = run(kit_turn(momentum=2), "spend Kit swift", "spend Kit attack", "spend Kit recover")
    assert d20_state(s).fighters["Kit"].majors == 2
    assert pools(s) == (0, 4)


def test_s3_5_swift_refused_for_a_pc_without_2_momentum() -> None:
    """docs/rules/2d20.md#s3-0 Swift Action: it costs 2 Momentum; with 1 in the pool it is refused."""
    s = kit_turn(momentum=1)
    refused(s, "spend Kit swift", "Swift Action costs 2 Momentum")


def test_s3_5_npc_swift_spends_2_threat_and_needs_it() -> None:
    """docs/rules/2d20.md#s3-3: NPCs pay Momentum costs from Threat; 2 Threat for a Swift Action, refused below 2."""
    s = run(thug_turn(threat=3), "spend Thug swift", "spend Thug attack", "spend Thug attack")
    assert d20_state(s).fighters["Thug"].majors == 2
    assert pools(s) == (2, 1)
    poor = thug_turn(threat=1)
    refused(poor, "spend Thug swift", "costs 2 Threat")


def test_s3_5_surge_costs_1_fortune_for_another_major() -> None:
    """docs/rules/2d20.md#s3-3 Fortune, Surge of Activity: 1 Fortune for an extra Major Action (logged)."""
    s = run(kit_turn(), "spend Kit attack", "spend Kit surge", "spend Kit attack")
    assert d20_state(s).fighters["Kit"].majors == 2
    assert d20_state(s).fighters["Kit"].fortune == 2
    assert any("Fortune -1 (Surge of Activity): 3 → 2" in line.text for line in d20_state(s).log)


def test_s3_5_surge_refused_without_fortune() -> None:
    """docs/rules/2d20.md#s3-3: Surge of Activity needs 1 Fortune; NPCs have none."""
    s = kit_turn(kit="fortune = 0")
    refused(s, "spend Kit surge", "has no Fortune")
    npc = thug_turn()
    refused(npc, "spend Thug surge", "has no Fortune")


def test_s3_5_never_more_than_2_majors_per_round() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1452], B8, B31: 2 Major Actions a round by any means; once a character can
    reach 2, neither another Swift Action nor a Surge is sold (they would buy nothing)."""
    s = run(kit_turn(momentum=6), "spend Kit attack", "spend Kit swift")
    refused(s, "spend Kit swift", "no more than 2 Major Actions")
    refused(s, "spend Kit surge", "no more than 2 Major Actions")
    run(s, "spend Kit attack")
    refused(s, "spend Kit attack", "2 Major Actions this round")
    refused(s, "spend Kit swift", "no more than 2 Major Actions")
    assert pools(s) == (4, 4)
    assert d20_state(s).fighters["Kit"].fortune == 3


def test_s3_5_swift_and_surge_together_still_cap_at_2() -> None:
    """docs/rules/2d20-turns.md#s3-5-1, B31: buying the extra Major twice in one turn is refused before anything is
    paid."""
    s = run(kit_turn(momentum=6), "spend Kit surge")
    refused(s, "spend Kit swift", "no more than 2 Major Actions")
    assert d20_state(s).momentum == 6


def test_s3_5_majors_reset_each_round() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 round_start: majors_this_round returns to 0 in the next round."""
    s = run(kit_turn(), "spend Kit attack", *ROUND)
    assert d20_state(s).round == 2
    assert d20_state(s).fighters["Kit"].majors == 0
    run(s, "spend Kit attack")
    assert d20_state(s).fighters["Kit"].majors == 1


# --- Minor Actions -------------------------------------------------------------------------------------


def test_s3_5_first_minor_is_free() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1448]: one Minor Action per turn comes with the turn."""
    s = run(kit_turn(), "spend Kit aim")
    assert d20_state(s).fighters["Kit"].minors == ["aim"]
    assert pools(s) == (2, 4)
    assert "Kit: Aim (Minor)" in d20_state(s).log[-1].text


def test_s3_5_extra_minor_costs_1_momentum_for_a_pc() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1483]: each extra Minor costs 1 Momentum (logged)."""
    s = run(kit_turn(momentum=2), "spend Kit aim", "spend Kit draw_item", "spend Kit interact")
    assert d20_state(s).fighters["Kit"].minors == ["aim", "draw_item", "interact"]
    assert pools(s) == (0, 4)
    assert any("Momentum -1" in line.text and "an extra Minor (Draw Item)" in line.text for line in d20_state(s).log)


def test_s3_5_extra_minor_adds_1_threat_for_a_pc_without_momentum() -> None:
    """docs/rules/2d20-turns.md#s3-5-1, docs/rules/2d20.md#s3-3: with an empty Momentum pool a PC's extra Minor adds 1
    Threat instead."""
    s = run(kit_turn(momentum=0, threat=4), "spend Kit aim", "spend Kit prepare")
    assert pools(s) == (0, 5)


def test_s3_5_extra_minor_costs_1_threat_for_an_npc() -> None:
    """docs/rules/2d20-turns.md#s3-5-1, docs/rules/2d20.md#s3-3: an NPC's extra Minor spends 1 Threat; with none left it
    is refused."""
    s = run(thug_turn(threat=1), "spend Thug aim", "spend Thug prepare")
    assert pools(s) == (2, 0)
    refused(s, "spend Thug interact", "an extra Minor costs 1 Threat")


def test_s3_5_each_minor_once_per_turn() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1485]: each Minor type may be used only once per turn, paid or not."""
    s = run(kit_turn(momentum=4), "spend Kit aim")
    refused(s, "spend Kit aim", "already taken Aim this turn")


def test_s3_5_minors_reset_each_turn() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 turn_start: the Minor list starts empty on each of the character's turns."""
    s = run(kit_turn(), "spend Kit aim", *ROUND)
    assert d20_state(s).fighters["Kit"].minors == []
    run(s, "spend Kit aim")
    assert pools(s) == (2, 4)


def test_s3_5_minor_and_major_only_on_own_turn() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1483]: Minor (and Major) Actions never outside the character's own turn."""
    s = kit_turn()
    refused(s, "spend Ada aim", "it is not Ada's turn (Kit is acting)")
    refused(s, "spend Ada attack", "not Ada's turn")
    refused(s, "spend Ada swift", "not Ada's turn")


def test_s3_5_free_actions_on_other_turns() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1511]: Free Actions may be taken on other characters' turns too."""
    s = run(kit_turn(), "spend Ada speak", "spend Kit speak", "spend Kit drop")
    assert d20_state(s).fighters["Ada"].free_actions == 1
    assert d20_state(s).fighters["Kit"].free_actions == 2
    assert pools(s) == (2, 4)


# --- Reach, Movement, Disengage (B22) ------------------------------------------------------------------


def test_s3_5_movement_minor_allowed_with_no_enemy_in_reach() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 Movement: a free Minor when no enemy is within Reach; an ally in Reach does not
    matter."""
    s = run(kit_turn(), "reach Kit Ada", "spend Kit movement")
    assert d20_state(s).fighters["Kit"].minors == ["movement"]


def test_s3_5_movement_minor_refused_within_reach_of_an_enemy() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1494], docs/rules/2d20-combat.md#s3-6, B22: Movement is refused while an
    enemy is within Reach (declared with `reach A B`, same zone); the refusal names the enemy and suggests Disengage."""
    s = run(kit_turn(), "reach Kit Thug")
    assert d20_state(s).reach == [["Kit", "Thug"]]
    refused(s, "spend Kit movement", "within Reach of Thug: Disengage")
    refused(s, "spend Kit move", "Disengage")


def test_s3_5_reach_needs_the_same_zone() -> None:
    """docs/rules/2d20-combat.md#s3-6, B22: Reach is declared within a zone; Boss in zone B cannot be within Kit's
    Reach."""
    s = kit_turn()
    refused(s, "reach Kit Boss", "not in the same zone")
    refused(s, "reach Kit Kit", "its own Reach")
    run(s, "reach Kit Thug")
    refused(s, "reach Thug Kit", "already within Reach")


def test_s3_5_disengage_needs_an_enemy_in_reach() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1490]: Disengage is only for a character within Reach of an enemy."""
    s = run(kit_turn(), "reach Kit Ada")
    refused(s, "spend Kit disengage", "not within Reach of an enemy")


def test_s3_5_disengage_ends_the_enemy_reach_pairs_only() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 Disengage, B22: Disengage leaves every enemy's Reach (Kit–Thug ends) but keeps an
    ally's (Kit–Ada); Movement is then allowed as a paid extra Minor."""
    s = run(kit_turn(momentum=2), "reach Kit Thug", "reach Kit Ada", "spend Kit disengage")
    assert d20_state(s).reach == [["Ada", "Kit"]]
    run(s, "spend Kit movement")
    assert d20_state(s).fighters["Kit"].minors == ["disengage", "movement"]
    assert pools(s) == (1, 4)


def test_s3_5_move_command_refused_within_enemy_reach_in_srd() -> None:
    """docs/rules/2d20-combat.md#s3-6 leaving Reach (SRD), B22: moving out of an enemy's Reach needs Disengage first."""
    s = run(kit_turn(), "reach Kit Thug")
    refused(s, "move Kit B", "Disengage first")
    run(s, "spend Kit disengage", "move Kit B")
    assert d20_state(s).fighters["Kit"].zone == "B"


# --- Drop Prone, Stand, Prone, Rush ---------------------------------------------------------------------


def test_s3_5_drop_prone_and_stand_not_both_in_a_turn() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1492]: Drop Prone and Stand are not both taken in one turn."""
    s = run(kit_turn(momentum=4), "spend Kit drop_prone")
    assert d20_state(s).fighters["Kit"].conditions.get("prone") is True
    refused(s, "spend Kit stand", "not both taken in one turn")


def test_s3_5_stand_then_drop_prone_refused() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1492], docs/rules/2d20-harm.md#s3-11-1: Stand ends Prone; dropping again
    the same turn is refused."""
    s = run(kit_turn(momentum=4, kit="conditions = { prone = true }"), "spend Kit stand")
    assert "prone" not in d20_state(s).fighters["Kit"].conditions
    refused(s, "spend Kit drop_prone", "not both taken in one turn")


def test_s3_5_stand_needs_prone_and_drop_prone_needs_standing() -> None:
    """docs/rules/2d20-harm.md#s3-11-1: Stand only when Prone; Drop Prone only when not."""
    refused(kit_turn(), "spend Kit stand", "is not Prone")
    refused(kit_turn(kit="conditions = { prone = true }"), "spend Kit prone", "already Prone")


def test_s3_5_prone_forbids_movement_majors() -> None:
    """docs/rules/2d20-harm.md#s3-11-1 [004:L1492]: a Prone character takes no movement Major Actions (Rush), but may
    attack."""
    s = kit_turn(kit="conditions = { prone = true }")
    refused(s, "spend Kit rush", "Prone: no movement Major Actions")
    run(s, "spend Kit attack")
    assert d20_state(s).fighters["Kit"].majors == 1


def test_s3_5_infinity_prone_forbids_sprint_and_withdraw() -> None:
    """docs/rules/2d20-turns.md#s3-5-2 with docs/rules/2d20-harm.md#s3-11-2 Prone: Sprint and Withdraw are movement
    Standard Actions."""
    s = kit_turn("infinity", kit="conditions = { prone = true }")
    refused(s, "spend Kit sprint", "Prone")
    refused(s, "spend Kit withdraw", "Prone")


def test_s3_5_rush_once_per_round() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 Rush [004:L1476]: once per Round, even with a Swift Action for a second Major."""
    s = run(kit_turn(momentum=2), "spend Kit rush", "spend Kit swift")
    assert d20_state(s).fighters["Kit"].rush_used
    refused(s, "spend Kit rush", "once per round")
    run(s, "spend Kit attack")


def test_s3_5_rush_not_after_the_movement_minor() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 Rush [004:L1476]: not after the Movement minor."""
    s = run(kit_turn(), "spend Kit movement")
    refused(s, "spend Kit rush", "not after the Movement minor")


def test_s3_5_rush_resets_next_round() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 round_start: rush_used is cleared at the start of each round."""
    s = run(kit_turn(), "spend Kit rush", *ROUND)
    assert not d20_state(s).fighters["Kit"].rush_used
    run(s, "spend Kit rush")


# --- Reactions -------------------------------------------------------------------------------------------


def test_s3_5_srd_one_reaction_per_round_on_others_turns() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1523], B23: a Reaction on another's turn; a second in the round is
    refused."""
    s = run(kit_turn(), "spend Ada hit_the_dirt")
    ada = d20_state(s).fighters["Ada"]
    assert ada.reactions == 1
    assert ada.conditions.get("prone") is True
    assert pools(s) == (2, 4)
    refused(s, "spend Ada hit_the_dirt", "already reacted this round")
    # The SRD's one Reaction is Hit the Dirt (Defence/Guard are Infinity's, docs/rules/2d20-turns.md#s3-5-1 vs
    # docs/rules/2d20-turns.md#s3-5-2).
    run(s, "spend Thug hit_the_dirt")
    refused(s, "spend Thug hit_the_dirt", "already reacted this round")


def test_s3_5_reaction_never_on_own_turn() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1523]: never on one's own turn."""
    refused(kit_turn(), "spend Kit hit_the_dirt", "never taken on one's own turn")


def test_s3_5_srd_reaction_count_is_per_round_not_per_turn() -> None:
    """docs/rules/2d20-turns.md#s3-5-1, docs/rules/2d20-lifecycle.md#s3-13 round_start: the Reaction is spent until the
    next round, then available again."""
    s = run(kit_turn(), "spend Ada hit_the_dirt", "next", "pick Thug")
    refused(s, "spend Ada hit_the_dirt", "already reacted")
    run(s, "next", "pick Ada", "next", "pick Boss", "next", "pick Kit")
    assert d20_state(s).round == 2
    run(s, "spend Ada hit_the_dirt")
    assert d20_state(s).fighters["Ada"].reactions == 1


def test_s3_5_infinity_pc_reactions_add_escalating_heat() -> None:
    """docs/rules/2d20-turns.md#s3-5-2, docs/rules/2d20-lifecycle.md#s3-13, B23: in Infinity a PC's n-th Reaction in the
    round adds n Heat (1, 2, 3)."""
    s = kit_turn("infinity", threat=4)
    run(s, "spend Ada defence")
    assert pools(s) == (2, 5)
    run(s, "spend Ada guard")
    assert pools(s) == (2, 7)
    run(s, "spend Ada defence")
    assert pools(s) == (2, 10)
    assert d20_state(s).fighters["Ada"].reactions == 3
    assert any("Heat +3 (Ada's Reaction #3 this round)" in line.text for line in d20_state(s).log)


def test_s3_5_infinity_npc_reactions_spend_escalating_heat() -> None:
    """docs/rules/2d20-turns.md#s3-5-2, B23: an NPC's n-th Reaction in the round spends n Heat; each NPC counts its
    own."""
    s = kit_turn("infinity", threat=7)
    run(s, "spend Thug defence", "spend Thug defence", "spend Boss retaliate")
    assert pools(s) == (2, 3)
    run(s, "spend Thug return_fire")
    assert pools(s) == (2, 0)


def test_s3_5_infinity_npc_reaction_refused_when_heat_is_short() -> None:
    """docs/rules/2d20-turns.md#s3-5-2, B23: an NPC whose next Reaction costs more Heat than the pool holds is
    refused."""
    s = run(kit_turn("infinity", threat=2), "spend Thug defence")
    assert pools(s) == (2, 1)
    refused(s, "spend Thug defence", "Reaction #2 costs 2 Heat")
    assert d20_state(s).fighters["Thug"].reactions == 1


def test_s3_5_infinity_reaction_costs_restart_each_round() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 round_start, B23: the escalation restarts at 1 in each round."""
    s = run(kit_turn("infinity", threat=4), "spend Ada defence", "spend Ada defence")
    assert d20_state(s).threat == 7
    run(s, *ROUND, "spend Ada defence")
    assert d20_state(s).round == 2
    assert d20_state(s).threat == 8


def test_s3_5_infinity_reaction_never_on_own_turn() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 timing also under Infinity: no Reaction on one's own turn."""
    refused(kit_turn("infinity"), "spend Kit defence", "never taken on one's own turn")


# --- Stunned, Defeated, Undefeated, unconscious -----------------------------------------------------------


def test_s3_5_stunned_takes_no_actions_that_turn() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 turn_start 3: a Stunned character takes no actions that turn (Major, Minor or
    Free); the Stun is spent at its turn end and its next turn is normal."""
    s = run(kit_turn(), "add Thug stunned", "next", "pick Thug")
    assert any("Thug is Stunned: no actions this turn" in line.text for line in d20_state(s).log)
    refused(s, "spend Thug attack", "Stunned")
    refused(s, "spend Thug aim", "Stunned")
    refused(s, "spend Thug speak", "Stunned")
    run(s, "next")
    assert "stunned" not in d20_state(s).fighters["Thug"].conditions
    run(s, "pick Ada", "next", "pick Boss", "next", "pick Kit", "next", "pick Thug", "spend Thug attack")
    assert d20_state(s).fighters["Thug"].majors == 1


def test_s3_5_stunned_character_may_still_react_on_others_turns() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 turn_start 3: the Stun takes that character's own turn only (the SRD's
    Reaction is Hit the Dirt: each profile lists its own actions)."""
    s = run(kit_turn(), "add Thug stunned", "spend Thug hit_the_dirt")
    assert d20_state(s).fighters["Thug"].reactions == 1


def defeated_kit() -> Session:
    """Kit with 2 Wounds takes a third (6 damage, no armour) on his own turn: Defeated and Dying."""
    s = run(kit_turn(kit="harms = { wound = 2 }"), "damage Kit 6")
    assert d20_state(s).fighters["Kit"].defeated
    return s


def test_s3_5_defeated_one_free_action_per_turn_only() -> None:
    """docs/rules/2d20-harm.md#s3-10-2 [004:L1872], docs/rules/2d20-lifecycle.md#s3-13 turn_start 4: a Defeated
    character takes only one Free Action a turn; Major, Minor and Reaction are refused, as is a second Free Action."""
    s = defeated_kit()
    refused(s, "spend Kit attack", "Defeated: one Free Action per turn only")
    refused(s, "spend Kit aim", "Defeated")
    run(s, "spend Kit speak")
    refused(s, "spend Kit shift", "has taken its one Free Action")
    run(s, "next", "pick Thug")
    refused(s, "spend Kit hit_the_dirt", "Defeated")


def test_s3_5_defeated_free_action_renews_each_turn() -> None:
    """docs/rules/2d20-harm.md#s3-10-2 [004:L1872]: the one Free Action is per Turn; it comes back on the next own
    turn."""
    s = run(
        defeated_kit(),
        "spend Kit speak",
        *ROUND,
    )
    assert any("Kit is Defeated: one Free Action this turn" in line.text for line in d20_state(s).log)
    run(s, "spend Kit speak")
    assert d20_state(s).fighters["Kit"].free_actions == 1


def test_s3_5_undefeated_costs_1_fortune() -> None:
    """docs/rules/2d20.md#s3-3 Fortune Undefeated, docs/rules/2d20-harm.md#s3-10-2, B42: 1 Fortune removes Defeated (and
    Dying); the character may then act normally."""
    s = defeated_kit()
    assert d20_state(s).fighters["Kit"].dying
    run(s, "spend Kit undefeated")
    kit = d20_state(s).fighters["Kit"]
    assert (kit.defeated, kit.dying, kit.revived) == (False, False, True)
    assert kit.fortune == 2
    assert state_json(s)["combatants"][0]["status"] == "ok"
    run(s, "spend Kit attack")


def test_s3_5_undefeated_refused_without_fortune_or_defeat() -> None:
    """docs/rules/2d20.md#s3-3: Undefeated needs the character Defeated and 1 Fortune."""
    refused(kit_turn(), "spend Kit undefeated", "not Defeated")
    s = run(kit_turn(kit="harms = { wound = 2 }\nfortune = 0"), "damage Kit 6")
    refused(s, "spend Kit undefeated", "has no Fortune")


def test_s3_5_undefeated_refused_after_voluntary_defeat() -> None:
    """docs/rules/2d20-harm.md#s3-10-2 Voluntary Defeat: no revival by Fortune during the scene."""
    s = run(kit_turn(), "damage Kit 6 yield")
    assert d20_state(s).fighters["Kit"].defeated and d20_state(s).fighters["Kit"].yielded
    refused(s, "spend Kit undefeated", "yielded this scene")


def test_s3_5_unconscious_takes_no_actions() -> None:
    """docs/rules/2d20-harm.md#s3-10-3: Unconscious is like Defeated but with no Free Actions at all."""
    s = kit_turn(thug="conditions = { unconscious = true }")
    refused(s, "spend Thug speak", "unconscious: no actions")
    refused(s, "spend Thug hit_the_dirt", "unconscious")  # the SRD's Reaction (each profile lists its own actions)


def test_s3_5_the_dead_take_no_actions() -> None:
    """docs/rules/2d20-harm.md#s3-10-2: a dead character does nothing (a Wound while Defeated kills)."""
    s = run(kit_turn(thug="harms = { wound = 2 }"), "damage Thug 6", "damage Thug 6")
    assert d20_state(s).fighters["Thug"].dead
    refused(s, "spend Thug defence", "dead")


def test_s3_5_turn_start_resets_the_turn_bookkeeping() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 turn_start: Minors, paid extras, Free Actions and the turn's Major allowance
    start fresh."""
    s = run(
        kit_turn(momentum=6),
        "spend Kit swift",
        "spend Kit aim",
        "spend Kit prepare",
        "spend Kit speak",
        *ROUND,
    )
    kit = d20_state(s).fighters["Kit"]
    assert (kit.minors, kit.extra_minors, kit.free_actions) == ([], 0, 0)
    assert (kit.majors_allowed, kit.majors_turn, kit.majors) == (1, 0, 0)


# --- docs/rules/2d20-turns.md#s3-5-1 / docs/rules/2d20-lifecycle.md#s3-13: Cover and Morale granted by actions --------


def test_s3_5_1_defend_grants_2cd_cover_rolled_in_damage_until_the_actors_next_turn() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 Defend [004:L1489], docs/rules/2d20-lifecycle.md#s3-13 turn_start 1, B18: `spend
    Kit defend Ada` gives Ada +2[CD] Cover, rolled in the resistance of each damage she takes until the start of Kit's
    next turn. Ada is within Kit's Reach, as Defend needs."""
    s = run(kit_turn(), "reach Kit Ada", "spend Kit defend Ada")
    assert [(g.kind, g.dice, g.until) for g in d20_state(s).fighters["Ada"].granted] == [("cover", 2, "Kit")]
    assert "Ada gains +2[CD] Cover until the start of Kit's next turn" in d20_state(s).log[-1].text
    run(s, "damage Ada 3")
    assert "cover incl. +2 Defend 2[CD]" in d20_state(s).log[-1].text
    run(s, "next", "pick Thug", "next", "pick Ada", "next", "pick Boss")
    assert d20_state(s).fighters["Ada"].granted, "still there until Kit's next turn"
    run(s, "next", "pick Kit")
    assert d20_state(s).fighters["Ada"].granted == []
    assert any("Ada's +2[CD] Cover (Defend) ends at the start of Kit's turn" in e.text for e in d20_state(s).log)


def test_s3_5_1_bolster_grants_2cd_morale_against_mental_damage() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 Bolster [004:L1488]: +2[CD] Morale, rolled against mental damage only."""
    s = run(kit_turn(), "spend Kit bolster", "damage Kit 2")
    assert "morale" not in d20_state(s).log[-1].text
    run(s, "damage Kit 2 mental")
    assert "morale incl. +2 Bolster 2[CD]" in d20_state(s).log[-1].text


def test_s3_5_1_hit_the_dirt_grants_cover_and_morale_until_its_next_turn() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 Hit the Dirt [004:L1529]: Prone, +2[CD] Cover and +2[CD] Morale until the start
    of the character's own next turn."""
    s = run(kit_turn(), "spend Thug hit_the_dirt")
    thug = d20_state(s).fighters["Thug"]
    assert thug.conditions.get("prone") is True
    assert sorted(g.kind for g in thug.granted) == ["cover", "morale"]
    run(s, "damage Thug 4")
    assert "cover incl. +2 Hit the Dirt 2[CD]" in d20_state(s).log[-1].text


def test_s3_5_1_defend_refuses_an_enemy() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 Defend [004:L1489]: oneself or an ally; an enemy is refused and nothing
    changes."""
    refused(kit_turn(), "spend Kit defend Thug", "enemy")


# --- Infinity's Staggered Reactions, Free Drop Prone, no Disengage ---------------------------------------


def test_s3_5_2_b23_staggered_reaction_costs_an_infinity_point_as_well_as_heat() -> None:
    """docs/rules/2d20-turns.md#s3-5-2, B23 [003:L444-446]: a Staggered PC's Reaction costs an Infinity Point on top of
    the Heat; with no Infinity Point it is refused and nothing changes. A Staggered NPC pays 1 more Heat."""
    s = kit_turn("infinity", threat=4)
    run(s, "add Ada staggered")
    refused(s, "spend Ada defence", "Staggered: a Reaction also costs 1 Infinity Point")
    run(s, "fortune Ada +1", "spend Ada defence")
    assert d20_state(s).fighters["Ada"].fortune == 0
    assert pools(s) == (2, 5), "the Heat cost is paid as well"
    run(s, "add Thug staggered", "spend Thug defence")
    assert pools(s) == (2, 3), "1 Heat for the Reaction and 1 for being Staggered"


def test_s3_5_2_drop_prone_is_free_and_may_be_followed_by_stand_under_infinity() -> None:
    """docs/rules/2d20-turns.md#s3-5-2 [003:L171-176, L226]: Drop Prone is a Free Action under Infinity (taken even on
    another's turn), and the SRD's "not Drop Prone and Stand in one turn" does not apply."""
    s = kit_turn("infinity")
    run(s, "spend Ada drop-prone")
    assert d20_state(s).fighters["Ada"].conditions.get("prone") is True
    assert "(Free)" in d20_state(s).log[-1].text
    run(s, "spend Kit drop-prone", "spend Kit stand")
    assert not d20_state(s).fighters["Kit"].conditions.get("prone")
    s2 = kit_turn()
    run(s2, "spend Kit drop-prone")
    refused(s2, "spend Kit stand", "not both taken in one turn")


def test_s3_5_2_b22_no_disengage_under_infinity_leaving_reach_provokes_retaliate() -> None:
    """docs/rules/2d20-turns.md#s3-5-2, B22 [003:L567-570]: there is no Disengage under Infinity; the Movement minor may
    leave an enemy's Reach and the log says Retaliate may follow; Withdraw leaves without provoking it."""
    s = run(kit_turn("infinity"), "reach Kit Thug")
    refused(s, "spend Kit disengage", "no action named 'disengage'")
    run(s, "spend Kit movement")
    assert d20_state(s).reach == []
    assert "Retaliate may follow" in d20_state(s).log[-1].text
    s2 = run(kit_turn("infinity"), "reach Kit Thug", "spend Kit withdraw")
    assert d20_state(s2).reach == []
    assert any("without provoking Retaliate" in e.text for e in d20_state(s2).log)
    refused(run(kit_turn(), "reach Kit Thug"), "spend Kit movement", "Disengage instead")


# --- `move` checks distance and state (docs/rules/2d20-combat.md#s3-6) ------------------------------------------------


def _line(profile: str = "srd", kit: str = "") -> Session:
    """Kit's turn on a line of zones A - B - C - D (Kit, Ada and Thug in A)."""
    text = encounter(profile, kit=kit, row=("A", "B", "C", "D"))
    return run(session_from(text), "start", "pick Kit")


def test_s3_6_move_within_the_movement_minor_is_quiet_two_zones_warn() -> None:
    """docs/rules/2d20-combat.md#s3-6 [004:L1494]: the Movement minor reaches Medium range (one zone over): `move` after
    it is quiet; a second zone with no action for it is logged as a warning (the GM may allow it); moving with
    no movement action at all warns too."""
    s = run(_line(), "spend Kit movement", "move Kit B")
    assert "Warning" not in d20_state(s).log[-1].text
    run(s, "move Kit C")
    assert "Warning: Kit moves 1 zone but its movement actions this turn allow 0" in d20_state(s).log[-1].text
    s2 = run(_line(), "move Kit C")
    assert "Warning: Kit moves 2 zones" in d20_state(s2).log[-1].text


def test_s3_6_move_hindered_moves_one_zone_fewer() -> None:
    """docs/rules/2d20-harm.md#s3-11 Hindered ("moves one zone fewer"): after the Movement minor a Hindered character's
    move of one zone is a warning."""
    s = run(_line(kit="conditions = { hindered = true }"), "spend Kit movement", "move Kit B")
    assert "Hindered: one zone fewer" in d20_state(s).log[-1].text


def test_s3_6_infinity_sprint_covers_long_range_extreme_is_refused() -> None:
    """docs/rules/2d20-combat.md#s3-6 [003:L573-584]: under Infinity Sprint reaches Long range (two zones) quietly;
    Extreme range (three zones) cannot be reached in a single action: refused, nothing changes. Prone counts as
    Hindered under Infinity."""
    s = _line("infinity")
    refused(s, "move Kit D", "Extreme range is not reached in a single action")
    run(s, "spend Kit sprint", "move Kit C")
    assert "Warning" not in d20_state(s).log[-1].text
    s2 = run(_line("infinity"), "spend Kit drop-prone", "spend Kit movement", "move Kit B")
    assert "Hindered" in d20_state(s2).log[-1].text


def test_s3_6_infinity_sprint_adds_one_difficulty_until_the_next_turn_in_the_range_report() -> None:
    """docs/rules/2d20-turns.md#s3-5-2 Sprint [003:L579-581]: after a Sprint the character's tests are +1 Difficulty
    until its next turn starts; the Zones panel's range report adds it, and it is gone once that turn opens."""
    from tracker.families.twod20 import turns
    from tracker.families.twod20.engine import range_report

    def difficulty(report: str) -> int:
        return int(report.split("Difficulty ")[1].split(" ")[0])

    plain = range_report(d20(_line("infinity")), "Kit", "Thug", "close")
    s = run(_line("infinity"), "spend Kit sprint")
    report = range_report(d20(s), "Kit", "Thug", "close")
    assert "Sprinted (until its next turn) +1" in report
    assert difficulty(report) == difficulty(plain) + 1
    turns.open_turn(d20(s), "Kit")  # Kit's next turn starts
    assert range_report(d20(s), "Kit", "Thug", "close") == plain


def test_s3_11_dazed_adds_one_to_the_attackers_difficulty_in_the_range_report() -> None:
    """docs/rules/2d20-harm.md#s3-11 Dazed [003:L413]: +1 Difficulty to the Dazed character's tests, shown in the range
    report."""
    from tracker.families.twod20.engine import range_report

    def difficulty(report: str) -> int:
        return int(report.split("Difficulty ")[1].split(" ")[0])

    s = _line("infinity")
    plain = range_report(d20(s), "Kit", "Thug", "close")
    run(s, "add Kit dazed")
    report = range_report(d20(s), "Kit", "Thug", "close")
    assert "Dazed +1" in report and difficulty(report) == difficulty(plain) + 1
