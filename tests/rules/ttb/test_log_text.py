"""The Through the Breach log says things as the table would: counts agree with their noun,
a distance is the character's own Walk, and a bonus is logged when it applies."""

from __future__ import annotations

from tests.conftest import run, session_from, ttb_state
from tests.rules.ttb.test_actions import FATED_HERO, duo
from tracker.families.session import Session
from tracker.present.words import counted, plural


def last(s: Session) -> str:
    return ttb_state(s).log[-1].text


def test_counted_says_one_and_many() -> None:
    """The one helper every count goes through (tracker.present.words)."""
    assert [counted(n, "shot") for n in (0, 1, 2)] == ["0 shots", "1 shot", "2 shots"]
    assert counted(1, "reshuffle") == "1 reshuffle"
    assert counted(-1, "Wound") == "-1 Wound"
    assert [plural("success", 2), plural("Breach", 2), plural("Metanoia", 2)] == ["successes", "Breaches", "Metanoia"]


SIX_GUN = 'weapons = [{ name = "Pistol", kind = "projectile", damage = "2/3/4", reload = 1, capacity = 2 }]'


def test_shots_left_agree_with_their_count() -> None:
    """docs/rules/ttb-turns.md#s2-5 Reload (``capacity``): "1 shot left", then "0 shots left"; a reload says "2
    shots"."""
    s = duo(hero=SIX_GUN)
    run(s, "start", "spend Hero shoot")
    assert last(s) == "Hero fires the Pistol (1 shot left)"
    run(s, "spend Hero shoot")
    assert last(s) == "Hero fires the Pistol (0 shots left)"
    run(s, "next", "next", "spend Hero reload")
    assert last(s) == "Hero reloads the Pistol: ready (2 shots)"


def test_reshuffle_log_counts_its_cards() -> None:
    """docs/rules/ttb.md#s2-2-1 reshuffle: a one-card deck is "1 card", not "1 cards"."""
    s = duo()
    st = ttb_state(s)
    st.discards, st.deck = st.deck[:1], []
    run(s, "reshuffle")
    assert [e.text for e in st.log if e.text.startswith("Fate Deck reshuffled")] == [
        "Fate Deck reshuffled (the GM reshuffles): 1 card"
    ]


def test_walk_from_the_sheet_in_yards() -> None:
    """docs/rules/ttb-turns.md#s2-5 Walk: "Move up to Walk yards" — the character's Walk, as the file gives it."""
    s = duo(hero="walk = 4\nskills = { athletics = 2 }")
    run(s, "start", "spend Hero walk")
    assert last(s) == "Hero walks (up to 4 yards)"
    run(s, "spend Hero walk")
    run(s, "next", "next", "spend Hero run")
    assert last(s) == "Hero runs (up to 10 yards)"  # 2×Walk + Athletics 2 (docs/rules/ttb-turns.md#s2-5 Run)


def test_walk_without_a_walk_in_the_file_names_the_rule_not_a_number() -> None:
    """docs/rules/ttb-turns.md#s2-5 Walk = the character's Walk. Decision (tracker.families.ttb.movement.distance): a
    sheet without ``walk`` has no Walk the tracker knows, so the log says "up to its Walk" rather than
    presenting a default (formerly 5 yards) as the character's stat."""
    s = duo()
    run(s, "start", "spend Hero walk")
    assert last(s) == "Hero walks (up to its Walk)"
    assert "5 yards" not in last(s)
    run(s, "spend Hero walk", "next", "next", "spend Hero run")
    assert last(s) == "Hero runs (up to twice its Walk)"


def test_useless_leg_shortens_a_known_walk() -> None:
    """docs/rules/ttb-conditions.md#s2-7 Useless Limb (leg): Walk −2, minimum 1."""
    s = duo(hero="walk = 2\nconditions = { useless_leg = true }")
    run(s, "start", "spend Hero walk")
    assert last(s) == "Hero walks (up to 1 yard)"


def test_defensive_stance_bonus_is_logged_after_the_discard_it_needs() -> None:
    """docs/rules/ttb-turns.md#s2-5 Defensive Stance: discard a card, then Defensive +AP. When the player is asked which
    card, the bonus is neither held nor logged until the answer; then the discard and the bonus follow."""
    s = session_from(FATED_HERO.format(hand='["9R", "4C"]', extra=""))
    run(s, "initiative Sofia 9", "start", "spend Sofia defensive 2")
    st = ttb_state(s)
    assert st.prompt is not None
    assert "defensive" not in st.fighters["Sofia"].conditions
    assert not any("Defensive" in e.text and "gains" in e.text for e in st.log)
    run(s, "answer 9R")
    texts = [e.text for e in st.log]
    assert texts[-2] == "Sofia discards 9R from the Control Hand"
    assert "Sofia gains Defensive" in texts[-1]
    assert st.fighters["Sofia"].conditions["defensive"] == 2


def test_defensive_stance_with_a_named_card_logs_discard_then_bonus() -> None:
    """docs/rules/ttb-turns.md#s2-5 Defensive Stance: the card named at once; the bonus is logged right after it."""
    s = session_from(FATED_HERO.format(hand='["9R", "4C"]', extra=""))
    run(s, "initiative Sofia 9", "start", "spend Sofia defensive 1 4C")
    texts = [e.text for e in ttb_state(s).log]
    assert texts[-2].startswith("Sofia discards 4")
    assert "Sofia gains Defensive" in texts[-1]
