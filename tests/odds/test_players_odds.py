"""The fight's odds from what the players know (docs/reference/cli.md "fight_odds_for_players"): the combatants
the GM keeps hidden are not in the fight, and nobody's Control Hand is known, so the figures a seat is sent say
nothing it could not know."""

from __future__ import annotations

from tests.conftest import run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.families.session import Session
from tracker.playouts import fleet, runs, tally

SABRE = [{"name": "Sabre", "kind": "melee", "damage": "2/3/5"}]
CLUB = [{"name": "Club", "kind": "melee", "damage": "2/3/4"}]


def fight(hand: list[str]) -> Session:
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, defense=5, skills={"melee": 3}, weapons=SABRE, hand=hand
    )
    ash = combatant("Ash", kind="fated", initiative=10, wounds=7, defense=4, skills={"melee": 2}, weapons=SABRE)
    thug = combatant("Thug", rank_value=6, wounds=8, defense=4, skills={"melee": 3}, weapons=CLUB)
    spy = combatant("Spy", rank_value=7, wounds=8, defense=5, skills={"melee": 4}, weapons=CLUB, gm_only=True)
    return run(session_from(sofia + ash + thug + spy), "start")


def figures(start: runs.Start, n: int = 60) -> tally.Tally:
    return tally.tally(start, fleet.outcomes(start, n, workers=1))


def test_a_hidden_combatant_is_not_in_the_players_fight() -> None:
    s = fight(["13R", "12M"])
    gm = runs.start_of(s.family, s.rules, 12, 1)
    players = runs.start_of(s.family, s.rules, 12, 1, players=True)
    assert "Spy" in gm.names and "Spy" not in players.names
    assert players.blind == players.names and gm.blind == ()
    assert "Spy" in s.rules.present_names()  # the live fight is as it was
    assert "Spy" not in figures(players).fates


def test_the_players_figures_never_read_a_hand_of_cards() -> None:
    """Sofia's Control Hand is swapped for other cards of her Twist Deck: the players' figures are the same run
    for run (each run draws the hands afresh from the same cards), where the GM's, who sees the hand, need not be."""
    s = fight(["13R", "12M"])
    sofia = ttb_state(s).fighters["Sofia"]
    a = runs.start_of(s.family, s.rules, 12, 1, players=True)
    sofia.hand, sofia.twist_deck = sofia.twist_deck[:2], [*sofia.twist_deck[2:], *sofia.hand]
    b = runs.start_of(s.family, s.rules, 12, 1, players=True)
    assert a.state != b.state
    assert fleet.outcomes(a, 40, workers=1) == fleet.outcomes(b, 40, workers=1)


def test_a_hand_drawn_afresh_keeps_its_size_and_comes_from_its_twist_deck() -> None:
    live = fight(["13R", "12M", "1C"])
    rules = live.rules
    before = list(ttb_state(live).fighters["Sofia"].hand)
    rules.unseen_hands(("Sofia",))
    after = ttb_state(live).fighters["Sofia"].hand
    assert len(after) == len(before) == 3
    twist = ttb_state(live).fighters["Sofia"].twist_deck
    assert sorted([*after, *twist]) == sorted(set([*after, *twist])) and set(before) <= set([*after, *twist])
