"""Property tests: random GM command sequences against a Through the Breach encounter.

Every command line is drawn from the whole GM command language (docs/reference/language.md) and applied to a
4-6 combatant encounter (two Fated, Fatemaster characters of several ranks, one non-Living construct).
A command either succeeds or raises `Refusal`; anything else is a bug. After every command the
invariants of docs/rules/index.md hold:

* docs/rules/ttb.md#s2-2-1: the Fate Deck, its discard pile and the cards on the table are the 54 cards, each once;
* docs/rules/ttb.md#s2-2-2, docs/rules/ttb.md#s2-2-4: a Fated's Twist cards (hand, Twist Deck, Twist discards) stay its
13 cards, each once,
  whatever is cheated (cheat offers come from Sofia's starting hand and her damage flips `by=`);
* docs/rules/ttb.md#s2-2-2: a Control Hand holds at most 5 cards unless the table is being asked which card to discard;
* docs/rules/ttb-turns.md#s2-4: General and Combat AP never go below 0;
* docs/rules/ttb-conditions.md#s2-7-1: a valued condition ends when its value reaches 0, so it is never stored as 0 or
less;
* docs/rules/ttb-damage.md#s2-8-3: healing never lifts Wounds above the maximum; docs/rules/ttb-conditions.md#s2-7-2
Dead: the dead leave the order;
* docs/reference/language.md ``join``/``leave``: who left is out of the order and marked ``"left": true`` in the JSON; a
  newcomer that joined this round is not in this round's order (README decision); newcomers' Twist cards are
  theirs like anyone's (the stat blocks include a Fated without a hand).

A refused command changes nothing (state and history); undo restores exactly the previous state and
redo brings back exactly the state after the command; saving and loading the file is the identity.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import assert_same_course, reloaded, ttb, ttb_state
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.ttb.fate.cards import full_deck
from tracker.families.ttb.fate.deck import HAND_LIMIT
from tracker.families.ttb.tables.actions import ACTIONS
from tracker.families.ttb.tables.catalogue import CONDITIONS
from tracker.store.files import parse_text

HEADER = """
[encounter]
name = "Property fight"
system = "ttb"
seed = 7

[settings]
flips = "{flips}"
combat_ap = {combat_ap}
recheck_unconscious_each_round = {recheck}
"""

#: Two Fated, FM characters of several ranks (Minion, Henchman, Peon), one non-Living. The Thug and
#: the Spider tie at initiative 5 with the same Speed, so every round asks the table (docs/rules/ttb-turns.md#s2-3).
CORE = """
[[combatants]]
name = "Sofia Ramos"
kind = "fated"
initiative = 2
speed = 3
wounds = 8
armor = 1
skills = { toughness = 2, doctor = 1 }
hand = ["13R", "11T", "6C"]

[[combatants]]
name = "Kaito Mori"
kind = "fated"
initiative = 1
wounds = 6
weapons = [{ name = "Pistol", kind = "projectile", range = 12, damage = "2/3/4", reload = 1, capacity = 2 }]

[[combatants]]
name = "Guild Thug"
rank = "minion"
rank_value = 5
wounds = 5
conditions = { burning = 1 }

[[combatants]]
name = "Clockwork Spider"
rank = "peon"
rank_value = 4
initiative = 1
living = false
armor = 2
wounds = 6
"""

#: Stat blocks ``join`` takes newcomers from (docs/reference/file-format.md): a Fated who draws a hand as it joins, a
#: Minion.
BLOCKS = """
[[stat_blocks]]
name = "Drifter"
kind = "fated"
initiative = 1
wounds = 6

[[stat_blocks]]
name = "Goon"
rank_value = 5
initiative = 2
wounds = 4
"""

#: Optional extras: a Henchman with Fate Points and its subordinate Enforcer.
EXTRAS = [
    """
[[combatants]]
name = "Boss Vex"
rank = "henchman"
rank_value = 9
initiative = 1
wounds = 10
""",
    """
[[combatants]]
name = "Cutter"
rank_value = 7
subordinate = true
controller = "Boss Vex"
wounds = 6
""",
]

NAMES = ["Sofia Ramos", "Kaito Mori", "Guild Thug", "Clockwork Spider", "Boss Vex", "Cutter"]
CARDS = [*(str(v) for v in range(1, 14)), "RJ", "BJ", "9R", "13M", "1C", "7T", "0", "14", "XQ"]
ACTION_WORDS = [k.replace("_", "-") for k in ACTIONS]
TARGETED = [*(k.replace("_", "-") for k, a in ACTIONS.items() if a.target), "defensive", "wait"]
CONDITION_WORDS = [*CONDITIONS, "unconscious", "bleeding", "Burning", "useless-leg", "reactivate", "poison"]
ANSWER_WORDS = ["pass", "fail", "yes", "no", "hit", "miss", "flip", "pass 2", "maybe", "13R", "11T", "6C"]


def encounter_text(extra: int, flips: str, combat_ap: int, recheck: bool) -> str:
    head = HEADER.format(flips=flips, combat_ap=combat_ap, recheck=str(recheck).lower())
    return head + CORE + "".join(EXTRAS[:extra]) + BLOCKS


@st.composite
def sessions(draw: st.DrawFn) -> Session:
    """A fresh session: 4-6 combatants, a drawn seed and the table choices that change the engine."""
    text = encounter_text(
        extra=draw(st.integers(0, 2)),
        flips=draw(st.sampled_from(["prompt", "auto"])),
        combat_ap=draw(st.integers(0, 1)),
        recheck=draw(st.booleans()),
    )
    return Session(parse_text(text, "<property>"), seed=draw(st.integers(0, 2**16)))


def quote(name: str) -> str:
    return f"'{name}'" if " " in name else name


def name_words(names: list[str]) -> st.SearchStrategy[str]:
    """A combatant as the GM might type it: full, lower case, first-word prefix, or a stranger."""
    full = st.sampled_from(names).map(quote)
    lower = st.sampled_from(names).map(lambda n: quote(n.lower()))
    prefix = st.sampled_from(names).map(lambda n: n.split()[0][:4].lower())
    return st.one_of(full, full, lower, prefix, st.just("Nobody"))


def command_lines(session: Session, pace: int = 0) -> st.SearchStrategy[str]:
    """Any GM command line, biased towards ones that can be accepted now.

    Actions mostly come from the combatant whose turn it is; while a prompt waits, mostly answers
    from its options (every other command is refused then, which is worth checking too). `pace`
    adds weight to `next`, so some sequences run through several rounds (turn ends, round ends).
    """
    names = list(ttb_state(session).fighters)
    who = name_words(names)
    active = ttb_state(session).active
    actor = st.one_of(st.just(quote(active)), st.just(quote(active)), who) if active else who
    n = st.integers(-1, 12).map(str)
    small = st.integers(1, 4).map(str)
    spend_arg = st.one_of(
        st.just(""),
        st.just(""),
        small,
        who,
        st.sampled_from(ACTION_WORDS),
        st.sampled_from(list(CONDITIONS)),
        st.sampled_from(CARDS),
    )
    spend = st.one_of(
        st.tuples(actor, st.sampled_from(ACTION_WORDS), spend_arg).map(lambda t: f"spend {t[0]} {t[1]} {t[2]}".strip()),
        st.tuples(actor, st.sampled_from(TARGETED), who).map(lambda t: f"spend {t[0]} {t[1]} {t[2]}"),
    )
    add_remove = st.tuples(
        st.sampled_from(["add", "add", "remove"]),
        who,
        st.sampled_from(CONDITION_WORDS),
        st.sampled_from(["", "", "1", "2", "4", "10", "0"]),
    ).map(lambda t: " ".join(t).strip())
    plain = st.one_of(
        st.sampled_from(["start", "next", "undo", "redo", "reshuffle", "flip", "end"]),
        st.just("next"),
        st.just("next"),
        st.just("reshuffle"),
        spend,
        spend,
        spend,
        add_remove,
        add_remove,
        # Bleeding Out at +10 kills (docs/rules/ttb-conditions.md#s2-7-2): deaths must happen often enough to test the
        # order.
        st.tuples(who, st.sampled_from(["4", "9", "10"])).map(lambda t: f"add {t[0]} bleeding_out {t[1]}"),
        st.tuples(who, n, st.sampled_from(["", "", "no-armor"])).map(lambda t: f"damage {t[0]} {t[1]} {t[2]}".strip()),
        st.tuples(
            who, st.sampled_from(["2/3/5", "1/2/3"]), who, st.sampled_from(["", "mod=1", "mod=-1", "card=13R"])
        ).map(lambda t: f"damage {t[0]} {t[1]} by={t[2]} {t[3]}".strip()),
        st.tuples(who, st.integers(0, 5)).map(lambda t: f"heal {t[0]} {t[1]}"),
        st.tuples(st.sampled_from(["engage", "disengage"]), who, who).map(" ".join),
        st.tuples(who, st.sampled_from(CARDS)).map(lambda t: f"initiative {t[0]} {t[1]}"),
        st.integers(0, 11).map(lambda k: f"flip {k}"),
        st.one_of(st.sampled_from(ANSWER_WORDS), st.sampled_from(CARDS), who).map(lambda a: f"answer {a}"),
        # docs/reference/language.md join/leave: newcomers by block, numbered, renamed (clashes refused), and
        # departures.
        st.tuples(
            st.sampled_from(["Goon", "goon", "Drifter", "Dragon"]), st.sampled_from(["", "count=1", "count=2"])
        ).map(lambda t: f"join {t[0]} {t[1]}".strip()),
        st.sampled_from(["join Vic from=Drifter", "join 'Sofia Ramos' from=Goon", "join Ally from=Goon side=players"]),
        who.map(lambda n: f"leave {n}"),
    )
    if pace:
        plain = st.one_of(plain, *[st.just("next")] * pace)
    prompt = ttb_state(session).prompt
    if prompt is None:
        return plain
    options = st.sampled_from(prompt.options or ["flip"]).map(lambda a: f"answer {quote(a)}")
    cards = st.sampled_from(CARDS).map(lambda c: f"answer {c}")
    return st.one_of(options, options, options, cards, plain)


def check_invariants(session: Session) -> None:
    """The invariants of docs/rules/index.md that hold after every command, accepted or refused."""
    state = ttb_state(session)
    # docs/rules/ttb.md#s2-2-1: 54 cards, each exactly once, between the deck, the discards and the table.
    cards = [*state.deck, *state.discards, *state.table]
    assert len(cards) == 54
    assert sorted(cards) == sorted(full_deck())
    hand_prompt = state.prompt is not None and state.prompt.kind == "hand_discard"
    for name, f in state.fighters.items():
        sheet = ttb(session).sheet(name)
        # docs/rules/ttb-turns.md#s2-4: AP never negative.
        assert f.ap >= 0, (name, f.ap)
        assert f.combat_ap >= 0, (name, f.combat_ap)
        # docs/rules/ttb-conditions.md#s2-7-1: valued conditions are ints ≥ 1 (absent once they reach 0); others are
        # true.
        for key, value in f.conditions.items():
            assert key in CONDITIONS, key
            if CONDITIONS[key].valued:
                assert type(value) is int and value >= 1, (name, key, value)
            else:
                assert value is True, (name, key, value)
        # docs/rules/ttb-damage.md#s2-8-3: never healed above the maximum.
        assert f.wounds <= sheet.wounds, (name, f.wounds)
        # docs/rules/ttb.md#s2-2-2: at most five cards, unless the table is being asked which to discard.
        if not hand_prompt:
            assert len(f.hand) <= HAND_LIMIT, (name, f.hand, state.prompt)
        # docs/rules/ttb.md#s2-2-2, docs/rules/ttb.md#s2-2-4: Twist cards are only moved (hand, Twist Deck, Twist
        # discards), never lost or copied.
        if sheet.fated:
            twist = [*f.hand, *f.twist_deck, *f.twist_discards]
            assert sorted(twist) == sorted(sheet.twist_cards()), (name, twist)
        # docs/rules/ttb-conditions.md#s2-7-2 Dead: out of the initiative order; so is who left, and a newcomer until
        # the next round.
        if f.dead or f.arriving or name in state.left:
            assert name not in state.order, (name, state.order)
    json_left = {c["name"] for c in state_json(session)["combatants"] if c["left"]}
    assert json_left == set(state.left)
    if state.prompt is not None:
        assert state.prompt.options or state.prompt.kind in ("critical", "suffocating_flip")


def snapshot(session: Session) -> tuple[dict[str, Any], dict[str, Any]]:
    return dump(ttb_state(session)), dump(session.history)


def play(session: Session, line: str, check_undo: bool) -> bool:
    """Apply one line with every per-command check; returns whether it was accepted."""
    before = snapshot(session)
    try:
        session.execute(line)
    except Refusal as exc:
        assert str(exc), f"empty refusal for {line!r}"
        assert "\n" not in str(exc), f"refusal for {line!r} is not one line: {exc!r}"
        assert snapshot(session) == before, f"refused {line!r} changed the state: {exc}"
        check_invariants(session)
        return False
    check_invariants(session)
    verb = line.split()[0]
    if check_undo and verb != "undo":
        after = snapshot(session)
        session.execute("undo")
        assert dump(ttb_state(session)) == before[0], f"undo after {line!r} is not the previous state"
        session.execute("redo")
        assert snapshot(session) == after, f"redo after undoing {line!r} is not the state after it"
    return True


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(session=sessions(), data=st.data())
def test_random_commands_keep_the_invariants(session: Session, data: st.DataObject) -> None:
    """Any command sequence: accepted or refused, never a crash; invariants, undo/redo, save/load hold."""
    check_invariants(session)
    steps = data.draw(st.integers(5, 40), label="steps")
    pace = data.draw(st.integers(0, 3), label="pace")
    if data.draw(st.integers(0, 5), label="start first") > 0:
        assert play(session, "start", check_undo=True)
    for _ in range(steps):
        line = data.draw(command_lines(session, pace), label="command")
        play(session, line, check_undo=data.draw(st.booleans(), label="check undo"))
    again = reloaded(session)
    assert dump(ttb_state(again)) == dump(ttb_state(session))
    assert dump(again.history) == dump(session.history)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(session=sessions(), data=st.data())
def test_save_load_mid_fight_then_continue_identically(session: Session, data: st.DataObject) -> None:
    """A reloaded file continues exactly like the original (docs/rules/index.md#s1-3 determinism;
    docs/reference/file-format.md restart)."""
    play(session, "start", check_undo=False)
    for _ in range(data.draw(st.integers(3, 20), label="before save")):
        play(session, data.draw(command_lines(session)), check_undo=False)
    copy = reloaded(session)
    assert dump(ttb_state(copy)) == dump(ttb_state(session))
    assert dump(copy.history) == dump(session.history)
    for _ in range(data.draw(st.integers(1, 10), label="after save")):
        assert_same_course(session, copy, data.draw(command_lines(session)))


@settings(max_examples=40, deadline=None)
@given(session=sessions(), data=st.data())
def test_undo_all_the_way_back_is_the_fresh_state(session: Session, data: st.DataObject) -> None:
    """Undoing every accepted command returns to the state before the first one; redo replays them all."""
    fresh = dump(ttb_state(session))
    for _ in range(data.draw(st.integers(1, 25), label="steps")):
        play(session, data.draw(command_lines(session)), check_undo=False)
    final = snapshot(session)
    accepted = len(session.history.commands)
    for _ in range(accepted):
        session.execute("undo")
    assert dump(ttb_state(session)) == fresh
    with pytest.raises(Refusal, match="nothing to undo"):
        session.execute("undo")
    for _ in range(accepted):
        session.execute("redo")
    assert snapshot(session) == final
