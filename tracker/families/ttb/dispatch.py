"""Through the Breach's command handlers, and the rules opened over a fresh or saved live state.

`apply` checks what it can before changing anything, changes the state, then runs the agenda until a
turn opens for the GM or a prompt waits for the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from tracker.engine import rng
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, VerbTable, count, signed_int
from tracker.engine.state import reset
from tracker.families.file import EncounterFile
from tracker.families.rules import saved_or_fresh
from tracker.families.ttb import (
    answers,
    area,
    attack,
    conditions,
    damage,
    effects,
    horror,
    initiative,
    lifecycle,
    movement,
    ongoing,
    resume,
    roster,
    triggers,
)
from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.fate import deck
from tracker.families.ttb.fate.cards import full_deck, parse_card, parse_damage_profile
from tracker.families.ttb.records.file import TTBFile
from tracker.families.ttb.records.state import Step, TTBState
from tracker.families.ttb.rules import TTBRules


def new_state(setup: TTBFile, seed: int, secret: str | None = None) -> TTBState:
    """The state before `start`: full Wounds (or the sheet's ``wounds_left``), file conditions, a shuffled Fate
    Deck, Twist Decks."""
    st = TTBState(seed=seed, secret=secret, fighters={}, deck=full_deck())
    rng.shuffle(st, st.deck)
    for sheet in setup.combatants:
        st.fighters[sheet.name] = roster.fighter_for(st, sheet)
    return st


def open_rules(
    setup: EncounterFile,
    state: Mapping[str, object] | None,
    seed: int,
    verbs: VerbTable,
    secret: str | None = None,
) -> TTBRules:
    """Fresh rules from the setup (no saved state), or rules over a saved ``[state]``, validated here: its
    types, then everything it names against the setup (`tracker.families.ttb.resume`)."""
    if not isinstance(setup, TTBFile):
        raise TypeError(f"not a Through the Breach file: {type(setup).__name__}")
    steps = {*lifecycle.STEPS, *_STEPS}
    st = saved_or_fresh(
        state,
        TTBState,
        lambda: new_state(setup, seed, secret),
        lambda saved: resume.state_problems(setup, saved, steps, answers.RESOLVERS),
    )
    return make_rules(setup, st, verbs)


def make_rules(setup: TTBFile, state: TTBState, verbs: VerbTable) -> TTBRules:
    """The rules over `state` (`TTBRules`, the seam's rules half), with their agenda steps."""
    eng = TTBRules(setup, state, verbs)
    if state.phase == "setup":
        # Before `start` the known totals show already (Rank Value + Initiative, or a GM-set card).
        for name in eng.sheets:
            initiative.recompute(eng, name)
    eng.steps = {**lifecycle.STEPS, **_STEPS}
    return eng


#: Agenda steps beyond the lifecycle's: the ones an action queues.
_STEPS: dict[str, Callable[[TTBEngine, Step], None]] = {
    "disengage_offer": lambda e, s: movement.disengage_offer(e, str(s.who), str(s.arg)),
    "move_done": lambda e, s: movement.move_done(e, str(s.who), str(s.arg)),
    "end_discard": lambda e, s: deck.end_discard_offer(e, str(s.who)),
    "attack": lambda e, s: effects.attack_offer(e, str(s.who), str(s.arg)),
    attack.TARGET: lambda e, s: attack.target_offer(e, str(s.who), str(s.arg)),
    "defensive_stance": lambda e, s: effects.take_stance(e, str(s.who), int(s.arg or 0)),
    "blast": lambda e, s: _blast(e, str(s.who), str(s.arg)),
    area.HIT: lambda e, s: area.hit_step(e, str(s.who), str(s.arg)),
}


def _blast(eng: TTBEngine, primary: str, arg: str) -> None:
    profile, severity, icons = arg.split("\t")
    area.blast(eng, primary, profile, severity or None, int(icons))


def _start(eng: TTBEngine, cmd: Command) -> None:
    eng.require_not_started()
    if not any(not eng.fighter(n).dead for n in eng.present_names()):
        raise Refusal("nobody is left to fight")
    eng.push(Step(op="begin"))


def _next(eng: TTBEngine, cmd: Command) -> None:
    eng.require_started()
    st = eng.st
    if st.phase != "turn" or st.active is None:
        raise Refusal("no turn is open")
    eng.close_turn(st.active)


def _add(eng: TTBEngine, cmd: Command) -> None:
    name = eng.living(cmd.args[0])
    key = conditions.condition_key(cmd.args[1])
    amount = count(cmd.args[2], "the amount") if len(cmd.args) > 2 else None
    if key == "unconscious":
        if amount is not None:
            raise Refusal("Unconscious is not valued")
        if eng.fighter(name).unconscious:
            raise Refusal(f"{name} is already unconscious")
        damage.fall_unconscious(eng, name, "the GM says so")
        return
    conditions.check_gain(eng, name, key, amount)
    conditions.gain(eng, name, key, amount, why="GM")


def _remove(eng: TTBEngine, cmd: Command) -> None:
    name = eng.living(cmd.args[0])
    key = conditions.condition_key(cmd.args[1])
    amount = count(cmd.args[2], "the amount") if len(cmd.args) > 2 else None
    if key == "unconscious":
        f = eng.fighter(name)
        if not f.unconscious:
            raise Refusal(f"{name} is not unconscious")
        f.unconscious = False
        eng.log(f"{name} regains consciousness (GM; still Prone)")
        return
    conditions.lower(eng, name, key, amount, "GM")


def _damage(eng: TTBEngine, cmd: Command) -> None:
    name = eng.living(cmd.args[0])
    # Options and flags were checked by the TTB command table (`tracker.families.ttb.verbs`): only known ones arrive.
    armor = not ({"no-armor", "noarmor"} & cmd.flags)
    text = cmd.args[1]
    if parse_damage_profile(text) is not None:
        if "margin" in cmd.options and "mod" in cmd.options:
            raise Refusal("give margin= or mod=, not both")
        modifier = 0
        if "margin" in cmd.options:
            modifier = damage.modifier_from_margin(count(cmd.options["margin"], "margin"))
        elif "mod" in cmd.options:
            modifier = signed_int(cmd.options["mod"], "mod=")
            if not -3 <= modifier <= 3:
                raise Refusal("mod= is a net fate modifier from -3 to +3")
        card = cmd.options.get("card")
        if card is not None:
            parse_card(card)
        attacker = eng.living(cmd.options["by"]) if "by" in cmd.options else None
        blast = count(cmd.options["blast"], "blast icons") if "blast" in cmd.options else 0
        damage.damage_flip(eng, name, text, modifier, card, armor, attacker=attacker, blast=blast)
        return
    if set(cmd.options) - {"by"}:
        raise Refusal("margin=, mod=, card= and blast= go with a damage profile like 2/3/5")
    if "by" in cmd.options:
        eng.living(cmd.options["by"])  # plain damage names its attacker for the story only; a typo is refused
    amount = count(text, "damage")
    severities = [s for s in ("weak", "moderate", "severe") if s in cmd.flags]
    if len(severities) > 1:
        raise Refusal("give one severity")
    sev = severities[0] if severities else None
    damage.damage(eng, name, amount, armor=armor, severity=sev, why="")


def _heal(eng: TTBEngine, cmd: Command) -> None:
    name = eng.living(cmd.args[0])
    text = cmd.args[1]
    if parse_damage_profile(text) is not None:
        card = cmd.options.get("card")
        if card is not None:
            parse_card(card)
        damage.healing_flip(eng, name, text, card)
        return
    if cmd.options:
        raise Refusal("card= goes with a healing profile like 1/2/3")
    amount = count(text, "healing")
    if amount < 1:
        raise Refusal("heal at least 1")
    damage.heal(eng, name, amount)


def _spend(eng: TTBEngine, cmd: Command) -> None:
    eng.require_started()
    effects.spend(eng, cmd.args[0], cmd.args[1], list(cmd.args[2:]), override="override" in cmd.flags)


def _attack(eng: TTBEngine, cmd: Command) -> None:
    extra = [f"tn={cmd.options['tn']}"] if "tn" in cmd.options else []
    attack.start(eng, [*cmd.args, *extra])


def _initiative(eng: TTBEngine, cmd: Command) -> None:
    name = eng.living(cmd.args[0])
    if not eng.sheet(name).fated:
        raise Refusal(f"{name} is a Fatemaster character: Rank Value + Initiative, no flip")
    card = parse_card(cmd.args[1])
    f = eng.fighter(name)
    if card.is_red_joker or card.is_black_joker:
        # A Joker flipped for initiative leaves the Fate Deck like any flipped card [000:L156]
        # (docs/rules/ttb-turns.md#s2-3): only one of each exists, so the tracker knows which card it is.
        deck.take(eng, card.code)
    f.init_card = card.code
    initiative.recompute(eng, name)
    eng.log(f"{name}'s initiative card is {card.label()}: initiative {f.init}")
    if eng.st.phase in ("turn", "between"):
        initiative.build_order(eng)


def _flip(eng: TTBEngine, cmd: Command) -> None:
    n = count(cmd.args[0], "the number of cards") if cmd.args else 1
    deck.flip(eng, n, why="GM flip")


def _engage(eng: TTBEngine, cmd: Command) -> None:
    a, b = eng.living(cmd.args[0]), eng.living(cmd.args[1])
    if a == b:
        raise Refusal("a character cannot engage itself")
    if not eng.enemies(a, b):
        raise Refusal(f"{a} and {b} are on the same side ({eng.side(a)}): only enemies engage in melee")
    pair = sorted([a, b])
    if pair in eng.st.engagements:
        raise Refusal(f"{a} and {b} are already engaged")
    eng.st.engagements.append(pair)
    who = [n for n in (a, b) if eng.can_attack(n)]
    eng.log(f"{a} and {b} are engaged in melee" + ("" if who else " (neither can attack yet)"))


def _disengage(eng: TTBEngine, cmd: Command) -> None:
    a, b = eng.name(cmd.args[0]), eng.name(cmd.args[1])
    pair = sorted([a, b])
    if pair not in eng.st.engagements:
        raise Refusal(f"{a} and {b} are not engaged")
    eng.st.engagements.remove(pair)
    eng.log(f"{a} and {b} are no longer engaged")


def _join(eng: TTBEngine, cmd: Command) -> None:
    roster.join(eng, cmd)


def _leave(eng: TTBEngine, cmd: Command) -> None:
    roster.leave(eng, cmd.args[0])


def _answer(eng: TTBEngine, cmd: Command) -> None:
    answers.answer(eng, " ".join(cmd.args))


def _reshuffle(eng: TTBEngine, cmd: Command) -> None:
    deck.reshuffle(eng, "the GM reshuffles")


def _draw(eng: TTBEngine, cmd: Command) -> None:
    """``draw NAME [N]``: Twist cards drawn into the Control Hand when an "On the Pursuit" ability triggers
    [000:L171] (the rules' one draw on demand); over five, the discard is asked (A23); a Fatemaster character
    gains a Fate Point for each instead [000:L392]."""
    name = eng.living(cmd.args[0])
    n = count(cmd.args[1], "Twist cards to draw", deck.HAND_LIMIT) if len(cmd.args) > 1 else 1
    if n < 1:
        raise Refusal("draw at least 1 Twist card")
    for _ in range(n):
        deck.draw_twist(eng, name, "On the Pursuit")


def _end(eng: TTBEngine, cmd: Command) -> None:
    """End of Dramatic Time: Pass/Wait changes clear; Fated refill their hands to three (A23b)."""
    eng.require_started()
    st = eng.st
    st.phase = "ended"
    st.active = None
    st.agenda = []
    eng.log("Dramatic Time ends")
    for name, f in st.fighters.items():
        reset(f, "init_mod", "pending_init_mod", "ap", "combat_ap", "wait", "acted", "init_card")
        if f.horror_immune:
            # Immunity to a horror lasts until the end of Dramatic Time [000:L405].
            eng.log(f"{name} is no longer immune to horror duels from {', '.join(f.horror_immune)}")
            f.horror_immune = []
        if eng.sheet(name).fated and not f.dead:
            eng.st.agenda.append(step("end_discard", name))
    st.effects = []
    triggers.clear(eng)
    if st.auras:
        eng.log(f"the auras end with Dramatic Time ({', '.join(a.source for a in st.auras)})")
        st.auras = []


HANDLERS: dict[str, Callable[[TTBEngine, Command], None]] = {
    "start": _start,
    "next": _next,
    "add": _add,
    "remove": _remove,
    "damage": _damage,
    "heal": _heal,
    "spend": _spend,
    "attack": _attack,
    "initiative": _initiative,
    "flip": _flip,
    "engage": _engage,
    "disengage": _disengage,
    "join": _join,
    "leave": _leave,
    "answer": _answer,
    "reshuffle": _reshuffle,
    "draw": _draw,
    "end": _end,
    "horror": horror.command,
    "trigger": triggers.command,
    "pulse": area.pulse,
    "aura": area.aura,
    "ongoing": ongoing.command,
}
TTBEngine.install(HANDLERS)

__all__ = ["make_rules", "new_state", "open_rules", "step"]
