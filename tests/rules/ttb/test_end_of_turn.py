"""Turn-end condition effects and expiries: docs/rules/ttb-conditions.md#s2-7-2 timings and
docs/rules/ttb-lifecycle.md#s2-11 ``turn_end`` (A11, A14, A15)."""

from __future__ import annotations

import pytest

from tests.conftest import pending, run, session_from, ttb, ttb_state
from tests.rules.ttb.fighters import combatant, duo
from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.families.ttb import conditions


def kinds(s: Session) -> str | None:
    return pending(ttb_state(s)).kind if ttb_state(s).prompt else None


def a_round(s: Session) -> None:
    """From A's open turn: end A's turn and B's turn; A's next turn is open again."""
    run(s, "next")
    assert ttb_state(s).active == "B"
    run(s, "next")
    assert ttb_state(s).active == "A"


# --- Bleeding Out -----------------------------------------------------------------------------------


def test_C1_bleeding_out_reaches_ten_and_kills() -> None:
    """docs/rules/checks.md#c1 / docs/rules/ttb-conditions.md#s2-7-2 Bleeding Out: +9 at 5 Wounds; at its turn end it
    becomes +10, the character dies and leaves the initiative order."""
    s = duo(first={"wounds": 5, "conditions": {"bleeding_out": 9}})
    run(s, "start", "next")
    st = ttb_state(s)
    a = st.fighters["A"]
    assert a.conditions["bleeding_out"] == 10
    assert a.dead
    assert a.wounds == 5
    assert "A" not in st.order
    assert st.active == "B"
    run(s, "next")  # round 2: only B takes a turn
    assert st.round == 2 and st.active == "B"


def test_bleeding_out_rises_only_at_its_owners_turn_end() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Bleeding Out: +1 at the end of the owner's own turn, not at others' turns."""
    s = duo(second={"conditions": {"bleeding_out": 2}})
    run(s, "start", "next")  # A's turn ends
    assert ttb_state(s).fighters["B"].conditions["bleeding_out"] == 2
    run(s, "next")  # B's turn ends
    assert ttb_state(s).fighters["B"].conditions["bleeding_out"] == 3


def test_last_combatant_dying_stops_the_rounds() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Dead / docs/rules/ttb-lifecycle.md#s2-11: when the only combatant dies of
    Bleeding Out no turn can start; the engine stops (it used to cycle round_end/round_start forever) and `end` closes
    Dramatic Time."""
    s = session_from(combatant("A", wounds=5, conditions={"bleeding_out": 9}))
    run(s, "start", "next")
    st = ttb_state(s)
    assert st.fighters["A"].dead
    assert st.active is None and st.agenda == []
    with pytest.raises(Refusal):
        s.execute("next")
    run(s, "end")
    assert st.phase == "ended"


# --- Burning, decision A15 --------------------------------------------------------------------------


def test_C3_burning_damage_then_ends() -> None:
    """docs/rules/checks.md#c3 / docs/rules/ttb-conditions.md#s2-7-2 Burning: 6 Wounds, Armor 0, Burning +3: turn end
    deals 3 (6 → 3) and Burning is removed; the next turn end deals nothing."""
    s = duo(first={"conditions": {"burning": 3}})
    run(s, "start", "next")
    a = ttb_state(s).fighters["A"]
    assert a.wounds == 3
    assert "burning" not in a.conditions
    run(s, "next", "next")
    assert a.wounds == 3


def test_burning_armor_applies_by_default() -> None:
    """docs/rules/decisions.md#a15 / docs/rules/ttb-damage.md#s2-8-1 step 5: armor reduces Burning damage (Burning +3,
    Armor +1 → 2)."""
    s = duo(first={"armor": 1, "conditions": {"burning": 3}})
    run(s, "start", "next")
    assert ttb_state(s).fighters["A"].wounds == 4


def test_burning_armor_keeps_minimum_one() -> None:
    """docs/rules/decisions.md#a15: armor against condition damage still leaves at least 1 (Burning +1, Armor +2)."""
    s = duo(first={"armor": 2, "conditions": {"burning": 1}})
    run(s, "start", "next")
    assert ttb_state(s).fighters["A"].wounds == 5


def test_burning_ignores_armor_when_setting_off() -> None:
    """docs/rules/decisions.md#a15: armor_vs_conditions = false: Burning +3 against Armor +2 deals the full 3."""
    s = duo(first={"armor": 2, "conditions": {"burning": 3}}, settings="armor_vs_conditions = false")
    run(s, "start", "next")
    assert ttb_state(s).fighters["A"].wounds == 3


def test_burning_ticks_only_at_its_owners_turn_end() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Burning: the timing is the owner's own turn_end."""
    s = duo(second={"conditions": {"burning": 2}})
    run(s, "start", "next")
    assert ttb_state(s).fighters["B"].wounds == 6
    assert ttb_state(s).fighters["B"].conditions == {"burning": 2}
    run(s, "next")
    assert ttb_state(s).fighters["B"].wounds == 4


def test_reduce_burning_action_lowers_by_one() -> None:
    """docs/rules/ttb-turns.md#s2-5 Reduce Burning / docs/rules/ttb-conditions.md#s2-7-2 Burning: (1) AP lowers Burning
    by 1; at 0 no damage."""
    s = duo(first={"conditions": {"burning": 2}})
    run(s, "start", "spend A reduce-burning", "spend A reduce-burning")
    a = ttb_state(s).fighters["A"]
    assert a.conditions == {} and a.ap == 0
    run(s, "next")
    assert a.wounds == 6


# --- Poison -----------------------------------------------------------------------------------------


def test_C5_poison_ticks_down() -> None:
    """docs/rules/checks.md#c5 / docs/rules/ttb-conditions.md#s2-7-2 Poison: 4 Wounds, Poison +2: turn end → 3 Wounds,
    Poison +1; next → 2 Wounds, Poison removed; third turn end: nothing."""
    s = duo(first={"wounds": 4, "conditions": {"poison": 2}})
    run(s, "start")
    a = ttb_state(s).fighters["A"]
    a_round(s)
    assert (a.wounds, a.conditions) == (3, {"poison": 1})
    a_round(s)
    assert (a.wounds, a.conditions) == (2, {})
    a_round(s)
    assert (a.wounds, a.conditions) == (2, {})


@pytest.mark.parametrize("setting", ["", "armor_vs_conditions = false"])
def test_poison_one_damage_through_armor(setting: str) -> None:
    """docs/rules/decisions.md#a15: Poison deals 1 whatever the armor (minimum 1), with or without armor applying."""
    s = duo(first={"armor": 3, "conditions": {"poison": 1}}, settings=setting)
    run(s, "start", "next")
    assert ttb_state(s).fighters["A"].wounds == 5


# --- Suffocating ------------------------------------------------------------------------------------


def test_suffocating_conscious_duel_prompt_pass() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Suffocating: conscious at turn end → Toughness duel vs TN = value (prompt
    `suffocating_duel`); pass keeps it conscious and Suffocating stays."""
    s = duo(first={"conditions": {"suffocating": 4}})
    run(s, "start", "next")
    st = ttb_state(s)
    assert kinds(s) == "suffocating_duel"
    assert st.prompt is not None and st.prompt.data["tn"] == 4 and st.prompt.who == "A"
    with pytest.raises(Refusal):
        s.execute("next")  # only the answer may follow
    run(s, "answer pass")
    a = st.fighters["A"]
    assert not a.unconscious and a.wounds == 6
    assert a.conditions == {"suffocating": 4}
    assert st.active == "B"


def test_suffocating_conscious_duel_fail_makes_unconscious_and_prone() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Suffocating / docs/rules/ttb-lifecycle.md#s2-11 step 3: failure → Unconscious
    (+Prone), no damage."""
    s = duo(first={"conditions": {"suffocating": 4}})
    run(s, "start", "next", "answer fail")
    a = ttb_state(s).fighters["A"]
    assert a.unconscious and a.conditions.get("prone")
    assert a.wounds == 6


@pytest.mark.parametrize(("card", "passed"), [("2R", True), ("1R", False), ("BJ", False)])
def test_suffocating_duel_flip_adds_toughness(card: str, passed: bool) -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Suffocating: `answer flip` flips a card + skills.toughness vs TN = value
    (TN 5, Toughness 3); the Black Joker always fails."""
    s = duo(first={"skills": {"toughness": 3}, "conditions": {"suffocating": 5}})
    run(s, "start", "next")
    ttb_state(s).deck.append(card)
    run(s, "answer flip")
    assert ttb_state(s).fighters["A"].unconscious is (not passed)


def test_suffocating_unconscious_flip_ignores_armor() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Suffocating: already unconscious → prompt `suffocating_flip` for a 3/4/5
    damage flip that armor cannot reduce (13 → Severe 5 against Armor +2)."""
    s = duo(first={"armor": 2, "conditions": {"unconscious": True, "suffocating": 1}})
    run(s, "start")
    assert ttb_state(s).fighters["A"].ap == 0  # unconscious: no AP
    run(s, "next")
    assert kinds(s) == "suffocating_flip"
    run(s, "answer 13R")
    a = ttb_state(s).fighters["A"]
    assert a.wounds == 1 and not a.dead


@pytest.mark.parametrize(("card", "wounds"), [("5R", 3), ("9C", 2), ("BJ", 6)])
def test_suffocating_flip_severities(card: str, wounds: int) -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Suffocating: 3/4/5 by severity; the Black Joker deals nothing."""
    s = duo(first={"conditions": {"unconscious": True, "suffocating": 2}})
    run(s, "start", "next", f"answer {card}")
    assert ttb_state(s).fighters["A"].wounds == wounds


def test_suffocating_damage_to_zero_kills() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Suffocating / Dead: reaching ≤0 Wounds from Suffocating damage kills (3
    Wounds, Weak 3 → 0), with no critical flip."""
    s = duo(first={"wounds": 3, "conditions": {"unconscious": True, "suffocating": 2}})
    run(s, "start", "next", "answer 4T")
    st = ttb_state(s)
    a = st.fighters["A"]
    assert a.wounds == 0 and a.dead
    assert a.criticals == []
    assert "A" not in st.order and st.active == "B" and st.prompt is None


def test_suffocating_kills_even_an_fm_ignoring_criticals() -> None:
    """docs/rules/decisions.md#a35: an FM ignoring critical effects still dies of Suffocating damage to ≤0."""
    s = duo(
        first={
            "wounds": 3,
            "ignores_critical_effects": True,
            "rank_value": 9,
            "conditions": {"unconscious": True, "suffocating": 1},
        }
    )
    run(s, "start", "next", "answer 12M")
    assert ttb_state(s).fighters["A"].dead


def test_suffocating_flip_automatic_with_flips_auto() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Suffocating / settings flips = "auto": the tracker flips from the Fate
    Deck."""
    s = duo(first={"conditions": {"unconscious": True, "suffocating": 1}}, settings='flips = "auto"')
    run(s, "start")
    ttb_state(s).deck.append("7M")
    run(s, "next")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).fighters["A"].wounds == 2  # Moderate 4
    assert "7M" in ttb_state(s).discards


def test_suffocating_uses_the_turn_end_snapshot_of_consciousness() -> None:
    """docs/rules/decisions.md#a14 / docs/rules/ttb-lifecycle.md#s2-11 turn_end: "already unconscious" is read at the
    start of turn_end. Burning knocks the FM out first; Suffocating still asks the conscious duel, not the 3/4/5
    flip."""
    s = duo(first={"conditions": {"burning": 6, "suffocating": 2}})
    run(s, "start", "next")
    assert kinds(s) == "critical"
    run(s, "answer 3R")
    a = ttb_state(s).fighters["A"]
    assert a.unconscious  # FM: automatic
    assert kinds(s) == "suffocating_duel"


# --- End-of-turn order, decision A14 ----------------------------------------------------------------


def _tick_lines(s: Session) -> list[str]:
    keys = ("Burning +", "Poison +", "Suffocating", "Bleeding Out +")
    return [
        next(k for k in keys if k in line.text) for line in ttb_state(s).log if line.text.startswith("end of A's turn")
    ]


def test_default_end_of_turn_order() -> None:
    """docs/rules/decisions.md#a14 / docs/rules/ttb-lifecycle.md#s2-11: Burning → Poison → Suffocating → Bleeding
    Out."""
    s = duo(first={"conditions": {"bleeding_out": 1, "suffocating": 1, "poison": 1, "burning": 1}})
    run(s, "start", "next")
    assert kinds(s) == "suffocating_duel"
    a = ttb_state(s).fighters["A"]
    assert a.wounds == 4  # Burning and Poison already done
    assert a.conditions["bleeding_out"] == 1  # not yet
    run(s, "answer pass")
    assert a.conditions["bleeding_out"] == 2
    assert _tick_lines(s) == ["Burning +", "Poison +", "Bleeding Out +"]


def test_end_of_turn_order_setting() -> None:
    """docs/rules/decisions.md#a14: the table may reorder the effects (`end_of_turn_order`)."""
    s = duo(
        first={"conditions": {"bleeding_out": 1, "suffocating": 1, "poison": 1, "burning": 1}},
        settings='end_of_turn_order = ["bleeding_out", "suffocating", "poison", "burning"]',
    )
    run(s, "start", "next")
    a = ttb_state(s).fighters["A"]
    assert kinds(s) == "suffocating_duel"
    assert a.conditions["bleeding_out"] == 2  # Bleeding Out already ran
    assert a.wounds == 6  # Poison and Burning not yet
    run(s, "answer pass")
    assert a.wounds == 4
    assert _tick_lines(s) == ["Bleeding Out +", "Poison +", "Burning +"]


def test_end_of_turn_order_decides_which_prompt_comes_first() -> None:
    """docs/rules/decisions.md#a14: with Suffocating before Burning, the duel is asked before Burning's critical."""
    s = duo(
        first={"conditions": {"burning": 6, "suffocating": 2}},
        settings='end_of_turn_order = ["suffocating", "burning", "poison", "bleeding_out"]',
    )
    run(s, "start", "next")
    assert kinds(s) == "suffocating_duel"
    run(s, "answer pass")
    assert kinds(s) == "critical"


def test_bad_end_of_turn_order_setting_is_rejected() -> None:
    """docs/rules/decisions.md#a14: the order must name the four effects once each."""
    with pytest.raises(Exception, match="burning"):
        duo(settings='end_of_turn_order = ["burning", "poison"]')


# --- Expiries: turn start (Defensive) and turn end (Fast, Slow, Focused, Paralyzed), A11 -------------


def test_defensive_expires_at_owners_next_turn_start() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Defensive: lasts through its turn end and the others' turns, ends at the
    start of the owner's next turn."""
    s = duo()
    run(s, "start", "add A defensive 2", "next")
    assert ttb_state(s).fighters["A"].conditions == {"defensive": 2}
    run(s, "next")
    assert ttb_state(s).active == "A"
    assert ttb_state(s).fighters["A"].conditions == {}


@pytest.mark.parametrize("condition", ["fast", "slow", "focused", "paralyzed"])
def test_until_end_of_turn_conditions_expire_at_owners_turn_end(condition: str) -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 / docs/rules/decisions.md#a11: Fast, Slow, Focused, Paralyzed gained on
    another's turn survive that turn and end at the end of the owner's next own turn."""
    s = duo()
    run(s, "start", f"add B {condition}", "next")
    assert condition in ttb_state(s).fighters["B"].conditions  # A's turn end does not touch B
    assert ttb_state(s).active == "B"
    run(s, "next")
    assert condition not in ttb_state(s).fighters["B"].conditions


def test_focus_action_gives_focused_until_end_of_turn() -> None:
    """docs/rules/ttb-turns.md#s2-5 Focus / docs/rules/ttb-conditions.md#s2-7-2 Focused: Focused +1 for 1 AP, gone at
    that turn's end."""
    s = duo()
    run(s, "start", "spend A focus")
    assert ttb_state(s).fighters["A"].conditions == {"focused": 1}
    run(s, "next")
    assert ttb_state(s).fighters["A"].conditions == {}


def test_paralyzed_gained_during_own_turn_end_lasts_to_the_next_turn_end() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Paralyzed / docs/rules/decisions.md#a11 / docs/rules/ttb-lifecycle.md#s2-11
    step 5: a Paralyzed gained during the owner's own turn_end survives it, blocks the next turn and ends at the end of
    that turn.

    No GM command can run while a turn end waits on a prompt, so the gain is made through the rules
    module, as a rule effect resolving at that moment (e.g. a failed Horror duel) would make it.
    """
    s = duo(first={"conditions": {"suffocating": 1}})
    run(s, "start", "next")
    assert kinds(s) == "suffocating_duel" and ttb_state(s).ending == "A"
    conditions.gain(ttb(s), "A", "paralyzed", why="test: gained during turn end")
    conditions.gain(ttb(s), "A", "fast", why="test: gained during turn end")
    run(s, "answer pass")
    a = ttb_state(s).fighters["A"]
    assert a.conditions.get("paralyzed") and a.conditions.get("fast")
    run(s, "next")  # B's turn ends; A's next turn opens
    assert ttb_state(s).active == "A"
    assert (a.ap, a.combat_ap) == (0, 0)
    run(s, "next", "answer pass")
    assert "paralyzed" not in a.conditions and "fast" not in a.conditions


def test_unconscious_turn_has_no_ap_but_turn_end_effects_run() -> None:
    """docs/rules/ttb-turns.md#s2-4 / docs/rules/ttb-lifecycle.md#s2-11 turn_start step 4: an Unconscious character gets
    0 AP and no actions, and its turn_end effects still run (Burning)."""
    s = duo(first={"conditions": {"unconscious": True, "burning": 2}})
    run(s, "start")
    a = ttb_state(s).fighters["A"]
    assert ttb_state(s).active == "A" and (a.ap, a.combat_ap) == (0, 0)
    with pytest.raises(Refusal, match="unconscious"):
        s.execute("spend A walk")
    run(s, "next")
    assert a.wounds == 4


def test_fast_gained_mid_turn_expires_at_that_turn_end() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Fast / docs/rules/ttb-lifecycle.md#s2-11 step 5: Fast gained during the
    owner's action phase (before turn_end began) gives +1 General AP at once and ends at that turn's end."""
    s = duo()
    run(s, "start", "add A fast")
    assert ttb_state(s).fighters["A"].ap == 3
    run(s, "next")
    assert ttb_state(s).fighters["A"].conditions == {}


def test_held_fast_gained_again_during_turn_end_takes_the_longer_duration() -> None:
    """docs/rules/ttb-conditions.md#s2-7-1 (longest duration wins) / docs/rules/decisions.md#a11: Fast held since the
    turn start and gained again during the owner's own turn_end lasts through the next turn (3 General AP) and then
    ends.

    The gain is made through the rules module while the turn end waits on a prompt (no GM command can
    run then), as a rule effect resolving at that moment would make it.
    """
    s = duo(first={"conditions": {"fast": True, "suffocating": 1}})
    run(s, "start")
    a = ttb_state(s).fighters["A"]
    assert a.ap == 3
    run(s, "next")
    assert ttb_state(s).prompt is not None and ttb_state(s).ending == "A"
    conditions.gain(ttb(s), "A", "fast", why="test: gained again during turn end")
    run(s, "answer pass")
    assert a.conditions.get("fast")
    run(s, "next")
    assert ttb_state(s).active == "A" and a.ap == 3
    run(s, "next", "answer pass")
    assert "fast" not in a.conditions
