"""2d20 turn bookkeeping (docs/rules/2d20-turns.md#s3-5): Major, Minor, Free and Reaction actions and their limits.

1 Major + 1 Minor per turn; extra Minors for 1 Momentum (or +1 Threat; NPCs spend 1 Threat), each
Minor once per turn and only on one's own turn; at most 2 Majors per round; Reactions 1 per round and
never on one's own turn (or escalating Heat under Infinity, B23). `legality` says why not, unchanged.
"""

from __future__ import annotations

from dataclasses import replace

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.families.twod20 import forbids, hacking, outofturn, pools
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.state import Grant
from tracker.families.twod20.tables.actions import ACTIONS, GRANT_DICE, GRANTS, MOVE_ZONES, Action, Kind


def kind_of(eng: TwoD20Engine, key: str) -> Kind:
    """The action's kind under the profile (Infinity's Drop Prone is Free [003:L171-176])."""
    return "free" if key in eng.profile.free_actions else ACTIONS[key].kind


def offered(eng: TwoD20Engine) -> dict[str, Action]:
    """The actions the encounter's profile offers (docs/rules/2d20-turns.md#s3-5-1 to #s3-5-3), in
    catalogue order."""
    return {key: act for key, act in ACTIONS.items() if key in eng.profile.actions}


def action_key(text: str, eng: TwoD20Engine | None = None) -> str:
    """The catalogue key of an action typed as the GM types it, among the profile's actions when `eng` is given."""
    key = names.normalise(text)
    table = offered(eng) if eng is not None else ACTIONS
    prone = "drop_prone" if "drop_prone" in table else "go_prone"
    try:
        return names.resolve({"move": "movement", "prone": prone}.get(key, key), table, what="action")
    except Refusal as exc:  # name the actions the way the GM types them
        raise Refusal(str(exc).replace("_", "-")) from None


def legality(eng: TwoD20Engine, who: str, key: str) -> str | None:
    """Why `who` may not take `key` now, or None."""
    a = eng.fighter(who)
    act = replace(ACTIONS[key], kind=kind_of(eng, key))
    if key not in eng.profile.actions:
        return f"{act.title} is not an action of the {eng.profile.name} profile"
    own = eng.st.active == who and eng.st.phase == "turn"
    if a.dead:
        return f"{who} is dead"
    if a.unconscious:
        return f"{who} is unconscious: no actions [004:L1896; 003:L450-454]"
    if a.broken:
        final = "final, Fortune does not undo it" if key == "undefeated" else "no longer a playable character"
        return f"{who} has suffered a mental break: {final} [004:L1874-1876]"
    bar = forbids.condition_bar(eng, who, key, act.kind)
    if bar:
        return bar
    if act.kind == "reaction":
        if own:
            return "a Reaction is never taken on one's own turn"
        if eng.profile.reactions == "one" and a.reactions >= 1:
            return f"{who} has already reacted this round"
        if a.defeated:
            return f"{who} is Defeated: one Free Action per turn only"
        staggered = eng.profile.staggered_reaction_point and a.conditions.get("staggered")
        if staggered and eng.sheet(who).pc and a.fortune < 1:
            return f"{who} is Staggered: a Reaction also costs 1 {_point(eng)} and {who} has none"
        return None
    if key == "drop_prone" and a.conditions.get("prone"):
        return f"{who} is already Prone"
    if key == "undefeated":
        if not a.defeated:
            return f"{who} is not Defeated"
        if a.yielded:
            return f"{who} yielded this scene: no revival until the scene ends"
        if a.fortune < 1:
            return f"{who} has no {eng.profile.meta_currency.title()}"
        return None
    # Out of turn: a readied action on its trigger [004:L1474], an Assist on the ally's turn [004:L1461-1465].
    held = not own and outofturn.readied(eng, who, key)
    helping = not own and not held and outofturn.assisting(eng, who, key)
    if helping and (why := outofturn.assist_bar(eng, who)):
        return why
    if act.kind != "free" and not own and not (held or helping):
        return f"it is not {who}'s turn" + (f" ({eng.st.active} is acting)" if eng.st.active else "")
    if a.conditions.get("stunned") and own and not a.stun_delayed:
        return f"{who} is Stunned: no actions this turn"
    if a.defeated:
        if act.kind != "free":
            return f"{who} is Defeated: one Free Action per turn only"
        if a.free_actions >= 1:
            return f"{who} is Defeated and has taken its one Free Action"
        return None
    if act.kind == "major":
        if a.majors >= 2:
            return f"{who} has taken 2 Major Actions this round (the most by any means)"
        if own and a.majors_turn >= a.majors_allowed:
            return f"{who} has taken its Major Action this turn (Swift Action or Fortune for another)"
        if act.movement and a.conditions.get("prone"):
            return f"{who} is Prone: no movement Major Actions"
        if key == "cast" and "prepare" not in a.minors:
            return f"{who} must take the Prepare minor before casting a spell [002:L83]"
        if key == "go_prone" and a.conditions.get("prone"):
            return f"{who} is already Prone"
        if key == "rush" and (a.rush_used or "movement" in a.minors):
            return f"{who} cannot Rush: once per round, and not after the Movement minor"
        if a.conditions.get("staggered") and not eng.sheet(who).pc and eng.st.threat < 1:
            return f"{who} is Staggered: a Standard Action costs 1 {eng.pool_name} and the pool is empty"
    if act.kind == "minor":
        if key in a.minors:
            return f"{who} has already taken {act.title} this turn (each Minor once per turn)"
        if key == "movement" and eng.in_reach_of_enemy(who) and eng.profile.leave_reach == "disengage":
            return f"{who} is within Reach of {', '.join(eng.in_reach_of_enemy(who))}: Disengage instead of Movement"
        if key == "disengage" and not eng.in_reach_of_enemy(who):
            return f"{who} is not within Reach of an enemy"
        if key == "stand" and not a.conditions.get("prone"):
            return f"{who} is not Prone"
        if eng.profile.prone_stand_exclusive and {key, *a.minors} >= {"stand", "drop_prone"}:
            return "Drop Prone and Stand are not both taken in one turn"
        if a.minors and not eng.sheet(who).pc and eng.st.threat < 1:
            return f"an extra Minor costs 1 {eng.pool_name}; the pool is empty"
    if key in ("swift", "surge") and a.majors + a.majors_allowed - a.majors_turn >= 2:
        return f"{who} can take no more than 2 Major Actions this round: no extra one to gain (B8, B31)"
    if key == "swift" and "swift" in a.round_spends:
        return f"{who} has taken a Swift Action this round (once per round, B8)"
    if key == "swift" and eng.sheet(who).pc and eng.st.momentum < 2:
        return "Swift Action costs 2 Momentum"
    if key == "surge" and a.fortune < 1:
        return f"{who} has no {eng.profile.meta_currency.title()}"
    return None


def _ready_terms(eng: TwoD20Engine, who: str, args: list[str]) -> tuple[str, str]:
    """The held Major Action and its trigger of ``spend WHO ready ACTION [TRIGGER …]`` [004:L1474]."""
    if not args:
        raise Refusal(f"Ready holds a Major Action: spend {who} ready ACTION [TRIGGER …] [004:L1474]")
    key = action_key(args[0], eng)
    if kind_of(eng, key) != "major" or key in outofturn.NOT_READIED:
        raise Refusal(f"Ready holds a Major Action, not {ACTIONS[key].title} [004:L1474]")
    return key, " ".join(args[1:])


def _point(eng: TwoD20Engine) -> str:
    return eng.profile.meta_currency.title().rstrip("s")


def _leave_reach(eng: TwoD20Engine, who: str, provokes: bool) -> None:
    """Moving away ends `who`'s Reach with enemies; under Infinity that provokes Retaliate unless it is a
    Withdraw [003:L567-570], B22."""
    foes = eng.in_reach_of_enemy(who)
    if not foes:
        return
    eng.st.reach = [p for p in eng.st.reach if who not in p or not eng.enemies(p[0], p[1])]
    if provokes:
        eng.log(f"{who} leaves the Reach of {', '.join(foes)}: Retaliate may follow (no Withdraw)")
    else:
        eng.log(f"{who} withdraws from the Reach of {', '.join(foes)} without provoking Retaliate")


#: Actions whose first word, when given, is the combatant acted on or for (docs/rules/2d20-turns.md#s3-5: the Attack's
#: target, the patient of Aid, Treat and Stabilise, the ally Assisted, Protected, Defended or Bolstered, the
#: character Commanded, the attacker a Reaction answers).
TARGETED = frozenset(
    {
        "attack",
        "aid",
        "assist",
        "protect",
        "treat",
        "command",
        "stabilise",
        "defend",
        "bolster",
        "retaliate",
        "guard",
        "return_fire",
        "covering_fire",
    }
)


def words(eng: TwoD20Engine, who: str, key: str, args: list[str]) -> list[str]:
    """The action's words with their names resolved the one way (`tracker.engine.names.resolve`), checked
    before anything changes: a target is a combatant still in the fight (docs/reference/language.md ``leave``), an
    Attack's further words `who`'s weapons; a targeted action refuses a word it has no use for. The words
    of other actions are the GM's note for the log, kept as typed."""
    if key not in TARGETED or not args:
        return args
    target = eng.living(args[0])
    title = ACTIONS[key].title
    if key == "attack":
        if target == who:
            raise Refusal(f"{who} cannot {title} itself")
        weapons = [w.name for w in eng.sheet(who).weapons]
        if args[1:] and not weapons:
            raise Refusal(f"{who} has no weapon on file: none is named '{args[1]}'")
        return [target, *(names.resolve(w, weapons, what=f"weapon of {who}'s") for w in args[1:])]
    if args[1:]:
        raise Refusal(f"{title} takes one target (spend {who} {key.replace('_', '-')} NAME), not '{args[1]}' too")
    return [target]


def _grant_target(eng: TwoD20Engine, who: str, key: str, args: list[str]) -> tuple[str, list[str]]:
    """Defend and Bolster may name an ally (`spend Kit defend Ada`, resolved by `words`); otherwise the actor."""
    if key not in ("defend", "bolster") or not args:
        return who, args
    ally = args[0]
    if eng.enemies(who, ally):
        raise Refusal(f"{ally} is an enemy of {who}: {ACTIONS[key].title} is for oneself or an ally")
    return ally, args[1:]


def _grant(eng: TwoD20Engine, who: str, target: str, key: str) -> None:
    """Store the +2[CD] until the start of the actor's next turn (B18; Hit the Dirt [004:L1529])."""
    b = eng.fighter(target)
    for kind in GRANTS[key]:
        b.granted.append(Grant(kind=kind, dice=GRANT_DICE, source=ACTIONS[key].title, until=who))
    gained = " and ".join(f"+{GRANT_DICE}[CD] {kind.title()}" for kind in GRANTS[key])
    eng.log(f"{target} gains {gained} until the start of {who}'s next turn")


def _protect(eng: TwoD20Engine, who: str, args: list[str]) -> None:
    """Protect [004:L1473]: attacks against the actor, or the ally named, are +1 Difficulty until the start
    of the protected one's next turn (the attack's test counts it, `tracker.families.twod20.skill_test`). The
    Protect test (Coordination or Insight + Survive D1, +1 for an ally) is the table's: on a failure, undo."""
    ward = args[0] if args else who
    b = eng.fighter(ward)
    if who not in b.protected_by:
        b.protected_by.append(who)
    eng.log(f"attacks against {ward} are +1 Difficulty until the start of {ward}'s next turn (Protect, {who})")


def spend(eng: TwoD20Engine, who_text: str, action_text: str, args: list[str]) -> None:
    who = eng.living(who_text)
    key = action_key(action_text, eng)
    reason = legality(eng, who, key)
    if reason:
        raise Refusal(reason)
    a = eng.fighter(who)
    own = eng.st.active == who and eng.st.phase == "turn"
    held = not own and outofturn.readied(eng, who, key)
    # Each action's own words, checked before anything changes.
    helped = outofturn.assist_terms(eng, who, args) if key == "assist" else None
    readies = _ready_terms(eng, who, args) if key == "ready" else None
    breaking = outofturn.break_terms(eng, who, args) if key == "break_free" else None
    resets = hacking.reset_terms(eng, who, args) if key == "reset" else None
    links = hacking.link_terms(eng, who, args) if key == "link" else None
    if key not in ("assist", "ready", "break_free", "reset", "link"):
        args = words(eng, who, key, args)
    target, args = _grant_target(eng, who, key, args)
    if key == "protect" and args:
        target = args[0]
        if eng.enemies(who, target):
            raise Refusal(f"{target} is an enemy of {who}: Protect is for oneself or an ally")
    if why := forbids.ally_range(eng, who, key, target):
        raise Refusal(why)
    act = replace(ACTIONS[key], kind=kind_of(eng, key))
    if act.kind == "major":
        if a.conditions.get("staggered"):
            pools.pay(eng, who, 1, "Staggered: a Standard Action")
        a.majors += 1
        if held:
            a.ready, a.ready_trigger = None, ""
            eng.log(f"{who}'s readied {act.title} interrupts {eng.st.active}'s turn [004:L1474]")
        elif own:
            a.majors_turn += 1
        a.move_budget += MOVE_ZONES.get(key, 0)
        if key == "rush":
            a.rush_used = True
        elif key in ("sprint", "withdraw"):
            _leave_reach(eng, who, provokes=key == "sprint")
            a.sprinted = key == "sprint"
        elif key == "go_prone":
            a.conditions["prone"] = True
        elif key == "protect":
            _protect(eng, who, args)
        # Only a turn whose one Major is the Pass can be deferred (docs/rules/2d20-turns.md#s3-4 rule 6).
        if own:
            a.deferred = key == "pass" and a.majors_turn == 1
        eng.log(f"{who}: {act.title} (Major {a.majors} this round)" + (f" — {' '.join(args)}" if args else ""))
        if helped is not None:
            outofturn.assist(eng, who, *helped)
        if readies is not None:
            outofturn.hold(eng, who, *readies)
        if breaking is not None:
            outofturn.break_free(eng, who, *breaking)
        if resets is not None:
            hacking.reset(eng, who, *resets)
    elif act.kind == "minor":
        if a.minors:
            pools.pay(eng, who, 1, f"an extra Minor ({act.title})")
        a.minors.append(key)
        if key == "drop_prone":
            a.conditions["prone"] = True
        elif key == "stand":
            a.conditions.pop("prone", None)
        elif key == "disengage":
            eng.st.reach = [p for p in eng.st.reach if who not in p or not eng.enemies(p[0], p[1])]
        eng.log(f"{who}: {act.title} (Minor)" + (f" — {' '.join(args)}" if args else ""))
        if key == "movement":
            a.move_budget += MOVE_ZONES["movement"]
            _leave_reach(eng, who, provokes=True)
        if key in GRANTS:
            _grant(eng, who, target, key)
    elif act.kind == "free":
        a.free_actions += 1
        if key == "drop_prone":
            a.conditions["prone"] = True
        eng.log(f"{who}: {act.title} (Free)" + (f" — {' '.join(args)}" if args else ""))
    elif act.kind == "reaction":
        staggered = eng.profile.staggered_reaction_point and bool(a.conditions.get("staggered"))
        if staggered and not eng.sheet(who).pc:
            pools.check_pay(eng, who, a.reactions + 2, "Staggered: a Reaction and its extra point")
        a.reactions += 1
        if staggered and eng.sheet(who).pc:
            pools.fortune(eng, who, -1, "Staggered: a Reaction costs a point as well as Heat")
        elif staggered:
            pools.threat(eng, -1, f"{who} is Staggered: a Reaction costs 1 more {eng.pool_name}")
        if eng.profile.reactions == "escalating":
            cost = a.reactions
            if eng.sheet(who).pc:
                pools.threat(eng, cost, f"{who}'s Reaction #{cost} this round")
            else:
                if eng.st.threat < cost:
                    a.reactions -= 1
                    raise Refusal(f"Reaction #{cost} costs {cost} {eng.pool_name}; the pool holds {eng.st.threat}")
                pools.threat(eng, -cost, f"{who}'s Reaction #{cost} this round")
        if key == "hit_the_dirt":
            a.conditions["prone"] = True
        eng.log(f"{who}: {act.title} (Reaction {a.reactions} this round)" + (f" — {' '.join(args)}" if args else ""))
        if links is not None:
            hacking.link(eng, who, *links)
        if key in GRANTS:
            _grant(eng, who, target, key)
    elif key == "swift":
        pools.pay(eng, who, 2, "Swift Action")
        a.majors_allowed += 1
        a.swift = True
        a.round_spends.append("swift")
        eng.log(f"{who} takes a Swift Action: another Major Action this turn at +1 Difficulty")
    elif key == "surge":
        pools.fortune(eng, who, -1, "Surge of Activity")
        a.majors_allowed += 1
        eng.log(f"{who}: Surge of Activity — another Major Action this turn")
    elif key == "undefeated":
        pools.fortune(eng, who, -1, "Undefeated")
        a.defeated = False
        a.dying = False
        a.revived = True
        eng.log(f"{who} is no longer Defeated (nor Dying); the next Harm defeats again")


def move_beyond(eng: TwoD20Engine, name: str, zone_text: str) -> str:
    """Why `name`'s own move to the zone `zone_text` names goes beyond its movement actions this turn (the
    warning `move_warning` gives the GM, as a refusal for a player's own command), or "" when it does not
    (or the command is refused anyway, which it will say). Nothing changes."""
    try:
        zone = eng.zones.resolve(zone_text)
    except Refusal:
        return ""
    a = eng.fighter(name)
    if a.zone is None or a.zone == zone:
        return ""
    distance = eng.zones.distance(a.zone, zone)
    budget = a.move_budget
    try:
        return (
            move_warning(eng, name, distance)
            .replace("Warning: ", "", 1)
            .replace("(the GM may allow it)", "(or ask the GM, who may allow it)")
        )
    finally:
        a.move_budget = budget


def move_warning(eng: TwoD20Engine, name: str, distance: int | None) -> str:
    """On the mover's own turn, whether its movement actions cover `distance` (docs/rules/2d20-combat.md#s3-6): Movement
    1 zone, Rush 1 + 1 per Momentum, Sprint 2; Hindered (or Prone under Infinity) one fewer. A warning, not a
    refusal: the GM may overrule (terrain, talents, Momentum spent on the Rush)."""
    if distance is None or eng.st.active != name or eng.st.phase != "turn":
        return ""
    a = eng.fighter(name)
    hindered = bool(a.conditions.get("hindered")) or (eng.profile.prone_hindered and bool(a.conditions.get("prone")))
    budget = max(0, a.move_budget - (1 if hindered else 0))
    a.move_budget = max(0, a.move_budget - distance)
    if distance <= budget:
        return ""
    why = " (Hindered: one zone fewer)" if hindered else ""
    if a.conditions.get("prone") and not hindered:
        why = " (Prone: no movement Major Actions)"
    return (
        f"Warning: {name} moves {distance} zone{'s' if distance != 1 else ''} but its movement actions this turn "
        f"allow {budget}{why}: take Movement/Rush/Sprint or spend Momentum on the Rush (the GM may allow it)"
    )
