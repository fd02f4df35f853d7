"""The Overcome: a character attacks an extended task (docs/reference/language.md ``overcome``).

``overcome NAME TASK [+N|-N]`` (and ``attack NAME TASK``, the attack flow with the task as its target) takes the
Overcome Major Action [004:L1470], then asks one question (``overcome NAME`` asks first which open task, each
with its chance, as the attack flow asks at whom: the screen's picker starts it with one key): the task's
test — the attribute and skill the task names, at its Difficulty, every trait in play counted
(`tracker.families.twod20.skill_test.build`) — rolled by the tracker, with bought d20s, or the faces the table
rolled (``answer 5,6``, and the damage's with ``cd=1,5,6,2,3``). On a success the damage is rolled: 2[CD] plus
[CD] equal to the skill used, less the task's Resistance [004:L2056], and lands on the task
(`tracker.families.twod20.tasks.apply`); the test's Momentum is banked as an attack's is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count
from tracker.engine.records.model import Prompt
from tracker.families.twod20 import actions, pools, roll_answer, tasks
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.skill_test import SkillTest, build, gm_modifier
from tracker.present.words import counted

if TYPE_CHECKING:
    from tracker.families.twod20.engine import TwoD20Engine

ROLL = "overcome_roll"
TASK = "overcome_task"
KINDS = (ROLL, TASK)
#: The damage an Overcome rolls before the skill's own dice [004:L2056].
BASE_DAMAGE = 2


def test_for(eng: TwoD20Engine, who: str, task_name: str, gm: int = 0) -> SkillTest:
    task = tasks.open_task(eng, task_name)
    if task.kind != "task":
        raise Refusal(f"'{task.name}' is a consequence: it is avoided, not overcome")
    if not task.test:
        raise Refusal(f"'{task.name}' names no test: task '{task.name}' test=ATTRIBUTE+SKILL [difficulty=D]")
    parts = [(gm, "GM")] if gm else []
    test = build(eng, who, task.test, task.difficulty, "task", parts)
    if isinstance(test, str):
        raise Refusal(test)
    return test


def typed(eng: TwoD20Engine, args: list[str]) -> None:
    """``overcome NAME [TASK] [+N|-N]``: the task named, or asked for."""
    words = list(args[1:])
    task = words.pop(0) if words and gm_modifier(words[0]) is None else None
    start(eng, args[0], task, words)


def start(eng: TwoD20Engine, who_text: str, task_name: str | None, more: list[str]) -> None:
    """Check everything, take the Overcome (a Major Action), then ask the test (or first which task)."""
    eng.require_started()
    who = eng.living(who_text)
    gm = 0
    for word in more:
        modifier = gm_modifier(word)
        if modifier is None or gm:
            raise Refusal(f"usage: overcome NAME [TASK] [+N|-N] ('{word}' is neither)")
        gm = modifier
    if task_name is None:
        offered = _workable(eng, who, gm)
        if not offered:
            raise Refusal(f"{who} has no open task to overcome (task 'NAME' … test=ATTRIBUTE+SKILL)")
    else:
        task = tasks.open_task(eng, task_name)
        test = test_for(eng, who, task.name, gm)
    reason = actions.legality(eng, who, "overcome")
    if reason:
        raise Refusal(reason)
    if task_name is None:
        actions.spend(eng, who, "overcome", [])
        eng.ask(
            TASK,
            f"{who} works on which task?",
            [name for name, _ in offered],
            who=who,
            gm=gm,
            labels=[f"{name} · {round(100 * t.odds(0).success)}% a success" for name, t in offered],
        )
        return
    actions.spend(eng, who, "overcome", [task.name])
    ask(eng, who, task.name, test)


def _workable(eng: TwoD20Engine, who: str, gm: int) -> list[tuple[str, SkillTest]]:
    """The open tasks `who` can make the test of, each with that test."""
    found = []
    for task in eng.st.tasks:
        if task.state == "open" and task.kind == "task" and task.test:
            try:
                found.append((task.name, test_for(eng, who, task.name, gm)))
            except Refusal:
                continue
    return found


def dice_offer(eng: TwoD20Engine, who: str, test: SkillTest) -> tuple[list[str], list[str]]:
    """A test's question's options (``roll``, ``roll+N`` while the bought d20s can be paid: an NPC's from
    Threat) and each one's label with its chance (``3d20 for 1 · 82%``)."""
    options, labels = [], []
    for bought in range(dice.MAX_BOUGHT_DICE + 1):
        cost = dice.bought_dice_cost(bought)
        if bought and not eng.sheet(who).pc and eng.st.threat < cost:
            break
        options.append("roll" if not bought else f"roll+{bought}")
        paid = f" for {cost}" if bought else ""
        labels.append(f"{2 + bought}d20{paid} · {round(100 * test.odds(bought).success)}%")
    return options, labels


def rolled(eng: TwoD20Engine, p: Prompt, value: str) -> dice.PoolRoll:
    """The answer to a test's question (`dice_offer`): the bought d20s paid, the pool rolled (or the faces typed
    scored) against the question's TN and Difficulty, and the result logged."""
    who = str(p.who)
    bought, faces = bought_and_faces(p, value)
    focus = int(str(p.data["focus"])) if "focus" in p.data else None
    tn, difficulty, crange = (int(str(p.data[k])) for k in ("tn", "difficulty", "range"))
    result = dice.roll_pool(eng.st, tn, difficulty, dice.BASE_DICE + bought, focus, crange, faces=faces)
    pay_for_dice(eng, who, bought)
    eng.log(f"{who} tests: {result.describe()}", kind="result")
    return result


def ask(eng: TwoD20Engine, who: str, task: str, test: SkillTest) -> None:
    options, labels = dice_offer(eng, who, test)
    extra = test.complication_text()
    eng.ask(
        ROLL,
        f"{who} works on {task}: {test.tn_text()}, Difficulty {test.difficulty} ({test.difficulty_parts()})"
        + (f", {extra}" if extra else "")
        + " — roll, buying d20s?",
        options,
        who=who,
        task=task,
        tn=test.tn,
        difficulty=test.difficulty,
        range=test.complication_range,
        skill=test.skill_rating,
        modifiers=test.modifiers(),
        labels=labels,
        **({"focus": test.skill_rating} if test.focus else {}),
    )


def _split(value: str) -> tuple[str, list[int] | None]:
    """``4,17 cd=1,5,6,2,3``: the test's answer and the damage's Challenge Dice faces (None: the tracker rolls)."""
    test, sep, damage = value.casefold().partition("cd=")
    if not sep:
        return test, None
    return test, [count(x, "Challenge Die face") for x in damage.replace(" ", "").split(",") if x]


def bought_and_faces(p: Prompt, value: str) -> tuple[int, list[int] | None]:
    """``roll``/``roll+N`` (the tracker's dice) or the faces rolled at the table (``4,17``), before any
    ``cd=`` (`tracker.families.twod20.roll_answer`)."""
    return roll_answer.bought_and_faces(p.options, _split(value)[0])


def pay_for_dice(eng: TwoD20Engine, who: str, bought: int) -> None:
    """The bought d20s' cost: a player character's from Momentum, the rest added to Threat; an NPC's from
    Threat (docs/rules/2d20.md#s3-2)."""
    cost = dice.bought_dice_cost(bought)
    if not cost:
        return
    if eng.sheet(who).pc and eng.st.momentum < cost:
        from_pool = eng.st.momentum
        if from_pool:
            pools.momentum(eng, -from_pool, f"{who} buys d20s")
        pools.threat(eng, cost - from_pool, f"{who} buys d20s")
    else:
        pools.pay(eng, who, cost, counted(bought, "bought d20"))


def check_test(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Refuse a bad answer to a test's question before anything changes (typed faces are checked; nothing is
    drawn)."""
    _, faces = bought_and_faces(p, value)
    if faces is not None:
        dice.roll_pool(eng.st, 0, 0, dice=len(faces), faces=faces)


def check(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Refuse a bad answer before anything changes: the task asked for, or the test's, then the damage's typed
    faces."""
    if p.kind == TASK:
        names.resolve(value, p.options, what="task")
        return
    check_test(eng, p, value)
    damage = _split(value)[1]
    if damage is not None:
        dice.roll_challenge(eng.st, BASE_DAMAGE + int(str(p.data["skill"])), damage)  # checks the faces


def answer(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """The task chosen: ask its test. The test's answer: pay for the bought d20s, roll (or score the faces),
    and on a success roll the damage on the task."""
    if p.kind == TASK:
        who, name = str(p.who), names.resolve(value, p.options, what="task")
        ask(eng, who, name, test_for(eng, who, name, int(str(p.data.get("gm", 0)))))
        return
    who, name = str(p.who), str(p.data["task"])
    task = tasks.open_task(eng, name)
    result = rolled(eng, p, value)
    if not result.passed:
        eng.log(f"{who} makes no headway on {task.name}")
        return
    skill = int(str(p.data["skill"]))
    roll = dice.roll_challenge(eng.st, BASE_DAMAGE + skill, _split(value)[1])
    eng.log(f"{who} rolls {BASE_DAMAGE}+{skill}[CD] on {task.name}: {roll.describe()}")
    tasks.apply(eng, task, roll.total, roll.icons, {}, who)
    pools.bank(eng, who, result.momentum, f"{who}'s test")
