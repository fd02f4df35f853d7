"""The report ``tracker odds FILE`` prints for a Through the Breach fight (docs/reference/cli.md): the table of
the next flip, the duel asked about (``--tn`` with ``--av`` or ``--who``/``--skill``, or the one pending), an
opposed duel and a damage flip pending, as text and as JSON — the same numbers as the Fate Deck panel
(`tracker.families.ttb.present.odds_report`), so the screen and the command line never disagree."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from tracker.engine.errors import Refusal
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate.cards import SUITS, net_modifier
from tracker.families.ttb.fate.odds import MODIFIERS, DuelOdds, FlipOdds
from tracker.families.ttb.present.odds_report import (
    chance_of,
    damage_for,
    damage_json,
    damage_label,
    damage_line,
    duel_for,
    duel_line,
    flips,
    listed,
    opposed_for,
    opposed_line,
    pending_damage,
    pending_duel,
    pending_opposed,
    resisted,
    table,
)
from tracker.families.ttb.tables.skills import skill_key
from tracker.families.values import JSONObject, JSONValue, OddsOptions, OddsReport


def _chances(values: Mapping[int, Fraction]) -> JSONObject:
    return {str(v): chance_of(p) for v, p in values.items()}


def flip_json(f: FlipOdds) -> JSONObject:
    return {
        "modifier": f.modifier,
        "cards": 1 + abs(f.modifier),
        "reshuffles": f.reshuffles,
        "at_least": _chances(f.at_least),
        "suits": {SUITS[s].lower(): _chances(values) for s, values in f.by_suit.items()},
        "red_joker": chance_of(f.red_joker),
        "black_joker": chance_of(f.black_joker),
    }


def duel_json(who: str | None, odds: DuelOdds) -> JSONObject:
    return {
        "who": who,
        "tn": odds.tn,
        "av": odds.av,
        "modifier": odds.modifier,
        "straight": chance_of(odds.straight),
        "cheat": None if odds.cheat is None else chance_of(odds.cheat),
        "no_cheat": odds.no_cheat or None,
        "winning_cards": list(odds.winners),
        "reshuffles": odds.reshuffles,
    }


def _int(options: OddsOptions, key: str) -> int | None:
    value = options.get(key)
    return value if isinstance(value, int) else None


def report(eng: TTBEngine, options: OddsOptions) -> OddsReport:
    """``tracker odds FILE [--tn N (--av N | --who NAME --skill SKILL)] [--who NAME] [--plus N] [--minus N]``."""
    tn = _int(options, "tn")
    duel_keys = [k for k in ("av", "skill", "who", "plus", "minus") if k in options]
    if tn is None and duel_keys:
        raise Refusal(f"--{duel_keys[0]} goes with --tn (the table shows ⊞ and ⊟ already)")
    # Named the one way commands name them: one who has left the fight is refused, saying so.
    who = eng.name(str(options["who"])) if "who" in options else None
    table_flips = flips(eng)
    notes: list[str] = []
    data: dict[str, JSONValue] = {
        "deck": {"left": len(eng.st.deck), "discards": len(eng.st.discards), "reshuffles": eng.st.reshuffles},
        "flips": [flip_json(f) for f in table_flips.values()],
    }
    duel: JSONObject | None = None
    if tn is not None:
        av, label, untrained = _acting_value(eng, options, who)
        modifier = net_modifier(_int(options, "plus") or 0, _int(options, "minus") or 0)
        odds = duel_for(eng, who, tn, av, modifier, untrained)
        notes.append(duel_line(who, label, odds))
        duel = duel_json(who, odds)
    else:
        pending = pending_duel(eng)
        if pending is not None:
            who, tn, av, label, untrained, fate = pending
            odds = duel_for(eng, who, tn, av, fate, untrained)
            notes.append(duel_line(who, label, odds))
            counted = eng.st.prompt.data.get("counted") if eng.st.prompt is not None else None
            duel = {**duel_json(who, odds), "counted": list(counted) if isinstance(counted, list) else []}
        fight = pending_opposed(eng)
        if fight is not None:
            a, d, av, dv, skill = fight
            o = opposed_for(eng, a, d, av, dv, skill)
            notes.append(opposed_line(a, d, av, dv, skill, o, resisted(eng)[0]))
            data["opposed"] = {
                "aggressor": a,
                "defender": d,
                "av": av,
                "defense": dv,
                "straight": chance_of(o.straight),
                "aggressor_cheats": None if o.aggressor_cheats is None else chance_of(o.aggressor_cheats),
                "both_cheat": None if o.both_cheat is None else chance_of(o.both_cheat),
                "reshuffles": o.reshuffles,
                "counted": [*listed(eng, "op_counted"), *listed(eng, "op_counted_d")],
            }
        hit = pending_damage(eng)
        if hit is not None:
            attacker, target, modifier = hit
            odds_now = damage_for(eng, attacker, modifier)
            notes.append(damage_line(damage_label(modifier, attacker, target), odds_now))
            data["damage_flip"] = {**damage_json(attacker, odds_now), "target": target}
    data["duel"] = duel
    data["damage"] = [damage_json(None, damage_for(eng, None, m)) for m in MODIFIERS]
    return OddsReport(table(eng, table_flips, notes), data)


def _acting_value(eng: TTBEngine, options: OddsOptions, who: str | None) -> tuple[int, str, str]:
    """The acting value, how to name it, and why no cheat: ``--av N``, or ``--skill`` from `who`'s sheet."""
    av = _int(options, "av")
    if av is not None:
        if "skill" in options:
            raise Refusal("give --av or --skill, not both")
        return av, f"AV {av}", ""
    if "skill" not in options:
        raise Refusal("--tn needs the acting value: --av N, or --who NAME --skill SKILL")
    if who is None:
        raise Refusal("--skill reads the acting value from a sheet: add --who NAME")
    skill = skill_key(eng, str(options["skill"]))
    skills = {k.casefold(): (k, v) for k, v in eng.sheet(who).skills.items()}
    if skill not in skills:
        return 0, f"{skill.title()} 0", f"untrained in {skill.title()}: no cheating"
    key, value = skills[skill]
    return value, f"{key.title()} {value}", ""
