"""docs/rules/ttb-turns.md#s2-3 (initiative and action order) and the scenario checks C14 and C15 of
docs/rules/checks.md#s4."""

from __future__ import annotations

from tests.conftest import pending, refused, run, session_from, ttb_state
from tracker.families.presenter import option_labels
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.ttb.fate.cards import can_cheat, parse_card


def actives(s: Session, turns: int) -> list[str]:
    """Who is active now and after each of the next `turns - 1` `next` commands."""
    seen = [str(ttb_state(s).active)]
    for _ in range(turns - 1):
        run(s, "next")
        seen.append(str(ttb_state(s).active))
    return seen


C14 = """
[[combatants]]
name = "Sofia"
kind = "fated"
initiative = 3
speed = 4
wounds = 8
hand = []

[[combatants]]
name = "Henchman"
rank_value = 10
initiative = 2
speed = 7
wounds = 12

[[combatants]]
name = "Minion"
rank_value = 5
initiative = 4
speed = 9
wounds = 6
"""


def test_fated_initiative_is_flip_plus_initiative_aspect() -> None:
    """docs/rules/ttb-turns.md#s2-3-1: a Fated flips 1 card from the Fate Deck and adds its Initiative Aspect."""
    s = session_from(C14)
    top = parse_card(ttb_state(s).deck[-1])
    run(s, "start")
    sofia = ttb_state(s).fighters["Sofia"]
    assert sofia.init_card == top.code
    assert sofia.init == top.value + 3
    assert ttb_state(s).discards == [top.code]


def test_fatemaster_initiative_is_rank_value_plus_initiative_without_a_flip() -> None:
    """docs/rules/ttb-turns.md#s2-3-2: FM characters use Rank Value + Initiative and flip nothing."""
    s = session_from(C14)
    run(s, "initiative Sofia 9", "start")
    assert ttb_state(s).fighters["Henchman"].init == 12
    assert ttb_state(s).fighters["Minion"].init == 9
    assert ttb_state(s).discards == []
    assert len(ttb_state(s).deck) == 54


def test_initiative_command_is_refused_for_fatemaster_characters() -> None:
    """docs/rules/ttb-turns.md#s2-3-2: a FM character has no initiative flip, so no card can be set for it."""
    s = session_from(C14)
    refused(s, "initiative Henchman 9")


def test_red_joker_initiative_is_fourteen_plus_aspect() -> None:
    """docs/rules/ttb-turns.md#s2-3-1: the Red Joker counts 14 on an initiative flip."""
    s = session_from(C14)
    run(s, "initiative Sofia RJ", "start")
    assert ttb_state(s).fighters["Sofia"].init == 17
    assert state_json(s)["combatants"][0]["initiative"] == 17


def test_C14_fated_beats_fm_on_a_tie_then_order_by_total() -> None:
    """docs/rules/checks.md#c14 (docs/rules/ttb-turns.md#s2-3-3): Fated 9+3 = 12 ties the Henchman 10+2 = 12 and goes
    first despite lower Speed; the Minion (5+4 = 9) is last."""
    s = session_from(C14)
    run(s, "initiative Sofia 9", "start")
    assert ttb_state(s).fighters["Sofia"].init == 12
    assert ttb_state(s).fighters["Henchman"].init == 12
    assert ttb_state(s).order == ["Sofia", "Henchman", "Minion"]
    assert ttb_state(s).prompt is None
    assert actives(s, 3) == ["Sofia", "Henchman", "Minion"]


def test_C14_black_joker_initiative_is_zero_plus_aspect_and_cannot_be_cheated() -> None:
    """docs/rules/checks.md#c14 (docs/rules/ttb-turns.md#s2-3-1, docs/rules/ttb.md#s2-2-4): the Black Joker makes the
    Fated's initiative 0 + 3 = 3, so it acts last; cheating an initiative flip (or a Black Joker) is refused."""
    s = session_from(C14)
    run(s, "initiative Sofia BJ", "start")
    assert ttb_state(s).fighters["Sofia"].init == 3
    assert ttb_state(s).order == ["Henchman", "Minion", "Sofia"]
    bj = [parse_card("BJ")]
    assert not can_cheat(bj, 0, initiative=True)
    assert not can_cheat([parse_card("5R")], 0, initiative=True)


TWO_FATED = """
[[combatants]]
name = "Ann"
kind = "fated"
initiative = 3
speed = {ann_speed}
wounds = 8
hand = []

[[combatants]]
name = "Bob"
kind = "fated"
initiative = 3
speed = {bob_speed}
wounds = 8
hand = []

[[combatants]]
name = "Thug"
rank_value = 5
initiative = 2
wounds = 6
"""


def test_C15_fated_tie_broken_by_higher_speed() -> None:
    """docs/rules/checks.md#c15 (docs/rules/ttb-turns.md#s2-3-3): two Fated tied at 12, Speed 6 beats Speed 5; nobody is
    asked."""
    s = session_from(TWO_FATED.format(ann_speed=5, bob_speed=6))
    run(s, "initiative Ann 9", "initiative Bob 9", "start")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).order == ["Bob", "Ann", "Thug"]


def test_C15_equal_speed_asks_the_players_every_round() -> None:
    """docs/rules/checks.md#c15 (docs/rules/ttb-turns.md#s2-3-3): with equal Speed the engine asks who goes first, and
    asks again at the start of every round; the answer (a name) orders the tied pair for that round only."""
    s = session_from(TWO_FATED.format(ann_speed=5, bob_speed=5))
    run(s, "initiative Ann 9", "initiative Bob 9", "start")
    st = ttb_state(s)
    assert st.prompt is not None and st.prompt.kind == "tie"
    assert sorted(st.prompt.options) == ["Ann", "Bob"]
    assert st.active is None
    run(s, "answer Bob")
    assert st.prompt is None
    assert actives(s, 3) == ["Bob", "Ann", "Thug"]
    run(s, "next")
    assert st.round == 2
    assert st.prompt is not None and st.prompt.kind == "tie"
    run(s, "answer ann")
    assert st.order[:2] == ["Ann", "Bob"]
    assert st.active == "Ann"


def test_tie_prompt_refuses_other_commands_and_names_outside_the_tie() -> None:
    """docs/rules/ttb-turns.md#s2-3-3 and CONTRACT docs/rules/2d20.md#s3: while the tie is asked, other commands are
    refused, and only a tied character's name answers it."""
    s = session_from(TWO_FATED.format(ann_speed=5, bob_speed=5))
    run(s, "initiative Ann 9", "initiative Bob 9", "start")
    refused(s, "next")
    refused(s, "spend Ann walk")
    refused(s, "answer Thug")
    assert ttb_state(s).prompt is not None


def test_three_way_tie_is_asked_until_one_remains() -> None:
    """docs/rules/ttb-turns.md#s2-3-3: a tie among three asks twice (the last one left needs no answer)."""
    text = (
        TWO_FATED.format(ann_speed=5, bob_speed=5)
        + """
[[combatants]]
name = "Cat"
kind = "fated"
initiative = 3
speed = 5
wounds = 8
hand = []
"""
    )
    s = session_from(text)
    run(s, "initiative Ann 9", "initiative Bob 9", "initiative Cat 9", "start")
    assert ttb_state(s).prompt is not None
    assert sorted(pending(ttb_state(s)).options) == ["Ann", "Bob", "Cat"]
    run(s, "answer Cat")
    assert ttb_state(s).prompt is not None
    assert sorted(pending(ttb_state(s)).options) == ["Ann", "Bob"]
    run(s, "answer Bob")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).order == ["Cat", "Bob", "Ann", "Thug"]


def test_fm_tie_with_equal_speed_is_also_asked() -> None:
    """docs/rules/ttb-turns.md#s2-3-3: two FM characters with equal totals and Speed are ordered by the table."""
    s = session_from("""
        [[combatants]]
        name = "Red"
        rank_value = 5
        initiative = 2
        speed = 4
        wounds = 6

        [[combatants]]
        name = "Blue"
        rank_value = 6
        initiative = 1
        speed = 4
        wounds = 6
    """)
    run(s, "start")
    assert ttb_state(s).prompt is not None and pending(ttb_state(s)).kind == "tie"
    run(s, "answer Blue")
    assert ttb_state(s).order == ["Blue", "Red"]


def test_fm_tie_broken_by_speed() -> None:
    """docs/rules/ttb-turns.md#s2-3-3: between FM characters with equal totals the higher Speed acts first."""
    s = session_from("""
        [[combatants]]
        name = "Red"
        rank_value = 5
        initiative = 2
        speed = 4
        wounds = 6

        [[combatants]]
        name = "Blue"
        rank_value = 6
        initiative = 1
        speed = 5
        wounds = 6
    """)
    run(s, "start")
    assert ttb_state(s).prompt is None
    assert ttb_state(s).order == ["Blue", "Red"]


PASS_WAIT = """
[[combatants]]
name = "Alpha"
rank_value = 5
initiative = 2
speed = 2
wounds = 6

[[combatants]]
name = "Beta"
rank_value = 5
initiative = 3
speed = 1
wounds = 6
"""


def test_pass_adds_one_initiative_from_the_next_round() -> None:
    """docs/rules/ttb-turns.md#s2-3-5 and docs/rules/ttb-turns.md#s2-3-9 (docs/rules/decisions.md#a16): Pass gives
    Initiative +1 each use; the change waits for the next round's re-sort (no reorder mid-round), then reorders."""
    s = session_from(PASS_WAIT)
    run(s, "start")
    assert ttb_state(s).order == ["Beta", "Alpha"]
    run(s, "next")
    assert ttb_state(s).active == "Alpha"
    run(s, "spend Alpha pass", "spend Alpha pass")
    assert ttb_state(s).fighters["Alpha"].init == 7
    assert ttb_state(s).order == ["Beta", "Alpha"]
    run(s, "next")
    assert ttb_state(s).round == 2
    assert ttb_state(s).fighters["Alpha"].init == 9
    assert ttb_state(s).order == ["Alpha", "Beta"]
    assert ttb_state(s).active == "Alpha"


def test_wait_subtracts_one_initiative_from_the_next_round() -> None:
    """docs/rules/ttb-turns.md#s2-3-6 and docs/rules/ttb-turns.md#s2-3-9: Wait gives Initiative −1 on subsequent turns,
    applied at the next round start."""
    s = session_from(PASS_WAIT)
    run(s, "start", "spend Beta wait strike")
    assert ttb_state(s).fighters["Beta"].init == 8
    run(s, "next", "next")
    assert ttb_state(s).round == 2
    assert ttb_state(s).fighters["Beta"].init == 7
    assert ttb_state(s).order == ["Alpha", "Beta"]


def test_pass_lasts_until_end_of_dramatic_time() -> None:
    """docs/rules/ttb-turns.md#s2-3-5 and docs/rules/ttb-turns.md#s2-3-9: the Pass bonus stays in later rounds and
    clears at `end`."""
    s = session_from(PASS_WAIT)
    run(s, "start", "next", "spend Alpha pass", "next")
    assert ttb_state(s).fighters["Alpha"].init == 8
    run(s, "next", "next")
    assert ttb_state(s).round == 3
    assert ttb_state(s).fighters["Alpha"].init == 8
    run(s, "end")
    assert ttb_state(s).fighters["Alpha"].init_mod == 0
    assert ttb_state(s).fighters["Alpha"].pending_init_mod == 0


def test_pass_bonus_can_create_a_tie_that_speed_breaks() -> None:
    """docs/rules/ttb-turns.md#s2-3-3 and docs/rules/ttb-turns.md#s2-3-9: the re-sorted order applies the tie-breakers
    to the new totals."""
    s = session_from("""
        [[combatants]]
        name = "Alpha"
        rank_value = 5
        initiative = 2
        speed = 6
        wounds = 6

        [[combatants]]
        name = "Beta"
        rank_value = 5
        initiative = 3
        speed = 3
        wounds = 6
    """)
    run(s, "start", "next", "spend Alpha pass", "next")
    assert ttb_state(s).fighters["Alpha"].init == ttb_state(s).fighters["Beta"].init == 8
    assert ttb_state(s).order == ["Alpha", "Beta"]


def test_surprised_character_is_slow_on_its_first_turn_only() -> None:
    """docs/rules/ttb-turns.md#s2-3-4 (C8): a surprised character gains Slow at its first turn start: 1 General AP and
    1 Combat AP; Slow ends with that turn; the second turn has 2 General AP."""
    s = session_from("""
        [[combatants]]
        name = "Victim"
        rank_value = 5
        initiative = 5
        wounds = 6
        surprised = true

        [[combatants]]
        name = "Ambusher"
        rank_value = 5
        initiative = 1
        wounds = 6
    """)
    run(s, "start")
    v = ttb_state(s).fighters["Victim"]
    assert ttb_state(s).active == "Victim"
    assert v.conditions.get("slow") is True
    assert (v.ap, v.combat_ap) == (1, 1)
    run(s, "next")
    assert "slow" not in v.conditions
    run(s, "next")
    assert ttb_state(s).active == "Victim"
    assert (v.ap, v.combat_ap) == (2, 1)


def test_surprised_character_with_fast_cancels_to_normal_ap() -> None:
    """docs/rules/ttb-turns.md#s2-3-4 and docs/rules/checks.md#c7: surprise Slow cancels a Fast gained before the first
    turn: 2 + 1 AP."""
    s = session_from("""
        [[combatants]]
        name = "Victim"
        rank_value = 5
        initiative = 5
        wounds = 6
        surprised = true
        conditions = { fast = true }
    """)
    run(s, "start")
    v = ttb_state(s).fighters["Victim"]
    assert "fast" not in v.conditions and "slow" not in v.conditions
    assert (v.ap, v.combat_ap) == (2, 1)


def test_initiative_card_after_start_reorders() -> None:
    """docs/rules/ttb-turns.md#s2-3-1: setting a Fated's card after `start` recomputes its initiative and the order."""
    s = session_from(C14)
    run(s, "initiative Sofia 1", "start")
    assert ttb_state(s).order[-1] == "Sofia"
    run(s, "initiative Sofia 13")
    assert ttb_state(s).fighters["Sofia"].init == 16
    assert ttb_state(s).order[0] == "Sofia"


def test_dead_characters_leave_the_initiative_order() -> None:
    """docs/rules/ttb-turns.md#s2-3 and docs/rules/ttb-conditions.md#s2-7-2 Dead: the dead are removed from the order
    and skipped."""
    s = session_from(C14)
    run(s, "initiative Sofia 9", "start", "add Minion bleeding_out 10")
    assert "Minion" not in ttb_state(s).order
    assert actives(s, 2) == ["Sofia", "Henchman"]
    run(s, "next")
    assert ttb_state(s).round == 2
    assert ttb_state(s).active == "Sofia"


def test_initiative_joker_leaves_the_fate_deck() -> None:
    """docs/rules/ttb-turns.md#s2-3 [000:L156]: `initiative NAME BJ`/`RJ` takes that Joker out of the Fate Deck like any
    flip."""
    from tests.conftest import session_from, ttb_state
    from tests.rules.ttb.fighters import combatant

    s = session_from(combatant("Sofia", kind="fated") + combatant("Kaito", kind="fated") + combatant("Thug"))
    s.execute("initiative Sofia BJ")
    s.execute("initiative Kaito RJ")
    st = ttb_state(s)
    assert "BJ" not in st.deck and "RJ" not in st.deck
    assert "BJ" in st.discards and "RJ" in st.discards
    assert len(st.deck) + len(st.discards) + len(st.table) == 54


MINIONS = """
[[combatants]]
name = "Ghoul 1"
rank_value = 5
initiative = 2
speed = 4
wounds = 6

[[combatants]]
name = "Ghoul 2"
rank_value = 5
initiative = 2
speed = 4
wounds = 6

[[combatants]]
name = "Ghoul 3"
rank_value = 5
initiative = 2
speed = 4
wounds = 6
"""


def test_a_tie_answered_last_round_offers_as_last_round_first() -> None:
    """docs/rules/ttb-turns.md#s2-3-3 [000:L38]: identical minions tie every round and the players decide anew each
    round; when the same tie was answered last round, the one who went first then is option 1, "as last round"."""
    s = run(session_from(MINIONS), "start")
    p = pending(ttb_state(s))
    assert p.kind == "tie" and p.options == ["Ghoul 1", "Ghoul 2", "Ghoul 3"]  # round 1: the file's order
    run(s, "answer Ghoul 3", "answer Ghoul 2")
    assert ttb_state(s).order == ["Ghoul 3", "Ghoul 2", "Ghoul 1"]
    run(s, "next", "next", "next")
    assert ttb_state(s).round == 2
    p = pending(ttb_state(s))
    assert p.kind == "tie" and p.options[0] == "Ghoul 3"
    assert option_labels(p)[0] == "Ghoul 3 · as last round"
    assert "between Ghoul 1, Ghoul 2, Ghoul 3" in p.question
    run(s, f"answer '{p.options[0]}'")  # key 1
    p = pending(ttb_state(s))
    assert p.options[0] == "Ghoul 2" and option_labels(p)[0] == "Ghoul 2 · as last round"
    run(s, f"answer '{p.options[0]}'")
    assert ttb_state(s).order == ["Ghoul 3", "Ghoul 2", "Ghoul 1"]


def test_as_last_round_after_one_of_the_tied_left_and_never_in_round_one() -> None:
    """docs/rules/ttb-turns.md#s2-3-3 [000:L38]: after one of three tied minions leaves, the two left are offered in
    last round's order ("as last round" first); a first round has no last round, so nothing is offered so."""
    s = run(session_from(MINIONS), "start", "answer Ghoul 2", "answer Ghoul 3")
    run(s, "leave 'Ghoul 2'")
    while ttb_state(s).round == 1:
        run(s, "next")
    p = pending(ttb_state(s))
    # Last round ordered Ghoul 2, Ghoul 3, Ghoul 1: of the pair now tied, Ghoul 3 went first.
    assert p.options == ["Ghoul 3", "Ghoul 1"] and option_labels(p)[0] == "Ghoul 3 · as last round"
    fresh = run(session_from(MINIONS), "start")
    assert "labels" not in pending(ttb_state(fresh)).data
