"""Challenges: Key Tests toward a goal, Contests against rivals and time pressure (docs/reference/language.md
``keytests``) [004:L679-743].

A Challenge is two or more Key Tests; once they are all done (or the goal a gated Challenge names), it is
complete [004:L687]. Its Key Tests may be taken in any order, in a line (each after the one before
[004:L695]) or behind gates (``gate``: a Key Test only after others [004:L697]). In a Group Challenge each
further test a character makes during it is +1 Difficulty, cumulative [004:L703].

Under time pressure [004:L719-727] each test takes two intervals, one more per Complication; after a success
2 Momentum takes one off (``hurry``), after a failure 2 Threat does (``cut``), down to one interval
[004:L721, L733]. When the intervals used reach the limit before the goal, the Challenge has failed and its
consequence happens. A limit that can be put off (a guard who may be delayed [004:L737-741]) moves with
``delay``: the GM adds the intervals the delaying test earned, or takes off what a Complication cost.

A Contest [004:L711] has rivals working toward their own goal: the side with Priority tests first (the players,
unless the GM spends 2 Threat), then the other (``rival`` records the rivals' test); a side without Priority
that succeeded may take it for the next exchange by spending 2 Momentum (``seize``; the rivals' Momentum is
the GM's Threat). The first side to its goal wins.

The tests are asked like an Overcome's (`tracker.families.twod20.overcome`): rolled by the tracker, with bought
d20s, or the faces the table rolled. The state keeps each Challenge (JSON ``challenges``), so undo replays it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, count, signed_int
from tracker.engine.records.model import Prompt
from tracker.families.twod20 import overcome, pools, tasks
from tracker.families.twod20.records.play import Challenge, KeyTest
from tracker.families.twod20.skill_test import SkillTest, build, gm_modifier
from tracker.families.values import JSONObject
from tracker.present.words import counted

if TYPE_CHECKING:
    from tracker.families.twod20.engine import TwoD20Engine

ROLL = "keytest_roll"
Side = Literal["players", "rivals"]
#: Intervals a test takes before Momentum, Threat and Complications change it [004:L721].
INTERVALS = 2
#: Momentum (after a success) or Threat (after a failure) for each interval taken off [004:L721, L733].
PER_INTERVAL = 2
#: What Priority costs: the GM's 2 Threat to give it to the rivals at the start, a side's 2 Momentum to take
#: it after a success [004:L711].
PRIORITY_COST = 2


def find(eng: TwoD20Engine, word: str) -> Challenge:
    found = names.matching(word, [c.name for c in eng.st.challenges])
    if len(found) != 1:
        known = ", ".join(c.name for c in eng.st.challenges) or "none yet: keytests 'NAME' 'KEY:ATTR+SKILL' …"
        raise Refusal(f"no Challenge named '{word}' (known: {known})")
    return next(c for c in eng.st.challenges if c.name == found[0])


def _open(eng: TwoD20Engine, word: str) -> Challenge:
    found = find(eng, word)
    if found.state != "open":
        raise Refusal(f"the Challenge '{found.name}' is {found.state} already")
    return found


def _key_spec(text: str) -> KeyTest:
    """``Pick the lock:agility+tech/2``: a Key Test's name, its test and its Difficulty (1 when not given)."""
    name, eq, rest = text.rpartition(":")
    if not eq or not name.strip():
        raise Refusal(f"a Key Test is 'NAME:ATTRIBUTE+SKILL[/D]' (e.g. 'Pick the lock:agility+tech/2'), not '{text}'")
    test, slash, level = rest.partition("/")
    difficulty = count(level, "a Key Test's Difficulty", 5) if slash else 1
    return KeyTest(name=name.strip(), test=tasks.parse_test(test), difficulty=difficulty)


def create(eng: TwoD20Engine, cmd: Command) -> None:
    """``keytests 'NAME' 'KEY:ATTR+SKILL[/D]' … [linear] [group] [goal='KEY'] [limit=N] [interval=TEXT]
    [rivals=K] [priority=rivals] [consequence=TEXT]``."""
    if len(cmd.args) < 3:
        raise Refusal("a Challenge is two or more Key Tests: keytests 'NAME' 'KEY:ATTR+SKILL[/D]' 'KEY=…'")
    name = cmd.args[0].strip()
    if any(c.name.casefold() == name.casefold() for c in eng.st.challenges):
        raise Refusal(f"there is already a Challenge '{name}'")
    keys = [_key_spec(text) for text in cmd.args[1:]]
    seen = [k.name.casefold() for k in keys]
    if len(set(seen)) != len(seen):
        raise Refusal("each Key Test needs a name of its own")
    opts = cmd.options
    goal = ""
    if "goal" in opts:
        goal = names.resolve(opts["goal"], [k.name for k in keys], what="Key Test")
    limit = count(opts["limit"], "the time limit (intervals)", 99) if "limit" in opts else None
    if limit == 0:
        raise Refusal("the time limit is at least 1 interval")
    rivals = count(opts["rivals"], "the rivals' successes", 20) if "rivals" in opts else None
    if rivals == 0:
        raise Refusal("the rivals need at least 1 success (rivals=K)")
    priority = opts.get("priority", "players").casefold()
    if priority not in ("players", "rivals"):
        raise Refusal("priority=players or priority=rivals (the GM's 2 Threat)")
    if priority == "rivals" and rivals is None:
        raise Refusal("priority= is for a Contest: give the rivals' goal with rivals=K")
    if priority == "rivals" and eng.st.threat < PRIORITY_COST:
        raise Refusal(f"the rivals' Priority costs the GM {PRIORITY_COST} Threat (the pool has {eng.st.threat})")
    challenge = Challenge(
        name=name,
        keys=keys,
        order="linear" if "linear" in cmd.flags else "any",
        group="group" in cmd.flags,
        goal=goal,
        interval=opts.get("interval", ""),
        limit=limit,
        rivals=rivals,
        priority="rivals" if priority == "rivals" else "players",
        next_side="rivals" if priority == "rivals" else "players",
        consequence=opts.get("consequence", ""),
    )
    if challenge.priority == "rivals":
        pools.threat(eng, -PRIORITY_COST, f"the rivals take Priority in '{name}'")
    eng.st.challenges.append(challenge)
    eng.log(f"Challenge '{name}': {summary(challenge)}")


def gate(eng: TwoD20Engine, cmd: Command) -> None:
    """``gate 'CHALLENGE' 'KEY' after='KEY1,KEY2'``: KEY may be tried only once those are done [004:L697]."""
    challenge = _open(eng, cmd.args[0])
    keys = [k.name for k in challenge.keys]
    key = _key(challenge, cmd.args[1])
    if "after" not in cmd.options:
        raise Refusal("gate 'CHALLENGE' 'KEY' after='KEY1,KEY2': the Key Tests that open it")
    after = [names.resolve(w.strip(), keys, what="Key Test") for w in cmd.options["after"].split(",") if w.strip()]
    if key.name in after:
        raise Refusal(f"'{key.name}' cannot wait for itself")
    key.after = after
    eng.log(f"'{challenge.name}': {key.name} opens once {', '.join(after)} {'is' if len(after) == 1 else 'are'} done")


def _key(challenge: Challenge, word: str) -> KeyTest:
    name = names.resolve(word, [k.name for k in challenge.keys], what=f"Key Test of '{challenge.name}'")
    return next(k for k in challenge.keys if k.name == name)


def _locked(challenge: Challenge, key: KeyTest) -> str:
    """Why `key` cannot be tried yet ("" when it can): done, behind the one before it, or behind a gate."""
    if key.done:
        return f"'{key.name}' is done already"
    if challenge.order == "linear":
        before = challenge.keys[: challenge.keys.index(key)]
        waiting = [k.name for k in before if not k.done]
        if waiting:
            return f"'{challenge.name}' is linear: '{waiting[0]}' comes first"
    waiting = [name for name in key.after if not next(k for k in challenge.keys if k.name == name).done]
    return f"'{key.name}' opens once {', '.join(waiting)} done" if waiting else ""


def test_for(eng: TwoD20Engine, challenge: Challenge, key: KeyTest, who: str, gm: int) -> SkillTest:
    parts = [(gm, "GM")] if gm else []
    tried = challenge.attempts.get(who, 0)
    if challenge.group and tried:
        parts.append((tried, f"Group Challenge: {counted(tried, 'test')} already"))
    test = build(eng, who, key.test, key.difficulty, "Key Test", parts)
    if isinstance(test, str):
        raise Refusal(test)
    return test


def start(eng: TwoD20Engine, cmd: Command) -> None:
    """``keytest 'CHALLENGE' 'KEY' WHO [+N|-N]``: check, then ask WHO's test of that Key Test."""
    eng.require_started()
    challenge = _open(eng, cmd.args[0])
    key = _key(challenge, cmd.args[1])
    who = eng.living(cmd.args[2])
    gm = 0
    for word in cmd.args[3:]:
        modifier = gm_modifier(word)
        if modifier is None or gm:
            raise Refusal(f"usage: keytest 'CHALLENGE' 'KEY' NAME [+N|-N] ('{word}' is neither)")
        gm = modifier
    why = _locked(challenge, key)
    if why:
        raise Refusal(why)
    if challenge.rivals is not None and challenge.next_side != "players":
        raise Refusal(f"the rivals test next in '{challenge.name}': rival '{challenge.name}' pass|fail")
    test = test_for(eng, challenge, key, who, gm)
    options, labels = overcome.dice_offer(eng, who, test)
    eng.ask(
        ROLL,
        f"{who} attempts {key.name} ('{challenge.name}'): {test.tn_text()}, Difficulty {test.difficulty} "
        f"({test.difficulty_parts()}) — roll, buying d20s?",
        options,
        who=who,
        challenge=challenge.name,
        key=key.name,
        tn=test.tn,
        difficulty=test.difficulty,
        range=test.complication_range,
        skill=test.skill_rating,
        modifiers=test.modifiers(),
        labels=labels,
        **({"focus": test.skill_rating} if test.focus else {}),
    )


def answer(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Roll (or score the faces), count the test against the Challenge and its clock."""
    who = str(p.who)
    challenge = find(eng, str(p.data["challenge"]))
    key = _key(challenge, str(p.data["key"]))
    result = overcome.rolled(eng, p, value)
    challenge.attempts[who] = challenge.attempts.get(who, 0) + 1
    pools.bank(eng, who, result.momentum, f"{who}'s test")
    if result.passed:
        key.done, key.by = True, who
        eng.log(f"'{challenge.name}': {who} completes {key.name}")
    else:
        eng.log(f"'{challenge.name}': {who} fails {key.name}")
    _took(eng, challenge, result.passed, INTERVALS + result.complications, result.complications)
    if challenge.state == "open" and _goal_reached(challenge):
        challenge.state = "complete"
        eng.log(f"the Challenge '{challenge.name}' is complete")
    _exchange(eng, challenge, "players", result.passed)


def _took(eng: TwoD20Engine, challenge: Challenge, passed: bool, taken: int, complications: int) -> None:
    challenge.last, challenge.last_taken = ("passed" if passed else "failed"), taken
    if challenge.limit is None:
        return
    challenge.used += taken
    extra = f", {counted(complications, 'Complication')}" if complications else ""
    eng.log(f"'{challenge.name}': the test takes {counted(taken, 'interval')}{extra} → {_clock(challenge)}")
    _time_up(eng, challenge)


def _time_up(eng: TwoD20Engine, challenge: Challenge) -> None:
    if challenge.limit is None or challenge.state != "open" or challenge.used < challenge.limit:
        return
    if _goal_reached(challenge):
        return
    challenge.state = "failed"
    then = f": {challenge.consequence}" if challenge.consequence else ""
    eng.log(f"time runs out on '{challenge.name}'{then}")


def _goal_reached(challenge: Challenge) -> bool:
    if challenge.goal:
        return next(k for k in challenge.keys if k.name == challenge.goal).done
    return all(k.done for k in challenge.keys)


def _exchange(eng: TwoD20Engine, challenge: Challenge, side: str, passed: bool) -> None:
    """A Contest's order [004:L711]: the side with Priority, then the other; then again from the side with
    Priority. `side` just tested."""
    if challenge.rivals is None:
        return
    other: Side = "rivals" if challenge.priority == "players" else "players"
    challenge.next_side = other if side == challenge.priority else challenge.priority
    if side != challenge.priority and passed and challenge.state == "open":
        payer = "Momentum" if side == "players" else "Threat"
        eng.log(f"'{challenge.name}': the {side} may take Priority for {PRIORITY_COST} {payer} (seize)")


def rival(eng: TwoD20Engine, cmd: Command) -> None:
    """``rival 'CHALLENGE' pass|fail``: the rivals' test in a Contest, as the GM rolled it."""
    challenge = _open(eng, cmd.args[0])
    if challenge.rivals is None:
        raise Refusal(f"'{challenge.name}' has no rivals (keytests … rivals=K makes a Contest)")
    word = cmd.args[1].casefold() if len(cmd.args) > 1 else ""
    if word not in ("pass", "fail"):
        raise Refusal("rival 'CHALLENGE' pass|fail")
    if challenge.next_side != "rivals":
        raise Refusal(f"the players test next in '{challenge.name}': keytest '{challenge.name}' 'KEY' NAME")
    passed = word == "pass"
    if passed:
        challenge.rivals_done += 1
    eng.log(
        f"'{challenge.name}': the rivals {'succeed' if passed else 'fail'} → {challenge.rivals_done}/{challenge.rivals}"
    )
    challenge.last, challenge.last_taken = ("passed" if passed else "failed"), 0
    if challenge.rivals_done >= challenge.rivals and not _goal_reached(challenge):
        challenge.state = "lost"
        then = f": {challenge.consequence}" if challenge.consequence else ""
        eng.log(f"the rivals reach their goal first in '{challenge.name}'{then}")
    _exchange(eng, challenge, "rivals", passed)


def seize(eng: TwoD20Engine, cmd: Command) -> None:
    """``seize 'CHALLENGE' [rivals]``: the side without Priority, after its successful test, takes it for the
    next exchange: 2 Momentum for the players, 2 Threat for the rivals [004:L711]."""
    challenge = _open(eng, cmd.args[0])
    side: Side = "rivals" if len(cmd.args) > 1 and cmd.args[1].casefold() == "rivals" else "players"
    if challenge.rivals is None:
        raise Refusal(f"'{challenge.name}' is no Contest: Priority is for rivals (rivals=K)")
    if challenge.priority == side:
        raise Refusal(f"the {side} have Priority already")
    if challenge.last != "passed" or challenge.next_side == side:
        raise Refusal(f"the {side} may take Priority only right after their own successful test")
    if side == "players":
        pools.momentum(eng, -PRIORITY_COST, f"Priority in '{challenge.name}'")
    else:
        if eng.st.threat < PRIORITY_COST:
            raise Refusal(f"Priority costs {PRIORITY_COST} Threat (the pool has {eng.st.threat})")
        pools.threat(eng, -PRIORITY_COST, f"the rivals take Priority in '{challenge.name}'")
    challenge.priority = challenge.next_side = side
    eng.log(f"'{challenge.name}': the {side} take Priority; they test first from now on")


def shorten(eng: TwoD20Engine, cmd: Command) -> None:
    """``hurry 'CHALLENGE' [N]`` (2 Momentum an interval, after a success) and ``cut 'CHALLENGE' [N]`` (2 Threat
    an interval, after a failure): the last test takes N intervals fewer, down to one [004:L721, L733]."""
    challenge = _open(eng, cmd.args[0])
    if challenge.limit is None:
        raise Refusal(f"'{challenge.name}' is under no time pressure (limit=N intervals)")
    n = count(cmd.args[1], "intervals", 9) if len(cmd.args) > 1 else 1
    want = "passed" if cmd.verb == "hurry" else "failed"
    if challenge.last != want:
        how = "succeeded" if want == "passed" else "failed"
        raise Refusal(f"{cmd.verb} is for a last test that {how} ('{challenge.name}')")
    if n < 1 or challenge.last_taken - n < 1:
        raise Refusal(f"the last test took {counted(challenge.last_taken, 'interval')}: it takes at least 1")
    cost = PER_INTERVAL * n
    if cmd.verb == "hurry":
        pools.momentum(eng, -cost, f"hurrying '{challenge.name}'")
    else:
        pools.threat(eng, cost, f"cutting the losses on '{challenge.name}'")
    challenge.last_taken -= n
    challenge.used -= n
    eng.log(f"'{challenge.name}': the last test took {counted(n, 'interval')} fewer → {_clock(challenge)}")


def delay(eng: TwoD20Engine, cmd: Command) -> None:
    """``delay 'CHALLENGE' +N|-N``: a limit that can be put off moves (a delaying test's success: one interval
    and one per 2 Momentum spent; a Complication's cost: one off) [004:L737-741]."""
    challenge = _open(eng, cmd.args[0])
    if challenge.limit is None:
        raise Refusal(f"'{challenge.name}' is under no time pressure (limit=N intervals)")
    if len(cmd.args) < 2:
        raise Refusal("delay 'CHALLENGE' +N|-N")
    n = signed_int(cmd.args[1], "intervals")
    if n == 0 or not 1 <= challenge.limit + n <= 99:
        raise Refusal(f"the limit is {challenge.limit}: it stays between 1 and 99, and changes by at least 1")
    challenge.limit += n
    how = "grows" if n > 0 else "shrinks"
    eng.log(f"'{challenge.name}': the time limit {how} by {counted(abs(n), 'interval')} → {_clock(challenge)}")
    _time_up(eng, challenge)


def _clock(c: Challenge) -> str:
    unit = f" of {c.interval}" if c.interval else ""
    return f"{c.used}/{c.limit} intervals{unit} used"


def summary(c: Challenge) -> str:
    """``Break in: 1/3 Key Tests (Pick the lock ✓, Bypass the alarm, Open the vault), linear, 4/8 intervals``."""
    keys = ", ".join(k.name + (" ✓" if k.done else "") for k in c.keys)
    parts = [f"{sum(k.done for k in c.keys)}/{len(c.keys)} Key Tests ({keys})"]
    if c.order == "linear":
        parts.append("linear")
    if c.goal:
        parts.append(f"goal {c.goal}")
    if c.group:
        parts.append("group")
    if c.limit is not None:
        parts.append(_clock(c))
    if c.rivals is not None:
        parts.append(f"rivals {c.rivals_done}/{c.rivals}, {c.priority} have Priority")
    return f"{c.name}: " + ", ".join(parts) + ("" if c.state == "open" else f" — {c.state}")


def as_json(eng: TwoD20Engine) -> list[JSONObject]:
    """docs/reference/json-state.md ``challenges``."""
    return [
        {
            "name": c.name,
            "keys": [{"name": k.name, "test": k.test, "difficulty": k.difficulty, "done": k.done} for k in c.keys],
            "order": c.order,
            "group": c.group,
            "limit": c.limit,
            "used": c.used,
            "rivals": c.rivals,
            "rivals_done": c.rivals_done,
            "priority": c.priority,
            "state": c.state,
        }
        for c in eng.st.challenges
    ]
