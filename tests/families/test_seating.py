"""Players at their own terminals (CONTRACT.md §6): ``[seats]``, the seat rules of `judge`, and the requests
the GM approves or denies, in both rule families."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.conftest import reloaded, run, session_from, ttb_state
from tests.rules.ttb.fighters import combatant
from tests.rules.twod20.test_order import ADA, BOSS, KIT, THUG, encounter
from tracker.engine.errors import Refusal
from tracker.families.seating import Verdict, judge, seats_of
from tracker.families.session import Session
from tracker.families.snapshot import state_json

SEATS = '\n[seats]\nalice = "Sofia"\nbob = ["Ash Kettering", "Marguerite Bell"]\n'


def ttb(seats: str = SEATS) -> Session:
    """Sofia acts first, then Ash, then the Thug (initiative 20, 10, 0); alice plays Sofia, bob Ash and Marguerite."""
    text = (
        combatant(
            "Sofia Ramos",
            kind="fated",
            side="players",
            initiative=20,
            wounds=3,
            skills={"toughness": 2},
            hand=["12R", "4M"],
        )
        + combatant("Ash Kettering", kind="fated", side="players", initiative=10)
        + combatant("Marguerite Bell", kind="fated", side="players", initiative=5)
        + combatant("Guild Thug", initiative=0, side="enemies")
    )
    return session_from(text + seats)


def d20(seats: str = '\n[seats]\nalice = "Kit"\nbob = "Ada"\n') -> Session:
    return session_from(encounter(KIT, ADA, THUG, BOSS) + seats)


def apply(s: Session, account: str, line: str, as_name: str | None = None) -> Verdict:
    """Judge `line` and run what the verdict says, as the GM's process would."""
    verdict = judge(s, account, as_name, line)
    if verdict.kind != "refuse":
        s.execute(verdict.line)
    return verdict


# --- [seats] -------------------------------------------------------------------------------------------


def test_seats_resolve_to_full_names() -> None:
    """CONTRACT.md §6: ``[seats]`` maps each account to its characters, a name written as commands take it."""
    assert seats_of(ttb()) == {"alice": ("Sofia Ramos",), "bob": ("Ash Kettering", "Marguerite Bell")}


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ('alice = "Nobody"', "no combatant named 'Nobody'"),
        ('Alice = "Sofia"', "'Alice' is not an account name"),
        ('alice = "Sofia"\nbob = "Sofia Ramos"', "Sofia Ramos is already seated for alice"),
        ('alice = ["Sofia", "sofia ramos"]', "Sofia Ramos is listed twice for alice"),
    ],
)
def test_seat_problems_are_check_problems(seats: str, message: str) -> None:
    """CONTRACT.md §1 ``tracker check`` / §6: a bad seat is a FILE:LINE:COL problem of the file."""
    from tracker.store.files import parse_text
    from tracker.store.reading import FileInvalid

    text = "[encounter]\nname = 'T'\nsystem = 'ttb'\n" + combatant("Sofia Ramos", kind="fated") + "\n[seats]\n" + seats
    with pytest.raises(FileInvalid) as info:
        parse_text(text, "x.toml")
    assert any(message in p.message for p in info.value.problems), info.value.problems


def test_party_seats_merge_under_the_encounters(tmp_path: object) -> None:
    """CONTRACT.md §6: the party file's ``[seats]`` count too; the encounter's own win for an account."""
    from pathlib import Path

    from tracker.store import files

    folder = Path(str(tmp_path))
    party = combatant("Sofia Ramos", kind="fated") + combatant("Ash Kettering", kind="fated")
    (folder / "party.toml").write_text(party + '\n[seats]\nalice = "Sofia"\nbob = "Sofia Ramos"\n')
    enc = "[encounter]\nname = 'T'\nsystem = 'ttb'\nparty = 'party.toml'\n\n[seats]\nbob = 'Ash'\n"
    enc += combatant("Guild Thug")
    (folder / "e.toml").write_text(enc)
    s = Session(files.load(folder / "e.toml"))
    assert seats_of(s) == {"alice": ("Sofia Ramos",), "bob": ("Ash Kettering",)}


# --- the seat rules ------------------------------------------------------------------------------------


def test_no_seat_and_a_character_not_seated_are_refused() -> None:
    """CONTRACT.md §6: an account with no seat, or ``--as`` a character not seated for it, is refused."""
    s = run(ttb(), "start")
    assert judge(s, "carol", None, "spend Sofia walk") == Verdict("refuse", "", "carol has no seat in this encounter")
    assert judge(s, "alice", "Ash", "spend Sofia walk").kind == "refuse"


def test_own_action_on_own_turn_applies_and_is_logged_with_the_sender() -> None:
    """CONTRACT.md §6: a player spends AP for their own character on its turn, applied as the GM's own and
    logged with who sent it."""
    s = run(ttb(), "start")
    assert ttb_state(s).active == "Sofia Ramos"
    verdict = apply(s, "alice", "spend sofia walk")
    assert verdict == Verdict("apply", "by alice spend sofia walk", "")
    texts = [e.text for e in ttb_state(s).log]
    assert "alice: spend sofia walk" in texts
    assert s.history.commands[-1] == "by alice spend sofia walk"


def test_acting_for_another_seat_or_out_of_turn_is_refused_never_requested() -> None:
    """CONTRACT.md §6: ``spend Ash walk`` from Sofia's seat, or on another's turn, is refused with why."""
    s = run(ttb(), "start")
    other = judge(s, "alice", None, "spend Ash walk")
    assert other.kind == "refuse" and "Ash Kettering is not seated for alice" in other.reason
    early = judge(s, "bob", None, "spend Ash walk")
    assert early.kind == "refuse" and "it is not Ash Kettering's turn (Sofia Ramos acts)" in early.reason
    assert judge(s, "bob", None, "next").kind == "refuse"
    assert judge(s, "bob", None, "flip").kind == "refuse"


def test_next_and_flip_for_the_seat_that_acts() -> None:
    """CONTRACT.md §6: a player ends their own turn, and flips, while one of their characters acts."""
    s = run(ttb(), "start")
    assert apply(s, "alice", "flip").kind == "apply"
    assert apply(s, "alice", "next").kind == "apply"
    assert ttb_state(s).active == "Ash Kettering"
    assert apply(s, "bob", "engage Ash Guild").kind == "apply"


def test_everything_else_is_a_request() -> None:
    """CONTRACT.md §6: damage, heal, add, remove, join, leave … are requests the GM approves."""
    s = run(ttb(), "start")
    verdict = judge(s, "bob", "Marguerite", "damage 'Guild Thug' 2")
    assert verdict == Verdict("request", "request bob 'Marguerite Bell' damage 'Guild Thug' 2", "")
    assert judge(s, "alice", None, "add Sofia burning").line == "request alice 'Sofia Ramos' add Sofia burning"


@pytest.mark.parametrize(
    "line", ["undo", "redo", "approve", "deny 1", "request alice Sofia next", "by alice next", "seed 1", "seed 123456"]
)
def test_the_gms_own_verbs_are_refused(line: str) -> None:
    """CONTRACT.md §6: undo, redo and the request verbs act on the whole table's commands, and a seed a player
    chose is a future that player knows (§5): refused ("ask at the table"), never queued as requests."""
    verdict = judge(run(ttb(), "start"), "alice", None, line)
    assert verdict.kind == "refuse" and "is the GM's" in verdict.reason


@pytest.mark.parametrize("line", ["spend Sofia walk\nnext", "spend Sofia walk\x1b[2J", "flip\r"])
def test_a_line_cannot_smuggle_a_second_command(line: str) -> None:
    """CONTRACT.md §6: a player's line is one command: newlines and control characters are refused."""
    assert judge(run(ttb(), "start"), "alice", None, line).kind == "refuse"


def test_malformed_and_unknown_commands_are_refused_with_the_parsers_reason() -> None:
    """CONTRACT.md §3/§6: what the parser refuses, the seat refuses with the same reason."""
    s = run(ttb(), "start")
    assert "unknown command 'fly'" in judge(s, "alice", None, "fly away").reason
    assert judge(s, "alice", None, "spend").reason.startswith("usage:")


def test_answers_only_to_questions_about_the_seats_characters() -> None:
    """CONTRACT.md §6: a player answers the prompts about their character; no prompt, or another's, is refused."""
    s = run(ttb(), "start")
    assert judge(s, "alice", None, "answer yes").reason == "no question waits"
    run(s, "damage Sofia 5 no-armor")
    prompt = ttb_state(s).prompt
    assert prompt is not None and prompt.who == "Sofia Ramos"
    refused = judge(s, "bob", None, "answer 5R")
    assert refused.kind == "refuse" and "waits for Sofia Ramos" in refused.reason
    assert apply(s, "alice", "answer 5R").kind == "apply"


def test_a_cheat_from_a_card_not_in_the_hand_is_refused_clearly() -> None:
    """CONTRACT.md §3 "Cheating Fate", §6: a cheat offer is answered from the character's own Control Hand."""
    s = run(ttb(), "start", "damage Sofia 5 no-armor", "answer 5R")
    st = ttb_state(s)
    for code in reversed(["3M"]):
        st.deck.remove(code)
        st.deck.append(code)
    run(s, "answer flip")
    assert st.prompt is not None and st.prompt.kind == "cheat"
    verdict = judge(s, "alice", None, "answer 9R")
    assert verdict.kind == "refuse" and "9R is not in Sofia Ramos's Control Hand (hand: 12R, 4M)" in verdict.reason
    assert apply(s, "alice", "answer 12R").kind == "apply"


def test_an_action_while_a_question_waits_is_refused_with_the_question() -> None:
    """CONTRACT.md §3/§6: while a prompt is pending the player's own action is refused with its question."""
    s = run(ttb(), "start", "damage Sofia 5 no-armor")
    verdict = judge(s, "alice", None, "spend Sofia walk")
    assert verdict.kind == "refuse" and verdict.reason.startswith("waiting for an answer:")


# --- 2d20 ---------------------------------------------------------------------------------------------


def test_2d20_hand_over_is_the_choice_of_the_side_that_acted() -> None:
    """CONTRACT.md §6: a 2d20 hand-over from a player's character is that player's ``pick``/``keep``;
    who acts first is the GM's."""
    s = d20()
    run(s, "start")
    assert "the GM's to answer" in judge(s, "alice", None, "pick Kit").reason
    run(s, "pick Kit")
    assert apply(s, "alice", "move Kit B").kind == "apply"
    assert judge(s, "bob", None, "move Ada B").reason == "it is not Ada's turn (Kit acts)"
    assert apply(s, "alice", "next").kind == "apply"
    assert judge(s, "bob", None, "pick Thug").kind == "refuse"
    assert apply(s, "alice", "pick Thug").kind == "apply"
    assert s.state.active == "Thug"


def test_2d20_pools_are_requests() -> None:
    """CONTRACT.md §6: ``momentum``/``threat`` from a player are requests."""
    s = run(d20(), "start", "pick Kit")
    assert judge(s, "alice", None, "momentum +1").line == "request alice Kit momentum +1"


# --- requests ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("make", [ttb, d20])
def test_requests_wait_in_the_json_state_and_persist(make: object) -> None:
    """CONTRACT.md §4 ``requests``, §6: oldest first, ``[]`` when none, saved and reloaded with the file."""
    assert callable(make)
    s: Session = make()
    assert state_json(s)["requests"] == []
    who = seats_of(s)["alice"][0]
    named = shlex.quote(who)
    run(s, f"request alice {named} heal {named} 1", f"request alice {named} add {named} dazed")
    expected = [
        {"id": 1, "seat": "alice", "as": who, "command": f"heal {named} 1"},
        {"id": 2, "seat": "alice", "as": who, "command": f"add {named} dazed"},
    ]
    assert state_json(s)["requests"] == expected
    assert state_json(reloaded(s))["requests"] == expected


def test_approve_runs_the_oldest_and_deny_drops() -> None:
    """CONTRACT.md §6: ``approve`` runs a request as the GM's own (default the oldest); ``deny`` drops it."""
    s = run(ttb(), "start", "request alice Sofia add Thug burning 2", "request bob Ash damage Thug 1")
    assert "alice asks: add Thug burning 2" in [e.text for e in ttb_state(s).log]
    run(s, "approve")
    assert ttb_state(s).fighters["Guild Thug"].conditions == {"burning": 2}
    assert [r.id for r in ttb_state(s).requests] == [2]
    assert "approved alice's request: add Thug burning 2" in [e.text for e in ttb_state(s).log]
    run(s, "deny")
    assert ttb_state(s).requests == []
    assert "denied bob's request: damage Thug 1" in [e.text for e in ttb_state(s).log]
    with pytest.raises(Refusal, match="no requests wait"):
        s.execute("approve")


def test_unknown_id_names_the_waiting_ones() -> None:
    """CONTRACT.md §6: an id that waits for nothing is refused naming those that wait."""
    s = run(ttb(), "start", "request alice Sofia add Thug dazed", "request alice Sofia add Thug burning")
    with pytest.raises(Refusal, match=r"no request 7 waits \(waiting: 1, 2\)"):
        s.execute("deny 7")
    run(s, "approve 2")
    assert [r.id for r in ttb_state(s).requests] == [1]


def test_a_refused_approve_keeps_the_request_and_is_the_commands_refusal() -> None:
    """CONTRACT.md §3/§6: approve of a command the prompt blocks is refused with the question; the request stays."""
    s = run(ttb(), "start", "request alice Sofia add Thug dazed", "damage Sofia 5 no-armor")
    question = ttb_state(s).prompt
    assert question is not None
    logged = ttb_state(s).logged
    with pytest.raises(Refusal, match="waiting for an answer"):
        s.execute("approve")
    assert [r.id for r in ttb_state(s).requests] == [1]
    assert ttb_state(s).logged == logged
    run(s, "request bob Ash heal Ash 1", "deny 2")  # neither blocks, nor is blocked by, the question


def test_requests_approve_deny_and_by_undo_and_redo() -> None:
    """CONTRACT.md §3 undo/redo, §6 "undoable": each is a history line; undo replays to the same state."""
    s = run(ttb(), "start", "request alice Sofia add Thug dazed", "approve", "by alice spend Sofia walk")
    after = state_json(s)
    run(s, "undo", "undo")
    assert [r.id for r in ttb_state(s).requests] == [1]
    run(s, "redo", "redo")
    assert state_json(s) == after
    assert state_json(reloaded(s)) == after


def test_by_wraps_an_answer_while_a_prompt_waits() -> None:
    """CONTRACT.md §3/§6: ``by SEAT answer …`` runs while the prompt waits; ``by`` never wraps undo."""
    s = run(ttb(), "start", "damage Sofia 5 no-armor")
    run(s, "by alice answer 5R")
    assert any(e.text == "alice: answer 5R" for e in ttb_state(s).log)
    with pytest.raises(Refusal, match="cannot hold 'undo'"):
        s.execute("by alice undo")


def test_a_saved_fight_keeps_its_partys_seats(tmp_path: object) -> None:
    """CONTRACT.md §2 ``[history] sheets``, §6: a saved fight reads its party from its history, seats too."""
    from pathlib import Path

    from tracker.store import files
    from tracker.store.save import encounter_text

    folder = Path(str(tmp_path))
    party = combatant("Sofia Ramos", kind="fated") + '\n[seats]\nalice = "Sofia"\n'
    (folder / "party.toml").write_text(party)
    enc = "[encounter]\nname = 'T'\nsystem = 'ttb'\nparty = 'party.toml'\n\n" + combatant("Guild Thug")
    (folder / "e.toml").write_text(enc)
    s = run(Session(files.load(folder / "e.toml")), "start")
    (folder / "e.toml").write_text(encounter_text(s))
    (folder / "party.toml").unlink()
    again = Session(files.load(folder / "e.toml"))
    assert seats_of(again) == {"alice": ("Sofia Ramos",)}


def test_the_story_tells_a_players_command_as_the_command_it_carries() -> None:
    """CONTRACT.md §6: a command sent from a seat is the GM's own, so the story reads through ``by`` and
    ``approve`` to the command they ran."""
    from tracker.families.seating import underlying

    s = run(ttb(), "start", "request alice Sofia add Thug dazed")
    assert underlying(s, s.parse("by alice spend Sofia walk")).verb == "spend"
    assert underlying(s, s.parse("approve")).line == "add Thug dazed"
    assert underlying(s, s.parse("deny")).verb == "deny"


def test_a_seat_cannot_name_a_gm_only_combatant(tmp_path: Path) -> None:
    """CONTRACT.md §6 with §5: a GM-only combatant is not at the players' table; a seat that names it (a
    target guessed, a prefix) is told there is no one of that name, as for any stranger, and nothing runs."""
    from tracker.store import files
    from tracker.store.opening import load_session

    path = tmp_path / "brawl.toml"
    examples = Path(__file__).parents[2] / "examples"
    files.write_text(path, (examples / "brawl.toml").read_text() + '\n[seats]\nalice = "Sofia Ramos"\n')
    session = load_session(str(path))
    session.execute("start")
    session.execute("answer Dockside")
    while session.state.active != "Sofia Ramos":
        session.execute("next")
    for line in ("attack Sofia strike Rotten", "attack Sofia strike belle", "engage Sofia Rotten"):
        verdict = judge(session, "alice", None, line)
        assert verdict.kind == "refuse" and "no combatant named" in verdict.reason, (line, verdict)
        assert "Rotten Belle" not in verdict.reason
    assert judge(session, "alice", None, "attack Sofia strike Thug").kind == "apply"
