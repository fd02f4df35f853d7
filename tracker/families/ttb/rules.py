"""Through the Breach behind the family seam's rules half (`tracker.families.rules.FamilyRules`).

`TTBRules` is the engine the dispatcher opens: the JSON state of docs/reference/json-state.md (Wounds, AP, the Fate
Deck's counts), status, the action catalogue with each action's legality, and what lasts after the
fight. What the screens show of it is `tracker.families.ttb.present.presenter.TTBPresenter`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.engine.catalogue import Catalogue
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command
from tracker.engine.records.record import dump
from tracker.families.rules import FamilyRules
from tracker.families.ttb import actions, answers, attack, carry
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate import cheat, deck
from tracker.families.ttb.initiative import tied_groups
from tracker.families.ttb.tables.actions import ACTIONS
from tracker.families.ttb.tables.catalogue import CONDITIONS, TIMING
from tracker.families.values import Carried, JSONObject
from tracker.present import view, words

#: Actions that need more words (a target, an amount): the picker opens the command line for them.
NEEDS_MORE = {
    "charge",
    "assist",
    "impose",
    "trick",
    "order",
    "show",
    "doctor",
    "defensive",
    "wait",
    "cast",
    "cast_resisted",
    "reload",
    "recovery",
}


#: Questions the tracker's ``flip`` answers, where anything else is the result the table made: the duels, the
#: flips of a card (a critical, Suffocating, a hazard), an attack's damage flip, and who a shot into an
#: engagement hits (the table may name them instead of the flips).
_DRAWN = frozenset({*answers.OUTCOMES, "critical", "suffocating_flip", "hazard_flip", attack.DAMAGE, attack.INTO_MELEE})


def conditions_json(eng: TTBEngine, name: str) -> dict[str, int | bool | str]:
    """The conditions and the table effects docs/reference/json-state.md lists with them (waiting, assisted,
    imposed …)."""
    f = eng.fighter(name)
    conds: dict[str, int | bool | str] = dict(f.conditions)
    if f.wait:
        conds["waiting"] = f.wait
    if f.assist:
        conds["assisted"] = f.assist
    for effect in eng.st.effects:
        if effect.target == name:
            conds[f"{effect.kind}d_by"] = effect.owner
    if f.horror_immune:
        # The screens name the sources; JSON lists them (`TTBRules.combatant_json`).
        conds["horror_immune"] = ", ".join(f.horror_immune)
    return conds


class TTBRules(TTBEngine, FamilyRules):
    """One Through the Breach fight, as the session, the store and the command line ask it."""

    SYSTEM = "ttb"
    CATALOGUE = Catalogue(CONDITIONS, TIMING, tuple(ACTIONS))
    #: A Fated's player spends its AP, attacks, engages and disengages and ends its turn (docs/guide/seating.md).
    SEAT_VERBS = {
        "spend": "first",
        "attack": "first",
        "engage": "first",
        "disengage": "first",
        "next": "active",
    }
    #: ``flip N`` outside a question draws cards no rule asked for (and can force reshuffles that deal Twist
    #: cards): a seat's is a request (docs/guide/seating.md).
    RESULT_VERBS = {"flip": "active"}

    def fight_odds_for_players(self) -> bool:
        return self.settings.fight_odds_for_players

    def seats_enter_results(self) -> bool:
        return self.settings.seats_enter_results

    def typed_result(self, cmd: Command) -> bool:
        """A duel's ``pass``/``fail``, a flip's card, who a shot into an engagement hit and a disengaging
        strike's ``hit``/``miss`` are results made at the table; ``flip`` is the tracker's draw, and every
        other answer a choice (a target, a weapon, yes/no, who acts first, a cheat or a discard from the
        character's own hand)."""
        prompt = self.st.prompt
        if prompt is None or not cmd.args:
            return False
        word = cmd.args[0].casefold()
        if prompt.kind in _DRAWN:
            return word != "flip"
        if prompt.kind == "disengaging_strike":
            return word in ("hit", "h", "pass", "yes", "miss", "m", "fail")
        return False

    def new_branch(self) -> None:
        deck.shuffle_unseen(self)

    def unseen_hands(self, names: Sequence[str]) -> None:
        deck.redeal_hands(self, names)

    def seat_answer_problem(self, who: str, cmd: Command) -> str:
        """A cheat offer is answered from the character's own Control Hand: a card it does not hold is refused
        here with the hand, before it reaches the GM's process as anything else."""
        prompt = self.st.prompt
        if prompt is None or prompt.kind != cheat.KIND or not cmd.args or cmd.args[0].casefold() == "no":
            return ""
        try:
            if cheat.held(self, who, cmd.args[0]) is not None:
                return ""
        except Refusal as exc:
            return str(exc)
        hand = ", ".join(self.fighter(who).hand) or "empty"
        return f"{cmd.args[0]} is not in {who}'s Control Hand (hand: {hand})"

    def status(self, name: str) -> str:
        """Dead, else unconscious, else ok: TTB has no Defeated or Dying state."""
        f = self.fighter(name)
        return "dead" if f.dead else "unconscious" if f.unconscious else "ok"

    def tied(self) -> set[str]:
        """Who is tied on initiative this round (the table decides each round); nobody before ``start``."""
        return {n for group in tied_groups(self) for n in group} if self.st.phase != "setup" else set()

    def combatant_json(self, name: str) -> JSONObject:
        """Wounds, AP and initiative; a Fated's Control Hand, or a Fatemaster's rank and Fate Points."""
        sheet, f = self.sheets[name], self.st.fighters[name]
        entry: JSONObject = {
            "kind": sheet.kind,
            "initiative": f.init,
            "initiative_change": f.pending_init_mod,
            "wounds": f.wounds,
            "wounds_max": sheet.wounds,
            "ap": f.ap,
            "combat_ap": f.combat_ap,
            "conditions": {
                **conditions_json(self, name),
                # Immune to horror duels from these sources until the end of Dramatic Time [000:L405].
                **({"horror_immune": list(f.horror_immune)} if f.horror_immune else {}),
            },
            "engaged_with": sorted(self.linked(name)),
            "acted": f.acted,
        }
        if sheet.fated:
            entry["hand"] = len(f.hand)
            entry["hand_cards"] = list(f.hand)
        else:
            entry["rank"] = sheet.rank_title()
            entry["rank_value"] = sheet.rank_value
            entry["fate_points"] = f.fate_points
        if f.criticals:
            entry["criticals"] = [dump(c) for c in f.criticals]
        return entry

    def table_json(self) -> JSONObject:
        """The Fate Deck's counts, and who is tied on initiative (the table decides each round)."""
        st = self.st
        return {
            "deck": {"left": len(st.deck), "discards": len(st.discards), "reshuffles": st.reshuffles},
            "tied": sorted(self.tied()),
            "triggers": [dump(t) for t in st.triggers],
            "auras": [dump(a) for a in st.auras],
            "challenges": [dump(c) for c in st.challenges],
        }

    def shown_conditions(self, name: str) -> dict[str, int | bool | str]:
        return conditions_json(self, name)

    def held_conditions(self, who: str) -> list[str]:
        """`who`'s conditions as ``remove`` takes them, Unconscious (a state ``remove`` ends) included; the
        table effects shown beside them (Waiting, Assisted …) end otherwise."""
        f = self.fighter(who)
        return [key for key, value in f.conditions.items() if value] + (["unconscious"] if f.unconscious else [])

    def actions_for(self, who: str) -> list[view.ActionChoice]:
        """The picker's actions; an attack with a weapon of its kind on the sheet starts the attack flow
        (`tracker.families.ttb.attack`: the target, the weapon, the duel, the damage flip, each asked)."""
        out = []
        kinds = {w.kind for w in self.sheet(who).weapons}
        for key, act, reason in actions.available(self, who):
            cost = "X AP (you say how many)" if act.cost is None else f"{act.cost} AP"
            typed = key.replace("_", "-")
            if attack.KINDS.get(key) in kinds:
                line, more = f"attack {words.quote(who)} {typed}", False
            else:
                line, more = f"spend {words.quote(who)} {typed}", key in NEEDS_MORE
            out.append(view.ActionChoice(key, actions.display(key), cost, reason, line, more))
        return out

    def lasting(self, name: str) -> list[Carried]:
        """Wounds, the conditions that outlast a fight, and a Fated's Control Hand or a Fatemaster's Fate Points
        (`tracker.families.ttb.carry`)."""
        return carry.lasting(self, name)
