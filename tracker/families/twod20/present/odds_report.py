"""What the Zones panel and ``tracker odds`` show of a 2d20 test's odds (`tracker.families.twod20.dice.odds`).

The panel: the selected combatant's attack against each enemy it can attack, with the Difficulty the
Zones panel computes from range and conditions (`core.attack_check`) and the TN its sheet gives for the
weapon's form under the profile (``ranged_test = "coordination+fight"``, RULES.md §3.0): the chance with
2d20 and with each bought die, and the expected Momentum. The command line: one test (``--tn``,
``--difficulty``, ``--bought``, ``--focus``), each bought die's marginal gain and cost, and the expected
damage and Effects of Challenge Dice (``--damage``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from tracker.engine.errors import Refusal
from tracker.families.twod20.attack import attack_tn
from tracker.families.twod20.dice.odds import ChallengeOdds, RollOdds, challenge_odds, ladder
from tracker.families.twod20.dice.rolls import BASE_DICE, MAX_BOUGHT_DICE, complication_floor
from tracker.families.twod20.engine import TwoD20Engine, attack_check
from tracker.families.twod20.records.sheet import TwoD20Weapon
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
    pools: list[RollOdds]


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


def targets(eng: TwoD20Engine, who: str) -> Targets:
    """The chances of `who`'s attack on each enemy, with the Zones panel's range and Difficulty."""
    weapons = eng.sheet(who).weapons
    weapon = weapons[0] if weapons else None
    band = weapon.range if weapon else "close"
    kind = "melee" if band == "reach" else "ranged"
    tn, made_of = attack_tn(eng, who, kind)
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
            check = attack_check(eng, who, other, None if kind == "melee" else band, kind)
        except Refusal:
            skipped.append(other)
            continue
        pools = ladder(tn, check.difficulty, complication_range=crange) if tn is not None else []
        rows.append(Target(other, check.range, check.difficulty, pools))
    why = "not within Reach" if kind == "melee" else "no way there"
    pays = "Momentum" if eng.sheet(who).pc else eng.pool_name
    return Targets(who, weapon, tn, made_of, rows, skipped, why, pays, crange, untrained)


def complication_range(eng: TwoD20Engine, who: str, kind: str) -> tuple[int, str]:
    """The complication range of `who`'s attack test of `kind`, and the skill it is untrained in: under
    Infinity an untrained skill (rating 0) makes 19-20 Complications [003:L34-36] (RULES.md §3.2); else 1."""
    test = {"melee": eng.profile.melee_test, "mental": eng.profile.mental_test}.get(kind, eng.profile.ranged_test)
    skill = test.partition("+")[2]
    wider = eng.profile.untrained_complication_range
    if wider > 1 and eng.sheet(who).skill(skill) == 0:
        return wider, skill.replace("_", " ").title()
    return 1, ""


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
                *(percent(p.success) for p in r.pools),
                _decimal(r.pools[0].momentum),
            ),
        )
        for r in t.rows
    )
    if rows:
        out.line(
            f"TN {t.tn} = {t.made_of} (no Focus) · +1 +2 +3: bought d20s (cost 1, 2, 3"
            + ("" if t.pays == "Momentum" else f" {t.pays}")
            + ") · "
            "Mom: expected Momentum with 2d20",
            "dim",
        )
    if t.untrained:
        chance = f" ({percent(t.rows[0].pools[0].complication, True)} with 2d20)" if t.rows else ""
        out.line(f"Untrained in {t.untrained}: complications on {complication_floor(t.complication_range)}-20{chance}")
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
        }
        for r in t.rows
    ]
    out: JSONObject = {"who": t.who, "tn": t.tn, "weapon": t.weapon.name if t.weapon else None, "targets": rows}
    out["pays"] = t.pays.casefold()
    out["complication_range"] = t.complication_range
    out["untrained"] = t.untrained or None
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
