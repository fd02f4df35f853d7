"""The 2d20 System's command handlers (docs/reference/language.md), and the rules opened over a fresh or saved state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, VerbTable, count, signed_int
from tracker.engine.records.model import Located
from tracker.families.file import EncounterFile
from tracker.families.rules import saved_or_fresh
from tracker.families.twod20 import (
    avoid_injury,
    conditions,
    forbids,
    hacking,
    harm,
    hazards,
    order,
    outofturn,
    pools,
    recovery,
    roster,
    tasks,
    traits,
    turns,
)
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.file import TwoD20File
from tracker.families.twod20.records.state import TwoD20State
from tracker.families.twod20.rules import TwoD20Rules
from tracker.families.twod20.tables.profiles import resolve_profile
from tracker.families.twod20.verbs import EFFECT_FLAGS, EFFECT_OPTIONS
from tracker.families.twod20.zones import ZoneMap
from tracker.present.words import counted


def new_state(setup: TwoD20File, seed: int, secret: str | None = None) -> TwoD20State:
    """The state before `start`: no stress taken, the file's harms, fatigue, conditions and zones, and the
    pools the scene will start with (``momentum``/``threat`` before ``start`` change them,
    docs/reference/language.md)."""
    profile = resolve_profile(setup.encounter.profile or "srd", setup.settings.overrides())
    zones = ZoneMap(setup.zones)
    fighters = {c.name: roster.fighter_for(c, profile, zones) for c in setup.combatants}
    momentum, threat = pools.starting(setup)
    return TwoD20State(seed=seed, secret=secret, fighters=fighters, momentum=momentum, threat=threat)


def open_rules(
    setup: EncounterFile,
    state: Mapping[str, object] | None,
    seed: int,
    verbs: VerbTable,
    secret: str | None = None,
) -> TwoD20Rules:
    """Fresh rules from the setup (no saved state), or rules over a saved ``[state]``, validated here: its
    types, then everything it names against the setup (`tracker.families.twod20.resume`)."""
    if not isinstance(setup, TwoD20File):
        raise TypeError(f"not a 2d20 file: {type(setup).__name__}")

    def problems(saved: TwoD20State) -> list[Located]:
        profile = resolve_profile(setup.encounter.profile or "srd", setup.settings.overrides())
        from tracker.families.twod20 import resume

        return resume.state_problems(setup, saved, profile)

    return TwoD20Rules(
        setup, saved_or_fresh(state, TwoD20State, lambda: new_state(setup, seed, secret), problems), verbs
    )


def _start(eng: TwoD20Engine, cmd: Command) -> None:
    """scene_start: pools, Fortune, initiative scores if used, round 1 (docs/rules/2d20-lifecycle.md#s3-13)."""
    st = eng.st
    eng.require_not_started()
    if not any(eng.can_take_turn(n) for n in eng.sheets):
        raise Refusal("nobody is able to act")
    info = eng.setup.encounter
    if st.phase == "setup":
        # The pools were set from the file when the encounter opened, changed since by any momentum/threat.
        pcs = sum(1 for c in eng.setup.combatants if c.pc)
        why = "" if info.threat is not None else f" (2 per player character, {pcs})"
        eng.log(f"Scene begins: {info.name} — Momentum {st.momentum}, {eng.pool_name} {st.threat}{why}")
        for c in eng.setup.combatants:
            if roster.defeated_by_harms(c, eng.profile):
                eng.log(f"{c.name} begins the scene Defeated: {counted(sum(c.harms.values()), 'Harm')} not healed")
    else:
        st.scene += 1
        for a in st.fighters.values():
            a.yielded = False
        eng.log(f"Scene {st.scene} begins")
        from tracker.families.twod20 import spends

        spends.recover_subdued(eng)
        carried_stress(eng)
    st.phase = "handover"
    st.last_actor = None
    st.kept_by = None
    if eng.order_rule == "initiative":
        order.roll_initiative(eng)
    order.begin_round(eng, initiator=True)


def carried_stress(eng: TwoD20Engine) -> None:
    """Profile ``stress_recovery = "scene_start"`` (Secret War): stress taken in one scene is recovered when the
    next begins, for everyone not Defeated [002:L113]; ``scene_end`` has cleared it at ``end`` already."""
    if eng.profile.stress_recovery != "scene_start":
        return
    for name, a in eng.st.fighters.items():
        if any(a.stress.values()) and not a.defeated and not a.dead:
            a.stress = dict.fromkeys(a.stress, 0)
            eng.log(f"{name} recovers all stress as the scene begins")


def _next(eng: TwoD20Engine, cmd: Command) -> None:
    eng.require_started()
    if eng.st.phase != "turn" or eng.st.active is None:
        raise Refusal("no turn is open: answer the hand-over with pick or keep")
    turns.end_turn(eng)
    order.after_turn(eng)


def _pick(eng: TwoD20Engine, cmd: Command) -> None:
    eng.require_started()
    use_threat = len(cmd.args) > 1 and cmd.args[1].casefold() in ("threat", "heat")
    if len(cmd.args) > 1 and not use_threat:
        raise Refusal(f"usage: {cmd.verb} NAME [threat]")
    order.pick(eng, cmd.args[0], keep=cmd.verb == "keep", use_threat=use_threat)


def _amount(cmd: Command) -> int | None:
    return count(cmd.args[2], "the amount") if len(cmd.args) > 2 else None


def _add(eng: TwoD20Engine, cmd: Command) -> None:
    conditions.gain(eng, eng.living(cmd.args[0]), cmd.args[1], _amount(cmd))


def _remove(eng: TwoD20Engine, cmd: Command) -> None:
    conditions.lose(eng, eng.living(cmd.args[0]), cmd.args[1], _amount(cmd))


def _damage(eng: TwoD20Engine, cmd: Command) -> None:
    task = tasks.find(eng, cmd.args[0])
    if task is not None:  # a problem "attacked" like a character [004:L2052-2058]
        tasks.damage_command(eng, task, cmd)
        return
    name = eng.living(cmd.args[0])
    total = count(cmd.args[1], "damage")
    # Options and flags were checked by the 2d20 command table (`tracker.families.twod20.verbs`): only known
    # ones arrive.
    opts = dict(cmd.options)
    flags = set(cmd.flags) - {"no-armor"}
    # Counts of dice (and of Effects, which dice roll) are bounded: a Persistent 100000000 would roll forever.
    effects = {k: count(v, k, dice.MAX_CHALLENGE_DICE) for k, v in opts.items() if k in EFFECT_OPTIONS}
    for f in flags & set(EFFECT_FLAGS):
        effects.setdefault(f, 1)
    attacker = eng.name(opts["from"]) if "from" in opts else None
    hit = harm.Hit(
        total=total,
        icons=count(opts.get("icons", "0"), "icons", dice.MAX_CHALLENGE_DICE),
        track=_track(eng, name, opts["track"], generic=True)
        if "track" in opts
        else ("mental" if "mental" in flags else None),
        mental="mental" in flags,
        effects=effects,
        cover=count(opts["cover"], "cover", dice.MAX_CHALLENGE_DICE) if "cover" in opts else None,
        soak=count(opts.get("soak", "0"), "soak"),
        attacker=attacker,
        ignore_soak="ignore-soak" in flags or "no-armor" in cmd.flags,
        yield_="yield" in flags,
        nonlethal="nonlethal" in flags,
        avoid="avoid" in flags,
    )
    harm.resolve_track(eng, name, hit)
    if hit.yield_ and not eng.sheet(name).pc:
        raise Refusal("only player characters may yield (voluntary Defeat)")
    if hit.avoid and (why := avoid_injury.refusal(eng, name)):
        raise Refusal(why)
    harm.damage(eng, name, hit)


def _heal(eng: TwoD20Engine, cmd: Command) -> None:
    amount = count(cmd.args[1], "stress to remove")
    task = tasks.find(eng, cmd.args[0])
    if task is not None:
        if cmd.options:
            raise Refusal(f"a problem has one Stress: heal '{task.name}' N")
        tasks.recover(eng, task, amount)
        return
    name = eng.living(cmd.args[0])
    recovery.recover(eng, name, amount, _track(eng, name, cmd.options["track"]) if "track" in cmd.options else None)


def _track(eng: TwoD20Engine, name: str, text: str, generic: bool = False) -> str:
    """A ``track=`` option resolved the one way names are (any case, a unique prefix) among `name`'s stress
    tracks, and with `generic` the words a hit may use instead (physical, mental, digital;
    docs/rules/2d20-combat.md#s3-8)."""
    have = list(eng.tracks(name))
    extra = [w for w in ("physical", "mental", "digital") if generic and w not in have]
    return names.resolve(text, [*have, *extra], what=f"track of {name}'s")


def _spend(eng: TwoD20Engine, cmd: Command) -> None:
    eng.require_started()
    from tracker.families.twod20 import actions

    actions.spend(eng, cmd.args[0], cmd.args[1], list(cmd.args[2:]))


def _move(eng: TwoD20Engine, cmd: Command) -> None:
    name = eng.living(cmd.args[0])
    zone = eng.zones.resolve(cmd.args[1])
    a = eng.fighter(name)
    if a.zone == zone:
        raise Refusal(f"{name} is already in {zone}")
    if why := forbids.move_bar(eng, name):
        raise Refusal(why)
    foes = eng.in_reach_of_enemy(name)
    if foes and eng.profile.leave_reach == "disengage":
        raise Refusal(f"{name} is within Reach of {', '.join(foes)}: Disengage first (B22)")
    before = a.zone
    distance = eng.zones.distance(before, zone) if before else None
    limit = eng.profile.max_move_zones
    if distance is not None and limit and distance > limit:
        raise Refusal(f"{zone} is {distance} zones away: Extreme range is not reached in a single action [003:L584]")
    from tracker.families.twod20 import actions

    cost = eng.zones.leave_cost(before) if before else 0
    if cost and not eng.sheet(name).pc and eng.st.threat < cost:
        raise Refusal(
            f"{name} cannot leave {before}: its terrain costs {cost} {eng.pool_name}, the pool holds "
            f"{eng.st.threat} [004:L1597]"
        )
    if foes:  # every check passed: the log says it only of a move that happens
        eng.log(f"{name} leaves the Reach of {', '.join(foes)}: Retaliate may follow unless it Withdraws")
    warning = actions.move_warning(eng, name, distance)
    if cost:
        pools.pay(eng, name, cost, f"leaving {before} (Terrain Momentum)")
    a.zone = zone
    eng.st.reach = [p for p in eng.st.reach if name not in p]
    eng.log(
        f"{name} moves {'from ' + before + ' ' if before else ''}to {zone}"
        + (f" ({distance} zone{'s' if distance != 1 else ''})" if distance is not None else "")
    )
    if warning:
        eng.log(warning)
    hacking.follow(eng, name, zone)


def _reach(eng: TwoD20Engine, cmd: Command) -> None:
    a, b = eng.living(cmd.args[0]), eng.living(cmd.args[1])
    if a == b:
        raise Refusal("a character is always within its own Reach")
    if eng.fighter(a).zone != eng.fighter(b).zone:
        raise Refusal(f"{a} and {b} are not in the same zone: Reach is within a zone")
    pair = sorted([a, b])
    if pair in eng.st.reach:
        raise Refusal(f"{a} and {b} are already within Reach")
    eng.st.reach.append(pair)
    eng.log(f"{a} is within Reach of {b}")


def _pool(eng: TwoD20Engine, cmd: Command) -> None:
    """``momentum ±N`` / ``threat ±N``; before ``start`` they change the pools the scene starts with."""
    delta = signed_int(cmd.args[0], cmd.verb.title())
    why = " ".join(cmd.args[1:]) or "GM"
    if cmd.verb == "momentum":
        pools.momentum(eng, delta, why)
    else:
        pools.threat(eng, delta, why)


def _end(eng: TwoD20Engine, cmd: Command) -> None:
    """scene_end (docs/rules/2d20-lifecycle.md#s3-13): stress clears, Momentum −1, the untreated Dying die. Accepted
    while the hand-over question waits (the table may end the scene between any two turns), not mid-attack."""
    eng.require_started()
    st = eng.st
    if st.prompt is not None and st.prompt.kind not in order.HANDOVER:
        raise Refusal(f"waiting for an answer: {st.prompt.question}")
    st.prompt = None
    st.active = None
    st.phase = "ended"
    eng.log("Scene ends")
    for name, a in st.fighters.items():
        if a.dying and not a.stabilized and not a.dead:
            harm._die(eng, name, "Dying at the end of the scene without medical attention")
        if eng.profile.stress_recovery == "scene_end" and any(a.stress.values()):
            a.stress = dict.fromkeys(a.stress, 0)
        a.acted = False
        a.deferred = False
        a.yielded = False  # voluntary Defeat blocks revival only for the rest of that scene [004:L1886]
        a.avoided = 0  # Avoid Injury is once a scene [004:L2000]
        a.mental_immune = False  # immune to mental attacks "during this scene" [004:L1642]
        a.protected_by = []
        a.conditions.pop("stunned", None)
        a.granted = []  # Cover/Morale from actions lasts at most until a next turn (docs/rules/2d20-lifecycle.md#s3-13)
        a.assisted_by = []
        outofturn.lapse(eng, name, "before the scene ended")
        # Effects counted in rounds and turns end with the conflict (judgement; docs/rules/index.md is silent).
        if a.persistent or a.burning_rounds:
            a.persistent = []
            a.conditions.pop("persistent", None)
            a.burning_rounds = 0
            a.conditions.pop("burning", None)
            eng.log(f"{name}'s Persistent and Burning damage end with the scene")
    if eng.profile.stress_recovery == "scene_end":
        eng.log("All stress is recovered")
    traits.scene_ended(eng)
    hazards.recover_nonlethal(eng)
    if st.momentum:
        pools.momentum(eng, -min(eng.profile.momentum_decay, st.momentum), "end of the scene")


def _join(eng: TwoD20Engine, cmd: Command) -> None:
    roster.join(eng, cmd)


def _leave(eng: TwoD20Engine, cmd: Command) -> None:
    roster.leave(eng, cmd.args[0])


def _attack(eng: TwoD20Engine, cmd: Command) -> None:
    from tracker.families.twod20 import attack, overcome

    if len(cmd.args) > 1 and tasks.find(eng, cmd.args[1]) is not None:  # the attack flow on a task: an Overcome
        overcome.start(eng, cmd.args[0], cmd.args[1], list(cmd.args[2:]))
        return
    attack.start(eng, list(cmd.args))


def _between_turns(eng: TwoD20Engine, cmd: Command, handler: Callable[[TwoD20Engine, Command], None]) -> None:
    """Traits and tasks change between any two turns too (the hand-over question may wait, as for ``end``), but
    not in the middle of an attack, whose question already counted the traits in play."""
    prompt = eng.st.prompt
    if prompt is not None and prompt.kind not in order.HANDOVER:
        raise Refusal(f"waiting for an answer: {prompt.question}")
    handler(eng, cmd)


def _overcome(eng: TwoD20Engine, cmd: Command) -> None:
    from tracker.families.twod20 import overcome

    overcome.typed(eng, list(cmd.args))


Handler = Callable[[TwoD20Engine, Command], None]


def _later(module: str, function: str) -> Handler:
    """A handler whose module is imported when it is first used: a command loads only what it runs, so
    ``tracker exec`` of a ``next`` does not load the attack flow, the Challenges or the care of the wounded."""

    found: list[Handler] = []  # the function, once imported: `answer` runs on every question of a run

    def handler(eng: TwoD20Engine, cmd: Command) -> None:
        if not found:
            found.append(getattr(import_module(f"tracker.families.twod20.{module}"), function))
        found[0](eng, cmd)

    return handler


HANDLERS: dict[str, Handler] = {
    "start": _start,
    "next": _next,
    "pick": _pick,
    "keep": _pick,
    "add": _add,
    "remove": _remove,
    "damage": _damage,
    "heal": _heal,
    "spend": _spend,
    "move": _move,
    "reach": _reach,
    "momentum": _pool,
    "threat": _pool,
    "end": _end,
    "roll": _later("rolled", "roll"),
    "challenge": _later("rolled", "challenge"),
    "treat": _later("care", "treat"),
    "stabilize": _later("care", "stabilize"),
    "revive": _later("care", "revive"),
    "fortune": _later("care", "fortune"),
    "join": _join,
    "leave": _leave,
    "answer": _later("answering", "answer"),
    "attack": _attack,
    "overcome": _overcome,
    "trait": lambda eng, cmd: _between_turns(eng, cmd, traits.add),
    "untrait": lambda eng, cmd: _between_turns(eng, cmd, traits.remove),
    "task": lambda eng, cmd: _between_turns(eng, cmd, tasks.create),
    "consequence": lambda eng, cmd: _between_turns(eng, cmd, tasks.create),
    "tick": lambda eng, cmd: _between_turns(eng, cmd, tasks.tick),
    "keytests": lambda eng, cmd: _between_turns(eng, cmd, _later("challenges", "create")),
    "gate": lambda eng, cmd: _between_turns(eng, cmd, _later("challenges", "gate")),
    "keytest": _later("challenges", "start"),
    "rival": lambda eng, cmd: _between_turns(eng, cmd, _later("challenges", "rival")),
    "seize": lambda eng, cmd: _between_turns(eng, cmd, _later("challenges", "seize")),
    "hurry": lambda eng, cmd: _between_turns(eng, cmd, _later("challenges", "shorten")),
    "cut": lambda eng, cmd: _between_turns(eng, cmd, _later("challenges", "shorten")),
    "delay": lambda eng, cmd: _between_turns(eng, cmd, _later("challenges", "delay")),
}
TwoD20Engine.install(HANDLERS)
