"""docs/rules/2d20-turns.md#s3-4 rules 1-3 with docs/reference/language.md `pick`/`keep` and
docs/reference/json-state.md `prompt_options`: the saved hand-over question (the JSON state, completion, the file)
offers exactly the answers that would be accepted now. An NPC first or an NPC side keeping the initiative is paid from
the Threat pool, so the offer follows the pool."""

from __future__ import annotations

from tests.conftest import d20, d20_state, run
from tests.rules.twod20.scenes import refused
from tests.rules.twod20.test_order import duel
from tracker.families.session import Session


def offered(s: Session) -> list[str]:
    options = s.rules.state_json()["prompt_options"]
    assert isinstance(options, list)
    return [str(o) for o in options]


def test_an_npc_first_leaves_the_offer_when_threat_runs_short() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 1: an NPC first costs 2 Threat; with 1 left in the pool only the PCs are
    offered, and every answer offered is accepted."""
    s = run(duel(threat=4), "start")
    assert offered(s) == ["Kit", "Ada", "Thug", "Boss"]
    d20_state(s).threat = 1  # the pool changed while the question waited
    assert offered(s) == ["Kit", "Ada"]
    assert s.rules.choices("answer") == ["Kit", "Ada"]
    refused(s, "pick Thug", "the pool holds 1")
    run(s, "pick Kit")
    assert d20_state(s).active == "Kit"


def test_the_saved_question_is_brought_up_to_date_after_a_command() -> None:
    """docs/reference/file-format.md (the saved state is what the screens read) with docs/rules/2d20-turns.md#s3-4:
    after a command the saved question's options and keeps are the ones `pick`/`keep` accept now; a pool that grows
    brings them back."""
    s = run(duel(threat=1), "start")
    st = d20_state(s)
    assert st.prompt is not None and st.prompt.options == ["Kit", "Ada"]
    st.threat = 4
    assert offered(s) == ["Kit", "Ada", "Thug", "Boss"]
    d20(s).after_command()
    assert st.prompt is not None and st.prompt.options == ["Kit", "Ada", "Thug", "Boss"]


def test_an_npc_keep_follows_the_threat_pool() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 3: the NPC side keeps the initiative for 2 Threat; the keep is offered while
    the pool can pay it, and neither offered nor accepted once it cannot."""
    s = run(duel(threat=4), "start", "pick Thug", "next")
    st = d20_state(s)
    assert "Boss" in offered(s) and st.prompt is not None and "Boss" in st.prompt.data["keep"]  # type: ignore[operator]
    st.threat = 0
    assert offered(s) == ["Kit", "Ada"]
    d20(s).after_command()
    assert st.prompt is not None and st.prompt.data["keep"] == [] and st.prompt.options == ["Kit", "Ada"]
    refused(s, "keep Boss", "the pool holds 0")
