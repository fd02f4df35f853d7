"""Attacks on the Unconscious (docs/rules/ttb-conditions.md#s2-7 Unconscious [000:L350-352]): a Fated counts as flipping
the Black Joker on the Defense duel that resists an attack; a Fatemaster character resists with Rank Value 0."""

from __future__ import annotations

from tests.conftest import pending, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tracker.families.session import Session
from tracker.families.ttb.fate.cards import full_deck

SABRE = {"name": "Sabre", "kind": "melee", "range": 1, "damage": "2/3/5"}
CLUB = {"name": "Club", "kind": "melee", "range": 1, "damage": "1/2/3"}


def top(s: Session, *codes: str) -> None:
    """Put `codes` on top of the Fate Deck, the first flipped first."""
    deck = ttb_state(s).deck
    for code in reversed(codes):
        deck.remove(code)
        deck.append(code)


def cards54(s: Session) -> None:
    st = ttb_state(s)
    assert sorted([*st.deck, *st.discards, *st.table]) == sorted(full_deck())


def duo(sofia_first: bool = True, **sofia: object) -> Session:
    """Sofia (Fated, Melee 3, Defense 3) and the Thug (Rank Value 5, Defense 4, Melee 2), engaged."""
    fated = combatant(
        "Sofia",
        kind="fated",
        initiative=20,
        wounds=8,
        defense=3,
        skills={"melee": 3},
        weapons=[SABRE],
        melee_range=1,
        **sofia,
    )
    thug = combatant("Thug", rank_value=5, defense=4, wounds=9, skills={"melee": 2}, weapons=[CLUB], melee_range=1)
    s = run(session_from(fated + thug), "initiative Sofia 9", "start", "engage Sofia Thug")
    return s if sofia_first else run(s, "next")


def test_an_unconscious_fatemaster_resists_with_rank_value_zero() -> None:
    """docs/rules/ttb-conditions.md#s2-7 Unconscious [000:L352]: the TN against an Unconscious Fatemaster character is
    its Defense + 0."""
    s = duo()
    ttb_state(s).fighters["Thug"].unconscious = True
    run(s, "spend Sofia strike Thug")
    p = pending(ttb_state(s))
    assert p.kind == "attack" and p.data["tn"] == 4 and "TN 4" in p.question


def test_a_fatemaster_knocked_out_by_damage_resists_with_rank_value_zero() -> None:
    """docs/rules/ttb-conditions.md#s2-7 Unconscious [000:L352] and docs/rules/ttb-damage.md#s2-8-2: the Thug knocked
    out by the first blow of a Charge meets the second with TN = Defense 4 + 0, not Defense + Rank Value 9."""
    s = duo()
    run(s, "damage Thug 9 no-armor", "answer 5R")  # 9 damage: 0 Wounds, a Fatemaster fails the check
    while ttb_state(s).prompt is not None:
        run(s, "answer flip" if "flip" in pending(ttb_state(s)).options else "answer 1R")
    assert ttb_state(s).fighters["Thug"].unconscious and not ttb_state(s).fighters["Thug"].dead
    run(s, "attack Sofia strike", "answer Thug")
    p = pending(ttb_state(s))
    assert p.kind == "attack" and p.data["tn"] == 4


def test_a_fatemaster_vs_fatemaster_comparison_uses_rank_value_zero_for_the_unconscious() -> None:
    """docs/rules/ttb-conditions.md#s2-7 Unconscious [000:L352], docs/rules/ttb.md#s2-2-5: a Fatemaster against an
    Unconscious one compares acting value + Rank Value with Defense + 0."""
    thug = combatant(
        "Thug", rank_value=5, initiative=9, skills={"melee": 2}, weapons=[CLUB], melee_range=1, side="guild"
    )
    ghoul = combatant("Ghoul", rank_value=3, defense=2, wounds=6, side="dead")
    s = run(session_from(thug + ghoul), "start", "engage Thug Ghoul")
    ttb_state(s).fighters["Ghoul"].unconscious = True
    run(s, "attack Thug", "answer Ghoul")
    p = pending(ttb_state(s))
    assert p.kind == "attack" and p.data["tn"] == 2 and "no card: 7 vs 2" in p.question


def test_an_unconscious_fated_defends_with_the_black_joker_and_no_cheat() -> None:
    """docs/rules/ttb-conditions.md#s2-7 Unconscious [000:L350]: the Fatemaster's attack on an Unconscious Fated hits:
    its Defense flip counts as the Black Joker (no card leaves the Fate Deck, no cheat offer,
    docs/rules/ttb.md#s2-2-4)."""
    s = duo(sofia_first=False, hand=["13M"])
    ttb_state(s).fighters["Sofia"].unconscious = True
    run(s, "attack Thug", "answer Sofia")
    p = pending(ttb_state(s))
    assert p.options[0] == "flip" and "Sofia is Unconscious" in p.question
    deck = list(ttb_state(s).deck)
    run(s, "answer flip")
    log = [e.text for e in ttb_state(s).log]
    assert "Sofia is Unconscious: its Defense flip counts as the Black Joker" in log
    assert "Thug's attack with the Club hits Sofia" in log
    assert pending(ttb_state(s)).kind == "damage_flip"  # not a cheat offer
    assert ttb_state(s).deck == deck and ttb_state(s).fighters["Sofia"].hand == ["13M"]


def test_an_unconscious_fated_defender_in_a_fated_duel_counts_the_black_joker() -> None:
    """docs/rules/ttb-conditions.md#s2-7 Unconscious [000:L350] and docs/rules/ttb.md#s2-2-4 [000:L418]: Fated against
    an Unconscious Fated: the defender's card is the Black Joker, drawn from no deck, and it is offered no cheat; the
    attack hits."""
    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"melee": 3}, weapons=[SABRE], melee_range=1, hand=[]
    )
    mara = combatant("Mara", kind="fated", initiative=1, wounds=8, defense=4, hand=["13C"])
    s = run(session_from(sofia + mara), "initiative Sofia 9", "initiative Mara 2", "start", "spend Sofia strike Mara")
    ttb_state(s).fighters["Mara"].unconscious = True
    top(s, "2R")
    run(s, "answer flip")  # Sofia 2 + 3 = 5 against the Black Joker's 0 + 4: a hit
    log = [e.text for e in ttb_state(s).log]
    assert any("Mara is Unconscious: its Defense counts as the Black Joker" in t for t in log)
    assert any("Sofia's attack with the Sabre hits Mara" in t for t in log)
    assert ttb_state(s).fighters["Mara"].hand == ["13C"]
    assert not any("Mara flips" in t for t in log)  # no card was flipped for her
    cards54(s)
