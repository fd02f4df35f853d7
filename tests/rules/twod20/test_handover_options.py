"""docs/rules/2d20-turns.md#s3-4: the hand-over question offers exactly the answers that would be accepted.

Every option the prompt shows, answered with the command the screen sends for it, is accepted; every
character it leaves out would be refused both as a pick and as a keep.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import d20, d20_view, example_session, reloaded, run
from tests.rules.twod20.test_order import duel
from tracker.engine.errors import Refusal
from tracker.families.session import Session


def accepted(s: Session, line: str) -> bool:
    copy = reloaded(s)
    try:
        copy.execute(line)
    except Refusal:
        return False
    return True


def check_exact(s: Session) -> list[str]:
    """Every shown answer is accepted; every character not shown is refused as pick and as keep."""
    shown = d20_view(s).prompt_view()
    assert shown is not None
    assert len(shown.options) == len(shown.answers)
    for line in shown.answers:
        assert accepted(s, line), line
    offered = {line.split(" ", 1)[1].strip("'") for line in shown.answers}
    for name in d20(s).combatant_names():
        if name not in offered:
            assert not accepted(s, f"pick '{name}'"), name
            assert not accepted(s, f"keep '{name}'"), name
    return list(shown.answers)


@pytest.mark.parametrize("threat", [0, 4])
def test_first_actor_offers_npcs_only_when_threat_pays(threat: int) -> None:
    """docs/rules/2d20-turns.md#s3-4: an NPC first costs 2 Threat; with no Threat only the PCs are offered."""
    s = duel(momentum=0, threat=threat)
    run(s, "start")
    answers = check_exact(s)
    assert ("pick Thug" in answers) == (threat >= 2)
    assert "pick Kit" in answers


@pytest.mark.parametrize("threat", [0, 4])
def test_hand_over_offers_the_other_side_and_keeps_as_keep(threat: int) -> None:
    """docs/rules/2d20-turns.md#s3-4: after Kit the NPCs are picked, or the players keep (keep Ada, never pick Ada)."""
    s = duel(momentum=0, threat=threat)
    run(s, "start", "pick Kit", "next")
    answers = check_exact(s)
    assert "pick Thug" in answers and "keep Ada" in answers
    assert "pick Ada" not in answers and all("Kit" not in a for a in answers)
    shown = d20_view(s).prompt_view()
    assert shown is not None and "keep Ada" in shown.options


def test_no_keep_twice_in_a_row() -> None:
    """docs/rules/2d20-turns.md#s3-4: a side that kept the initiative cannot keep it again before an enemy acts."""
    s = duel(threat=4)
    run(s, "start", "pick Kit", "next", "keep Ada", "next")
    assert check_exact(s) == ["pick Thug", "pick Boss"]


def test_npc_keep_needs_the_threat_to_pay() -> None:
    """docs/rules/2d20-turns.md#s3-4: an NPC side keeps by spending 2 Threat; without it, keep is not offered."""
    s = duel(threat=2)
    run(s, "start", "pick Thug", "next")  # the NPC first spent the 2 Threat
    answers = check_exact(s)
    assert "keep Boss" not in answers and "pick Kit" in answers


def test_round_opening_is_exact() -> None:
    """docs/rules/2d20-turns.md#s3-4: the round's opener is nominated across, or kept for 2; every option is
    accepted."""
    s = duel(momentum=0, threat=0)
    run(s, "start", "pick Kit", "next", "pick Thug", "next", "pick Ada", "next", "pick Boss", "next")
    assert s.state.prompt is not None and s.state.prompt.kind == "round"
    check_exact(s)


def test_every_answer_of_the_example_is_accepted_along_a_round() -> None:
    """docs/rules/2d20-turns.md#s3-4 on the shipped example: at each hand-over, each numbered option is accepted."""
    s = example_session(Path(__file__).resolve().parents[3] / "examples" / "skirmish_srd.toml")
    run(s, "start")
    for _ in range(8):
        if s.state.prompt is None:
            run(s, "next")
            continue
        answers = check_exact(s)
        run(s, answers[-1])
