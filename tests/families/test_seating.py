"""Players at their own terminals (docs/guide/seating.md): ``[seats]``, the seat rules of `judge`, and the requests
the GM approves or denies, in both rule families."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.conftest import d20_state, reloaded, run, session_from, ttb_state
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
    """docs/guide/seating.md: ``[seats]`` maps each account to its characters, a name written as commands take it."""
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
    """docs/reference/cli.md ``tracker check`` / docs/guide/seating.md: a bad seat is a FILE:LINE:COL problem of the
    file."""
    from tracker.store.files import parse_text
    from tracker.store.reading import FileInvalid

    text = "[encounter]\nname = 'T'\nsystem = 'ttb'\n" + combatant("Sofia Ramos", kind="fated") + "\n[seats]\n" + seats
    with pytest.raises(FileInvalid) as info:
        parse_text(text, "x.toml")
    assert any(message in p.message for p in info.value.problems), info.value.problems


def test_party_seats_merge_under_the_encounters(tmp_path: object) -> None:
    """docs/guide/seating.md: the party file's ``[seats]`` count too; the encounter's own win for an account."""
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
    """docs/guide/seating.md: an account with no seat, or ``--as`` a character not seated for it, is refused."""
    s = run(ttb(), "start")
    assert judge(s, "carol", None, "spend Sofia walk") == Verdict("refuse", "", "carol has no seat in this encounter")
    assert judge(s, "alice", "Ash", "spend Sofia walk").kind == "refuse"


def test_own_action_on_own_turn_applies_and_is_logged_with_the_sender() -> None:
    """docs/guide/seating.md: a player spends AP for their own character on its turn, applied as the GM's own and
    logged with who sent it."""
    s = run(ttb(), "start")
    assert ttb_state(s).active == "Sofia Ramos"
    verdict = apply(s, "alice", "spend sofia walk")
    assert verdict == Verdict("apply", "by alice spend sofia walk", "")
    texts = [e.text for e in ttb_state(s).log]
    assert "alice: spend sofia walk" in texts
    assert s.history.commands[-1] == "by alice spend sofia walk"


def test_acting_for_another_seat_or_out_of_turn_is_refused_never_requested() -> None:
    """docs/guide/seating.md: ``spend Ash walk`` from Sofia's seat, or on another's turn, is refused with why."""
    s = run(ttb(), "start")
    other = judge(s, "alice", None, "spend Ash walk")
    assert other.kind == "refuse" and "Ash Kettering is not seated for alice" in other.reason
    early = judge(s, "bob", None, "spend Ash walk")
    assert early.kind == "refuse" and "it is not Ash Kettering's turn (Sofia Ramos acts)" in early.reason
    assert judge(s, "bob", None, "next").kind == "refuse"
    assert judge(s, "bob", None, "flip").kind == "refuse"


def test_next_for_the_seat_that_acts_and_a_flip_no_question_asked_for_is_a_request() -> None:
    """docs/guide/seating.md: a player ends their own turn while one of their characters acts; a ``flip`` the rules
    did not ask for (free flips force reshuffles that deal everyone Twist cards) waits for the GM."""
    s = run(ttb(), "start")
    deck = list(ttb_state(s).deck)
    assert apply(s, "alice", "flip 10") == Verdict("request", "request alice 'Sofia Ramos' flip 10")
    assert ttb_state(s).deck == deck  # nothing drawn
    assert apply(s, "alice", "next").kind == "apply"
    assert ttb_state(s).active == "Ash Kettering"
    assert apply(s, "bob", "engage Ash Guild").kind == "apply"


def test_everything_else_is_a_request() -> None:
    """docs/guide/seating.md: damage, heal, add, remove, join, leave … are requests the GM approves."""
    s = run(ttb(), "start")
    verdict = judge(s, "bob", "Marguerite", "damage 'Guild Thug' 2")
    assert verdict == Verdict("request", "request bob 'Marguerite Bell' damage 'Guild Thug' 2", "")
    assert judge(s, "alice", None, "add Sofia burning").line == "request alice 'Sofia Ramos' add Sofia burning"


@pytest.mark.parametrize(
    "line", ["undo", "redo", "approve", "deny 1", "request alice Sofia next", "by alice next", "seed 1", "seed 123456"]
)
def test_the_gms_own_verbs_are_refused(line: str) -> None:
    """docs/guide/seating.md: undo, redo and the request verbs act on the whole table's commands, and a seed a player
    chose is a future that player knows (§5): refused ("ask at the table"), never queued as requests."""
    verdict = judge(run(ttb(), "start"), "alice", None, line)
    assert verdict.kind == "refuse" and "is the GM's" in verdict.reason


@pytest.mark.parametrize("line", ["spend Sofia walk\nnext", "spend Sofia walk\x1b[2J", "flip\r"])
def test_a_line_cannot_smuggle_a_second_command(line: str) -> None:
    """docs/guide/seating.md: a player's line is one command: newlines and control characters are refused."""
    assert judge(run(ttb(), "start"), "alice", None, line).kind == "refuse"


def test_malformed_and_unknown_commands_are_refused_with_the_parsers_reason() -> None:
    """docs/reference/language.md/docs/guide/seating.md: what the parser refuses, the seat refuses with the same
    reason."""
    s = run(ttb(), "start")
    assert "unknown command 'fly'" in judge(s, "alice", None, "fly away").reason
    assert judge(s, "alice", None, "spend").reason.startswith("usage:")


def test_answers_only_to_questions_about_the_seats_characters() -> None:
    """docs/guide/seating.md: a player answers the prompts about their character; no prompt, or another's, is
    refused."""
    s = run(ttb(), "start")
    assert judge(s, "alice", None, "answer yes").reason == "no question waits"
    run(s, "damage Sofia 5 no-armor")
    prompt = ttb_state(s).prompt
    assert prompt is not None and prompt.who == "Sofia Ramos"
    refused = judge(s, "bob", None, "answer 5R")
    assert refused.kind == "refuse" and "waits for Sofia Ramos" in refused.reason
    assert apply(s, "alice", "answer flip").kind == "apply"


def test_a_cheat_from_a_card_not_in_the_hand_is_refused_clearly() -> None:
    """docs/reference/language.md "Cheating Fate", docs/guide/seating.md: a cheat offer is answered from the character's
    own Control Hand."""
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
    """docs/reference/language.md/docs/guide/seating.md: while a prompt is pending the player's own action is refused
    with its question."""
    s = run(ttb(), "start", "damage Sofia 5 no-armor")
    verdict = judge(s, "alice", None, "spend Sofia walk")
    assert verdict.kind == "refuse" and verdict.reason.startswith("waiting for an answer:")


# --- 2d20 ---------------------------------------------------------------------------------------------


def test_2d20_hand_over_is_the_choice_of_the_side_that_acted() -> None:
    """docs/guide/seating.md: a 2d20 hand-over from a player's character is that player's ``pick``/``keep``;
    who acts first is the GM's."""
    s = d20()
    run(s, "start")
    assert "the GM's to answer" in judge(s, "alice", None, "pick Kit").reason
    run(s, "pick Kit")
    assert apply(s, "alice", "spend Kit movement").kind == "apply"
    assert apply(s, "alice", "move Kit B").kind == "apply"
    assert judge(s, "bob", None, "move Ada B").reason == "it is not Ada's turn (Kit acts)"
    assert apply(s, "alice", "next").kind == "apply"
    assert judge(s, "bob", None, "pick Thug").kind == "refuse"
    assert apply(s, "alice", "pick Thug").kind == "apply"
    assert s.state.active == "Thug"


def test_2d20_pools_are_requests() -> None:
    """docs/guide/seating.md: ``momentum``/``threat`` from a player are requests."""
    s = run(d20(), "start", "pick Kit")
    assert judge(s, "alice", None, "momentum +1").line == "request alice Kit momentum +1"


# --- requests ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("make", [ttb, d20])
def test_requests_wait_in_the_json_state_and_persist(make: object) -> None:
    """docs/reference/json-state.md ``requests``, docs/guide/seating.md: oldest first, ``[]`` when none, saved and
    reloaded with the file."""
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
    """docs/guide/seating.md: ``approve`` runs a request as the GM's own (default the oldest); ``deny`` drops it."""
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
    """docs/guide/seating.md: an id that waits for nothing is refused naming those that wait."""
    s = run(ttb(), "start", "request alice Sofia add Thug dazed", "request alice Sofia add Thug burning")
    with pytest.raises(Refusal, match=r"no request 7 waits \(waiting: 1, 2\)"):
        s.execute("deny 7")
    run(s, "approve 2")
    assert [r.id for r in ttb_state(s).requests] == [1]


def test_a_refused_approve_keeps_the_request_and_is_the_commands_refusal() -> None:
    """docs/reference/language.md/docs/guide/seating.md: approve of a command the prompt blocks is refused with the
    question; the request stays."""
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
    """docs/reference/language.md undo/redo, docs/guide/seating.md "undoable": each is a history line; undo replays to
    the same state."""
    s = run(ttb(), "start", "request alice Sofia add Thug dazed", "approve", "by alice spend Sofia walk")
    after = state_json(s)
    run(s, "undo", "undo")
    assert [r.id for r in ttb_state(s).requests] == [1]
    run(s, "redo", "redo")
    assert state_json(s) == after
    assert state_json(reloaded(s)) == after


def test_by_wraps_an_answer_while_a_prompt_waits() -> None:
    """docs/reference/language.md/docs/guide/seating.md: ``by SEAT answer …`` runs while the prompt waits; ``by`` never
    wraps undo."""
    s = run(ttb(), "start", "damage Sofia 5 no-armor")
    run(s, "by alice answer 5R")
    assert any(e.text == "alice: answer 5R" for e in ttb_state(s).log)
    with pytest.raises(Refusal, match="cannot hold 'undo'"):
        s.execute("by alice undo")


def test_a_saved_fight_keeps_its_partys_seats(tmp_path: object) -> None:
    """docs/reference/file-format.md ``[history] sheets``, docs/guide/seating.md: a saved fight reads its party from its
    history, seats too."""
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
    """docs/guide/seating.md: a command sent from a seat is the GM's own, so the story reads through ``by`` and
    ``approve`` to the command they ran."""
    from tracker.families.seating import underlying

    s = run(ttb(), "start", "request alice Sofia add Thug dazed")
    assert underlying(s, s.parse("by alice spend Sofia walk")).verb == "spend"
    assert underlying(s, s.parse("approve")).line == "add Thug dazed"
    assert underlying(s, s.parse("deny")).verb == "deny"


def test_a_seat_cannot_name_a_gm_only_combatant(tmp_path: Path) -> None:
    """docs/guide/seating.md with docs/guide/shared-box.md: a GM-only combatant is not at the players' table; a seat
    that names it (a target guessed, a prefix) is told there is no one of that name, as for any stranger, and nothing
    runs."""
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


# --- results: the tracker's draw, or the GM's approval --------------------------------------------------


def test_a_seat_answers_its_own_duel_with_the_trackers_flip_and_a_typed_result_is_a_request() -> None:
    """docs/guide/seating.md: a seat answers the questions about its character with the tracker's own draw; ``pass 5``
    or ``fail`` typed from a seat is a result made at the table, a request the GM approves
    (docs/rules/ttb.md#s2-2-5)."""
    s = run(ttb(), "start", "damage Sofia 5 no-armor", "answer flip")  # the critical, flipped by the GM
    prompt = ttb_state(s).prompt
    assert prompt is not None and prompt.kind == "unconscious_check" and prompt.who == "Sofia Ramos"
    for typed in ("answer pass 5", "answer fail", "answer p"):
        assert judge(s, "alice", None, typed) == Verdict("request", f"request alice 'Sofia Ramos' {typed}")
    apply(s, "alice", "answer pass 5")
    assert ttb_state(s).prompt == prompt  # still waiting: the request did not answer it
    run(s, "approve")
    assert ttb_state(s).prompt is None  # the GM's approve ran it


def test_a_typed_card_from_a_seat_is_a_request_and_its_flip_applies() -> None:
    """docs/guide/seating.md: a card typed for a flip the rules ask (a critical, docs/rules/ttb-damage.md#s2-8) is a
    request; ``answer flip`` is the tracker's draw and applies."""
    s = run(ttb(), "start", "damage Sofia 5 no-armor")
    prompt = ttb_state(s).prompt
    assert prompt is not None and prompt.kind == "critical"
    assert judge(s, "alice", None, "answer RJ") == Verdict("request", "request alice 'Sofia Ramos' answer RJ")
    assert judge(s, "alice", None, "answer flip") == Verdict("apply", "by alice answer flip")


def test_seats_enter_results_lets_a_trusting_table_type_its_own() -> None:
    """docs/guide/seating.md: ``[settings] seats_enter_results = true``: a table that trusts its players' own cards
    lets a seat type its results and flip on its own turn, as before."""
    s = run(ttb("\n[settings]\nseats_enter_results = true\n" + SEATS), "start", "damage Sofia 5 no-armor")
    assert apply(s, "alice", "answer 5R") == Verdict("apply", "by alice answer 5R")
    assert judge(s, "alice", None, "answer pass 5") == Verdict("apply", "by alice answer pass 5")
    assert judge(s, "bob", None, "flip").kind == "refuse"  # still only on its own turn


def test_2d20_faces_typed_from_a_seat_are_a_request_and_its_roll_applies() -> None:
    """docs/guide/seating.md, docs/rules/2d20.md#s3-2: the attack's test is the tracker's ``roll`` (bought d20s too);
    the faces rolled at the table (``answer 1,1``) and a ``roll`` at a TN the player chooses are requests."""
    from tests.rules.twod20.test_attack_flow import scene

    s = scene()
    s.setup.seats["alice"] = "Kit"
    run(s, "start", "pick Kit")
    assert judge(s, "alice", None, "roll Kit 20 2 faces=1,1") == Verdict(
        "request", "request alice Kit roll Kit 20 2 faces=1,1"
    )
    assert apply(s, "alice", "attack Kit").kind == "apply"
    assert apply(s, "alice", "answer Thug").kind == "apply"  # a choice: the seat's own
    assert prompt_kind(s) == "attack_roll"
    assert judge(s, "alice", None, "answer 1,1") == Verdict("request", "request alice Kit answer 1,1")
    assert judge(s, "alice", None, "answer roll+1") == Verdict("apply", "by alice answer roll+1")


def prompt_kind(s: Session) -> str | None:
    prompt = s.state.prompt
    return prompt.kind if prompt is not None else None


def test_2d20_a_move_beyond_the_turns_movement_is_refused_for_a_seat() -> None:
    """docs/rules/2d20-combat.md#s3-6: a move beyond the zones the turn's movement actions allow only warns the GM, who
    may overrule it; from a seat it is refused (never a request: the player takes the movement action first)."""
    s = run(d20(), "start", "pick Kit")
    refused = judge(s, "alice", None, "move Kit B")
    assert refused.kind == "refuse"
    assert refused.reason.startswith("Kit moves 1 zone but its movement actions this turn allow 0")
    assert d20_state(s).fighters["Kit"].move_budget == 0  # nothing changed
    run(s, "move Kit B")  # the GM's own is a warning
    assert any(e.text.startswith("Warning: Kit moves 1 zone") for e in s.state.log)


# --- what a seat is told -------------------------------------------------------------------------------


def brawl(tmp_path: Path) -> Session:
    """examples/brawl.toml (the GM-only Rotten Belle among the Fatemaster's) with alice seated as Sofia."""
    from tracker.store import files
    from tracker.store.opening import load_session

    path = tmp_path / "brawl.toml"
    examples = Path(__file__).parents[2] / "examples"
    files.write_text(path, (examples / "brawl.toml").read_text() + '\n[seats]\nalice = "Sofia Ramos"\n')
    return load_session(str(path))


@pytest.mark.parametrize(
    "form",
    ["spend {} walk", "damage {} 2", "engage Sofia {}", "attack Sofia strike {}", "heal {} 1", "add {} burning"],
)
def test_a_gm_only_name_and_a_strangers_get_the_same_refusal(tmp_path: Path, form: str) -> None:
    """docs/guide/shared-box.md/docs/guide/seating.md: a GM-only combatant is not at the players' table: naming it
    (whole or by a prefix) is refused in the very words a name no one has is, so no reply tells one from the other."""
    from tracker.families.seating import said_to_seat

    s = run(brawl(tmp_path), "start")
    replies = set()
    for word in ("Rotten", "Belle", "Zachary"):
        verdict = judge(s, "alice", None, form.format(word))
        assert verdict.kind == "refuse", (word, verdict)
        replies.add(said_to_seat(s, verdict.reason).replace(word, "X"))
    assert len(replies) == 1, replies
    assert "someone" not in replies.pop()


def test_a_refusal_never_quotes_a_question_the_seat_cannot_see(tmp_path: Path) -> None:
    """docs/guide/seating.md: a question the player view does not show is never quoted to a seat (the initiative tie
    between the Cutthroat and the GM-only Rotten Belle): only whom it waits for, as the seat's screen says."""
    s = run(brawl(tmp_path), "start")
    prompt = s.state.prompt
    assert prompt is not None and "Rotten Belle" in prompt.question
    for line in ("answer Dockside", "answer x", "spend Sofia walk"):
        verdict = judge(s, "alice", None, line)
        assert verdict.kind == "refuse"
        assert "Initiative" not in verdict.reason and "Dockside" not in verdict.reason, verdict.reason


def test_a_seat_is_told_its_own_question_as_its_screen_shows_it() -> None:
    """docs/guide/seating.md: the question a seat's own action waits on is its own to read: it is quoted."""
    s = run(ttb(), "start", "damage Sofia 5 no-armor")
    verdict = judge(s, "alice", None, "spend Sofia walk")
    assert verdict.reason == f"waiting for an answer: {ttb_state(s).prompt.question}"  # type: ignore[union-attr]


@pytest.mark.parametrize("mark", ["\u202e", "\u2066", "\u200b", "\u2028", "\u2029", "\ufeff", "\u200f"])
def test_format_characters_and_separators_are_dropped_from_a_players_line(mark: str) -> None:
    """A bidi override, a zero-width or a line separator in a player's line (Unicode Cf, Zl, Zp) would reorder
    or forge what the GM's log draws: the line is judged, run and logged without it."""
    s = run(ttb(), "start")
    verdict = apply(s, "alice", f"spend Sofia{mark} walk")
    assert verdict == Verdict("apply", "by alice spend Sofia walk")
    assert "alice: spend Sofia walk" in [e.text for e in ttb_state(s).log]


@pytest.mark.parametrize("control", ["\x85", "\x9b", "\x1b", "\x00"])
def test_c0_and_c1_controls_in_a_players_line_are_refused(control: str) -> None:
    """A control character (C0 or C1: NEL, CSI, ESC) could end a line or drive the GM's terminal: refused."""
    assert judge(run(ttb(), "start"), "alice", None, f"spend Sofia walk{control}").kind == "refuse"


def test_an_engage_that_only_undoes_the_seats_own_disengage_is_refused() -> None:
    """An engage then a disengage of the same pair from one seat changes nothing but the GM's history (each
    saved, each replayed by every undo): the second is refused (the player asks the GM to undo); another
    seat's, or one after something else of the seat's own, is not."""
    s = run(ttb(), "start")
    assert apply(s, "alice", "engage Sofia Guild").kind == "apply"
    undone = judge(s, "alice", None, "disengage sofia 'Guild Thug'")
    assert undone.kind == "refuse"
    assert undone.reason == "that only undoes your last command (engage Sofia Guild); ask the GM to undo it"
    assert apply(s, "alice", "spend Sofia focus").kind == "apply"
    assert apply(s, "alice", "disengage Sofia Guild").kind == "apply"


def test_2d20_seats_enter_results_lets_a_trusting_table_roll_its_own() -> None:
    """docs/guide/seating.md: in a 2d20 scene ``[settings] seats_enter_results = true`` (not a profile parameter) lets a
    seat's own ``roll`` with the faces rolled at the table apply on its turn."""
    s = session_from(
        encounter(KIT, ADA, THUG, BOSS, settings="seats_enter_results = true") + '\n[seats]\nalice = "Kit"\n'
    )
    run(s, "start", "pick Kit")
    assert judge(s, "alice", None, "roll Kit 12 2 faces=1,1") == Verdict("apply", "by alice roll Kit 12 2 faces=1,1")
    assert judge(s, "alice", None, "roll Ada 12 2").kind == "refuse"  # still only its own character


def test_an_action_word_is_never_read_as_a_name_a_gm_only_combatant_shares() -> None:
    """A seat's words are read as the seat sees the fight, but an action is an action: ``walk`` is the Walk even
    when a combatant it can see and a GM-only one both have names that start with it."""
    text = (
        combatant("Sofia Ramos", kind="fated", side="players", initiative=20)
        + combatant("Walker Jones", initiative=1, side="enemies")
        + combatant("Walking Dead", initiative=0, side="enemies", gm_only=True)
    )
    s = run(session_from(text + '\n[seats]\nalice = "Sofia"\n'), "start")
    assert judge(s, "alice", None, "spend Sofia walk") == Verdict("apply", "by alice spend Sofia walk")


def test_who_a_shot_into_an_engagement_hit_is_the_trackers_flip_or_a_request() -> None:
    """[000:L294]: a shot into an engagement flips for each target within reach of it; a seat answers with the
    tracker's ``flip``, while naming who was hit is a result made at the table: a request."""
    from tests.rules.ttb.test_duel_modifiers import PISTOL

    sofia = combatant(
        "Sofia", kind="fated", initiative=20, wounds=8, skills={"pistol": 2}, weapons=[PISTOL], side="players"
    )
    ash = combatant("Ash", kind="fated", initiative=10, wounds=8, side="players")
    thug = combatant("Thug", rank_value=5, defense=4, wounds=9)
    s = session_from(sofia + ash + thug + '\n[seats]\nalice = "Sofia"\n')
    run(s, "initiative Sofia 9", "initiative Ash 5", "start", "engage Ash Thug")
    assert apply(s, "alice", "attack Sofia shoot Thug Pistol").kind == "apply"
    assert prompt_kind(s) == "into_melee"
    assert judge(s, "alice", None, "answer Thug") == Verdict("request", "request alice Sofia answer Thug")
    assert judge(s, "alice", None, "answer flip") == Verdict("apply", "by alice answer flip")
