"""The Show action [000:L280] (docs/rules/ttb-turns.md#s2-5 Show): ``spend NAME show TARGET``.

A Combat action (1 AP) against a character within 1 yard: an Athletics challenge resisted by the target's
Athletics; the taller of the two gains ⊞ on the challenge; success pushes the target 1 yard directly away, plus
1 yard per Margin of Success. A push ignores terrain and provokes no disengaging strike [000:L228-230].

The duel is asked like Impose and Trick (`effects`): ``pass N``, ``fail``, or ``flip`` where the tracker can
flip it — a Fated showing a Fatemaster character flips Athletics against the target's Athletics + Rank Value
(docs/rules/ttb.md#s2-2-5), two Fated both flip (`opposed`). The tracker keeps no yards, so the push is logged with its
distance and the melee links stay as the GM leaves them (``disengage`` when the push took the target out of reach).
"""

from __future__ import annotations

from tracker.families.ttb import duel
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate import opposed
from tracker.families.ttb.records.state import Prompt
from tracker.present.words import counted

KIND = "show"
SKILL = "athletics"


def height_parts(eng: TTBEngine, who: str, target: str) -> tuple[list[duel.Part], list[duel.Part]]:
    """The taller character gains ⊞ on the challenge [000:L280]: (the Showing one's parts, the target's)."""
    mine, theirs = eng.sheet(who).height, eng.sheet(target).height
    if mine > theirs:
        return [duel.Part("taller", fate=1)], []
    if theirs > mine:
        return [], [duel.Part("taller", fate=1)]
    return [], []


def ask(eng: TTBEngine, who: str, target: str) -> None:
    """The Show's duel, every modifier named; ``flip`` offered where the tracker can flip it."""
    tall_a, tall_t = height_parts(eng, who, target)
    ours = [*duel.acting(eng, who, SKILL, action=True), *tall_a]
    theirs = [*duel.acting(eng, target, SKILL, action=False), *tall_t]
    asheet, tsheet = eng.sheet(who), eng.sheet(target)
    head = f"{who} Shows {target} (Athletics vs Athletics)"
    data: dict[str, str | int | bool | list[str]] = {}
    text = ""
    if asheet.fated and tsheet.fated:
        data = {**opposed.offer_data(eng, who, target, SKILL, SKILL), **opposed.sides_data(ours, theirs)}
        duel.spend_parts(eng, who, ours)
        text = f" — or flip (both flip: {opposed.describe(data) or 'Athletics vs Athletics'})"
    elif asheet.fated and tsheet.rank_value is not None:
        rank = duel.resisting_rank(eng, target)
        av = asheet.skills.get(SKILL, 0)
        t_av = tsheet.skills.get(SKILL, 0)
        parts = [*ours, *duel.reversed_parts(eng, theirs, target)]
        test = duel.Duel(
            who, f"Athletics {av}", av, t_av + rank, f"{target}'s Athletics {t_av} + Rank {rank}", tuple(parts)
        )
        duel.spend_parts(eng, who, ours)
        data = {**test.data(), "skill": SKILL}
        text = f" — {test.describe()}; or flip"
    else:
        counted_parts = [p.text() for p in ours if p.fate] + [f"{target}: {p.text()}" for p in theirs if p.fate]
        if counted_parts:
            text = f" ({', '.join(counted_parts)})"
    eng.ask(
        KIND,
        f"{head}{text}: pass or fail? (pass N for N Margins: a push of 1 yard + 1 per Margin)",
        ["pass", "fail", *(["flip"] if data else [])],
        who=who,
        target=target,
        **data,
    )


def resolved(eng: TTBEngine, p: Prompt, passed: bool, margins: int, diff: int | None) -> None:
    """Success pushes the target 1 yard + 1 per Margin of Success, with no disengaging strike [000:L228, L280]."""
    who, target = str(p.who), str(p.data["target"])
    if not passed:
        eng.log(f"{who}'s Show fails: {target} stands its ground")
        return
    yards = 1 + margins
    eng.log(
        f"{who} Shows {target}: pushed {counted(yards, 'yard')} directly away (a push: no disengaging strike; "
        "'disengage' if it left the melee)"
    )
