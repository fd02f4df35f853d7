"""What the Zones panel and ``tracker odds`` show of a 2d20 test's odds (`tracker.families.twod20.dice.odds`).

The panel: the selected combatant's attack against each enemy it can attack, built as the attack's roll
builds it (`tracker.families.twod20.attack_test.attack_test`: the TN its sheet gives for the weapon's form
under the profile, the Focus, every Difficulty part, the complication range, and the target's side when the
attack is opposed): the chance with 2d20 and with each bought die, the expected Momentum, and the modifiers
counted. The command line: one test (``--tn``,
``--difficulty``, ``--bought``, ``--focus``), each bought die's marginal gain and cost, and the expected
damage and Effects of Challenge Dice (``--damage``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from tracker.engine.errors import Refusal
from tracker.families.twod20.attack_test import AttackTest, attack_spec, attack_test, form
from tracker.families.twod20.dice.odds import ChallengeOdds, RollOdds, challenge_odds, ladder
from tracker.families.twod20.dice.rolls import BASE_DICE, MAX_BOUGHT_DICE, complication_floor
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.sheet import TwoD20Weapon
from tracker.families.twod20.skill_test import build
from tracker.families.values import JSONObject, JSONValue, OddsOptions, OddsReport
from tracker.present import view
from tracker.present.words import percent

POOL_LABELS = ("2d20", "+1d20", "+2d20", "+3d20")
#: The range categories as the narrow table writes them.
SHORT_RANGE = {"close": "Close", "medium": "Med", "long": "Long", "extreme": "Ext"}


def _decimal(x: Fraction) -> str:
    return f"{float(x):.1f}"


def gains(pools: list[RollOdds]) -> list[str]:
    """Each bought die's marginal gain: ``+1d20: 54 % → 73 %, costs 1``."""
    out = []
    for n in range(1, len(pools)):
        before, after = pools[n - 1], pools[n]
        more = after.cost - before.cost
        total = f" ({after.cost} in all)" if n > 1 else ""
        out.append(
            f"+{n}d20: {percent(before.success, True)} → {percent(after.success, True)}, costs {more}"
            + (" more" if n > 1 else "")
            + total
        )
    return out


def damage_line(what: str, cd: ChallengeOdds) -> str:
    """``Service pistol 4[CD]: 3.3 damage, 1.3 Effects expected; 80 % at least one Effect``."""
    return (
        f"{what}{cd.dice}[CD]: {_decimal(cd.expected)} damage, {_decimal(cd.icons)} Effects expected; "
        f"{percent(cd.effect_chance, True)} at least one Effect"
    )


@dataclass(frozen=True)
class Target:
    name: str
    range: str
    difficulty: int
    #: The attacker's own test with 2d20 and each bought die (its Momentum and Complications).
    pools: list[RollOdds]
    #: The chance to hit with 2d20 and each bought die: the opposed test's when the target defends.
    chances: list[Fraction]
    momentum: Fraction
    #: Every modifier counted, with its source.
    modifiers: list[str]
    #: Who rolls against the attack ("" when it is a lone test).
    opposed_by: str = ""


@dataclass(frozen=True)
class Targets:
    """`who`'s attack with its first weapon on each enemy: the TN (None: the sheet lacks the attribute,
    `made_of` says why), and the enemies it cannot attack now (`skipped`, `why`)."""

    who: str
    weapon: TwoD20Weapon | None
    tn: int | None
    made_of: str
    rows: list[Target]
    skipped: list[str]
    why: str
    #: The pool the bought d20s are paid from: Momentum for a player character, the GM's pool for an NPC.
    pays: str = "Momentum"
    #: The attack test's complication range: wider for an untrained skill under Infinity (19-20 [003:L34-36]).
    complication_range: int = 1
    #: The skill the test is untrained in ("" when trained, or when the profile widens nothing).
    untrained: str = ""
    #: The Focus the attack counts ("" for none).
    focus: str = ""


def _row(name: str, found: AttackTest) -> Target:
    pools = [found.test.odds(k) for k in range(MAX_BOUGHT_DICE + 1)]
    chances = [found.chance(k) for k in range(MAX_BOUGHT_DICE + 1)]
    opposed_by = found.defence.who if found.defence else ""
    return Target(
        name, found.range, found.test.difficulty, pools, chances, found.momentum(), found.modifiers(), opposed_by
    )


def targets(eng: TwoD20Engine, who: str) -> Targets:
    """The chances of `who`'s attack on each enemy: the test the attack flow would roll (its next Major)."""
    weapons = eng.sheet(who).weapons
    weapon = weapons[0] if weapons else None
    aim = weapon or TwoD20Weapon(name="no weapon", range="close")
    kind = form(aim)
    mine = build(eng, who, attack_spec(eng, kind, weapon), 0, kind, [], aim.name if weapon else None)
    tn, made_of = (None, mine) if isinstance(mine, str) else (mine.tn, mine.tn_text().partition(" = ")[0])
    crange, untrained = complication_range(eng, who, kind)
    rows: list[Target] = []
    skipped: list[str] = []
    for other, fighter in eng.st.fighters.items():
        if other == who or fighter.dead or eng.has_left(other) or fighter.zone is None or not eng.enemies(who, other):
            continue
        if kind == "melee" and sorted([who, other]) not in eng.st.reach:
            skipped.append(other)
            continue
        try:
            found = attack_test(eng, who, other, aim, kind, declared=False)
        except Refusal:
            skipped.append(other)
            continue
        if isinstance(found, AttackTest):
            rows.append(_row(other, found))
    why = "not within Reach" if kind == "melee" else "no way there"
    pays = "Momentum" if eng.sheet(who).pc else eng.pool_name
    focus = "" if isinstance(mine, str) else mine.focus
    return Targets(who, weapon, tn, made_of, rows, skipped, why, pays, crange, untrained, focus)


def complication_range(eng: TwoD20Engine, who: str, kind: str) -> tuple[int, str]:
    """The complication range of `who`'s attack test of `kind`, and the skill it is untrained in: under
    Infinity an untrained skill (rating 0) makes 19-20 Complications [003:L34-36] (docs/rules/2d20.md#s3-2), and each
    Fatigued widens it by one; else 1. Read from the test the roll makes (`skill_test.build`)."""
    test = build(eng, who, attack_spec(eng, kind), 0, kind, [])
    if isinstance(test, str):
        return 1, ""
    untrained = test.skill if any(n.startswith("untrained") for n in test.complication_notes) else ""
    return test.complication_range, untrained


def panel(eng: TwoD20Engine, who: str | None) -> view.OddsView | None:
    """The selected combatant's attack on each enemy it can attack: % with 2d20 and each bought die."""
    if who is None or eng.fighter(who).zone is None or eng.fighter(who).dead:
        return None
    return targets_view(targets(eng, who))


def targets_view(t: Targets) -> view.OddsView:
    title = f"Chance to hit, % · {t.who}" + (f" ({t.weapon.name})" if t.weapon else "")
    out = view.BlockWriter()
    if t.tn is None:
        out.line(f"No TN: {t.made_of}", "dim")
        return view.OddsView(title, "", (), (), out.block())
    rows = tuple(
        view.OddsRow(
            r.name,
            (
                SHORT_RANGE[r.range],
                str(r.difficulty),
                *(percent(c) for c in r.chances),
                _decimal(r.momentum),
            ),
        )
        for r in t.rows
    )
    if rows:
        out.line(
            f"TN {t.tn} = {t.made_of}"
            + (f", focus ({t.focus})" if t.focus else " (no Focus)")
            + " · +1 +2 +3: bought d20s (cost 1, 2, 3"
            + ("" if t.pays == "Momentum" else f" {t.pays}")
            + ") · "
            "Mom: expected Momentum with 2d20",
            "dim",
        )
    if t.untrained:
        chance = f" ({percent(t.rows[0].pools[0].complication, True)} with 2d20)" if t.rows else ""
        out.line(f"Untrained in {t.untrained}: complications on {complication_floor(t.complication_range)}-20{chance}")
    for r in t.rows:
        counted = [*r.modifiers]
        if counted:
            out.line(f"{r.name}: {'; '.join(counted)}", "dim")
    if t.skipped:
        out.line(f"{t.why.capitalize()}: {', '.join(t.skipped)}", "dim")
    if t.weapon and t.weapon.damage:
        out.line(damage_line(f"{t.weapon.name} ", challenge_odds(t.weapon.damage)))
    columns = ("Range", "D", "2d20", "+1", "+2", "+3", "Mom")
    return view.OddsView(title, "Target", columns, rows, out.block())


def targets_json(t: Targets) -> JSONObject:
    """The panel's numbers for each target, unrounded."""
    rows: list[JSONValue] = [
        {
            "name": r.name,
            "range": r.range,
            "difficulty": r.difficulty,
            "tn": t.tn,
            "pools": [pool_json(p) for p in r.pools],
            "chance": [float(c) for c in r.chances],
            "momentum": float(r.momentum),
            "modifiers": list(r.modifiers),
            "opposed_by": r.opposed_by or None,
        }
        for r in t.rows
    ]
    out: JSONObject = {"who": t.who, "tn": t.tn, "weapon": t.weapon.name if t.weapon else None, "targets": rows}
    out["pays"] = t.pays.casefold()
    out["complication_range"] = t.complication_range
    out["untrained"] = t.untrained or None
    out["focus"] = t.focus or None
    out["skipped"] = list(t.skipped)
    if t.weapon and t.weapon.damage:
        out["damage"] = challenge_json(challenge_odds(t.weapon.damage))
    return out


# --- tracker odds FILE … ---------------------------------------------------------------------------------


def _int(options: OddsOptions, key: str) -> int | None:
    value = options.get(key)
    return value if isinstance(value, int) else None


def pool_json(p: RollOdds) -> JSONObject:
    return {
        "dice": p.dice,
        "bought": p.dice - BASE_DICE,
        "cost": p.cost,
        "success": float(p.success),
        "momentum": float(p.momentum),
        "complication": float(p.complication),
    }


def challenge_json(cd: ChallengeOdds) -> JSONObject:
    return {
        "dice": cd.dice,
        "expected": float(cd.expected),
        "icons": float(cd.icons),
        "effect_chance": float(cd.effect_chance),
    }


def report(eng: TwoD20Engine, options: OddsOptions) -> OddsReport:
    """``tracker odds FILE --tn N --difficulty D [--bought K] [--focus F] [--range R] [--damage N]``, or
    ``--who NAME`` alone for the Zones panel's chances against each target."""
    tn, difficulty, damage = _int(options, "tn"), _int(options, "difficulty"), _int(options, "damage")
    # Named the one way commands name them: one who has left the fight is refused, saying so.
    who = eng.name(str(options["who"])) if "who" in options else None
    if (tn is None) != (difficulty is None):
        raise Refusal("a test needs both --tn and --difficulty")
    test_keys = [k for k in ("bought", "focus", "range") if k in options]
    if tn is None and test_keys:
        raise Refusal(f"--{test_keys[0]} goes with --tn and --difficulty")
    if tn is None or difficulty is None:
        if who is None:
            if damage is None:
                raise Refusal("give --tn N --difficulty D (a test), --damage N (Challenge Dice) or --who NAME")
            cd = challenge_odds(damage)
            notes = view.BlockWriter().line(damage_line("", cd)).block()
            return OddsReport(view.OddsView("Challenge Dice", "", (), (), notes), {"damage": challenge_json(cd)})
        if eng.fighter(who).zone is None:
            raise Refusal(f"{who} has no zone: no ranges to compute")
        found = targets(eng, who)
        return OddsReport(targets_view(found), targets_json(found))
    bought = _int(options, "bought") or 0
    if bought > MAX_BOUGHT_DICE:
        raise Refusal(f"at most {MAX_BOUGHT_DICE} bought d20s (asked for {bought})")
    focus = _int(options, "focus")
    crange = _int(options, "range") or 1
    pools = ladder(tn, difficulty, focus, crange)
    rows = tuple(
        view.OddsRow(
            ("▶ " if k == bought else "  ") + POOL_LABELS[k],
            (str(p.cost), percent(p.success), _decimal(p.momentum), percent(p.complication)),
        )
        for k, p in enumerate(pools)
    )
    extras = [f"focus {focus}"] if focus is not None else []
    if crange > 1:
        extras.append(f"complications on {complication_floor(crange)}-20")
    title = f"{who + ': ' if who else ''}TN {tn}, Difficulty {difficulty}"
    title += f" ({', '.join(extras)})" if extras else ""
    out = view.BlockWriter()
    for line in gains(pools):
        out.line(line)
    out.line("Mom: expected Momentum (a failed test banks none); Compl.: at least one Complication", "dim")
    data: dict[str, JSONValue] = {}
    data["test"] = {
        "who": who,
        "tn": tn,
        "difficulty": difficulty,
        "focus": focus,
        "complication_range": crange,
        "bought": bought,
        "roll": pool_json(pools[bought]),
        "pools": [pool_json(p) for p in pools],
    }
    if damage is not None:
        cd = challenge_odds(damage)
        out.line(damage_line("Damage ", cd))
        data["damage"] = challenge_json(cd)
    columns = ("Cost", "Success", "Mom", "Compl.")
    return OddsReport(view.OddsView(title, "Dice", columns, rows, out.block()), data)
