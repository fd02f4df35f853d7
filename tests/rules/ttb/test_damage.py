"""Damage, armor, criticals, unconsciousness and healing: docs/rules/ttb-damage.md#s2-8 (decisions A10, A27, A28, A35,
A37, A38)."""

from __future__ import annotations

import pytest

from tests.conftest import pending, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session


def target(settings: str = "", **fields: object) -> Session:
    """A session with one target "T" (a Minion with 6 Wounds unless told otherwise) and an enemy "E"."""
    return session_from(combatant("T", **fields) + combatant("E", initiative=-5), settings=settings)


def fated(settings: str = "", **fields: object) -> Session:
    """A Fated "F" (hand given, so nothing is drawn) and an FM enemy "E"."""
    fields.setdefault("hand", [])
    return session_from(combatant("F", kind="fated", **fields) + combatant("E"), settings=settings)


def kind(s: Session) -> str | None:
    return pending(ttb_state(s)).kind if ttb_state(s).prompt else None


# --- docs/rules/ttb-damage.md#s2-8-1 step 5: armor, decision A27 ------------------------------------------------------


@pytest.mark.parametrize(("raw", "armor", "taken"), [(3, 0, 3), (3, 1, 2), (2, 2, 1), (1, 3, 1), (0, 2, 0)])
def test_armor_reduces_with_minimum_one(raw: int, armor: int, taken: int) -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 5 / docs/rules/decisions.md#a27: final = max(1, raw − Armor) when raw ≥ 1;
    raw 0 stays 0."""
    s = target(armor=armor)
    run(s, f"damage T {raw}")
    assert ttb_state(s).fighters["T"].wounds == 6 - taken


def test_no_armor_flag_skips_armor() -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 5: damage that may not be reduced by armor ignores it."""
    s = target(armor=2)
    run(s, "damage T 3 no-armor")
    assert ttb_state(s).fighters["T"].wounds == 3


@pytest.mark.parametrize(
    ("card", "armor", "taken"), [("8R", 0, 3), ("8R", 1, 2), ("4R", 0, 2), ("4R", 2, 1), ("13R", 0, 5), ("BJ", 2, 0)]
)
def test_damage_flip_severity_and_armor(card: str, armor: int, taken: int) -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 4-5 (C20): a 2/3/5 weapon: 1-5 Weak, 6-10 Moderate, 11-13 Severe, Black
    Joker none (0 even against Armor +2)."""
    s = target(wounds=9, armor=armor)
    run(s, f"damage T 2/3/5 card={card}")
    assert ttb_state(s).fighters["T"].wounds == 9 - taken
    assert ttb_state(s).prompt is None


def test_damage_flip_with_minus_uses_the_lowest_card() -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 1-2 / docs/rules/decisions.md#a2, A34: a tie (margin 0) gives ⊟⊟: 3 cards,
    the lowest is used, and the Red Joker's ⊟ exception does not apply to a damage flip."""
    s = target(wounds=9)
    ttb_state(s).deck += ["9R", "RJ", "12C"]
    run(s, "damage T 2/3/5 margin=0")
    assert ttb_state(s).fighters["T"].wounds == 9 - 3  # 9 → Moderate
    assert ttb_state(s).prompt is None  # no Red Joker critical


def test_damage_flip_with_plus_chooses_the_best_card() -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 1-2 / docs/rules/decisions.md#a2: a margin of 11+ gives ⊞: 2 cards, the
    higher is used."""
    s = target(wounds=9)
    ttb_state(s).deck += ["3R", "12C"]
    run(s, "damage T 2/3/5 margin=11")
    assert ttb_state(s).fighters["T"].wounds == 9 - 5


# --- docs/rules/ttb-damage.md#s2-8-2 criticals and the unconsciousness check ------------------------------------------


def test_damage_above_zero_has_no_critical() -> None:
    """docs/rules/ttb-damage.md#s2-8-2: only damage that leaves Wounds ≤ 0 triggers the critical procedure."""
    s = fated(wounds=6)
    run(s, "damage F 5")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).fighters["F"].criticals == []


@pytest.mark.parametrize(("card", "location"), [("5R", "Chest"), ("5T", "Head"), ("5C", "Arms"), ("5M", "Legs")])
def test_critical_location_by_suit(card: str, location: str) -> None:
    """docs/rules/ttb-damage.md#s2-8-2 step 2 / docs/rules/decisions.md#a7: Rams → Chest, Tomes → Head, Crows → Arms,
    Masks → Legs."""
    s = target(wounds=2)
    run(s, "damage T 3")
    assert kind(s) == "critical"
    run(s, f"answer {card}")
    (crit,) = ttb_state(s).fighters["T"].criticals
    assert crit.location == location
    assert crit.card == card
    assert crit.negative_wounds == 1


def test_critical_severity_follows_the_damage_level() -> None:
    """docs/rules/ttb-damage.md#s2-8-2 step 1: the critical table matches the damage level; no level means Weak."""
    s = target(wounds=2)
    run(s, "damage T 3 moderate", "answer 9R")
    assert ttb_state(s).fighters["T"].criticals[0].severity == "moderate"
    s = target(wounds=2)
    run(s, "damage T 3", "answer 9R")
    assert ttb_state(s).fighters["T"].criticals[0].severity == "weak"
    s = target(wounds=2)
    run(s, "damage T 2/3/5 card=12C", "answer 9R")
    assert ttb_state(s).fighters["T"].criticals[0].severity == "severe"


def test_red_joker_on_the_critical_flip_means_no_effect() -> None:
    """docs/rules/ttb-damage.md#s2-8-2 step 2 / docs/rules/decisions.md#a28: Red Joker on the critical flip = no
    critical effect; the damage stands and an FM still falls unconscious."""
    s = target(wounds=2)
    run(s, "damage T 3", "answer RJ")
    t = ttb_state(s).fighters["T"]
    assert t.criticals == []
    assert t.wounds == -1
    assert t.unconscious


def test_black_joker_on_the_critical_flip_is_gms_choice_location() -> None:
    """docs/rules/ttb-damage.md#s2-8-2 step 2 / docs/rules/decisions.md#a28: Black Joker = no suit, the GM picks the
    location (maximum effect)."""
    s = target(wounds=2)
    run(s, "damage T 3", "answer BJ")
    (crit,) = ttb_state(s).fighters["T"].criticals
    assert crit.card == "BJ"
    assert crit.location == "GM's choice"


def test_critical_answer_flip_uses_the_fate_deck() -> None:
    """docs/rules/ttb-damage.md#s2-8-2 / CONTRACT docs/rules/2d20.md#s3 `answer flip`: the tracker flips the critical
    card."""
    s = target(wounds=2)
    run(s, "damage T 3")
    ttb_state(s).deck.append("7M")
    run(s, "answer flip")
    assert ttb_state(s).fighters["T"].criticals[0].location == "Legs"


def test_critical_bad_answer_is_refused_and_prompt_stays() -> None:
    """docs/rules/ttb-damage.md#s2-8-2 / CONTRACT docs/rules/2d20.md#s3: a critical needs a card or `flip`; anything
    else is refused."""
    s = target(wounds=2)
    run(s, "damage T 3")
    with pytest.raises(Refusal):
        s.execute("answer yes")
    assert kind(s) == "critical"


def test_critical_flips_automatic_with_flips_auto() -> None:
    """docs/rules/ttb-damage.md#s2-8-2 / settings flips = "auto": the critical card is flipped without a prompt."""
    s = target(wounds=2, settings='flips = "auto"')
    ttb_state(s).deck.append("4C")
    run(s, "damage T 3")
    t = ttb_state(s).fighters["T"]
    assert ttb_state(s).prompt is None
    assert t.criticals[0].location == "Arms" and t.criticals[0].card == "4C"
    assert t.unconscious


def test_C21_fated_below_zero_moderate_critical_and_toughness_check() -> None:
    """docs/rules/checks.md#c21 / docs/rules/ttb-damage.md#s2-8-2: a Fated at 2 Wounds takes 3 Moderate (→ −1): a
    Moderate critical (Tomes → Head), then a TN 10 Toughness challenge; failure → Unconscious and Prone; its next turn
    has 0 General and 0 Combat AP; healed to ≥1 Wound it is no longer Unconscious."""
    s = fated(wounds=6, initiative=20)
    run(s, "initiative F 5", "start", "damage F 4", "damage F 3 moderate")
    st = ttb_state(s)
    f = st.fighters["F"]
    assert f.wounds == -1
    assert kind(s) == "critical"
    run(s, "answer 5T")
    assert f.criticals[0].severity == "moderate" and f.criticals[0].location == "Head"
    assert kind(s) == "unconscious_check"
    assert st.prompt is not None and st.prompt.data["tn"] == 10
    assert not f.unconscious
    run(s, "answer fail")
    assert f.unconscious and f.conditions.get("prone")
    assert (f.ap, f.combat_ap) == (0, 0)
    with pytest.raises(Refusal):
        s.execute("spend F walk")
    run(s, "next", "next")
    assert st.active == "F"
    assert (f.ap, f.combat_ap) == (0, 0)
    run(s, "heal F 1")
    assert f.wounds == 0 and f.unconscious  # still ≤ 0
    run(s, "heal F 1")
    assert f.wounds == 1 and not f.unconscious


def test_fated_passing_the_toughness_check_stays_conscious() -> None:
    """docs/rules/ttb-damage.md#s2-8-2 step 4: a passed TN 10 Toughness challenge keeps the Fated conscious."""
    s = fated(wounds=2)
    run(s, "damage F 3", "answer 5R", "answer pass")
    f = ttb_state(s).fighters["F"]
    assert f.wounds == -1 and not f.unconscious
    assert ttb_state(s).prompt is None


@pytest.mark.parametrize(("card", "conscious"), [("7R", True), ("6R", False), ("RJ", True), ("BJ", False)])
def test_toughness_check_flip_adds_the_toughness_skill(card: str, conscious: bool) -> None:
    """docs/rules/ttb-damage.md#s2-8-2 step 4: `answer flip` = card + skills.toughness (3) vs TN 10; Black Joker
    fails."""
    s = fated(wounds=2, skills={"toughness": 3})
    run(s, "damage F 3", "answer 5R")
    ttb_state(s).deck.append(card)
    run(s, "answer flip")
    assert ttb_state(s).fighters["F"].unconscious is (not conscious)


def test_every_damage_at_or_below_zero_triggers_again() -> None:
    """docs/rules/ttb-damage.md#s2-8-2 / docs/rules/decisions.md#a10: every damage ≥1 that leaves Wounds ≤ 0 triggers a
    critical and a check."""
    s = fated(wounds=2)
    run(s, "damage F 3", "answer 5R", "answer pass", "damage F 1")
    assert kind(s) == "critical"
    run(s, "answer 6M")
    assert kind(s) == "unconscious_check"
    run(s, "answer pass")
    f = ttb_state(s).fighters["F"]
    assert [c.location for c in f.criticals] == ["Chest", "Legs"]
    assert f.criticals[1].negative_wounds == 2


def test_C22_fm_falls_unconscious_automatically() -> None:
    """docs/rules/checks.md#c22 / docs/rules/ttb-damage.md#s2-8-2 / docs/rules/decisions.md#a9: a Peon (Rank Value 3) at
    1 Wound takes 2: a critical is recorded and it is Unconscious with no check."""
    s = target(wounds=6, rank_value=3)
    run(s, "damage T 5", "damage T 2")
    assert kind(s) == "critical"
    run(s, "answer 3C")
    t = ttb_state(s).fighters["T"]
    assert len(t.criticals) == 1
    assert t.unconscious and t.conditions.get("prone")
    assert ttb_state(s).prompt is None
    assert any("fails the check automatically" in line.text for line in ttb_state(s).log)


def test_C22_tyrant_also_falls_unconscious_automatically() -> None:
    """docs/rules/checks.md#c22 / docs/rules/decisions.md#a9: every FM rank, a Tyrant included, fails the check
    automatically."""
    s = target(wounds=1, rank_value=14)
    run(s, "damage T 2", "answer 3C")
    t = ttb_state(s).fighters["T"]
    assert len(t.criticals) == 1 and t.unconscious


@pytest.mark.parametrize("rank", [3, 14])
def test_C22_ignores_critical_effects(rank: int) -> None:
    """docs/rules/checks.md#c22 / docs/rules/decisions.md#a35: an FM with ignores_critical_effects gets no critical and
    stays conscious at ≤0 Wounds, and keeps acting."""
    s = target(wounds=1, rank_value=rank, ignores_critical_effects=True, initiative=30)
    run(s, "start", "damage T 2")
    t = ttb_state(s).fighters["T"]
    assert ttb_state(s).prompt is None
    assert t.wounds == -1 and t.criticals == [] and not t.unconscious
    run(s, "spend T walk")  # it keeps acting
    assert t.ap == 1


def test_000_l419_ignoring_criticals_can_take_the_toughness_challenge_as_a_table_option() -> None:
    """[000:L419] "fail unless ignores critical effects", read the other way (docs/guide/decisions.md): with
    ``critical_immune_at_zero = "toughness"`` an FM that ignores critical effects takes no critical but the TN 10
    Toughness challenge a Fated takes; failed, it falls unconscious, passed, it fights on. The 1E round-end
    re-check (A10) does not knock it out under the default (A35)."""
    s = target('critical_immune_at_zero = "toughness"', wounds=1, rank_value=8, ignores_critical_effects=True)
    run(s, "start", "damage T 2")
    assert kind(s) == "unconscious_check" and "TN 10 Toughness challenge" in pending(ttb_state(s)).question
    run(s, "answer fail")
    t = ttb_state(s).fighters["T"]
    assert t.unconscious and t.criticals == []
    s = target('critical_immune_at_zero = "toughness"', wounds=1, rank_value=8, ignores_critical_effects=True)
    run(s, "start", "damage T 2", "answer pass")
    assert not ttb_state(s).fighters["T"].unconscious
    s = target("recheck_unconscious_each_round = true", wounds=1, rank_value=8, ignores_critical_effects=True)
    run(s, "start", "damage T 2", "next", "next")
    assert ttb_state(s).round == 2 and not ttb_state(s).fighters["T"].unconscious


def test_red_joker_damage_flip_above_zero_is_severe_plus_severe_critical() -> None:
    """docs/rules/ttb-damage.md#s2-8-1 step 4 / docs/rules/ttb-damage.md#s2-8-2 / C20: Red Joker = Severe damage + a
    Severe Critical even while Wounds stay above 0; no unconsciousness check then."""
    s = fated(wounds=9)
    run(s, "damage F 2/3/5 card=RJ")
    f = ttb_state(s).fighters["F"]
    assert f.wounds == 4
    assert kind(s) == "critical"
    assert ttb_state(s).prompt is not None and pending(ttb_state(s)).data["severity"] == "severe"
    run(s, "answer 8R")
    assert [(c.severity, c.location) for c in f.criticals] == [("severe", "Chest")]
    assert ttb_state(s).prompt is None  # no unconsciousness check above 0 Wounds
    assert not f.unconscious


def test_red_joker_damage_flip_to_zero_is_one_critical_and_a_check() -> None:
    """docs/rules/ttb-damage.md#s2-8-2 / docs/rules/decisions.md#a37: a Red Joker hit that also leaves Wounds ≤ 0 gives
    one critical (the Severe one), not two, and the unconsciousness check is still made."""
    s = fated(wounds=4)
    run(s, "damage F 2/3/5 card=RJ")
    assert kind(s) == "critical"
    run(s, "answer 8R")
    assert kind(s) == "unconscious_check"
    run(s, "answer fail")
    f = ttb_state(s).fighters["F"]
    assert [c.severity for c in f.criticals] == ["severe"]
    assert f.unconscious
    assert ttb_state(s).prompt is None


def test_red_joker_damage_flip_on_fm_ignoring_criticals_has_no_critical() -> None:
    """docs/rules/decisions.md#a35: an FM ignoring critical effects suffers no critical, the Red Joker's included."""
    s = target(wounds=9, rank_value=9, ignores_critical_effects=True)
    run(s, "damage T 2/3/5 card=RJ")
    t = ttb_state(s).fighters["T"]
    assert t.wounds == 4 and t.criticals == [] and ttb_state(s).prompt is None


def test_ignores_critical_effects_is_for_fm_only() -> None:
    """docs/rules/ttb.md#s2-1 ignores_critical_effects "FM only": on a Fated it changes nothing (critical + check)."""
    s = fated(wounds=1, ignores_critical_effects=True)
    run(s, "damage F 2")
    assert kind(s) == "critical"


def test_damage_prompt_blocks_other_commands() -> None:
    """docs/rules/ttb-damage.md#s2-8-2 / CONTRACT docs/rules/2d20.md#s3: while the critical prompt waits, other commands
    are refused."""
    s = target(wounds=1)
    run(s, "damage T 2")
    before = dump(ttb_state(s))
    with pytest.raises(Refusal, match="waiting"):
        s.execute("damage E 1")
    assert dump(ttb_state(s)) == before


# --- docs/rules/ttb-damage.md#s2-8-3 healing, decision A38 ------------------------------------------------------------


def test_healing_is_capped_at_max_wounds() -> None:
    """docs/rules/ttb-damage.md#s2-8-3 / docs/rules/decisions.md#a38: healing never raises Wounds above the maximum."""
    s = target(wounds=6)
    run(s, "damage T 2", "heal T 5")
    assert ttb_state(s).fighters["T"].wounds == 6


def test_healing_that_stays_at_or_below_zero_does_not_wake() -> None:
    """docs/rules/ttb-damage.md#s2-8-3: any healing ends Unconscious only if the character ends at ≥1 Wound."""
    s = target(wounds=2)
    run(s, "damage T 5", "answer 3R")
    t = ttb_state(s).fighters["T"]
    assert t.wounds == -3 and t.unconscious
    run(s, "heal T 3")
    assert t.wounds == 0 and t.unconscious
    run(s, "heal T 1")
    assert t.wounds == 1 and not t.unconscious
    assert t.conditions.get("prone")  # still Prone: Stand Up ends it


def test_unconscious_at_positive_wounds_wakes_on_any_healing() -> None:
    """docs/rules/ttb-conditions.md#s2-7-2 Unconscious: a character already at ≥1 Wound still needs some healing to
    wake."""
    s = target(wounds=6, conditions={"unconscious": True})
    run(s, "damage T 1")
    assert ttb_state(s).fighters["T"].unconscious
    run(s, "heal T 1")
    assert not ttb_state(s).fighters["T"].unconscious


@pytest.mark.parametrize(("card", "wounds"), [("RJ", 8), ("BJ", 1), ("4R", 2), ("7R", 3), ("12R", 4)])
def test_healing_flip(card: str, wounds: int) -> None:
    """docs/rules/ttb-damage.md#s2-8-3: healing flip 1/2/3: Black Joker none, 1-5 weak, 6-10 moderate, 11-13 severe,
    Red Joker all damage (up to the maximum)."""
    s = target(wounds=8)
    run(s, "damage T 7", f"heal T 1/2/3 card={card}")
    assert ttb_state(s).fighters["T"].wounds == wounds


def test_healing_flip_red_joker_wakes_the_unconscious() -> None:
    """docs/rules/ttb-damage.md#s2-8-3: a Red Joker healing flip heals all damage, ending Unconscious."""
    s = target(wounds=3)
    run(s, "damage T 5", "answer 3R")
    assert ttb_state(s).fighters["T"].unconscious
    run(s, "heal T 1/2/3 card=RJ")
    t = ttb_state(s).fighters["T"]
    assert t.wounds == 3 and not t.unconscious


def test_healing_flip_from_the_deck() -> None:
    """docs/rules/ttb-damage.md#s2-8-3: without card= the tracker flips the healing card from the Fate Deck."""
    s = target(wounds=8)
    run(s, "damage T 7")
    ttb_state(s).deck.append("9T")
    run(s, "heal T 1/2/3")
    assert ttb_state(s).fighters["T"].wounds == 3
    assert ttb_state(s).discards[-1] == "9T"
