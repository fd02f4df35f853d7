"""The 2d20 log says what is applied: a yielding PC's hit names the 1 Harm it suffers."""

from __future__ import annotations

from tests.conftest import run
from tests.rules.twod20.test_harm import THUG, kit, srd
from tracker.families.session import Session


def hit_line(s: Session) -> str:
    """The last "takes … damage" line of the log."""
    return [e.text for e in s.state.log if " takes " in e.text][-1]


def test_s3_10_2_yield_logs_the_one_harm_applied() -> None:
    """docs/rules/2d20-harm.md#s3-10-2 Voluntary Defeat: a yielding PC suffers only 1 Harm. The hit's log line says
    1 Wound (and that 2 were reduced to it), never the 2 Wounds that are not applied."""
    s = srd(kit(), THUG)
    run(s, "damage Kit 12 yield")  # 10 stress, max reached: 2 Harms, reduced to 1
    line = hit_line(s)
    assert line.endswith(", 1 Wound (yields: 2 reduced to 1)"), line
    assert "2 Wounds" not in line
    assert s.state.log[-1].text.startswith("Kit yields: Defeated (voluntary)")


def test_s3_10_2_hit_without_yield_logs_every_harm() -> None:
    """docs/rules/2d20-harm.md#s3-10-1 (C28): the same hit without yielding is 2 Wounds, and the log says 2 Wounds."""
    s = srd(kit(), THUG)
    run(s, "damage Kit 12")
    assert hit_line(s).endswith(", 2 Wounds")
