"""Property tests: random GM command sequences against a small SRD and a small Infinity 2d20 encounter.

Lines are drawn from the 2d20 part of the GM command language (docs/reference/language.md): start, next, pick/keep,
spend, damage with random options and effects (docs/rules/2d20-combat.md#s3-8), heal, add/remove conditions and Fatigue,
move/reach, momentum/threat, roll, treat/stabilize/revive, end, undo, redo. A command either succeeds or
raises `Refusal`; anything else is a bug. After every command the invariants of docs/rules/index.md hold:

* docs/rules/2d20.md#s3-3: 0 ≤ Momentum ≤ 6 (the profile's cap) and Threat/Heat ≥ 0; Fortune within 0..5;
* docs/rules/2d20-harm.md#s3-10-1: every track's stress taken is within 0..max, max after Fatigue (`engine.tracks`);
* docs/rules/2d20-harm.md#s3-10-2: Harms never decrease, except by `undo`;
* docs/rules/2d20-harm.md#s3-11: valued conditions are ints ≥ 1, the others `true`;
* docs/reference/language.md ``join``/``leave``: reinforcements never take Threat below 0 [004:L585]; who left takes no
  turn, is in no Reach and is marked ``"left": true`` in the JSON.

A refused command changes neither the state nor the history; `undo` after an accepted command restores exactly
the previous state and `redo` the state after it; saving and loading the file is the identity.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import assert_same_course, d20, d20_state, reloaded
from tests.rules.twod20.scenes import KIT_SKILLS, combatant, header, stat_block, zones
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.twod20.tables.actions import ACTIONS
from tracker.families.twod20.tables.catalogue import CONDITIONS
from tracker.store.files import parse_text


def scene(profile: str, momentum: int, threat: int) -> str:
    """The encounter on a road of three zones, with two stat blocks to join from."""
    return (
        header("Property 2d20", seed=11, profile=profile, momentum=momentum, threat=threat)
        + zones("Yard", "Gate", "Road")
        + stat_block("Goon", npc_type="minor", stress=5, zone="Gate")
        + stat_block("Captain", npc_type="notable", stress=7)
    )


SRD = (
    combatant("Kit", skills=KIT_SKILLS, stress=8, armor=1, courage=1, cover=1, zone="Yard")
    + combatant("Ada Lane", stress=6, fortune=1, harms={"trauma": 1}, zone="Gate")
    + combatant("Thug", npc_type="minor", stress=5, harm_capacity=1, zone="Yard")
    + combatant("Boss", npc_type="notable", skills={"move": 2, "survive": 3}, stress=8, armor=2, morale=1, zone="Road")
)

INFINITY = (
    combatant(
        "Ana",
        stress={"vigour": 8, "resolve": 6, "firewall": 5},
        armor=1,
        courage=1,
        bts=2,
        harms={"wound": 3},
        zone="Yard",
    )
    + combatant("Trooper", npc_type="minor", stress={"vigour": 6, "resolve": 4}, harm_capacity=2, cover=1, zone="Gate")
    + combatant("Drone", npc_type="minor", stress=5, conditions={"bleeding": True}, zone="Road")
)

CONDITION_WORDS = [*CONDITIONS, "fatigue", "stun", "Burning", "wobbly"]
ACTION_WORDS = [*(k.replace("_", "-") for k in ACTIONS), "fly"]
EFFECTS = [
    "piercing=1",
    "piercing=3",
    "vicious",
    "vicious=2",
    "intense",
    "stun",
    "persistent=1",
    "persistent=2",
    "knockdown",
    "drain",
    "snare",
    "perilous",
    "area",
    "incendiary=2",
    "destructive",
]
TRACKS = ["stress", "vigour", "resolve", "firewall", "mental", "digital", "physical", "bogus"]


@st.composite
def sessions(draw: st.DrawFn) -> Session:
    """A fresh SRD or Infinity session with drawn pools and seed."""
    profile = draw(st.sampled_from(["srd", "infinity"]))
    head = scene(profile, momentum=draw(st.integers(0, 6)), threat=draw(st.integers(0, 6)))
    text = head + (SRD if profile == "srd" else INFINITY)
    return Session(parse_text(text, "<property>"), seed=draw(st.integers(0, 2**16)))


def quote(name: str) -> str:
    return f"'{name}'" if " " in name else name


def command_lines(session: Session) -> st.SearchStrategy[str]:
    """Any 2d20 GM command line, biased towards ones that can be accepted now.

    While the hand-over (or first-actor) question waits, mostly `pick`/`keep` from its options (everything
    else is refused then, which is worth checking too); before the scene or after its end, often `start`.
    """
    names = list(d20_state(session).fighters)
    known = st.sampled_from(names).map(quote)
    who = st.one_of(
        known, known, known, known, known, known, st.sampled_from(names).map(lambda n: n[:3].lower()), st.just("Nobody")
    )
    active = d20_state(session).active
    actor = st.one_of(st.just(quote(active)), st.just(quote(active)), who) if active else who
    zones = st.sampled_from(["Yard", "Gate", "Road", "Moon"])
    damage = st.tuples(
        who,
        st.integers(-1, 14),
        st.lists(
            st.one_of(
                st.integers(0, 4).map(lambda k: f"icons={k}"),
                st.integers(0, 4).map(lambda k: f"icons={k}"),
                st.integers(0, 4).map(lambda k: f"icons={k}"),
                st.sampled_from(TRACKS).map(lambda t: f"track={t}"),
                st.integers(0, 3).map(lambda k: f"cover={k}"),
                st.integers(0, 3).map(lambda k: f"soak={k}"),
                who.map(lambda n: f"from={n}"),
                st.sampled_from(["mental", "mental", "yield", "ignore-soak", "bogus=2"]),
                st.sampled_from(EFFECTS),
                st.sampled_from(EFFECTS),
                st.sampled_from(EFFECTS),
            ),
            max_size=5,
        ),
    ).map(lambda t: " ".join(["damage", t[0], str(t[1]), *t[2]]))
    roll = st.tuples(actor, st.integers(6, 16), st.integers(0, 4), st.integers(0, 4)).map(
        lambda t: f"roll {t[0]} {t[1]} {t[2]}" + (f" bought={t[3]}" if t[3] else "")
    )
    add_remove = st.tuples(
        st.sampled_from(["add", "add", "remove"]),
        who,
        st.sampled_from(CONDITION_WORDS),
        st.sampled_from(["", "", "1", "2", "3", "0"]),
    ).map(lambda t: " ".join(t).strip())
    spend = st.tuples(actor, st.sampled_from(ACTION_WORDS)).map(lambda t: f"spend {t[0]} {t[1]}")
    plain = st.one_of(
        st.sampled_from(["next", "next", "next", "end", "undo", "redo", "start"]),
        st.sampled_from(["next", "undo"]),
        who.map(lambda n: f"pick {n}"),
        spend,
        spend,
        spend,
        damage,
        damage,
        damage,
        damage,
        damage,
        damage,
        st.tuples(who, st.integers(0, 6), st.sampled_from(["", "", "track=resolve", "track=stress"])).map(
            lambda t: f"heal {t[0]} {t[1]} {t[2]}".strip()
        ),
        add_remove,
        add_remove,
        st.tuples(who, zones).map(lambda t: f"move {t[0]} {t[1]}"),
        st.tuples(who, who).map(lambda t: f"reach {t[0]} {t[1]}"),
        st.tuples(st.sampled_from(["momentum", "threat"]), st.integers(-4, 4)).map(lambda t: f"{t[0]} {t[1]:+d}"),
        roll,
        st.tuples(st.sampled_from(["stabilize", "revive"]), who).map(" ".join),
        st.tuples(who, st.sampled_from(["wound", "trauma", "metanoia"])).map(lambda t: f"treat {t[0]} {t[1]}"),
        st.tuples(who, st.integers(-2, 2)).map(lambda t: f"fortune {t[0]} {t[1]:+d}"),
        # docs/reference/language.md join (Reinforcements [004:L585]) and leave.
        st.tuples(
            st.sampled_from(["Goon", "goon count=2", "Captain", "Cap count=1", "Bill from=Goon", "Goon count=3 free"]),
            st.sampled_from(["", "", "zone=Road", "zone=Moon", "side=players"]),
        ).map(lambda t: f"join {t[0]} {t[1]}".strip()),
        who.map(lambda n: f"leave {n}"),
    )
    prompt = d20_state(session).prompt
    if prompt is not None:
        options = st.sampled_from(prompt.options or names).map(quote)
        answer = st.tuples(st.sampled_from(["pick", "pick", "pick", "keep"]), options).map(" ".join)
        return st.one_of(answer, answer, answer, answer, answer, answer, plain)
    if d20_state(session).phase in ("setup", "ended"):
        return st.one_of(st.just("start"), plain, plain)
    return plain


def harm_counts(session: Session) -> dict[str, dict[str, int]]:
    return {name: dict(a.harms) for name, a in d20_state(session).fighters.items()}


def check_invariants(session: Session) -> None:
    """The invariants of docs/rules/2d20.md#s3 that hold after every command, accepted or refused."""
    state = d20_state(session)
    eng = d20(session)
    # docs/rules/2d20.md#s3-3 pools.
    assert 0 <= state.momentum <= eng.profile.momentum_max, state.momentum
    assert state.threat >= 0, state.threat
    for name, a in state.fighters.items():
        # docs/rules/2d20-harm.md#s3-10-1: stress within 0..max on every track, max after Fatigue.
        maxima = eng.tracks(name)
        assert set(a.stress) == set(maxima), (name, a.stress, maxima)
        for track, taken in a.stress.items():
            assert 0 <= taken <= maxima[track], (name, track, taken, maxima)
        assert all(v >= 0 for v in a.harms.values()), (name, a.harms)
        assert 0 <= a.fortune <= eng.profile.meta_max, (name, a.fortune)
        # docs/rules/2d20-harm.md#s3-11: valued conditions are ints ≥ 1; the others true.
        for key, value in a.conditions.items():
            assert key in CONDITIONS, key
            if CONDITIONS[key].valued:
                assert type(value) is int and value >= 1, (name, key, value)
            else:
                assert value is True, (name, key, value)
    # docs/reference/language.md leave: who left takes no turn and is in no Reach; the JSON marks exactly them.
    assert state.active not in state.left
    assert not any(n in pair for pair in state.reach for n in state.left)
    json_left = {c["name"] for c in state_json(session)["combatants"] if c["left"]}
    assert json_left == set(state.left)
    # docs/reference/json-state.md: the JSON state can always be built; its pools are the live ones, before `start` the
    # ones the scene will start with (docs/reference/language.md "Pools before start").
    json_state = state_json(session)
    assert json_state["pools"]["momentum"] == state.momentum
    assert json_state["pools"]["threat"] == state.threat


def snapshot(session: Session) -> tuple[dict[str, Any], dict[str, Any]]:
    return dump(d20_state(session)), dump(session.history)


def play(session: Session, line: str, check_undo: bool) -> bool:
    """Apply one line with every per-command check; returns whether it was accepted."""
    before = snapshot(session)
    harms_before = harm_counts(session)
    try:
        session.execute(line)
    except Refusal as exc:
        assert str(exc), f"empty refusal for {line!r}"
        assert snapshot(session) == before, f"refused {line!r} changed the state: {exc}"
        check_invariants(session)
        return False
    check_invariants(session)
    verb = line.split()[0]
    if verb != "undo":
        # docs/rules/2d20-harm.md#s3-10-2: Harms never decrease except by undo.
        after_harms = harm_counts(session)
        for name, kinds in harms_before.items():
            for kind, n in kinds.items():
                assert after_harms[name].get(kind, 0) >= n, f"{line!r} lowered {name}'s {kind}: {n} → {after_harms}"
    if check_undo and verb != "undo":
        after = snapshot(session)
        session.execute("undo")
        assert dump(d20_state(session)) == before[0], f"undo after {line!r} is not the previous state"
        session.execute("redo")
        assert snapshot(session) == after, f"redo after undoing {line!r} is not the state after it"
    return True


@settings(max_examples=55, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(session=sessions(), data=st.data())
def test_s3_random_commands_keep_the_invariants(session: Session, data: st.DataObject) -> None:
    """docs/rules/2d20.md#s3-3, docs/rules/2d20-harm.md#s3-10, docs/rules/2d20-harm.md#s3-11;
    docs/reference/language.md: any command sequence is accepted or refused, never a crash; the invariants, undo/redo
    and save/load hold throughout."""
    check_invariants(session)
    if data.draw(st.integers(0, 5), label="start first") > 0:
        assert play(session, "start", check_undo=True)
    for _ in range(data.draw(st.integers(5, 35), label="steps")):
        line = data.draw(command_lines(session), label="command")
        play(session, line, check_undo=data.draw(st.booleans(), label="check undo"))
    again = reloaded(session)
    assert dump(d20_state(again)) == dump(d20_state(session))
    assert dump(again.history) == dump(session.history)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(session=sessions(), data=st.data())
def test_s3_save_load_mid_fight_then_continue_identically(session: Session, data: st.DataObject) -> None:
    """docs/rules/index.md#s1-3 determinism, docs/reference/file-format.md: a reloaded file continues exactly like the
    original."""
    play(session, "start", check_undo=False)
    for _ in range(data.draw(st.integers(3, 20), label="before save")):
        play(session, data.draw(command_lines(session)), check_undo=False)
    copy = reloaded(session)
    assert dump(d20_state(copy)) == dump(d20_state(session))
    assert dump(copy.history) == dump(session.history)
    for _ in range(data.draw(st.integers(1, 10), label="after save")):
        assert_same_course(session, copy, data.draw(command_lines(session)))
