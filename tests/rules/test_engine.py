"""The shared engine skeleton (tracker.engine.kernel): structured log entries, the log limit, prompts,
dispatch and ``seed``, the same in both families; old files with string log entries still load."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import tomli_w

from tests.conftest import pending, reloaded, run, session_from
from tracker.engine.errors import Refusal
from tracker.engine.kernel import LOG_LIMIT, Engine
from tracker.engine.log import LogEntry
from tracker.engine.records.conditions import check_conditions
from tracker.engine.records.record import dump, validate
from tracker.engine.state import LiveState, reset
from tracker.families.session import Session
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.records.state import Fighter, TTBState
from tracker.families.ttb.tables.catalogue import CONDITIONS, STATES, condition_key
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.state import TwoD20State
from tracker.store.files import parse_text
from tracker.store.save import encounter_document

TTB = """
[[combatants]]
name = "Sofia Ramos"
kind = "fated"
wounds = 8

[[combatants]]
name = "Guild Thug"
rank_value = 5
wounds = 5
"""

TWOD20 = """
[encounter]
name = "Pier"
system = "2d20"
seed = 1
action_order = "initiative"

[[combatants]]
name = "Kit"
stress = 10

[[combatants]]
name = "Thug"
npc_type = "minor"
stress = 5
"""


def ttb() -> Session:
    return session_from(TTB)


def twod20() -> Session:
    return session_from(TWOD20)


def begin(s: Session) -> Session:
    """`start`, answering the 2d20 initiative order's "who initiated the conflict?" (docs/reference/language.md)."""
    run(s, "start")
    if s.state.prompt is not None and s.state.prompt.kind == "pick":
        run(s, "pick Kit")
    return s


# --- LogEntry ---------------------------------------------------------------------------------


def test_an_old_string_entry_loads_as_a_structured_entry() -> None:
    entry = validate(LogEntry, "3|Sofia Ramos|Sofia Ramos walks | runs")
    assert entry == LogEntry(round=3, actor="Sofia Ramos", kind="event", text="Sofia Ramos walks | runs")


def test_an_old_string_entry_between_turns_has_no_actor_and_a_question_is_a_prompt() -> None:
    entry = validate(LogEntry, "0||? Who goes first?")
    assert (entry.round, entry.actor, entry.kind, entry.text) == (0, None, "prompt", "? Who goes first?")


def test_an_entry_saves_in_the_compact_string_form_and_reads_back() -> None:
    entry = LogEntry(round=2, actor="Kit", kind="prompt", text="? pick or keep")
    saved: object = dump(entry, mode="json")  # a model_serializer: not the dict pydantic's stub says
    assert saved == "2|Kit|? pick or keep"
    assert validate(LogEntry, saved) == entry


@pytest.mark.parametrize(
    "entry",
    [
        LogEntry(round=1, actor="A|B", text="an actor the string form cannot carry"),
        LogEntry(round=1, actor=None, kind="event", text="? an event that reads like a question"),
        LogEntry(round=1, actor="A", kind="prompt", text="a prompt without its mark"),
    ],
)
def test_an_entry_the_string_cannot_carry_saves_as_a_list_and_reads_back(entry: LogEntry) -> None:
    saved: object = dump(entry, mode="json")
    assert isinstance(saved, list)
    assert validate(LogEntry, saved) == entry


def test_a_malformed_list_entry_is_refused() -> None:
    with pytest.raises(ValueError, match=r"\[round, actor, kind, text\]"):
        validate(LogEntry, [1, "A", "event"])


@pytest.mark.parametrize("make", [ttb, twod20])
def test_a_saved_file_with_string_log_entries_still_loads(make: Callable[[], Session]) -> None:
    s = run(begin(make()), "seed 9")
    doc = encounter_document(s)
    doc["state"]["log"] = ["0||Old entry", "1|Kit|? Old question"]
    doc["state"]["logged"] = 2
    loaded = Session(parse_text(tomli_w.dumps(doc), "old.toml"))
    assert loaded.state.log == [
        LogEntry(round=0, actor=None, kind="event", text="Old entry"),
        LogEntry(round=1, actor="Kit", kind="prompt", text="? Old question"),
    ]


@pytest.mark.parametrize("make", [ttb, twod20])
def test_the_log_survives_a_save_and_reload(make: Callable[[], Session]) -> None:
    s = run(make(), "start")
    assert reloaded(s).state.log == s.state.log


# --- the skeleton, in both families ---------------------------------------------------------------


def test_both_engines_and_states_are_the_shared_skeleton() -> None:
    assert isinstance(ttb().rules, Engine) and isinstance(twod20().rules, Engine)
    assert issubclass(TTBState, LiveState) and issubclass(TwoD20State, LiveState)
    assert TTBEngine.HANDLERS["seed"] is TwoD20Engine.HANDLERS["seed"]


def skeleton(s: Session) -> Engine[Any, Any, Any, Any]:
    """The session's engine as the shared skeleton both families subclass."""
    eng = s.rules
    assert isinstance(eng, Engine)
    return eng


@pytest.mark.parametrize("make", [ttb, twod20])
def test_entries_carry_the_round_and_whose_turn(make: Callable[[], Session]) -> None:
    s = make()
    skeleton(s).log("before anything")
    assert s.state.log[-1] == LogEntry(round=0, actor=None, kind="event", text="before anything")
    s.state.round, s.state.active = 2, "Thug"
    skeleton(s).log("mid-turn")
    assert s.state.log[-1] == LogEntry(round=2, actor="Thug", kind="event", text="mid-turn")


@pytest.mark.parametrize("make", [ttb, twod20])
def test_the_log_keeps_the_latest_entries_and_counts_all(make: Callable[[], Session]) -> None:
    s = make()
    before = s.state.logged
    for n in range(LOG_LIMIT + 5):
        skeleton(s).log(f"line {n}")
    assert len(s.state.log) == LOG_LIMIT
    assert s.state.log[-1].text == f"line {LOG_LIMIT + 4}"
    assert s.state.logged == before + LOG_LIMIT + 5


@pytest.mark.parametrize("make", [ttb, twod20])
def test_a_question_is_logged_as_a_prompt_and_blocks_other_verbs(make: Callable[[], Session]) -> None:
    s = make()
    skeleton(s).ask("test", "Which one?", ["a", "b"], who="Thug", extra=1)
    assert pending(s.state).who == "Thug" and pending(s.state).data == {"extra": 1}
    assert s.state.log[-1].kind == "prompt" and s.state.log[-1].text == "? Which one?"
    with pytest.raises(Refusal, match=r"^waiting for an answer: Which one\?$"):
        s.execute("start")


@pytest.mark.parametrize(("make", "verb"), [(ttb, "move Sofia Thug"), (twod20, "engage Kit Thug")])
def test_the_other_familys_verb_cannot_be_used(make: Callable[[], Session], verb: str) -> None:
    # The family's command table refuses it, listing only the family's own verbs (tests/rules/test_commands.py).
    with pytest.raises(Refusal, match=r"^unknown command '(move|engage)' in a (Through the Breach|2d20) encounter"):
        make().execute(verb)


@pytest.mark.parametrize("make", [ttb, twod20])
def test_seed_is_shared(make: Callable[[], Session]) -> None:
    s = run(make(), "seed 42")
    assert (s.state.seed, s.state.draws) == (42, 0)
    assert s.state.log[-1].text == "random seed set to 42"
    with pytest.raises(Refusal, match=r"^seed must be a whole number, not 'x'$"):
        s.execute("seed x")


@pytest.mark.parametrize(("make", "play"), [(ttb, "Dramatic Time"), (twod20, "the scene")])
def test_phase_refusals_name_the_familys_play(make: Callable[[], Session], play: str) -> None:
    s = make()
    with pytest.raises(Refusal, match=f"^{play} has not started: use 'start' first$"):
        s.execute("end")
    begin(s)
    with pytest.raises(Refusal, match=f"^{play} has already started$"):
        s.execute("start")


# --- small shared helpers -----------------------------------------------------------------------


def test_reset_restores_declared_defaults_with_fresh_lists() -> None:
    f = Fighter(wounds=5, ap=3, wait="strike", hand=["1R"])
    reset(f, "ap", "wait", "hand")
    assert (f.ap, f.wait, f.hand) == (0, None, [])
    g = Fighter(wounds=5)
    reset(g, "hand")
    g.hand.append("2R")
    assert f.hand == [], "each reset gets its own list"


def test_check_conditions_reports_every_problem_at_once() -> None:
    with pytest.raises(ValueError) as err:
        check_conditions({"Dazed": 2, "burning": True, "unconscious": 1}, condition_key, CONDITIONS, STATES)
    assert str(err.value) == (
        "Dazed is not valued: write dazed = true; Burning is valued: give a number of 1 or more; unconscious takes true"
    )
    assert check_conditions({"Dazed": True, "burn": 2}, condition_key, CONDITIONS, STATES) == {
        "dazed": True,
        "burning": 2,
    }
