"""docs/rules/ttb-turns.md#s2-5 (action catalogue, costs and legality), docs/rules/ttb-damage.md#s2-9 (engagement and
disengaging strikes), docs/rules/ttb-damage.md#s2-10 (Fatemaster Fate Points) and the scenario checks C17 and C26 of
docs/rules/checks.md#s4."""

from __future__ import annotations

import pytest

from tests.conftest import pending, refused, run, session_from, ttb_state
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.ttb.fate.cards import net_modifier
from tracker.families.ttb.tables.actions import ACTIONS


def ap(s: Session, name: str) -> tuple[int, int]:
    f = ttb_state(s).fighters[name]
    return f.ap, f.combat_ap


def duo(hero: str = "", other: str = "", hero_kind: str = "rank_value = 5", other_side: str = "rivals") -> Session:
    """Hero acts first, Other second (an enemy on another side); FM Minions unless told otherwise."""
    return session_from(f"""
        [[combatants]]
        name = "Hero"
        {hero_kind}
        initiative = 9
        wounds = 10
        {hero}

        [[combatants]]
        name = "Other"
        side = "{other_side}"
        rank_value = 5
        initiative = 0
        wounds = 10
        {other}
    """)


# --- docs/rules/ttb-turns.md#s2-5 catalogue costs ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "cost", "category"),
    [
        ("walk", 1, "movement"),
        ("run", 2, "movement"),
        ("drop_prone", 1, "movement"),
        ("stand_up", 1, "movement"),
        ("assist", 1, "tactical"),
        ("focus", 1, "tactical"),
        ("impose", 1, "tactical"),
        ("order", 1, "tactical"),
        ("pass", 1, "tactical"),
        ("ready", 1, "tactical"),
        ("trick", 1, "tactical"),
        ("strike", 1, "combat"),
        ("shoot", 1, "combat"),
        ("charge", 2, "combat"),
        ("show", 1, "combat"),
        ("reduce_burning", 1, "condition"),
        ("doctor", 2, "condition"),
    ],
)
def test_catalogue_costs_and_categories(action: str, cost: int, category: str) -> None:
    """docs/rules/ttb-turns.md#s2-5 table: each action's AP cost and category (which decides what pays,
    docs/rules/ttb-turns.md#s2-4)."""
    assert ACTIONS[action].cost == cost
    assert ACTIONS[action].category == category


@pytest.mark.parametrize(
    ("line", "left"),
    [
        ("walk", (1, 1)),
        ("run", (0, 1)),
        ("drop-prone", (1, 1)),
        ("focus", (1, 1)),
        ("pass", (1, 1)),
        ("ready", (1, 1)),
        ("strike", (2, 0)),
        ("shoot", (2, 0)),
        ("show Other", (2, 0)),
        ("charge Other", (1, 0)),
    ],
)
def test_spending_an_action_pays_its_cost(line: str, left: tuple[int, int]) -> None:
    """docs/rules/ttb-turns.md#s2-5 and docs/rules/ttb-turns.md#s2-4: spending an action takes its AP (Combat actions
    take Combat AP first)."""
    s = duo()
    run(s, "start", f"spend Hero {line}")
    assert ap(s, "Hero") == left


def test_variable_cost_actions_need_a_number() -> None:
    """docs/rules/ttb-turns.md#s2-5: Defensive Stance and Cast Spell cost "#": the AP must be given (at least 1)."""
    s = duo()
    run(s, "start")
    refused(s, "spend Hero defensive")
    refused(s, "spend Hero cast 0")
    run(s, "spend Hero cast 2")
    assert ap(s, "Hero") == (0, 1)


def test_drop_prone_and_stand_up() -> None:
    """docs/rules/ttb-turns.md#s2-5: Drop Prone (1 AP) makes the character Prone; Stand Up (1 AP) ends it; Stand Up is
    refused when not Prone."""
    s = duo()
    run(s, "start")
    refused(s, "spend Hero stand-up")
    run(s, "spend Hero drop-prone")
    assert ttb_state(s).fighters["Hero"].conditions.get("prone") is True
    refused(s, "spend Hero drop-prone")
    run(s, "spend Hero stand-up")
    assert "prone" not in ttb_state(s).fighters["Hero"].conditions
    assert ap(s, "Hero") == (0, 1)


# --- legality: engagement, useless leg, Charge -- ----------------------------------------------


def test_engaged_character_cannot_shoot_or_charge() -> None:
    """docs/rules/ttb-turns.md#s2-5 Charge and docs/rules/ttb-damage.md#s2-9: an engaged character may not make
    projectile attacks nor Charge; once disengaged it may."""
    s = duo()
    run(s, "start", "engage Hero Other")
    refused(s, "spend Hero shoot")
    refused(s, "spend Hero charge Other")
    run(s, "spend Hero strike")
    run(s, "disengage Hero Other", "spend Hero shoot")
    assert ap(s, "Hero") == (1, 0)


def test_engagement_needs_an_enemy_able_to_attack() -> None:
    """docs/rules/ttb-damage.md#s2-9 (docs/rules/decisions.md#a21): an enemy without a readied melee weapon, or a
    Paralyzed one, does not engage: shooting is allowed."""
    s = duo(other="melee_range = 0")
    run(s, "start", "engage Hero Other", "spend Hero shoot")
    assert ap(s, "Hero") == (2, 0)
    s = duo(other="conditions = { paralyzed = true }")
    run(s, "start", "engage Hero Other", "spend Hero shoot")
    assert ap(s, "Hero") == (2, 0)


def test_allies_do_not_engage() -> None:
    """docs/rules/ttb-damage.md#s2-9: engagement is with an *enemy*: `engage` of two allies is refused with the reason,
    and the ally does not stop shooting."""
    s = duo(other_side="fatemaster")
    run(s, "start")
    err = refused(s, "engage Hero Other")
    assert "same side" in str(err)
    run(s, "spend Hero shoot")
    assert ap(s, "Hero") == (2, 0)


def test_useless_leg_forbids_run_and_charge_not_walk() -> None:
    """docs/rules/ttb-turns.md#s2-5 Charge and docs/rules/ttb-conditions.md#s2-7-2 Useless Limb (leg): no Run, no
    Charge; Walk is still allowed."""
    s = duo(hero="conditions = { useless_leg = true }")
    run(s, "start")
    refused(s, "spend Hero run")
    refused(s, "spend Hero charge Other")
    run(s, "spend Hero walk")
    assert ap(s, "Hero") == (1, 1)


def test_charge_dashes_means_no_charge() -> None:
    """docs/rules/ttb-turns.md#s2-5 Charge: a character with Charge `--` cannot Charge."""
    s = duo(hero='charge = "--"')
    run(s, "start")
    err = refused(s, "spend Hero charge Other")
    assert "--" in str(err)


def test_charge_needs_a_target_and_engages_it() -> None:
    """docs/rules/ttb-turns.md#s2-5 Charge: the charger ends with the target in melee range (now engaged)."""
    s = duo()
    run(s, "start")
    refused(s, "spend Hero charge")
    refused(s, "spend Hero charge Hero")
    run(s, "spend Hero charge Other")
    assert ["Hero", "Other"] in ttb_state(s).engagements
    assert state_json(s)["combatants"][0]["engaged_with"] == ["Other"]


def test_swimming_character_cannot_charge() -> None:
    """docs/rules/ttb-turns.md#s2-5 Charge and docs/rules/ttb-turns.md#s2-6: no Charge while swimming."""
    s = duo(hero="conditions = { swimming = true }")
    run(s, "start")
    refused(s, "spend Hero charge Other")


# --- Order (docs/rules/ttb-turns.md#s2-3-7, docs/rules/ttb-turns.md#s2-5, docs/rules/decisions.md#a18) ----------------

ORDER = """
[[combatants]]
name = "Boss"
rank_value = 7
initiative = 5
wounds = 10

[[combatants]]
name = "Sofia"
kind = "fated"
initiative = 3
wounds = 8
hand = []

[[combatants]]
name = "Goon"
rank_value = 5
initiative = {goon_init}
wounds = 6
subordinate = true
controller = "Boss"

[[combatants]]
name = "Free"
rank_value = 5
initiative = -5
wounds = 6
"""


def test_order_subordinate_acts_right_after_and_only_once() -> None:
    """docs/rules/ttb-turns.md#s2-3-7 and docs/rules/ttb-turns.md#s2-5 Order (docs/rules/decisions.md#a18): the Ordered
    subordinate takes its turn right after the ordering character, and that turn replaces its normal one this round."""
    s = session_from(ORDER.format(goon_init=0))
    run(s, "initiative Sofia 5", "start")
    assert ttb_state(s).order == ["Boss", "Sofia", "Goon", "Free"]
    run(s, "spend Boss order Goon")
    assert ap(s, "Boss") == (1, 1)
    run(s, "next")
    assert ttb_state(s).active == "Goon"
    assert ap(s, "Goon") == (2, 1)
    run(s, "next")
    assert ttb_state(s).active == "Sofia"
    run(s, "next")
    assert ttb_state(s).active == "Free"
    run(s, "next")
    assert ttb_state(s).round == 2
    assert ttb_state(s).active == "Boss"


def test_order_refused_for_an_already_acted_subordinate() -> None:
    """docs/rules/ttb-turns.md#s2-5 Order (docs/rules/decisions.md#a18): a subordinate that already acted this round
    cannot be Ordered."""
    s = session_from(ORDER.format(goon_init=9))
    run(s, "initiative Sofia 5", "start")
    assert ttb_state(s).active == "Goon"
    run(s, "next")
    assert ttb_state(s).active == "Boss"
    refused(s, "spend Boss order Goon")


def test_order_refused_for_a_non_subordinate_or_another_controllers_subordinate() -> None:
    """docs/rules/ttb-turns.md#s2-5 Order: only a subordinate may be Ordered, and (when a controller is named) only by
    its controller."""
    s = session_from(ORDER.format(goon_init=0))
    run(s, "initiative Sofia 13", "start")
    assert ttb_state(s).active == "Sofia"
    refused(s, "spend Sofia order Goon")
    run(s, "next")
    assert ttb_state(s).active == "Boss"
    refused(s, "spend Boss order Free")


# --- Wait (docs/rules/ttb-turns.md#s2-3-6, docs/rules/ttb-turns.md#s2-5, docs/rules/decisions.md#a17) -----------------


def test_wait_costs_the_named_action_plus_one() -> None:
    """docs/rules/ttb-turns.md#s2-5 Wait (docs/rules/decisions.md#a17): Wait costs the named action's AP + 1, paid at
    declaration."""
    s = duo()
    run(s, "start", "spend Hero wait walk")
    assert ap(s, "Hero") == (0, 1)
    assert ttb_state(s).fighters["Hero"].wait == "walk"
    assert state_json(s)["combatants"][0]["conditions"]["waiting"] == "walk"


def test_wait_for_a_two_ap_action_needs_three_general_ap() -> None:
    """docs/rules/decisions.md#a17: with 2 General AP only 1-AP actions can be Waited; Fast makes Run possible."""
    s = duo()
    run(s, "start")
    refused(s, "spend Hero wait run")
    s = duo(hero="conditions = { fast = true }")
    run(s, "start", "spend Hero wait run")
    assert ap(s, "Hero") == (0, 1)


def test_wait_needs_a_named_action_that_is_not_wait_or_fate() -> None:
    """docs/rules/ttb-turns.md#s2-5 Wait: the character declares an action to Wait for."""
    s = duo()
    run(s, "start")
    refused(s, "spend Hero wait")
    refused(s, "spend Hero wait wait")
    refused(s, "spend Hero wait nonsense")


def test_wait_triggers_out_of_turn_without_further_cost() -> None:
    """docs/rules/ttb-turns.md#s2-3-6: when the event happens before the Waiting character's next turn, it takes the
    named action at once (already paid); the Wait is used up."""
    s = duo()
    run(s, "start", "spend Hero wait strike", "next")
    assert ttb_state(s).active == "Other"
    before = ap(s, "Other")
    run(s, "spend Hero strike")
    assert ttb_state(s).fighters["Hero"].wait is None
    assert ap(s, "Hero") == (0, 0)
    assert ap(s, "Other") == before
    assert ttb_state(s).active == "Other"
    refused(s, "spend Hero strike")


def test_waiting_character_may_not_take_another_action_out_of_turn() -> None:
    """docs/rules/ttb-turns.md#s2-3-6: only the named action may be taken out of turn."""
    s = duo()
    run(s, "start", "spend Hero wait strike", "next")
    refused(s, "spend Hero walk")


def test_wait_lapses_at_the_next_turn_start_without_refund() -> None:
    """docs/rules/ttb-turns.md#s2-3-6: an untriggered Wait lapses at the character's next turn start, no refund."""
    s = duo()
    run(s, "start", "spend Hero wait strike", "next", "next")
    assert ttb_state(s).active == "Hero"
    assert ttb_state(s).fighters["Hero"].wait is None
    assert ap(s, "Hero") == (2, 1)
    assert any("lapses" in line.text for line in ttb_state(s).log)


def test_wait_trigger_refused_when_the_action_became_illegal() -> None:
    """docs/rules/ttb-turns.md#s2-3-6: the named action is taken only if still legal (here a Wait to shoot when the
    character is now engaged); the Wait stays unused and lapses at its next turn."""
    s = duo()
    run(s, "start", "spend Hero wait shoot", "next", "engage Hero Other")
    refused(s, "spend Hero shoot")
    run(s, "next")
    assert ttb_state(s).fighters["Hero"].wait is None


def test_wait_trigger_refused_while_paralyzed() -> None:
    """docs/rules/ttb-turns.md#s2-3-6: a Paralyzed character cannot take its Waited action."""
    s = duo()
    run(s, "start", "spend Hero wait strike", "next", "add Hero paralyzed")
    refused(s, "spend Hero strike")


def test_triggered_wait_counts_the_ap_paid_for_the_named_action() -> None:
    """docs/rules/ttb-turns.md#s2-3-6 and docs/rules/ttb-turns.md#s2-5 Defensive Stance: a Wait for `defensive 2` costs
    3 General AP; when it triggers, the stance is Defensive +2 (the AP spent on it), paid with 1 Fate Point for a FM."""
    s = duo(hero="conditions = { fast = true }\nfate_points = 2")
    run(s, "start", "spend Hero wait defensive 2")
    assert ap(s, "Hero") == (0, 1)
    run(s, "next", "spend Hero defensive")
    hero = ttb_state(s).fighters["Hero"]
    assert hero.conditions["defensive"] == 2
    assert hero.fate_points == 1
    assert hero.wait is None


# --- Reload (docs/rules/ttb-turns.md#s2-5) ----------------------------------------------------------------------------

PISTOL = """
weapons = [{ name = "Pistol", kind = "projectile", damage = "2/3/4", reload = 2, capacity = 1 },
           { name = "Knife", kind = "melee", damage = "1/2/3" }]
"""


def test_shooting_empties_a_weapon_and_an_empty_weapon_cannot_fire() -> None:
    """docs/rules/ttb-turns.md#s2-5 Reload: a weapon with capacity 1 is empty after a shot until reloaded."""
    s = duo(hero=PISTOL)
    run(s, "start", "spend Hero shoot")
    assert ttb_state(s).fighters["Hero"].shots["Pistol"] == 0
    refused(s, "spend Hero shoot")


def test_reload_spreads_over_turns() -> None:
    """docs/rules/ttb-turns.md#s2-5 Reload: the weapon is reloaded once the AP spent on it reach its Reload cost,
    spread over several turns if needed; Reload is Tactical (General AP only)."""
    s = duo(hero=PISTOL)
    run(s, "start", "spend Hero shoot", "spend Hero reload")
    hero = ttb_state(s).fighters["Hero"]
    assert ap(s, "Hero") == (1, 0)
    assert hero.reload_progress["Pistol"] == 1
    assert hero.shots["Pistol"] == 0
    run(s, "next", "next", "spend Hero reload")
    assert hero.shots["Pistol"] == 1
    assert "Pistol" not in hero.reload_progress
    run(s, "spend Hero shoot")
    assert hero.shots["Pistol"] == 0


def test_reload_in_one_go() -> None:
    """docs/rules/ttb-turns.md#s2-5 Reload: spending the full Reload cost at once reloads the weapon."""
    s = duo(hero=PISTOL)
    run(s, "start", "spend Hero shoot", "spend Hero reload 2")
    assert ttb_state(s).fighters["Hero"].shots["Pistol"] == 1
    assert ap(s, "Hero") == (0, 0)


def test_triggered_wait_reload_counts_towards_the_reload() -> None:
    """docs/rules/ttb-turns.md#s2-3-6 and docs/rules/ttb-turns.md#s2-5 Reload: a Waited Reload (1 AP + 1) adds its 1 AP
    when it triggers."""
    s = duo(hero=PISTOL)
    run(s, "start", "spend Hero shoot", "spend Hero wait reload", "next", "spend Hero reload")
    assert ttb_state(s).fighters["Hero"].reload_progress["Pistol"] == 1


def test_reload_refused_without_a_weapon_that_reloads() -> None:
    """docs/rules/ttb-turns.md#s2-5 Reload: nothing to reload is refused."""
    s = duo(hero='weapons = [{ name = "Knife", kind = "melee" }]')
    run(s, "start")
    refused(s, "spend Hero reload")


# --- Defensive Stance (docs/rules/ttb-turns.md#s2-5, docs/rules/ttb-damage.md#s2-10) and C17 --------------------------

FATED_HERO = """
[[combatants]]
name = "Sofia"
kind = "fated"
initiative = 9
wounds = 8
hand = {hand}
{extra}

[[combatants]]
name = "Thug"
rank_value = 5
initiative = 0
wounds = 6
"""


def test_fated_defensive_stance_discards_the_named_card() -> None:
    """docs/rules/ttb-turns.md#s2-5 Defensive Stance: a Fated discards a card (to its Twist discard) for Defensive
    +AP spent."""
    s = session_from(FATED_HERO.format(hand='["9R", "4C"]', extra=""), seed=1)
    run(s, "initiative Sofia 9", "start", "spend Sofia defensive 2 4C")
    sofia = ttb_state(s).fighters["Sofia"]
    assert sofia.hand == ["9R"]
    assert sofia.twist_discards == ["4C"]
    assert sofia.conditions["defensive"] == 2
    assert ap(s, "Sofia") == (0, 1)


def test_fated_defensive_stance_without_a_card_asks_which() -> None:
    """docs/rules/ttb-turns.md#s2-5 Defensive Stance: when no card is named the player is asked which to discard."""
    s = session_from(FATED_HERO.format(hand='["9R", "4C"]', extra=""))
    run(s, "initiative Sofia 9", "start", "spend Sofia defensive 1")
    assert ttb_state(s).prompt is not None
    assert sorted(pending(ttb_state(s)).options) == ["4C", "9R"]
    refused(s, "answer 13M")
    run(s, "answer 9R")
    assert ttb_state(s).fighters["Sofia"].hand == ["4C"]
    assert ttb_state(s).fighters["Sofia"].conditions["defensive"] == 1


def test_fated_defensive_stance_refused_with_empty_hand_or_missing_card() -> None:
    """docs/rules/ttb-turns.md#s2-5 Defensive Stance: it needs a card to discard."""
    s = session_from(FATED_HERO.format(hand="[]", extra=""))
    run(s, "initiative Sofia 9", "start")
    refused(s, "spend Sofia defensive 1")
    s = session_from(FATED_HERO.format(hand='["9R"]', extra=""))
    run(s, "initiative Sofia 9", "start")
    refused(s, "spend Sofia defensive 1 5M")


def test_fm_defensive_stance_pays_a_fate_point() -> None:
    """docs/rules/ttb-turns.md#s2-5 Defensive Stance and docs/rules/ttb-damage.md#s2-10 (docs/rules/decisions.md#a31): a
    FM character pays 1 Fate Point instead of the discard; with none it is refused."""
    s = duo(hero="fate_points = 1")
    run(s, "start", "spend Hero defensive 1")
    assert ttb_state(s).fighters["Hero"].fate_points == 0
    assert ttb_state(s).fighters["Hero"].conditions["defensive"] == 1
    refused(s, "spend Hero defensive 1")


def test_C17_defensive_value_stacks_benefit_caps_expires_at_next_turn_start() -> None:
    """docs/rules/checks.md#c17 (docs/rules/ttb-conditions.md#s2-7-2 Defensive, docs/rules/decisions.md#a13): a Fast
    Fated spends all 3 General AP and a card on Defensive Stance: Defensive +3, Combat AP unspent; another +2 makes +5
    though the benefit stays ⊞⊞⊞; Defensive is removed at the start of its next turn."""
    s = session_from(FATED_HERO.format(hand='["9R", "4C"]', extra="conditions = { fast = true }"))
    run(s, "initiative Sofia 9", "start")
    assert ap(s, "Sofia") == (3, 1)
    run(s, "spend Sofia defensive 3 9R")
    sofia = ttb_state(s).fighters["Sofia"]
    assert sofia.conditions["defensive"] == 3
    assert ap(s, "Sofia") == (0, 1)
    assert sofia.hand == ["4C"]
    run(s, "next")
    run(s, "add Sofia defensive 2")
    assert sofia.conditions["defensive"] == 5
    assert net_modifier(int(sofia.conditions["defensive"]), 0) == 3
    run(s, "next")
    assert ttb_state(s).active == "Sofia"
    assert "defensive" not in sofia.conditions


# --- Focus (docs/rules/ttb-turns.md#s2-5) -----------------------------------------------------------------------------


def test_focus_gives_focused_plus_one_until_end_of_turn() -> None:
    """docs/rules/ttb-turns.md#s2-5 Focus and docs/rules/ttb-conditions.md#s2-7-2 Focused: +1 per Focus (valued,
    stacking), ends at turn end."""
    s = duo()
    run(s, "start", "spend Hero focus")
    assert ttb_state(s).fighters["Hero"].conditions["focused"] == 1
    run(s, "spend Hero focus")
    assert ttb_state(s).fighters["Hero"].conditions["focused"] == 2
    run(s, "next")
    assert "focused" not in ttb_state(s).fighters["Hero"].conditions


# --- Doctor and Reduce Burning (docs/rules/ttb-turns.md#s2-5 Condition actions) ---------------------------------------


def test_doctor_on_another_is_tn_15_and_success_removes_bleeding_out() -> None:
    """docs/rules/ttb-turns.md#s2-5 Doctor and docs/rules/checks.md#c2: 2 General AP, TN 15 on another; success removes
    Bleeding Out entirely (not −1)."""
    s = duo(other="conditions = { bleeding_out = 4 }")
    run(s, "start", "spend Hero doctor Other")
    p = ttb_state(s).prompt
    assert p is not None and p.kind == "doctor"
    assert p.data["tn"] == 15
    assert ap(s, "Hero") == (0, 1)
    run(s, "answer pass")
    assert "bleeding_out" not in ttb_state(s).fighters["Other"].conditions


def test_doctor_on_oneself_is_tn_20() -> None:
    """docs/rules/ttb-turns.md#s2-5 Doctor and docs/rules/checks.md#c2: treating oneself is TN 20."""
    s = duo(hero="conditions = { bleeding_out = 2 }")
    run(s, "start", "spend Hero doctor Hero")
    p = ttb_state(s).prompt
    assert p is not None and p.data["tn"] == 20


def test_doctor_failure_leaves_bleeding_out() -> None:
    """docs/rules/ttb-turns.md#s2-5 Doctor: a failed duel leaves Bleeding Out as it was; the AP stay spent."""
    s = duo(other="conditions = { bleeding_out = 4 }")
    run(s, "start", "spend Hero doctor Other", "answer fail")
    assert ttb_state(s).fighters["Other"].conditions["bleeding_out"] == 4
    assert ap(s, "Hero") == (0, 1)


def test_doctor_flip_adds_the_doctor_skill() -> None:
    """docs/rules/ttb-turns.md#s2-5 Doctor: answering `flip` flips from the Fate Deck and adds the Doctor skill
    (12 + 3 = 15 meets TN 15)."""
    s = duo(hero="skills = { doctor = 3 }", other="conditions = { bleeding_out = 4 }")
    run(s, "start", "spend Hero doctor Other")
    ttb_state(s).deck[-1] = "12R"
    run(s, "answer flip")
    assert "bleeding_out" not in ttb_state(s).fighters["Other"].conditions
    assert ttb_state(s).discards[-1] == "12R"


def test_doctor_refused_when_target_is_not_bleeding() -> None:
    """docs/rules/ttb-turns.md#s2-5 Doctor: it treats Bleeding Out; without it there is nothing to do."""
    s = duo()
    run(s, "start")
    refused(s, "spend Hero doctor Other")


def test_reduce_burning_lowers_by_one() -> None:
    """docs/rules/ttb-turns.md#s2-5 Reduce Burning: 1 General AP, a character within 1 yard (itself included)
    lowers Burning by 1."""
    s = duo(hero="conditions = { burning = 1 }", other="conditions = { burning = 3 }")
    run(s, "start", "spend Hero reduce-burning Other")
    assert ttb_state(s).fighters["Other"].conditions["burning"] == 2
    run(s, "spend Hero reduce-burning")
    assert "burning" not in ttb_state(s).fighters["Hero"].conditions
    assert ap(s, "Hero") == (0, 1)
    refused(s, "spend Hero reduce-burning Hero")


def test_reduce_burning_refused_when_not_burning() -> None:
    """docs/rules/ttb-turns.md#s2-5 Reduce Burning: refused on a target that is not Burning."""
    s = duo()
    run(s, "start")
    refused(s, "spend Hero reduce-burning Other")


# --- docs/rules/ttb-damage.md#s2-9 disengaging strikes and C26 --------------------------------------------------------

C26 = """
[[combatants]]
name = "X"
kind = "fated"
initiative = 9
wounds = 8
hand = []

[[combatants]]
name = "E"
rank_value = 5
initiative = 0
wounds = 6
melee_range = 2
{e_extra}

[[combatants]]
name = "F"
rank_value = 5
initiative = -1
wounds = 6
melee_range = {f_range}
"""


def c26(e_extra: str = "", f_range: int = 0) -> Session:
    s = session_from(C26.format(e_extra=e_extra, f_range=f_range))
    run(s, "initiative X 9", "start", "engage X E")
    assert ttb_state(s).active == "X"
    return s


def test_C26_engaged_x_cannot_shoot_or_charge() -> None:
    """docs/rules/checks.md#c26 (docs/rules/ttb-damage.md#s2-9): X within E's 2-yard melee range is engaged: no
    projectile attack and no Charge."""
    s = c26()
    assert ttb_state(s).fighters["X"].ap == 2
    refused(s, "spend X shoot")
    refused(s, "spend X charge E")


def test_C26_walking_away_prompts_the_gm_for_a_disengaging_strike() -> None:
    """docs/rules/checks.md#c26 (docs/rules/ttb-damage.md#s2-9, docs/rules/decisions.md#a20): a Walk out of E's range
    lets E make one optional strike; the tracker prompts (hit, miss or no) and other commands wait."""
    s = c26()
    run(s, "spend X walk")
    p = ttb_state(s).prompt
    assert p is not None and p.kind == "disengaging_strike"
    assert p.who == "E"
    assert p.options == ["hit", "miss", "no"]
    refused(s, "next")
    refused(s, "answer maybe")


def test_C26_hit_cancels_the_walk_and_its_ap_with_no_damage() -> None:
    """docs/rules/checks.md#c26: on a hit X takes no damage, the Walk is cancelled (X stays engaged) and X has
    1 General AP and 1 Combat AP left."""
    s = c26()
    run(s, "spend X walk", "answer hit")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).fighters["X"].wounds == 8
    assert ["E", "X"] in ttb_state(s).engagements
    assert ap(s, "X") == (1, 1)
    refused(s, "spend X shoot")


@pytest.mark.parametrize("answer", ["miss", "no"])
def test_C26_miss_or_declined_completes_the_walk(answer: str) -> None:
    """docs/rules/checks.md#c26: on a miss, or if the GM declines, X completes the Walk and leaves engagement."""
    s = c26()
    run(s, "spend X walk", f"answer {answer}")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).engagements == []
    assert ap(s, "X") == (1, 1)
    run(s, "spend X shoot")
    assert ap(s, "X") == (1, 0)


def test_C26_run_also_provokes_the_strike() -> None:
    """docs/rules/ttb-damage.md#s2-9: any Walk or Run that leaves an enemy's engagement range provokes the strike; a
    hit loses both AP of the Run."""
    s = c26()
    run(s, "spend X run")
    assert ttb_state(s).prompt is not None and pending(ttb_state(s)).kind == "disengaging_strike"
    run(s, "answer hit")
    assert ap(s, "X") == (0, 1)
    assert ["E", "X"] in ttb_state(s).engagements


def test_C26_push_by_show_provokes_no_disengaging_strike() -> None:
    """docs/rules/checks.md#c26 (docs/rules/ttb-turns.md#s2-6 Pushes): being pushed by a Show triggers no disengaging
    strike."""
    s = c26()
    run(s, "next")
    assert ttb_state(s).active == "E"
    run(s, "spend E show X")
    assert pending(ttb_state(s)).kind == "show"  # the Show's Athletics duel [000:L280]
    run(s, "answer pass 2")  # pushed 3 yards: no disengaging strike follows
    assert ttb_state(s).prompt is None
    assert ap(s, "E") == (2, 0)


def test_disengaging_strike_only_from_enemies_able_to_attack() -> None:
    """docs/rules/ttb-damage.md#s2-9 (docs/rules/decisions.md#a20): a Paralyzed enemy makes no disengaging strike; the
    Walk completes."""
    s = c26(e_extra="conditions = { paralyzed = true }")
    run(s, "spend X walk")
    assert ttb_state(s).prompt is None


def test_one_strike_offer_per_engaging_enemy_and_a_hit_ends_the_offers() -> None:
    """docs/rules/ttb-damage.md#s2-9 (docs/rules/decisions.md#a20): each enemy whose range is left may make one strike;
    once one hits the move is cancelled and no further strike is offered."""
    s = c26(f_range=1)
    run(s, "engage X F", "spend X walk")
    p = ttb_state(s).prompt
    assert p is not None and p.who == "E"
    run(s, "answer miss")
    p = ttb_state(s).prompt
    assert p is not None and p.who == "F"
    run(s, "answer hit")
    assert ttb_state(s).prompt is None
    assert ["E", "X"] in ttb_state(s).engagements
    assert ["F", "X"] in ttb_state(s).engagements

    s = c26(f_range=1)
    run(s, "engage X F", "spend X walk", "answer hit")
    assert ttb_state(s).prompt is None
    assert len(ttb_state(s).engagements) == 2


def test_undo_restores_the_walk_before_the_strike_answer() -> None:
    """docs/rules/ttb-damage.md#s2-9 and CONTRACT docs/rules/2d20.md#s3: `undo` steps back over the answer; the prompt
    is asked again."""
    s = c26()
    run(s, "spend X walk", "answer hit", "undo")
    assert ttb_state(s).prompt is not None and pending(ttb_state(s)).kind == "disengaging_strike"
    run(s, "answer miss")
    assert ttb_state(s).engagements == []


# --- docs/rules/ttb-damage.md#s2-10 Fate Points: Recovery, Second Wind, Competence ------------------------------------


def test_recovery_removes_one_condition_for_a_fate_point() -> None:
    """docs/rules/ttb-damage.md#s2-10 Recovery: on its turn, 1 FP removes 1 condition affecting the character."""
    s = duo(hero="conditions = { burning = 3, dazed = true }", hero_kind="rank_value = 7")
    run(s, "start", "spend Hero recovery burning")
    hero = ttb_state(s).fighters["Hero"]
    assert "burning" not in hero.conditions
    assert hero.conditions.get("dazed") is True
    assert hero.fate_points == 1
    assert ap(s, "Hero") == (2, 1)
    refused(s, "spend Hero recovery burning")


def test_recovery_refused_off_turn_and_for_minions() -> None:
    """docs/rules/ttb-damage.md#s2-10: Recovery is "on its turn" and for non-subordinate Enforcers or higher only."""
    s = duo(hero="conditions = { dazed = true }", hero_kind="rank_value = 7")
    run(s, "start", "next")
    refused(s, "spend Hero recovery dazed")
    s = duo(hero="conditions = { dazed = true }", hero_kind="rank_value = 6")
    run(s, "start")
    refused(s, "spend Hero recovery dazed")


def test_second_wind_heals_two_up_to_the_maximum() -> None:
    """docs/rules/ttb-damage.md#s2-10 Second Wind and docs/rules/ttb-damage.md#s2-8-3 (docs/rules/decisions.md#a38): 1
    FP heals 2 damage, never above maximum."""
    s = duo(hero_kind="rank_value = 9")
    run(s, "start", "damage Hero 3 no-armor", "spend Hero second-wind")
    hero = ttb_state(s).fighters["Hero"]
    assert hero.wounds == 9
    assert hero.fate_points == 2
    run(s, "spend Hero second-wind")
    assert hero.wounds == 10
    assert hero.fate_points == 1


def test_second_wind_and_recovery_refused_while_unconscious_or_paralyzed() -> None:
    """docs/rules/ttb-damage.md#s2-10 (docs/rules/decisions.md#a36): the "on its turn" abilities cannot be used
    Unconscious or Paralyzed."""
    s = duo(hero="conditions = { unconscious = true }", hero_kind="rank_value = 9")
    run(s, "start")
    assert ttb_state(s).active == "Hero"
    refused(s, "spend Hero second-wind")
    refused(s, "spend Hero recovery prone")
    s = duo(hero="conditions = { paralyzed = true }", hero_kind="rank_value = 9")
    run(s, "start")
    refused(s, "spend Hero recovery paralyzed")


def test_competence_costs_a_fate_point_and_may_be_used_off_turn() -> None:
    """docs/rules/ttb-damage.md#s2-10 Competence: 1 FP when an action is announced gives ⊞ on one duel, Defense and
    Willpower included (so also on another character's turn)."""
    s = duo(hero_kind="rank_value = 7")
    run(s, "start", "next", "spend Hero competence")
    assert ttb_state(s).fighters["Hero"].fate_points == 1
    assert ap(s, "Hero") == (0, 0)


def test_fate_point_abilities_refused_for_subordinates() -> None:
    """docs/rules/ttb-damage.md#s2-10: only non-subordinate Enforcers or higher have the Fate Point abilities."""
    s = duo(hero="subordinate = true", hero_kind="rank_value = 12")
    run(s, "start")
    for line in ("quick-action", "second-wind", "competence"):
        refused(s, f"spend Hero {line}")


def test_second_wind_at_full_wounds_is_refused_with_a_reason() -> None:
    """docs/rules/ttb-damage.md#s2-10 Second Wind, docs/rules/ttb-damage.md#s2-8-3 (A38) [000:L394, L399]: at full
    Wounds it would heal nothing, so it is refused and no Fate Point is spent."""
    s = duo(hero_kind="rank_value = 9")
    run(s, "start")
    err = refused(s, "spend Hero second-wind")
    assert "full Wounds" in str(err)
    run(s, "damage Hero 1 no-armor", "spend Hero second-wind")
    assert ttb_state(s).fighters["Hero"].fate_points == 2
    err = refused(s, "spend Hero second-wind")
    assert "full Wounds" in str(err)


def test_peon_defensive_stance_with_no_fate_point_needs_the_gm_override() -> None:
    """docs/rules/decisions.md#a31 [000:L246, L392]: a FM character pays 1 Fate Point in place of the discard; with 0 FP
    Defensive Stance is refused unless the GM overrides with the `override` flag."""
    s = duo(hero_kind='rank = "peon"\nrank_value = 3')
    run(s, "start")
    assert ttb_state(s).fighters["Hero"].fate_points == 0
    err = refused(s, "spend Hero defensive 1")
    assert "override" in str(err)
    refused(s, "spend Hero walk override")
    run(s, "spend Hero defensive 1 override")
    hero = ttb_state(s).fighters["Hero"]
    assert hero.conditions.get("defensive") == 1
    assert hero.fate_points == 0
