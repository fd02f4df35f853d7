"""docs/rules/ttb-turns.md#s2-4 (Action Points: 2 General + 1 Combat, Fast, Slow, Paralyzed, Unconscious, Combat AP
first, Quick Action) and the scenario checks C17 (AP side) and C27 of docs/rules/checks.md#s4."""

from __future__ import annotations

from tests.conftest import refused, run, session_from, ttb_state
from tracker.families.session import Session
from tracker.families.snapshot import state_json


def solo(extra: str = "", settings: str = "", rank_value: int = 5, fate_points: int | None = None) -> Session:
    """One FM character who acts first, then a second one, so `next` gives a fresh turn each time."""
    fp = "" if fate_points is None else f"fate_points = {fate_points}"
    return session_from(
        f"""
        [[combatants]]
        name = "Hero"
        rank_value = {rank_value}
        initiative = 9
        wounds = 10
        {fp}
        {extra}

        [[combatants]]
        name = "Other"
        rank_value = 1
        initiative = 0
        wounds = 10
        """,
        settings=settings,
    )


def ap(s: Session, name: str = "Hero") -> tuple[int, int]:
    f = ttb_state(s).fighters[name]
    return f.ap, f.combat_ap


# --- generation at turn start ----------------------------------------------------------------


def test_turn_starts_with_two_general_and_one_combat_ap() -> None:
    """docs/rules/ttb-turns.md#s2-4: 2 General AP and 1 Combat AP per turn; the JSON reports both."""
    s = solo()
    run(s, "start")
    assert ap(s) == (2, 1)
    hero = state_json(s)["combatants"][0]
    assert (hero["ap"], hero["combat_ap"]) == (2, 1)


def test_ap_is_zero_outside_the_characters_turn() -> None:
    """docs/rules/ttb-turns.md#s2-4 and CONTRACT docs/rules/checks.md#s4: `ap` is the AP left this turn, 0 outside
    it."""
    s = solo()
    run(s, "start")
    assert ap(s, "Other") == (0, 0)
    run(s, "next")
    assert ap(s) == (0, 0)
    assert ap(s, "Other") == (2, 1)


def test_unspent_ap_does_not_carry_over() -> None:
    """docs/rules/ttb-turns.md#s2-4: unspent AP of either kind is lost; the next turn generates 2 + 1 again."""
    s = solo()
    run(s, "start", "next", "next")
    assert ttb_state(s).round == 2
    assert ap(s) == (2, 1)


def test_fast_gives_three_general_ap() -> None:
    """docs/rules/ttb-turns.md#s2-4: Fast adds 1 General AP at turn start (Combat AP unchanged)."""
    s = solo("conditions = { fast = true }")
    run(s, "start")
    assert ap(s) == (3, 1)


def test_slow_gives_one_general_ap() -> None:
    """docs/rules/ttb-turns.md#s2-4: Slow removes 1 General AP at turn start (Combat AP unchanged)."""
    s = solo("conditions = { slow = true }")
    run(s, "start")
    assert ap(s) == (1, 1)


def test_slow_never_goes_below_one_general_ap() -> None:
    """docs/rules/ttb-turns.md#s2-4: with Slow, General AP is at least 1 (here base 1 − 1 stays 1)."""
    s = solo("base_general_ap = 1\nconditions = { slow = true }")
    run(s, "start")
    assert ap(s) == (1, 1)


def test_fast_and_slow_held_together_cancel() -> None:
    """docs/rules/ttb-turns.md#s2-4 and docs/rules/ttb-conditions.md#s2-7-1 (docs/rules/decisions.md#a12): gaining Slow
    while Fast removes both: 2 General AP."""
    s = solo()
    run(s, "add Hero fast", "add Hero slow", "start")
    assert "fast" not in ttb_state(s).fighters["Hero"].conditions
    assert ap(s) == (2, 1)


def test_paralyzed_character_gets_no_ap_and_cannot_act() -> None:
    """docs/rules/ttb-turns.md#s2-4: a Paralyzed character generates 0 General and 0 Combat AP and declares nothing."""
    s = solo("conditions = { paralyzed = true }")
    run(s, "start")
    assert ttb_state(s).active == "Hero"
    assert ap(s) == (0, 0)
    refused(s, "spend Hero strike")
    refused(s, "spend Hero pass")


def test_unconscious_character_gets_no_ap_and_cannot_act() -> None:
    """docs/rules/ttb-turns.md#s2-4: an Unconscious character generates 0 AP of either kind and takes no action."""
    s = solo("conditions = { unconscious = true }")
    run(s, "start")
    assert ap(s) == (0, 0)
    refused(s, "spend Hero walk")
    assert state_json(s)["combatants"][0]["status"] == "unconscious"


def test_combat_ap_setting_zero() -> None:
    """docs/rules/ttb-turns.md#s2-4 (docs/rules/decisions.md#a4): a table may set combat_ap = 0; Strike is then paid
    with General AP."""
    s = solo(settings="combat_ap = 0")
    run(s, "start")
    assert ap(s) == (2, 0)
    run(s, "spend Hero strike")
    assert ap(s) == (1, 0)


# --- changes during the turn -------------------------------------------------------------------


def test_fast_gained_mid_turn_adds_one_general_ap_at_once() -> None:
    """docs/rules/ttb-turns.md#s2-4: Fast gained during the turn gives +1 General AP immediately (never Combat AP)."""
    s = solo()
    run(s, "start", "spend Hero walk", "add Hero fast")
    assert ap(s) == (2, 1)


def test_slow_gained_mid_turn_removes_one_general_ap_if_any() -> None:
    """docs/rules/ttb-turns.md#s2-4: Slow gained during the turn removes 1 General AP if any remains; Combat AP
    stays."""
    s = solo()
    run(s, "start", "add Hero slow")
    assert ap(s) == (1, 1)


def test_slow_gained_mid_turn_with_no_general_ap_leaves_combat_ap() -> None:
    """docs/rules/ttb-turns.md#s2-4: Slow with no General AP left takes nothing; Combat AP is unaffected."""
    s = solo()
    run(s, "start", "spend Hero walk", "spend Hero walk", "add Hero slow")
    assert ap(s) == (0, 1)


def test_paralyzed_mid_turn_ends_the_turn_and_loses_ap() -> None:
    """docs/rules/ttb-turns.md#s2-4 (C10): Paralyzed gained mid-turn ends the turn at once; unspent AP of both kinds
    is lost and the next character's turn starts; Paralyzed is removed at that turn end."""
    s = solo()
    run(s, "start", "spend Hero walk", "add Hero paralyzed")
    assert ap(s) == (0, 0)
    assert ttb_state(s).active == "Other"
    assert ttb_state(s).fighters["Hero"].acted
    assert "paralyzed" not in ttb_state(s).fighters["Hero"].conditions


# --- paying: Combat AP first, General only for the rest ----------------------------------------


def test_combat_action_spends_combat_ap_first() -> None:
    """docs/rules/ttb-turns.md#s2-4 and docs/rules/ttb-turns.md#s2-5: Strike (Combat, 1 AP) takes the Combat AP; the
    next Strike takes General."""
    s = solo()
    run(s, "start", "spend Hero strike")
    assert ap(s) == (2, 0)
    run(s, "spend Hero strike")
    assert ap(s) == (1, 0)
    run(s, "spend Hero strike")
    assert ap(s) == (0, 0)
    refused(s, "spend Hero strike")


def test_charge_costs_one_combat_and_one_general_ap() -> None:
    """docs/rules/ttb-turns.md#s2-4: Charge (2 AP, Combat) costs 1 Combat + 1 General AP."""
    s = solo()
    run(s, "start", "spend Hero charge Other")
    assert ap(s) == (1, 0)


def test_non_combat_actions_cannot_use_combat_ap() -> None:
    """docs/rules/ttb-turns.md#s2-4: Movement, Tactical and Condition actions are paid with General AP only."""
    s = solo()
    run(s, "start", "spend Hero walk", "spend Hero focus")
    assert ap(s) == (0, 1)
    refused(s, "spend Hero walk")
    refused(s, "spend Hero pass")
    run(s, "spend Hero strike")
    assert ap(s) == (0, 0)


def test_run_costs_two_general_ap() -> None:
    """docs/rules/ttb-turns.md#s2-4 and docs/rules/ttb-turns.md#s2-5: Run costs 2 General AP and never touches Combat
    AP."""
    s = solo()
    run(s, "start", "spend Hero run")
    assert ap(s) == (0, 1)


def test_wait_for_a_combat_action_is_paid_with_general_ap_only() -> None:
    """docs/rules/ttb-turns.md#s2-4 and docs/rules/ttb-turns.md#s2-5: Wait is paid with General AP even when its named
    action is Combat."""
    s = solo()
    run(s, "start", "spend Hero wait strike")
    assert ap(s) == (0, 1)


def test_action_costing_more_than_left_is_refused() -> None:
    """docs/rules/ttb-turns.md#s2-4: an action needing more AP than the character has is refused (state unchanged)."""
    s = solo("conditions = { slow = true }")
    run(s, "start")
    refused(s, "spend Hero run")
    refused(s, "spend Hero doctor Other")


def test_spend_out_of_turn_is_refused() -> None:
    """docs/rules/ttb-turns.md#s2-4: AP are spent on the character's own turn."""
    s = solo()
    run(s, "start")
    refused(s, "spend Other walk")


def test_C17_combat_ap_cannot_pay_for_defensive_stance() -> None:
    """docs/rules/checks.md#c17 (AP part): a Fast character with 3 General + 1 Combat AP spends all 3 General AP
    on Defensive Stance; its Combat AP stays unspent and cannot pay for a 4th point."""
    s = solo("conditions = { fast = true }", fate_points=1)
    run(s, "start")
    assert ap(s) == (3, 1)
    refused(s, "spend Hero defensive 4")
    run(s, "spend Hero defensive 3")
    assert ap(s) == (0, 1)
    assert ttb_state(s).fighters["Hero"].conditions["defensive"] == 3


# --- Quick Action (docs/rules/ttb-turns.md#s2-4, docs/rules/ttb-damage.md#s2-10) and C27 ------------------------------


def test_C27_quick_action_once_per_turn() -> None:
    """docs/rules/checks.md#c27 (docs/rules/ttb-turns.md#s2-4 Quick Action, docs/rules/ttb-damage.md#s2-10): a
    non-subordinate Enforcer with 2 FP uses Quick Action: 3 General AP, still 1 Combat AP, 1 FP; a second Quick Action
    this turn is refused."""
    s = solo(rank_value=7)
    run(s, "start")
    assert ttb_state(s).fighters["Hero"].fate_points == 2
    run(s, "spend Hero quick-action")
    assert ap(s) == (3, 1)
    assert ttb_state(s).fighters["Hero"].fate_points == 1
    refused(s, "spend Hero quick-action")


def test_C27_quick_action_available_again_next_turn() -> None:
    """docs/rules/checks.md#c27 and docs/rules/ttb-damage.md#s2-10: "once per turn" resets at the character's next
    turn."""
    s = solo(rank_value=7)
    run(s, "start", "spend Hero quick-action", "next", "next")
    assert ttb_state(s).active == "Hero"
    run(s, "spend Hero quick-action")
    assert ap(s) == (3, 1)
    assert ttb_state(s).fighters["Hero"].fate_points == 0


def test_C27_subordinate_enforcer_cannot_use_quick_action() -> None:
    """docs/rules/checks.md#c27 and docs/rules/ttb-damage.md#s2-10: a subordinate Enforcer may not use Fate Point
    abilities."""
    s = solo("subordinate = true", rank_value=8)
    run(s, "start")
    refused(s, "spend Hero quick-action")


def test_C27_minion_cannot_use_quick_action() -> None:
    """docs/rules/checks.md#c27 and docs/rules/ttb-damage.md#s2-10: a Minion (1 FP) is below Enforcer and may not Quick
    Action."""
    s = solo(rank_value=6)
    run(s, "start")
    assert ttb_state(s).fighters["Hero"].fate_points == 1
    refused(s, "spend Hero quick-action")


def test_C27_minion_spends_its_fate_point_instead_of_a_discard() -> None:
    """docs/rules/checks.md#c27 and docs/rules/ttb-damage.md#s2-10 (docs/rules/decisions.md#a31): a Minion that must
    discard a card for Defensive Stance pays its 1 Fate Point instead; with no Fate Point left the stance is refused."""
    s = solo(rank_value=5)
    run(s, "start", "spend Hero defensive 1")
    hero = ttb_state(s).fighters["Hero"]
    assert hero.fate_points == 0
    assert hero.conditions["defensive"] == 1
    refused(s, "spend Hero defensive 1")


def test_quick_action_refused_without_fate_points() -> None:
    """docs/rules/ttb-damage.md#s2-10: Quick Action costs 1 Fate Point."""
    s = solo(rank_value=9, fate_points=0)
    run(s, "start")
    refused(s, "spend Hero quick-action")


def test_quick_action_refused_out_of_turn() -> None:
    """docs/rules/ttb-turns.md#s2-4: Quick Action gives +1 General AP *that turn*: only on the character's turn."""
    s = solo(rank_value=9)
    run(s, "start", "next")
    refused(s, "spend Hero quick-action")


def test_quick_action_refused_for_fated() -> None:
    """docs/rules/ttb-damage.md#s2-10: Fate Point abilities are Fatemaster-character abilities."""
    s = session_from("""
        [[combatants]]
        name = "Sofia"
        kind = "fated"
        wounds = 8
        hand = []
    """)
    run(s, "start")
    refused(s, "spend Sofia quick-action")
