"""Ongoing Challenges [000:L407-415] (docs/reference/language.md ``ongoing``).

An Ongoing Challenge is a sequence of challenges toward a number of successes before too many failures:

- **Target Number**: the TN of every challenge made as part of it;
- **Duration**: the time each participating character needs to attempt one challenge (kept as the GM's text);
- **Success Requirement**: the successful challenges needed to win; each Margin of Success counts as one more
  successful challenge;
- **Failure Margins**: when the characters have generated this many Margins of Failure or more, it ends in a
  catastrophic failure.

A failed challenge counts one Margin of Failure, plus one per full 5 points it fell short ([000:L75-77]),
the mirror of a success counting itself plus its Margins (docs/guide/decisions.md "Ongoing Challenges").

``ongoing 'NAME' tn=N successes=K failures=F [skill=S] [duration=TEXT]`` opens one; ``ongoing 'NAME' WHO
[SKILL]`` asks WHO's challenge as a duel prompt (``flip``, ``pass N``, ``fail N``); ``ongoing 'NAME' end``
drops it. The state keeps each (JSON ``challenges``), so undo and a restart replay it.
"""

from __future__ import annotations

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, count
from tracker.families.ttb import duel
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.records.state import Ongoing, Prompt
from tracker.families.ttb.tables.skills import skill_key

KIND = "ongoing"
OPEN = "open"


def summary(c: Ongoing) -> str:
    """``Pry the Crypt Gate: 2/3 successes, 1/3 Margins of Failure (TN 10, Athletics, 1 turn each)``."""
    how = ", ".join(x for x in (f"TN {c.tn}", c.skill.title(), f"{c.duration} each" if c.duration else "") if x)
    out = f"{c.name}: {c.successes}/{c.needed} successes, {c.failures}/{c.failure_limit} Margins of Failure ({how})"
    return out + ("" if c.state == OPEN else f" — {c.state}")


def _find(eng: TTBEngine, text: str) -> Ongoing | None:
    known = [c.name for c in eng.st.challenges]
    try:
        name = names.resolve(text, known)
    except Refusal:
        return None
    return next(c for c in eng.st.challenges if c.name == name)


def command(eng: TTBEngine, cmd: Command) -> None:
    """Open an Ongoing Challenge, make one of its challenges, or drop it."""
    title = cmd.args[0].strip()
    if not title:
        raise Refusal("name the Ongoing Challenge: ongoing 'NAME' tn=N successes=K failures=F")
    opening = {"tn", "successes", "failures", "duration"} & set(cmd.options)
    if opening:
        _open(eng, title, cmd)
        return
    found = _find(eng, title)
    if found is None:
        known = ", ".join(c.name for c in eng.st.challenges) or "none yet"
        raise Refusal(f"no Ongoing Challenge '{title}' (open one with tn= successes= failures=; open: {known})")
    if len(cmd.args) == 2 and cmd.args[1].casefold() == "end":
        eng.st.challenges.remove(found)
        eng.log(f"the Ongoing Challenge '{found.name}' is set aside")
        return
    if len(cmd.args) < 2:
        raise Refusal(f"who attempts it? ongoing '{found.name}' NAME [SKILL]")
    if found.state != OPEN:
        raise Refusal(f"the Ongoing Challenge '{found.name}' is over ({found.state})")
    who = eng.living(cmd.args[1])
    skill = skill_key(eng, cmd.args[2]) if len(cmd.args) > 2 else found.skill
    if not skill:
        raise Refusal(f"which skill? ongoing '{found.name}' {who} SKILL (or open it with skill=)")
    if len(cmd.args) > 3:
        raise Refusal("usage: ongoing 'NAME' WHO [SKILL]")
    head = f"{who}'s challenge for '{found.name}' ({skill.title()} vs TN {found.tn})"
    duel.ask(eng, KIND, who, head, skill, found.tn, action=True, challenge=found.name)


def _open(eng: TTBEngine, title: str, cmd: Command) -> None:
    if len(cmd.args) > 1:
        raise Refusal("usage: ongoing 'NAME' tn=N successes=K failures=F [skill=S] [duration=TEXT]")
    missing = [k for k in ("tn", "successes", "failures") if k not in cmd.options]
    if missing:
        raise Refusal(f"an Ongoing Challenge needs tn=, successes= and failures= (missing {', '.join(missing)}=)")
    tn = count(cmd.options["tn"], "tn")
    needed = count(cmd.options["successes"], "successes")
    limit = count(cmd.options["failures"], "failures")
    if min(tn, needed, limit) < 1:
        raise Refusal("tn=, successes= and failures= are at least 1")
    if any(c.name.casefold() == title.casefold() for c in eng.st.challenges):
        raise Refusal(f"there is already an Ongoing Challenge '{title}'")
    skill = skill_key(eng, cmd.options["skill"]) if "skill" in cmd.options else ""
    duration = cmd.options.get("duration", "")
    eng.st.challenges.append(
        Ongoing(name=title, tn=tn, needed=needed, failure_limit=limit, skill=skill, duration=duration)
    )
    eng.log(
        f"Ongoing Challenge '{title}': TN {tn}, {needed} successes before {limit} Margins of Failure"
        + (f", {skill.title()}" if skill else "")
        + (f", each attempt takes {duration}" if duration else "")
    )


def resolved(eng: TTBEngine, p: Prompt, passed: bool, margins: int, diff: int | None) -> None:
    """One challenge's result counted: a success and its Margins, or a failure and its Margins of Failure."""
    found = next((c for c in eng.st.challenges if c.name == str(p.data["challenge"])), None)
    if found is None:
        return
    who = str(p.who)
    if passed:
        gained = 1 + margins
        found.successes += gained
        eng.log(f"'{found.name}': {who} succeeds (+{gained}) → {found.successes}/{found.needed} successes")
    else:
        short = (-diff) // 5 if diff is not None and diff < 0 else margins
        gained = 1 + short
        found.failures += gained
        eng.log(
            f"'{found.name}': {who} fails (+{gained} Margin{'s' if gained > 1 else ''} of Failure) → "
            f"{found.failures}/{found.failure_limit}"
        )
    found.attempts.append(f"{who}: {'+' if passed else '-'}{gained}")
    if found.successes >= found.needed:
        found.state = "succeeded"
        eng.log(f"the Ongoing Challenge '{found.name}' succeeds")
    elif found.failures >= found.failure_limit:
        found.state = "failed"
        eng.log(f"the Ongoing Challenge '{found.name}' ends in a catastrophic failure")
