"""The coin duel's rules: turns in the file's order, and an attack is a coin flip (heads: the target is down).

The whole of a family's rules half (`tracker.families.rules.FamilyRules`) over the shared engine skeleton
(`tracker.engine.kernel.Engine`), as small as a family can be (docs/architecture/writing-a-family.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from tests.families.coin.records import CoinCombatant, CoinFile, CoinState, Fighter
from tracker.engine import rng
from tracker.engine.catalogue import Catalogue
from tracker.engine.errors import Refusal
from tracker.engine.kernel import Engine
from tracker.engine.language.commands import Command, VerbTable, count
from tracker.engine.state import name_problems
from tracker.families.file import EncounterFile
from tracker.families.rules import FamilyRules, saved_or_fresh
from tracker.families.values import Carried, JSONObject
from tracker.present.view import ActionChoice


class Rule(NamedTuple):
    """A condition's rule, as the Conditions panel shows it."""

    title: str
    summary: str
    section: str


class CoinRules(Engine[CoinFile, CoinCombatant, Fighter, CoinState], FamilyRules):
    """One coin duel in play."""

    SYSTEM = "coin"
    PLAY = "the duel"
    CATALOGUE = Catalogue(
        {"dazed": Rule("Dazed", "Nothing at all: a coin does not care.", "the toy family")},
        {"dazed": "never"},
        ("flip",),
    )

    def status(self, name: str) -> str:
        return "defeated" if self.fighter(name).down else "ok"

    def shown_conditions(self, name: str) -> Mapping[str, int | bool | str]:
        return dict(self.fighter(name).conditions)

    def held_conditions(self, who: str) -> list[str]:
        return list(self.fighter(who).conditions)

    def actions_for(self, who: str) -> list[ActionChoice]:
        reason = None if self.st.active == who and not self.fighter(who).down else f"not {who}'s turn"
        return [ActionChoice("flip", "Flip", "the turn", reason, f"spend {who} flip")]

    def combatant_json(self, name: str) -> JSONObject:
        fighter = self.fighter(name)
        return {"down": fighter.down, "conditions": dict(fighter.conditions)}

    def table_json(self) -> JSONObject:
        return {"coin": {"heads": self.st.heads, "tails": self.st.tails}}

    def lasting(self, name: str) -> list[Carried]:
        return [Carried("down", self.fighter(name).down, False)]

    def standing(self) -> list[str]:
        return [n for n in self.present_names() if not self.fighter(n).down]


def _start(eng: CoinRules, cmd: Command) -> None:
    eng.require_not_started()
    standing = eng.standing()
    if len({eng.side(n) for n in standing}) < 2:
        raise Refusal("a duel needs two sides standing")
    st = eng.st
    st.phase, st.round, st.order, st.active = "turn", 1, standing, standing[0]
    eng.log(f"The duel begins: {', '.join(standing)}")


def _next(eng: CoinRules, cmd: Command) -> None:
    eng.require_started()
    st = eng.st
    standing = eng.standing()
    later = [n for n in st.order[st.order.index(st.active) + 1 :] if n in standing] if st.active in st.order else []
    if not later:
        st.round += 1
        st.order = later = standing
    st.active = later[0]


def _flip(eng: CoinRules, who: str, target: str | None) -> None:
    eng.require_started()
    actor = eng.living(who)
    if eng.st.active != actor:
        raise Refusal(f"it is {eng.st.active}'s turn, not {actor}'s")
    foes = [n for n in eng.standing() if eng.enemies(actor, n)]
    if target is None:
        if len(foes) != 1:
            raise Refusal(f"{actor} has {len(foes)} enemies standing: name the target")
        aim = foes[0]
    else:
        aim = eng.living(target)
        if aim not in foes:
            raise Refusal(f"{aim} is not {actor}'s enemy")
    st = eng.st
    if rng.roll(st, 2) == 1:
        st.heads += 1
        eng.fighter(aim).down = True
        eng.log(f"{actor} flips at {aim}: heads, {aim} is down", "result")
        sides = {eng.side(n) for n in eng.standing()}
        if len(sides) == 1:
            eng.log(f"{', '.join(sorted(sides))} win the duel")
            st.phase, st.active = "ended", None
    else:
        st.tails += 1
        eng.log(f"{actor} flips at {aim}: tails, a miss", "result")


def _attack(eng: CoinRules, cmd: Command) -> None:
    _flip(eng, cmd.args[0], cmd.args[1] if len(cmd.args) > 1 else None)


def _spend(eng: CoinRules, cmd: Command) -> None:
    if cmd.args[1].casefold() != "flip":
        raise Refusal(f"'{cmd.args[1]}' is not an action of a coin duel (actions: flip)")
    if len(cmd.args) > 3:
        raise Refusal(eng.verbs.usage("spend"))
    _flip(eng, cmd.args[0], cmd.args[2] if len(cmd.args) > 2 else None)


def _condition(cmd: Command) -> str:
    key = cmd.args[1].casefold()
    if key not in CoinRules.CATALOGUE.conditions:
        raise Refusal(f"unknown condition '{cmd.args[1]}' (conditions: {', '.join(CoinRules.CATALOGUE.conditions)})")
    return key


def _add(eng: CoinRules, cmd: Command) -> None:
    who, key = eng.living(cmd.args[0]), _condition(cmd)
    eng.fighter(who).conditions[key] = True
    eng.log(f"{who} is {key}")


def _remove(eng: CoinRules, cmd: Command) -> None:
    who, key = eng.living(cmd.args[0]), _condition(cmd)
    if len(cmd.args) > 2:
        count(cmd.args[2], "the amount")
    if key not in eng.fighter(who).conditions:
        raise Refusal(f"{who} is not {key}")
    del eng.fighter(who).conditions[key]
    eng.log(f"{who} is no longer {key}")


CoinRules.install({"start": _start, "next": _next, "attack": _attack, "spend": _spend, "add": _add, "remove": _remove})


def open_rules(
    setup: EncounterFile, state: Mapping[str, object] | None, seed: int, verbs: VerbTable, secret: str | None = None
) -> CoinRules:
    """Fresh rules from the setup, or rules over a saved ``[state]`` (checked against the setup)."""
    if not isinstance(setup, CoinFile):
        raise TypeError(f"not a coin duel file: {type(setup).__name__}")
    names = [c.name for c in setup.combatants]

    def fresh() -> CoinState:
        return CoinState(seed=seed, secret=secret, fighters={c.name: Fighter(down=c.down) for c in setup.combatants})

    st = saved_or_fresh(state, CoinState, fresh, lambda saved: name_problems(saved, names))
    return CoinRules(setup, st, verbs)
