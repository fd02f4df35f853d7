"""The 2d20 System behind the family seam's rules half (`tracker.families.rules.FamilyRules`).

`TwoD20Rules` is the engine the dispatcher opens: docs/reference/json-state.md's JSON (stress per track, Harms, zones,
pools), status, the profile's actions with each one's legality, the completion words and what lasts after
the scene. What the screens show of it is `tracker.families.twod20.present.presenter.TwoD20Presenter`.
"""

from __future__ import annotations

from tracker.engine.catalogue import Catalogue
from tracker.engine.language.commands import Command
from tracker.families.rules import FamilyRules
from tracker.families.twod20 import actions, attack, carry, challenges, order, overcome, tasks, traits
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.tables.actions import ACTIONS
from tracker.families.twod20.tables.catalogue import CONDITIONS, TIMING
from tracker.families.values import Carried, JSONObject
from tracker.present import view, words

#: Actions that need more words (a patient, a target): the picker opens the command line for them.
NEEDS_MORE = {"assist"}


def harm_counts(eng: TwoD20Engine, name: str) -> dict[str, int]:
    """Harms per kind, with a 0 for every kind this combatant's tracks can take."""
    a = eng.fighter(name)
    kinds = {h: 0 for _, h, _ in eng.profile.tracks[:1]}
    if len(eng.profile.tracks) == 1:
        kinds[eng.profile.mental_harm] = 0
    else:
        for t, h, _ in eng.profile.tracks:
            if t in a.stress:
                kinds[h] = 0
    kinds.update(a.harms)
    return kinds


def pools(eng: TwoD20Engine) -> dict[str, int]:
    """The pools by name (the GM's under its profile name, and as ``threat`` too); before ``start``
    the values the scene will start with (docs/reference/language.md "Pools before start")."""
    momentum, threat = eng.st.momentum, eng.st.threat
    out = {"momentum": momentum, eng.profile.gm_pool: threat}
    if eng.profile.gm_pool != "threat":
        out["threat"] = threat
    return out


class TwoD20Rules(TwoD20Engine, FamilyRules):
    """One 2d20 scene under its profile, as the session, the store and the command line ask it."""

    SYSTEM = "2d20"
    CATALOGUE = Catalogue(CONDITIONS, TIMING, tuple(ACTIONS))
    #: A player character's player takes its actions, moves, declares Reach, rolls its tests and ends its turn
    #: (docs/guide/seating.md).
    SEAT_VERBS = {
        "spend": "first",
        "attack": "first",
        "move": "first",
        "reach": "first",
        "next": "active",
        # Its own Create Advantage: a trait that helps the seat's character, made on its turn [004:L1470].
        "trait": "first",
    }
    #: ``pick``/``keep`` answer the hand-over as ``answer`` answers any other question.
    ANSWER_VERBS = frozenset({"answer", "pick", "keep"})
    #: ``roll NAME TN D`` is a test at a TN its sender chooses, and with ``faces=`` a result made at the table:
    #: a seat's is a request (docs/guide/seating.md); the tests the rules ask for come as the attack's questions.
    RESULT_VERBS = {"roll": "first"}

    def fight_odds_for_players(self) -> bool:
        return self.setup.settings.fight_odds_for_players

    def seats_enter_results(self) -> bool:
        return self.setup.settings.seats_enter_results

    def typed_result(self, cmd: Command) -> bool:
        """The faces rolled at the table (``answer 4,17``) answer the attack's test and damage; ``roll`` and
        ``roll+N`` are the tracker's dice, and a target, a weapon or a hand-over a choice."""
        prompt = self.st.prompt
        rolls = (attack.ROLL, attack.DAMAGE, *overcome.KINDS, challenges.ROLL)
        if prompt is None or cmd.verb != "answer" or prompt.kind not in rolls:
            return False
        return not " ".join(cmd.args).casefold().startswith("roll")

    def seat_action_problem(self, who: str, cmd: Command) -> str:
        """A movement beyond what the turn's movement actions allow (docs/rules/2d20-combat.md#s3-6) is only a warning
        for the GM, who may overrule it; a player's own ``move`` is refused (ask the GM to move the character). A seat's
        ``trait`` is its own Create Advantage (`tracker.families.twod20.traits.seat_problem`)."""
        if cmd.verb == "trait":
            return traits.seat_problem(self, who, cmd)
        if cmd.verb != "move" or len(cmd.args) < 2:
            return ""
        return actions.move_beyond(self, who, cmd.args[1])

    def prompt_subject(self) -> str | None:
        """A hand-over is the choice of the character who just acted (its side hands over): its player makes it;
        who acts first, with nobody having acted yet, is the GM's to say."""
        prompt = self.st.prompt
        if prompt is not None and prompt.who is None and self.st.phase == "handover":
            return self.st.last_actor
        return super().prompt_subject()

    def prompt_options(self) -> list[str]:
        """A waiting hand-over question offers the picks and keeps `pick`/`keep` would accept now: a keep or an
        NPC's pick paid from a pool that changed while the question waited comes and goes with the pool."""
        prompt = self.st.prompt
        if prompt is not None and prompt.kind in ("pick", "round"):
            return [name for name, _ in order.answers(self)]
        return super().prompt_options()

    def after_command(self) -> None:
        """The saved hand-over question is brought up to date with the pools after every command, so the file
        and a viewer reading it agree with what `prompt_options` offers (`tracker.families.twod20.order.refresh`)."""
        order.refresh(self)

    def lasting(self, name: str) -> list[Carried]:
        """What `name` carries into the next fight: `tracker.families.twod20.carry`."""
        return carry.lasting(self, name)

    def status(self, name: str) -> str:
        """``ok``, ``unconscious``, ``defeated``, ``dying`` or ``dead``: the worst that is true."""
        a = self.fighter(name)
        if a.dead:
            return "dead"
        if a.dying:
            return "dying"
        if a.defeated:
            return "defeated"
        if a.unconscious:
            return "unconscious"
        return "ok"

    def combatant_json(self, name: str) -> JSONObject:
        """Stress per track, its maxima after Fatigue, Harms per kind, the zone and this round's actions."""
        sheet, a = self.sheets[name], self.st.fighters[name]
        entry: JSONObject = {
            "npc_type": sheet.npc_type,
            "stress": dict(a.stress),
            "stress_max": self.tracks(name),
            "harms": harm_counts(self, name),
            "treated": dict(a.treated),
            "zone": a.zone,
            "conditions": dict(a.conditions) | ({"mental_immune": True} if a.mental_immune else {}),
            "acted": a.acted,
            "fatigue": a.fatigue,
            "majors_this_round": a.majors,
            "minors_this_turn": list(a.minors),
            "reactions_this_round": a.reactions,
            "reach": sorted(n for pair in self.st.reach if name in pair for n in pair if n != name),
        }
        if a.reloads:
            entry["reloads"] = dict(a.reloads)
        if sheet.pc:
            entry[self.profile.meta_currency.replace(" ", "_")] = a.fortune
        if self.order_rule == "initiative":
            entry["initiative"] = a.initiative
        if a.linked_to:
            entry["linked_to"] = a.linked_to  # Infinity's Link [003:L675-678]
        if sheet.cover_effects or sheet.morale_effects:
            entry["resistance_lost"] = dict(a.resistance_lost)  # Fragile's dice, Volatile's all [004:L1798-1800]
        if self.profile.avoid_injury != "off":
            entry["avoided_injuries"] = a.avoided  # this scene's, with the variant on [004:L2000]
        return entry

    def table_json(self) -> JSONObject:
        """The profile, the pools (the GM's under its profile name too), and the hand-over's memory."""
        return {
            "profile": self.profile.name,
            "pools": pools(self),
            "last_actor": self.st.last_actor,
            "kept_by": self.st.kept_by,
            # docs/reference/json-state.md: the traits in play and the problems worked on under fire.
            "traits": [traits.as_json(t) for t in self.st.traits],
            "tasks": tasks.as_json(self),
            "challenges": challenges.as_json(self),
        }

    def shown_conditions(self, name: str) -> dict[str, int | bool]:
        return dict(self.st.fighters[name].conditions)

    def held_conditions(self, who: str) -> list[str]:
        """`who`'s conditions as ``remove`` takes them."""
        return [key for key, value in self.fighter(who).conditions.items() if value]

    def actions_for(self, who: str) -> list[view.ActionChoice]:
        """The picker's actions; an Attack by a combatant with a weapon on the sheet starts the attack flow
        (`tracker.families.twod20.attack`: the target, the weapon, the test, the damage, each asked), and an
        Overcome while a task with a test is open asks which task, then its test
        (`tracker.families.twod20.overcome`)."""
        out = []
        armed = bool(self.sheet(who).weapons)
        for key in actions.offered(self):
            typed = key.replace("_", "-")
            line = f"spend {words.quote(who)} {typed}"
            if key == "attack" and armed:
                line = f"attack {words.quote(who)}"
            elif key == "overcome" and any(t.state == "open" and t.test for t in self.st.tasks):
                line = f"overcome {words.quote(who)}"  # asks which task, then its test

            out.append(
                view.ActionChoice(
                    key, typed, actions.kind_of(self, key), actions.legality(self, who, key), line, key in NEEDS_MORE
                )
            )
        return sorted(out, key=lambda c: c.reason is not None)

    def words(self, kind: str) -> list[str]:
        """Completion words: zones, and the profile's own actions
        (docs/rules/2d20-turns.md#s3-5-1 to #s3-5-3)."""
        if kind == "action":
            return [key.replace("_", "-") for key in actions.offered(self)]
        return list(self.zones.names()) if kind == "zone" else super().words(kind)
