"""What a seat receives is computed from what that seat knows (docs/guide/seating.md; docs/guide/shared-box.md
"Secrets"): the bytes sent to a seat do not change when every other Control Hand, every other Twist Deck and the Fate
Deck's order are swapped for others of the same size, whatever waits — another Fated's duel included, whose odds once
counted that Fated's hand ("98 % cheating with 6♠ or 9♣") and, Fated against Fated, its best card."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import run, session_from
from tests.rules.ttb.fighters import combatant
from tracker.families.session import Session
from tracker.families.ttb.records.state import TTBState
from tracker.table.projection import encode, project

SOFIA = "Sofia Ramos"
CARDS = [f"{v}{s}" for v in range(1, 14) for s in "RCTM"]


SABRE = {"name": "Sabre", "kind": "melee", "range": 1, "damage": "2/3/5"}


def _table() -> Session:
    """Sofia (alice's seat) acts; Ash, her ally, and Mara, a rival, are Fated with trained skills and hands."""
    sofia = combatant(
        "Sofia Ramos",
        kind="fated",
        initiative=20,
        skills={"deceive": 2, "melee": 3},
        weapons=[SABRE],
        hand=["5R", "7C"],
        side="players",
    )
    ash = combatant(
        "Ash Kettering",
        kind="fated",
        initiative=10,
        skills={"scrutiny": 2},
        defense=4,
        hand=["6C", "9T", "1T"],
        side="players",
    )
    mara = combatant(
        "Mara", kind="fated", initiative=5, defense=4, skills={"melee": 2}, hand=["12M", "3R"], side="rivals"
    )
    return run(
        session_from(sofia + ash + mara),
        "initiative 'Sofia Ramos' 9",
        "initiative 'Ash Kettering' 5",
        "initiative Mara 2",
        "start",
        "engage 'Sofia Ramos' Mara",
    )


def _sent(session: Session) -> bytes:
    prompt = session.state.prompt
    about = prompt.who if prompt is not None and prompt.who == SOFIA else None
    return encode(project(session, "alice", (SOFIA,), 7, about))


def _swap_the_unknown(session: Session, rnd: random.Random) -> None:
    """Every hand but Sofia's and every Twist Deck but hers replaced by other cards of the same count, and
    the Fate Deck shuffled (the same cards, another order)."""
    st_ = session.state
    assert isinstance(st_, TTBState)
    mine = set(st_.fighters[SOFIA].hand)
    for name, f in st_.fighters.items():
        if name == SOFIA:
            continue
        pool = [c for c in CARDS if c not in mine]
        rnd.shuffle(pool)
        f.hand = pool[: len(f.hand)]
        f.twist_deck = pool[len(f.hand) : len(f.hand) + len(f.twist_deck)]
    rnd.shuffle(st_.deck)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), case=st.sampled_from(["turn", "trick", "attack", "duel"]))
def test_a_seat_is_sent_nothing_that_depends_on_what_it_cannot_know(seed: int, case: str) -> None:
    session = _table()
    assert session.state.active == SOFIA
    if case == "trick":
        session.execute("spend 'Sofia Ramos' trick 'Ash Kettering'")  # Fated against Fated: both may cheat
    elif case == "attack":
        session.execute("attack 'Sofia Ramos' strike")  # the target list, each with its odds
    elif case == "duel":
        session.execute("attack 'Sofia Ramos' strike Mara Sabre")  # the duel's odds: both flip, both may cheat
    before = _sent(session)
    _swap_the_unknown(session, random.Random(seed))
    assert _sent(session) == before
