"""Extended tasks, extended consequences and the ticking clock (docs/reference/language.md ``task``).

A problem the characters "attack" [004:L2052-2058]: it has a maximum Stress, maybe Resistance, and needs a number
of Harms — Breakthroughs — to be overcome; its Harms come by the same threshold rule as a character's
(`tracker.families.twod20.harm.harms_from`, 5+ stress or reaching the maximum [004:L1842-1844]). An extended
consequence is the same, its Harms Setbacks, disastrous at its number [004:L2072-2084] (its state then
``failed``); its Stress may be recovered (``heal``), its Setbacks not. A task may run on a ticking clock of
rounds, counted down at each round's end; at 0 the task has failed [004:L2041-2047]. The GM may take a round
off the clock by spending 5 Threat (``tick``, "at least 5 points" [004:L2047]). The Overcome that attacks a
task is `tracker.families.twod20.overcome`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, count
from tracker.families.twod20 import pools
from tracker.families.twod20.harm import harms_from
from tracker.families.twod20.records.play import Task
from tracker.families.values import JSONObject
from tracker.present.words import counted

if TYPE_CHECKING:
    from tracker.families.twod20.engine import TwoD20Engine

#: Threat the GM spends to take one round off a ticking clock: "at least 5 points" [004:L2047].
CLOCK_THREAT = 5
#: The damage effects a problem's damage may carry (a tool or talent's edge [004:L2056]).
TASK_EFFECTS = ("vicious", "piercing", "intense")


def harm_word(task: Task, n: int = 1) -> str:
    return counted(n, "Breakthrough" if task.kind == "task" else "Setback")


def find(eng: TwoD20Engine, word: str) -> Task | None:
    """The task `word` names, or None: a task's exact name, or a unique prefix of one that names no combatant
    (a combatant keeps its prefixes, so ``damage Bo 3`` still hits Bob beside a task "Bomb")."""
    tasks = [t.name for t in eng.st.tasks]
    found = names.matching(word, tasks)
    if len(found) != 1:
        return None
    exact = found[0].casefold() == word.strip().casefold()
    if not exact and names.matching(word, [n for n in eng.sheets if n not in eng.st.left]):
        return None
    return next(t for t in eng.st.tasks if t.name == found[0])


def open_task(eng: TwoD20Engine, word: str) -> Task:
    task = find(eng, word)
    if task is None:
        raise Refusal(f"no task named '{word}'")
    if task.state != "open":
        raise Refusal(f"'{task.name}' is {task.state} already")
    return task


def _size(opts: dict[str, str], key: str, what: str, most: int) -> int | None:
    if key not in opts:
        return None
    value = count(opts[key], what, most)
    if value < 1 and key != "resistance":
        raise Refusal(f"{what} is at least 1")
    return value


def create(eng: TwoD20Engine, cmd: Command) -> None:
    """``task 'NAME' stress=N breakthroughs=K [resistance=R] [clock=C] [test=ATTR+SKILL] [difficulty=D]`` and
    ``consequence 'NAME' stress=N setbacks=K [resistance=R]``; naming an open one again changes its figures."""
    kind = cmd.verb
    name = " ".join(cmd.args).strip()
    opts = dict(cmd.options)
    harms_key = "breakthroughs" if kind == "task" else "setbacks"
    if "clock" in cmd.flags:
        raise Refusal("a clock needs its size in rounds: clock=ROUNDS")
    if kind == "consequence" and "clock" in opts:
        raise Refusal("a clock ticks on a task: consequence takes stress, setbacks and resistance")
    if not name:
        raise Refusal(f"a {kind} needs its name: {kind} 'NAME' stress=N {harms_key}=K")
    stress = _size(opts, "stress", "a problem's Stress", 99)
    needed = _size(opts, harms_key, f"{harms_key.title()} needed", 20)
    resistance = _size(opts, "resistance", "Resistance", 20)
    clock = _size(opts, "clock", "the clock (rounds)", 99)
    difficulty = count(opts["difficulty"], "the Overcome's Difficulty", 5) if "difficulty" in opts else None
    test = parse_test(opts["test"]) if "test" in opts else None
    existing = next((t for t in eng.st.tasks if t.name.casefold() == name.casefold()), None)
    if existing is not None:
        _change(eng, existing, stress, needed, resistance, clock, test, difficulty)
        return
    if stress is None:
        raise Refusal(f"a {kind} needs its Stress: {kind} '{name}' stress=N {harms_key}=K")
    if needed is None:
        raise Refusal(f"a {kind} needs its {harms_key.title()}: {kind} '{name}' stress={stress} {harms_key}=K")
    if any(n.casefold() == name.casefold() for n in [*eng.sheets, *eng.zones.names()]):
        raise Refusal(f"'{name}' is a combatant's or a zone's name: give the {kind} its own")
    task = Task(
        name=name,
        kind="task" if kind == "task" else "consequence",
        stress_max=stress,
        needed=needed,
        resistance=resistance or 0,
        clock=clock,
        rounds_left=clock,
        test=test or "",
        difficulty=1 if difficulty is None else difficulty,
    )
    eng.st.tasks.append(task)
    eng.log(f"{'Extended task' if kind == 'task' else 'Extended consequence'}: {summary(task)}")


def parse_test(text: str) -> str:
    """``reason+tech``: an attribute the profile's sheets use and a skill word."""
    attribute, plus, skill = text.casefold().partition("+")
    if not plus or not attribute.strip() or not skill.strip():
        raise Refusal(f"test=ATTRIBUTE+SKILL (e.g. test=reason+tech), not '{text}'")
    return f"{attribute.strip()}+{skill.strip()}"


def _change(
    eng: TwoD20Engine,
    task: Task,
    stress: int | None,
    needed: int | None,
    resistance: int | None,
    clock: int | None,
    test: str | None,
    difficulty: int | None,
) -> None:
    """A problem named again: its new figures (Removed a Hindrance: Resistance −2 [004:L2062])."""
    if task.state != "open":
        raise Refusal(f"'{task.name}' is {task.state}: name a new {task.kind}")
    if all(v is None for v in (stress, needed, resistance, clock, test, difficulty)):
        raise Refusal(f"there is a {task.kind} '{task.name}' already: give the figures that change")
    if clock is not None and task.kind != "task":
        raise Refusal("a clock ticks on a task")
    if stress is not None:
        task.stress_max = stress
        task.stress = min(task.stress, stress)
    if needed is not None:
        if needed <= task.breakthroughs:
            raise Refusal(f"'{task.name}' has {harm_word(task, task.breakthroughs)} already: give more than that")
        task.needed = needed
    if resistance is not None:
        task.resistance = resistance
    if clock is not None:
        task.clock = clock
        task.rounds_left = clock
    if test is not None:
        task.test = test
    if difficulty is not None:
        task.difficulty = difficulty
    eng.log(f"{task.name} changes: {summary(task)}")


def summary(task: Task) -> str:
    """``Defuse the bomb: Stress 3/8, 1/2 Breakthroughs, Resistance 1, clock 2/4 rounds — open``."""
    word = "Breakthroughs" if task.kind == "task" else "Setbacks"
    out = f"{task.name}: Stress {task.stress}/{task.stress_max}, {task.breakthroughs}/{task.needed} {word}"
    if task.resistance:
        out += f", Resistance {task.resistance}"
    if task.clock is not None:
        out += f", clock {task.rounds_left}/{task.clock} rounds"
    if task.test:
        out += f", Overcome {task.test.replace('+', ' + ').title()} D{task.difficulty}"
    return out + ("" if task.state == "open" else f" — {task.state}")


# --- damage ------------------------------------------------------------------------------------------------


def damage_command(eng: TwoD20Engine, task: Task, cmd: Command) -> None:
    """``damage 'TASK' N [icons=K] [piercing=X] [vicious=X] [intense] [from=NAME]``."""
    if task.state != "open":
        raise Refusal(f"'{task.name}' is {task.state} already")
    opts = dict(cmd.options)
    known = {"icons", "from", *TASK_EFFECTS}
    extra = sorted(k for k in [*opts, *cmd.flags] if k not in known)
    if extra:
        raise Refusal(f"a problem's damage takes icons=, from= and {', '.join(TASK_EFFECTS)} (not {extra[0]})")
    total = count(cmd.args[1], "damage", 999)
    icons = count(opts.get("icons", "0"), "icons", 50)
    effects = {k: count(v, k, 50) for k, v in opts.items() if k in TASK_EFFECTS}
    effects.update(dict.fromkeys([f for f in cmd.flags if f in TASK_EFFECTS and f not in effects], 1))
    who = eng.name(opts["from"]) if "from" in opts else None
    apply(eng, task, total, icons, effects, who)


def apply(eng: TwoD20Engine, task: Task, total: int, icons: int, effects: dict[str, int], who: str | None) -> None:
    """Damage on a problem: Vicious adds, Resistance (less Piercing) comes off, Stress fills, Harms follow the
    threshold rule (+1 with Intense) as Breakthroughs or Setbacks [004:L2056-2060, L2076-2080]."""
    vicious = effects.get("vicious", 0) * icons
    resist = max(0, task.resistance - effects.get("piercing", 0) * icons)
    stress = total + vicious - resist
    by = f" ({who})" if who else ""
    shown = f"{total}" + (f" + Vicious {vicious}" if vicious else "") + (f" − Resistance {resist}" if resist else "")
    if stress <= 0:
        eng.log(f"{task.name} takes {shown}{by}: no Stress")
        return
    before = task.stress
    task.stress = min(task.stress_max, before + stress)
    harms = harms_from(before, stress, task.stress_max, eng.profile.harm_threshold)
    if harms and icons and effects.get("intense"):
        harms += 1
    harms = min(harms, task.needed - task.breakthroughs)
    task.breakthroughs += harms
    gained = f", {harm_word(task, harms)}" if harms else ""
    eng.log(f"{task.name} takes {shown} = {stress} Stress{by}: {task.stress}/{task.stress_max}{gained}")
    if task.breakthroughs >= task.needed:
        task.state = "overcome" if task.kind == "task" else "failed"
        what = "is overcome" if task.kind == "task" else "is disastrous"
        eng.log(f"{task.name} {what}: {harm_word(task, task.breakthroughs)} [004:L2058, L2080]", kind="result")


def recover(eng: TwoD20Engine, task: Task, amount: int) -> None:
    """``heal 'NAME' N``: a problem's Stress recovered (a consequence's by Momentum or tests); its Harms stay
    ("Setbacks, however, cannot be recovered" [004:L2080])."""
    if task.state != "open":
        raise Refusal(f"'{task.name}' is {task.state} already")
    if not task.stress:
        raise Refusal(f"{task.name} has no Stress to recover")
    before = task.stress
    task.stress = max(0, before - amount)
    eng.log(f"{task.name} recovers {before - task.stress} Stress: {task.stress}/{task.stress_max}")


# --- the ticking clock -------------------------------------------------------------------------------------


def _run_out(eng: TwoD20Engine, task: Task, why: str) -> None:
    if task.rounds_left:
        eng.log(f"{task.name}: {counted(task.rounds_left, 'round')} left on the clock ({why})")
        return
    task.state = "failed"
    eng.log(f"{task.name}: the clock has run out ({why}): the task has failed [004:L2047]", kind="result")


def round_ended(eng: TwoD20Engine) -> None:
    """Each open task's clock counts down one round at the round's end."""
    for task in eng.st.tasks:
        if task.state == "open" and task.rounds_left is not None:
            task.rounds_left = max(0, task.rounds_left - 1)
            _run_out(eng, task, "end of the round")


def tick(eng: TwoD20Engine, cmd: Command) -> None:
    """``tick 'NAME' [free]``: a round off the clock for 5 Threat [004:L2047], or free (an event the table agrees)."""
    task = open_task(eng, " ".join(cmd.args))
    if task.rounds_left is None:
        raise Refusal(f"'{task.name}' has no clock: task '{task.name}' clock=ROUNDS gives it one")
    if "free" not in cmd.flags:
        if eng.st.threat < CLOCK_THREAT:
            raise Refusal(f"a round off the clock costs {CLOCK_THREAT} {eng.pool_name}; the pool holds {eng.st.threat}")
        pools.threat(eng, -CLOCK_THREAT, f"a round off {task.name}'s clock")
    task.rounds_left = max(0, task.rounds_left - 1)
    _run_out(eng, task, f"{eng.pool_name} spent" if "free" not in cmd.flags else "the GM")


def as_json(eng: TwoD20Engine) -> list[JSONObject]:
    """docs/reference/json-state.md ``tasks``."""
    return [
        {
            "name": t.name,
            "kind": t.kind,
            "stress": t.stress,
            "stress_max": t.stress_max,
            "breakthroughs": t.breakthroughs,
            "needed": t.needed,
            "resistance": t.resistance,
            "clock": t.clock,
            "rounds_left": t.rounds_left,
            "state": t.state,
        }
        for t in eng.st.tasks
    ]
