"""An attack as one flow in the 2d20 System (CONTRACT.md §3 ``attack``; RULES.md §3.2, §3.3, §3.6-§3.8).

``attack NAME [TARGET] [WEAPON]`` takes the Attack (a Major Action, as ``spend NAME attack``) and then asks,
one pending prompt at a time, what it still needs: the target (those the weapon reaches first, each with
its range, Difficulty and chance), the weapon when the sheet has more than one that reaches, the test (the
tracker knows the TN, attribute + skill by the profile's attack test, and the Difficulty from the range band
and the attacker's state; the question offers the bought d20s with their cost, or takes the faces rolled at
the table), and on a success the damage (the weapon's Challenge Dice, with Bonus Damage bought with the
test's Momentum, or the faces rolled) applied with the weapon's effects. Option 1 is always the tracker's
default: the best target, no bought die, no spend, the tracker rolls. The test's Momentum left unspent is
banked: a player character's in the group pool (under its cap), an NPC's as Threat (RULES.md §3.3).

The typed forms are unchanged: ``spend NAME attack``, ``roll``, ``challenge`` and ``damage`` work as before.
The test is unopposed at the Difficulty the range gives; a defender's reaction stays the table's.
"""

from __future__ import annotations

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count
from tracker.engine.records.model import Prompt
from tracker.families.twod20 import actions, pools, spends
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine, attack_check
from tracker.families.twod20.records.sheet import TwoD20Weapon
from tracker.present.words import counted

TARGET, WEAPON, ROLL, DAMAGE = "attack_target", "attack_weapon", "attack_roll", "attack_damage"
KINDS = (TARGET, WEAPON, ROLL, DAMAGE)


def attack_tn(eng: TwoD20Engine, who: str, kind: str) -> tuple[int | None, str]:
    """`who`'s TN for an attack of `kind` (attribute + skill, the profile's test, RULES.md §3.0, §3.2), and how
    it is made up ("Coordination 10 + Fight 3"); None with the reason when the sheet lacks the attribute."""
    test = {"melee": eng.profile.melee_test, "mental": eng.profile.mental_test}.get(kind, eng.profile.ranged_test)
    attribute, _, skill = test.partition("+")
    sheet = eng.sheet(who)
    attributes = {k.casefold(): v for k, v in sheet.attributes.items()}
    if attribute not in attributes:
        return None, f"{who}'s sheet has no {attribute.title()} (the profile's {kind} test is {test})"
    rating = sheet.skill(skill)
    label = f"{attribute.title()} {attributes[attribute]} + {skill.replace('_', ' ').title()} {rating}"
    return attributes[attribute] + rating, label


def form(weapon: TwoD20Weapon) -> str:
    """A Reach weapon makes a melee attack; every other range band a ranged one (RULES.md §3.6, §3.7)."""
    return "melee" if weapon.range == "reach" else "ranged"


def _weapon(eng: TwoD20Engine, who: str, name: str) -> TwoD20Weapon:
    return next(w for w in eng.sheet(who).weapons if w.name == name)


def _named_weapon(eng: TwoD20Engine, who: str, text: str) -> str | None:
    for w in eng.sheet(who).weapons:
        if w.name.casefold().startswith(text.casefold()):
            return w.name
    return None


class Shot:
    """One weapon on one target: whether it reaches, the range, Difficulty, TN and the chance with 2d20."""

    def __init__(self, eng: TwoD20Engine, who: str, target: str, weapon: TwoD20Weapon) -> None:
        kind = form(weapon)
        self.weapon = weapon.name
        self.reach = kind != "melee" or sorted([who, target]) in eng.st.reach
        check = attack_check(eng, who, target, None if kind == "melee" else weapon.range, kind)
        self.range, self.difficulty, self.notes = check.range, check.difficulty, check.notes
        self.tn, self.made_of = attack_tn(eng, who, kind)
        from tracker.families.twod20.dice.odds import ladder  # the odds load when an attack asks

        self.chance = ladder(self.tn, self.difficulty)[0].success if self.tn is not None else None

    def text(self) -> str:
        head = "not within Reach, " if not self.reach else ""
        odds = f" · {round(100 * self.chance)}%" if self.chance is not None else ""
        return f"{head}{self.range.title()}, D{self.difficulty}{odds}"


def shots(eng: TwoD20Engine, who: str, target: str, only: str | None = None) -> list[Shot]:
    """Each of `who`'s weapons (or the one named) on `target`, best first; none where there is no way there."""
    out = []
    a, t = eng.fighter(who), eng.fighter(target)
    if a.zone is None or t.zone is None:
        return []
    for w in eng.sheet(who).weapons:
        if (only is not None and w.name != only) or (form(w) == "melee" and a.zone != t.zone):
            continue  # a melee weapon reaches within the zone only (RULES.md §3.6 Reach)
        try:
            out.append(Shot(eng, who, target, w))
        except Refusal:
            continue
    out.sort(key=lambda s: (not s.reach, -(s.chance or 0)))
    return out


def start(eng: TwoD20Engine, args: list[str]) -> None:
    """``attack NAME [TARGET] [WEAPON]``: check, take the Attack (a Major Action), then ask what is missing."""
    eng.require_started()
    who = eng.living(args[0])
    if not eng.sheet(who).weapons:
        raise Refusal(f"{who} has no weapon on the sheet: 'spend {who} attack', then 'roll' and 'damage'")
    target: str | None = None
    weapon: str | None = None
    for word in args[1:]:
        named = _named_weapon(eng, who, word)
        if target is None and weapon is None and named is None:
            target = eng.living(word)
            if target == who or not eng.enemies(who, target):
                raise Refusal(f"{target} is not an enemy of {who}")
        elif named is not None and weapon is None:
            weapon = named
        else:
            raise Refusal(f"usage: attack NAME [TARGET] [WEAPON] ('{word}' is neither)")
    if eng.fighter(who).zone is None:
        raise Refusal(f"{who} has no zone: no range to attack at")
    usable = [w for w in eng.sheet(who).weapons if weapon is None or w.name == weapon]
    if all(attack_tn(eng, who, form(w))[0] is None for w in usable):
        raise Refusal(f"no TN: {attack_tn(eng, who, form(usable[0]))[1]}; 'spend {who} attack', then 'roll'")
    if target is not None and not shots(eng, who, target, weapon):
        raise Refusal(f"{who} cannot attack {target} from {eng.fighter(who).zone}: no way there")
    reason = actions.legality(eng, who, "attack")
    if reason:
        raise Refusal(reason)
    if target is None and not any(shots(eng, who, n, weapon) for n in _enemies(eng, who)):
        raise Refusal(f"{who} has no enemy it can attack from {eng.fighter(who).zone}")
    actions.spend(eng, who, "attack", [target] if target else [])
    if target is None:
        target_offer(eng, who, weapon)
        return
    chosen(eng, who, target, weapon)


def _enemies(eng: TwoD20Engine, who: str) -> list[str]:
    return [n for n in eng.present_names() if n != who and eng.enemies(who, n) and not eng.fighter(n).dead]


def target_offer(eng: TwoD20Engine, who: str, weapon: str | None) -> None:
    """Ask at whom: those the weapon reaches first, then by the chance to hit (RULES.md §3.6, §3.7)."""
    rows: list[tuple[tuple[bool, float, int], str, str]] = []
    for i, name in enumerate(_enemies(eng, who)):
        found = [s for s in shots(eng, who, name, weapon) if s.tn is not None]
        if not found:
            continue
        best = found[0]
        rows.append(((not best.reach, -float(best.chance or 0), i), name, f"{name} · {best.text()}"))
    if not rows:
        eng.log(f"{who} has no one to attack from {eng.fighter(who).zone}")
        return
    rows.sort(key=lambda r: r[0])
    eng.ask(
        TARGET,
        f"{who} attacks: at whom?",
        [name for _, name, _ in rows],
        who=who,
        weapon=weapon or "",
        labels=[label for _, _, label in rows],
    )


def chosen(eng: TwoD20Engine, who: str, target: str, weapon: str | None) -> None:
    """The target is known: the weapon, asked when more than one reaches it; then the test."""
    found = [s for s in shots(eng, who, target, weapon) if s.tn is not None]
    if weapon is None and len(found) > 1:
        labels = [f"{s.weapon} ({_weapon(eng, who, s.weapon).damage}[CD]) · {s.text()}" for s in found]
        eng.ask_weapon(WEAPON, who, target, [s.weapon for s in found], labels)
        return
    roll_offer(eng, who, target, found[0])


def _cost_text(eng: TwoD20Engine, who: str, cost: int) -> str:
    if not eng.sheet(who).pc:
        return f"{cost} {eng.pool_name}"
    if eng.st.momentum >= cost:
        return f"{cost} Momentum"
    return f"{cost} Momentum/{eng.pool_name}"


def roll_offer(eng: TwoD20Engine, who: str, target: str, shot: Shot) -> None:
    """The test: TN and Difficulty known; the bought d20s offered with their cost and chance (§3.2, §3.3)."""
    from tracker.families.twod20.dice.odds import ladder

    assert shot.tn is not None
    odds = ladder(shot.tn, shot.difficulty)
    options, labels = [], []
    for bought, pool in enumerate(odds):
        cost = dice.bought_dice_cost(bought)
        if bought and not eng.sheet(who).pc and eng.st.threat < cost:
            break  # an NPC's side pays with Threat it must have
        options.append("roll" if not bought else f"roll+{bought}")
        paid = f" for {_cost_text(eng, who, cost)}" if bought else ""
        labels.append(f"{2 + bought}d20{paid} · {round(100 * pool.success)}%")
    notes = f" ({'; '.join(shot.notes)})" if shot.notes else ""
    eng.ask(
        ROLL,
        f"{who} attacks {target} with the {shot.weapon}: TN {shot.tn} ({shot.made_of}), "
        f"Difficulty {shot.difficulty}{notes} — roll, buying d20s?",
        options,
        who=who,
        target=target,
        weapon=shot.weapon,
        tn=shot.tn,
        difficulty=shot.difficulty,
        labels=labels,
    )


def _faces(value: str) -> list[int] | None:
    """The faces the table rolled (``4,17``), or None for ``roll``/``roll+N``."""
    if value.casefold().startswith("roll"):
        return None
    return [count(x.strip(), "face") for x in value.replace(" ", ",").split(",") if x.strip()]


def _extra(value: str, options: list[str]) -> int:
    """N of ``roll+N``, refused when the question does not offer it."""
    word = value.casefold().replace(" ", "")
    if word not in options:
        raise Refusal(f"answer {', '.join(options)}, or the faces rolled (e.g. 4,17)")
    return int(word.partition("+")[2] or 0)


def _bought(p: Prompt, value: str) -> tuple[int, list[int] | None]:
    faces = _faces(value)
    if faces is None:
        return _extra(value, p.options), None
    bought = len(faces) - dice.BASE_DICE
    if not 0 <= bought < len(p.options):
        raise Refusal(f"give {dice.BASE_DICE} to {dice.BASE_DICE + len(p.options) - 1} faces, one per d20 rolled")
    return bought, faces


def check(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Refuse a bad answer before anything changes (the prompt, the pools and the dice stay as they were)."""
    if p.kind in (TARGET, WEAPON):
        names.resolve(value, p.options)
    elif p.kind == ROLL:
        _, faces = _bought(p, value)
        if faces is not None:
            dice.roll_pool(eng.st, 0, 0, dice=len(faces), faces=faces)  # checks the faces, draws nothing
    elif p.kind == DAMAGE:
        spends.check(eng, p, value)


def answer(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Resolve one of the flow's questions (`check` has accepted `value`)."""
    assert p.who is not None
    who = p.who
    if p.kind == TARGET:
        target = names.resolve(value, p.options)
        eng.log(f"{who} attacks {target}")
        chosen(eng, who, target, str(p.data["weapon"]) or None)
    elif p.kind == WEAPON:
        target = str(p.data["target"])
        roll_offer(eng, who, target, shots(eng, who, target, names.resolve(value, p.options))[0])
    elif p.kind == ROLL:
        _roll(eng, p, value)
    else:
        _damage(eng, p, value)


def _roll(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """The test: pay for the bought d20s, roll (or score the table's faces); a success asks the damage."""
    who, target, weapon = str(p.who), str(p.data["target"]), str(p.data["weapon"])
    bought, faces = _bought(p, value)
    cost = dice.bought_dice_cost(bought)
    tn, difficulty = int(str(p.data["tn"])), int(str(p.data["difficulty"]))
    result = dice.roll_pool(eng.st, tn, difficulty, dice=dice.BASE_DICE + bought, faces=faces)
    if cost:
        why = f"{counted(bought, 'bought d20')}"
        if eng.sheet(who).pc and eng.st.momentum < cost:
            from_pool = eng.st.momentum
            if from_pool:
                pools.momentum(eng, -from_pool, f"{who} buys d20s")
            pools.threat(eng, cost - from_pool, f"{who} buys d20s")
        else:
            pools.pay(eng, who, cost, why)
    eng.log(f"{who} tests: {result.describe()}", kind="result")
    if not result.passed:
        eng.log(f"{who}'s attack with the {weapon} misses {target}")
        return
    eng.log(f"{who}'s attack with the {weapon} hits {target}")
    damage_offer(eng, who, target, weapon, result.momentum)


def damage_offer(eng: TwoD20Engine, who: str, target: str, weapon: str, momentum: int) -> None:
    """The hit's damage: the weapon's and the attacker's own Challenge Dice, with the Momentum spends at the
    roll (`tracker.families.twod20.spends`, RULES.md §3.8)."""
    spends.offer(eng, who, target, weapon, momentum)


def _damage(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Pay the spends, roll the dice, bank what is left, apply the hit (`tracker.families.twod20.spends`)."""
    spends.resolve(eng, p, value)
