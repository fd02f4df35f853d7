"""The action catalogue with AP costs and legality (docs/rules/ttb-turns.md#s2-4, docs/rules/ttb-turns.md#s2-5), and
`spend`.

`legality` answers "may this character take this action now, and if not, why?" without changing
anything, so the screens can grey out illegal actions with their reason; `spend` refuses with the
same reason, then pays and applies the action.
"""

from __future__ import annotations

import functools

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count, is_number, signed_int
from tracker.families.ttb import conditions
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.tables import skills
from tracker.families.ttb.tables.actions import ACTIONS, ALIASES, Action
from tracker.present.words import counted


@functools.lru_cache(maxsize=256)  # the same few names, typed over and over (a fight's odds type thousands)
def action_key(text: str) -> str:
    key = names.normalise(text)
    try:
        return names.resolve(ALIASES.get(key, key), ACTIONS, what="action")
    except Refusal as exc:  # name the actions the way the GM types them
        raise Refusal(str(exc).replace("_", "-")) from None


def display(key: str) -> str:
    return key.replace("_", "-")


def _int_arg(args: list[str], what: str) -> int:
    for a in args:
        if is_number(a):
            return signed_int(a, what)
    raise Refusal(f"{what} needs a number of AP (e.g. 'defensive 2')")


def cost_of(eng: TTBEngine, key: str, args: list[str]) -> int:
    """AP an action costs with these arguments (Wait: the named action's cost + 1, decision A17)."""
    act = ACTIONS[key]
    if key == "wait":
        if not args:
            raise Refusal("Wait needs the action to wait for (e.g. 'wait strike')")
        named = action_key(args[0])
        if named in ("wait",) or ACTIONS[named].category == "fate":
            raise Refusal(f"cannot Wait for {ACTIONS[named].title}")
        return cost_of(eng, named, args[1:]) + 1
    if key == "reload" and act.cost is None:
        return _reload_amount(eng, args)
    if act.cost is None:
        n = _int_arg(args, act.title)
        if n < 1:
            raise Refusal(f"{act.title} costs at least 1 AP")
        return n
    return act.cost


def weapon_word(eng: TTBEngine, who: str, text: str) -> bool:
    """Whether `text` may name one of `who`'s weapons (any case, a prefix of the name or of one of its words)."""
    return bool(names.matching(text, [w.name for w in eng.sheet(who).weapons]))


def attack_words(eng: TTBEngine, who: str, args: list[str]) -> tuple[str | None, list[str]]:
    """A strike's or a shot's target and the words that name its weapon (docs/reference/language.md "Weapons (TTB)":
    ``TARGET [WEAPON]``, or a weapon alone). The first word is the target unless it names one of `who`'s
    weapons; a word that fits a weapon and someone in the fight is ambiguous (an exact name wins)."""
    if not args:
        return None, []
    first = args[0]
    weapons = [w.name for w in eng.sheet(who).weapons]
    as_weapon, as_person = names.matching(first, weapons), names.matching(first, eng.present_names())
    exact = first.casefold()
    if any(n.casefold() == exact for n in as_person) or not as_weapon:
        target = eng.living(first)
        if target == who:
            raise Refusal(f"{who} cannot attack itself")
        return target, args[1:]
    if as_person and not any(w.casefold() == exact for w in as_weapon):
        raise Refusal(f"'{first}' is ambiguous: {', '.join(sorted(as_person + as_weapon)[:6])}")
    return None, args


def named_weapon(eng: TTBEngine, who: str, text: str) -> str:
    """The weapon of `who`'s that `text` names, the way every name resolves (any case, a unique prefix);
    refused naming `who`'s weapons when it names none or several (docs/reference/language.md "Weapons (TTB)")."""
    weapons = [w.name for w in eng.sheet(who).weapons]
    if not weapons:
        raise Refusal(f"{who} has no weapon on file: none is named '{text}'")
    return names.resolve(text, weapons, what=f"weapon of {who}'s")


def weapon_of(eng: TTBEngine, who: str, args: list[str], kind: str | None) -> str | None:
    """The weapon an action uses: named in args, else the first of that kind; None if none listed."""
    weapons = eng.sheet(who).weapons
    pool = [w for w in weapons if kind is None or w.kind == kind]
    for a in args:
        if not is_number(a) and weapon_word(eng, who, a):
            return named_weapon(eng, who, a)
    if not weapons:
        return None
    if not pool:
        raise Refusal(f"{who} has no {kind} weapon")
    return pool[0].name


def _reload_amount(eng: TTBEngine, args: list[str]) -> int:
    for a in args:
        if is_number(a):
            return count(a, "the AP to reload")
    return 1


def legality(
    eng: TTBEngine, who: str, key: str, args: list[str], triggered: bool = False, override: bool = False
) -> str | None:
    """Why `who` may not take action `key` now, or None if it may (AP checked unless `triggered`).

    `override` is the GM's flag (decision A31): Defensive Stance without a Fate Point to pay.
    """
    f = eng.fighter(who)
    sheet = eng.sheet(who)
    act = ACTIONS[key]
    if f.dead:
        return f"{who} is dead"
    if f.unconscious:
        return f"{who} is unconscious: no actions"
    if f.conditions.get("paralyzed"):
        return f"{who} is Paralyzed: no actions"
    if not triggered and not eng.is_active(who) and key != "competence":
        active = eng.st.active
        return f"it is not {who}'s turn" + (f" ({active} is acting)" if active else "")
    engaged = eng.engaged_by(who)
    legs = f.conditions.get("useless_leg")
    if key == "shoot" and engaged:
        return f"{who} is engaged with {', '.join(engaged)}: no projectile attacks"
    if key == "charge":
        if sheet.charge == "--":
            return f"{who} cannot Charge (Charge --)"
        if engaged:
            return f"{who} is engaged with {', '.join(engaged)}: no Charge"
        if legs:
            return f"{who} has a useless leg: no Charge"
        if f.conditions.get("swimming"):
            return f"{who} is swimming: no Charge"
    if key == "run" and legs:
        return f"{who} has a useless leg: no Run"
    if key == "stand_up" and not f.conditions.get("prone"):
        return f"{who} is not Prone"
    if key == "drop_prone" and f.conditions.get("prone"):
        return f"{who} is already Prone"
    if act.category == "fate":
        reason = _fate_legality(eng, who, key, triggered)
        if reason:
            return reason
    if key == "defensive":
        if sheet.fated and not f.hand:
            return f"{who} has no card in hand to discard for Defensive Stance"
        if not sheet.fated and f.fate_points < 1 and not override:
            return (
                f"{who} has no Fate Point to pay in place of the discard "
                f"(decision A31: the GM may allow it with 'spend {who} defensive N override')"
            )
    if key == "wait" and f.wait:
        return f"{who} is already Waiting ({f.wait})"
    reason = _needs_someone(eng, who, key)
    if reason:
        return reason
    if triggered:
        return None
    try:
        cost = cost_of(eng, key, args)
    except Refusal as exc:
        return str(exc)
    if act.category == "combat":
        if f.ap + f.combat_ap < cost:
            return f"{who} has {f.ap} General + {f.combat_ap} Combat AP left; {act.title} costs {cost}"
    elif f.ap < cost:
        return f"{who} has {f.ap} General AP left; {act.title} costs {cost}"
    return None


def orderable(eng: TTBEngine, who: str) -> list[str]:
    """The subordinates `who` may Order now (docs/rules/ttb-turns.md#s2-5 Order, decision A18): alive, answering to
    `who` or to anyone, and not yet acted this round — the same checks `precheck` makes on the one named."""
    out = []
    for name in eng.present_names():
        sheet = eng.sheet(name)
        if name == who or not sheet.subordinate or eng.fighter(name).dead:
            continue
        if sheet.controller and sheet.controller.casefold() != who.casefold():
            continue
        if not eng.fighter(name).acted:
            out.append(name)
    return out


def _needs_someone(eng: TTBEngine, who: str, key: str) -> str | None:
    """Actions that need someone to act on (docs/rules/ttb-turns.md#s2-5): Order a subordinate who may still act,
    Reduce Burning on someone Burning, Doctor on someone Bleeding Out (the only thing docs/rules/ttb-turns.md#s2-5's
    Doctor treats: success removes Bleeding Out; wounds are healed otherwise). The tracker keeps no yards, only
    melee engagements, so "within 1 yard" stays the GM's call; nobody at all to act on is never legal."""
    if key == "order" and not orderable(eng, who):
        return f"{who} has no subordinate to Order who has yet to act this round"
    wanted = {"reduce_burning": ("burning", "Burning"), "doctor": ("bleeding_out", "Bleeding Out")}.get(key)
    if wanted is None:
        return None
    condition, title = wanted
    if not any(eng.fighter(n).conditions.get(condition) and not eng.fighter(n).dead for n in eng.present_names()):
        return f"nobody is {title}: {ACTIONS[key].title} has no one to treat"
    return None


def _fate_legality(eng: TTBEngine, who: str, key: str, triggered: bool) -> str | None:
    sheet = eng.sheet(who)
    f = eng.fighter(who)
    if sheet.fated:
        return "Fate Point abilities are for Fatemaster characters"
    if not sheet.enforcer_or_higher():
        return f"{who} must be a non-subordinate Enforcer or higher to use {ACTIONS[key].title}"
    if f.fate_points < 1:
        return f"{who} has no Fate Points left"
    if key == "second_wind" and f.wounds >= sheet.wounds:
        return f"{who} is at full Wounds ({f.wounds}/{sheet.wounds}): Second Wind would heal nothing"
    if key == "quick_action" and f.quick_action_used:
        return f"{who} already used Quick Action this turn"
    return None


def available(eng: TTBEngine, who: str) -> list[tuple[str, Action, str | None]]:
    """Every catalogued action with its reason to be refused now (None when legal), legal first."""
    out = []
    for key, act in ACTIONS.items():
        # "#" actions are judged at their smallest cost; Wait at its commonest use (wait strike).
        args = ["strike"] if key == "wait" else ["1"] if act.cost is None else []
        out.append((key, act, legality(eng, who, key, args)))
    return sorted(out, key=lambda item: item[2] is not None)


def target_of(eng: TTBEngine, who: str, key: str, args: list[str]) -> str | None:
    act = ACTIONS[key]
    if key in ("reduce_burning", "doctor") and not args:
        return who
    if not act.target:
        return None
    if not args:
        raise Refusal(f"{act.title} needs a target (e.g. 'spend {who} {display(key)} NAME')")
    target = eng.living(args[0])
    if target == who and key not in ("doctor", "reduce_burning"):
        raise Refusal(f"{who} cannot {act.title} itself")
    return target


def check_words(eng: TTBEngine, who: str, key: str, args: list[str]) -> None:
    """Every word after the action names something real, or the action is refused before anything changes:
    a target is a combatant still in the fight (docs/reference/language.md ``leave``), a weapon one of `who`'s
    ("Weapons (TTB)"), an Assist's skill one the encounter knows; a word the action has no use for is
    refused rather than dropped. Names resolve the one way (`tracker.engine.names.resolve`)."""
    if key == "wait":
        if args:  # the action waited for, then its own words (checked now: the trigger comes later)
            check_words(eng, who, action_key(args[0]), args[1:])
        return
    act = ACTIONS[key]
    rest = args
    if key in ("strike", "shoot"):
        rest = attack_words(eng, who, args)[1]
    elif act.target and args:
        eng.living(args[0])
        rest = args[1:]
    for word in rest:
        if key in ("strike", "shoot", "charge") or (key == "reload" and not is_number(word)):
            named_weapon(eng, who, word)
        elif key == "assist" and not is_number(word):
            skills.skill_key(eng, word)
        elif act.target and key != "assist":
            raise Refusal(f"{act.title} takes one target (spend {who} {display(key)} NAME), not '{word}' too")


def precheck(eng: TTBEngine, who: str, key: str, args: list[str], target: str | None) -> None:
    """Checks that need the target or the weapon, still before anything changes."""
    check_words(eng, who, key, args)
    if key == "reduce_burning":
        assert target is not None
        if not eng.fighter(target).conditions.get("burning"):
            raise Refusal(f"{target} is not Burning")
    if key == "doctor":
        assert target is not None
        if not eng.fighter(target).conditions.get("bleeding_out"):
            raise Refusal(f"{target} is not Bleeding Out")
    if key == "order":
        assert target is not None
        tsheet = eng.sheet(target)
        if not tsheet.subordinate:
            raise Refusal(f"{target} is not a subordinate character")
        if tsheet.controller and tsheet.controller.casefold() != who.casefold():
            raise Refusal(f"{target} answers to {tsheet.controller}, not {who}")
        if eng.fighter(target).acted:
            raise Refusal(f"{target} has already acted this round (decision A18)")
    if key == "assist":
        assert target is not None
        if eng.fighter(target).assist:
            raise Refusal(f"{target} already has an Assist bonus (one at a time)")
    if key == "recovery":
        if not args:
            raise Refusal("Recovery needs the condition to remove (e.g. 'recovery burning')")
        cond = conditions.condition_key(args[0])
        if not eng.fighter(who).conditions.get(cond):
            raise Refusal(f"{who} does not have {cond}")
    if key in ("recovery", "second_wind") and not eng.is_active(who):
        raise Refusal(f"{ACTIONS[key].title} is used on {who}'s own turn")
    if key == "quick_action" and not eng.is_active(who):
        raise Refusal(f"Quick Action is used on {who}'s own turn")
    if key == "shoot":
        weapon = weapon_of(eng, who, attack_words(eng, who, args)[1], "projectile")
        if weapon and weapon in eng.fighter(who).shots and eng.fighter(who).shots[weapon] <= 0:
            raise Refusal(f"{who}'s {weapon} is empty: reload it first")
    if key == "reload":
        weapon = weapon_of(eng, who, args, "projectile")
        if weapon is None or not next(w for w in eng.sheet(who).weapons if w.name == weapon).reload:
            raise Refusal(f"{who} has no weapon that needs reloading")
    if key == "defensive" and eng.sheet(who).fated:
        cards = [a for a in args if not is_number(a)]
        if cards:
            from tracker.families.ttb.fate.cards import parse_card

            wanted = parse_card(cards[0])
            if not any(c == wanted.code or c.rstrip("RCTM") == str(wanted.value) for c in eng.fighter(who).hand):
                raise Refusal(f"{who}'s Control Hand has no {cards[0]}")


def pay(eng: TTBEngine, who: str, key: str, cost: int) -> None:
    """Combat actions spend Combat AP first, then General AP; all others General AP only
    (docs/rules/ttb-turns.md#s2-4)."""
    f = eng.fighter(who)
    act = ACTIONS[key]
    if act.category == "fate":
        f.fate_points -= 1
        return
    from_combat = min(f.combat_ap, cost) if act.category == "combat" else 0
    f.combat_ap -= from_combat
    f.ap -= cost - from_combat
    paid = []
    if cost - from_combat:
        paid.append(f"{cost - from_combat} General")
    if from_combat:
        paid.append(f"{from_combat} Combat")
    eng.log(f"{who}: {act.title} ({' + '.join(paid) or '0'} AP; {f.ap} General, {f.combat_ap} Combat left)")


def count_shot(eng: TTBEngine, who: str, weapon: str | None) -> None:
    """A shot leaves the weapon: one fewer where its shots are counted (docs/rules/ttb-turns.md#s2-5 Reload)."""
    f = eng.fighter(who)
    if weapon and weapon in f.shots:
        f.shots[weapon] -= 1
        eng.log(f"{who} fires the {weapon} ({counted(f.shots[weapon], 'shot')} left)")
    else:
        eng.log(f"{who} makes a projectile attack" + (f" with the {weapon}" if weapon else ""))
