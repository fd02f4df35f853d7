"""Through the Breach's default policy for the fight's odds (docs/reference/cli.md ``tracker odds FILE --fight``).

It plays every combatant with the commands and answers the GM types, choosing among the legal ones, sensibly
rather than optimally (the styles a sheet's ``tactics`` names are docs/reference/file-format.md's):

* **Its turn.** Engaged with a standing enemy: Strike the weakest of them (fewest Wounds left) with its
  hardest-hitting melee weapon, while AP last [000:L272]. Not engaged: shoot the weakest standing enemy with a
  loaded projectile weapon [000:L284, L290]; else Charge the weakest (two attacks, and the Charge engages it)
  where Charge is legal [000:L276-278]; else Walk and engage it [000:L184, L284]; reload an empty weapon when
  nothing better is left [000:L260]; then end the turn. ``cautious`` shoots first and never Charges, and
  engaged it strikes with its Combat AP only: the General AP left go on Defensive Stance (a Fated discards
  its lowest card, a Fatemaster character pays a Fate Point) [000:L246, L336]; ``brute`` Charges before it
  shoots.
* **Its flips.** The tracker flips every duel and damage flip (``answer flip``). A Fated cheats when the
  hand turns a failed duel into a pass (the lowest card that does), or raises a damage flip's band (the
  lowest card the offer names) [000:L63-65, L103-105]; ``cautious`` never cheats damage, ``brute`` plays its
  highest card.
* **The table's questions.** A disengaging strike is made, and hits as often as the striker's own duel
  would [000:L284-286]; a Reactivate turn is taken [000:L372]; a tie goes to the first named; a discard is
  the lowest card; criticals and hazards are flipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from tracker.engine.records.record import copied
from tracker.families.file import EncounterFile
from tracker.families.rules import FamilyRules
from tracker.families.seam import Pilot
from tracker.families.ttb import attack
from tracker.families.ttb.fate.cards import parse_card, parse_damage_profile
from tracker.families.ttb.records.file import TTBFile
from tracker.families.ttb.records.sheet import Weapon
from tracker.families.ttb.records.state import Prompt, TTBState
from tracker.families.ttb.rules import TTBRules
from tracker.present.words import quote

#: The weapon a combatant with none on file fights with in a run: the file model's own default weapon
#: (melee, range 1, 1/2/3; docs/guide/decisions.md "Fight odds: the unarmed").
UNARMED = Weapon(name="Unarmed")
#: Questions the tracker answers by flipping (``answer flip``).
FLIPPED = frozenset({"critical", "hazard_flip", "suffocating_flip", attack.DAMAGE, attack.INTO_MELEE})


def _damage(weapon: Weapon) -> tuple[int, int, int]:
    return parse_damage_profile(weapon.damage) or (0, 0, 0)


class TTBPilot(Pilot):
    """One run's policy (a new one per run: it remembers who walked up to whom this turn)."""

    def __init__(self) -> None:
        #: Who walked this turn, towards the enemies (the engagement follows the Walk) or away from them.
        self.walked: tuple[str, int, int, bool] | None = None
        #: The Walk the last `commands` offered, as `walked` would note it.
        self.intent: tuple[str, int, int, bool] | None = None

    def armed(self, setup: EncounterFile) -> EncounterFile:
        assert isinstance(setup, TTBFile)
        fighters = [c if c.weapons else copied(c, weapons=[UNARMED]) for c in setup.combatants]
        # The policy answers every damage, critical and hazard flip with the tracker's own flip: the runs let the
        # tracker flip them at once (``flips = "auto"``), the same cards one command sooner.
        return copied(setup, combatants=fighters, settings=copied(setup.settings, flips="auto"))

    def over(self, setup: EncounterFile, state: object) -> FamilyRules:
        from tracker.families.ttb.dispatch import make_rules
        from tracker.families.ttb.verbs import TABLE

        assert isinstance(setup, TTBFile) and isinstance(state, TTBState)
        # The table has not seen the undrawn cards' order: put them in one order that says nothing of it, which
        # the run's own key then shuffles (`FamilyRules.new_branch`), so no run depends on the saved order.
        state.deck.sort()
        for f in state.fighters.values():
            f.twist_deck.sort()
        rules = make_rules(setup, state, TABLE)
        rules.labelled = False
        return rules

    def commands(self, rules: FamilyRules, luck: Random) -> Sequence[str]:
        assert isinstance(rules, TTBRules)
        st = rules.st
        if st.prompt is not None:
            return [f"answer {self.answer(rules, st.prompt, luck)}"]
        if st.phase in ("setup", "ended"):
            return ["start"]
        if st.phase != "turn" or st.active is None:
            return ["next"]
        return [*self.turn(rules, st.active), "next"]

    # --- a turn ---------------------------------------------------------------------------------------
    def turn(self, eng: TTBRules, who: str) -> list[str]:
        f = eng.fighter(who)
        if f.dead or f.unconscious or f.conditions.get("paralyzed"):
            return []
        if f.ap <= 0 and f.combat_ap <= 0:
            return []  # nothing left to spend: every action would be refused
        style = eng.sheet(who).tactics or "steady"
        side = eng.side(who)
        foes = [n for n in eng.present_names() if eng.side(n) != side and eng.status(n) == "ok"]
        if not foes:
            return []
        # The weakest first: fewest Wounds left; one standing at 0 or less (it ignores critical effects and
        # fights on [000:L419]) last, since more damage does not drop it.
        foes.sort(key=lambda n: (eng.fighter(n).wounds <= 0, eng.fighter(n).wounds))
        me = quote(who)
        engaged = [n for n in foes if n in eng.linked(who)]
        melee = sorted(attack.weapons_of(eng, who, "strike"), key=_damage, reverse=True)
        out: list[str] = []
        if engaged and melee:
            if style == "cautious" and f.combat_ap <= 0 and f.ap > 0 and not f.conditions.get("defensive"):
                out += self.defensive(eng, who)
            out.append(f"attack {me} strike {quote(engaged[0])} {quote(melee[0].name)}")
        now = (who, eng.st.round, f.turns_taken)
        moved = self.walked is not None and self.walked[:3] == now
        if engaged:
            if not melee and not moved:
                self.intent = (*now, False)
                out.append(f"spend {me} walk")  # no melee weapon: away, under the disengaging strikes
            return out
        target = quote(foes[0])
        if moved:
            assert self.walked is not None
            return [f"engage {me} {target}"] if self.walked[3] else []
        shots = attack.weapons_of(eng, who, "shoot")
        shoot = [f"attack {me} shoot {target} {quote(w.name)}" for w in shots]
        charge = [f"attack {me} charge {target} {quote(melee[0].name)}"] if melee and style != "cautious" else []
        out += [*charge, *shoot] if style == "brute" else [*shoot, *charge]
        if melee and not (shots and style == "cautious"):
            self.intent = (*now, True)
            out.append(f"spend {me} walk")
        empty = [w for w in eng.sheet(who).weapons if w.reload and f.shots.get(w.name, 1) <= 0]
        out += [f"spend {me} reload {quote(w.name)}" for w in empty]
        return out

    def defensive(self, eng: TTBRules, who: str) -> list[str]:
        """Defensive Stance with every General AP left, paid with the lowest card in hand (a Fated) or a Fate
        Point (a Fatemaster character); nothing when neither can pay [000:L246, L392]."""
        f = eng.fighter(who)
        if eng.sheet(who).fated:
            if not f.hand:
                return []
            card = min(f.hand, key=lambda c: parse_card(c).value)
            return [f"spend {quote(who)} defensive {f.ap} {card}"]
        return [f"spend {quote(who)} defensive {f.ap}"] if f.fate_points > 0 else []

    def applied(self, rules: FamilyRules, line: str) -> None:
        """Remember a Walk: towards the enemies, the next command engages the weakest; away, it is not tried
        again this turn."""
        if line.endswith(" walk"):
            self.walked = self.intent

    # --- the questions --------------------------------------------------------------------------------
    def answer(self, eng: TTBRules, p: Prompt, luck: Random) -> str:
        if p.kind == "cheat":
            return self.cheat(eng, p)
        if p.kind == "disengaging_strike":
            return self.disengaging(eng, p, luck)
        if p.kind == "reactivate":
            return "yes"
        if p.kind == "end_discard":
            return "none"
        if p.kind in ("hand_discard", "discard"):
            return min(p.options, key=lambda c: parse_card(c).value)
        if p.kind in FLIPPED or "flip" in p.options:
            return "flip"
        if p.options == ["pass", "fail"] or p.options[:2] == ["pass", "fail"]:
            return "pass" if luck.random() < 0.5 else "fail"  # a duel only the table can settle: a coin
        return quote(p.options[0]) if p.options else "flip"

    def cheat(self, eng: TTBRules, p: Prompt) -> str:
        """Cheat to turn a fail into a pass, or to raise a damage flip's band; else keep the flip."""
        style = eng.sheet(p.who).tactics if p.who else None
        cards = sorted((c for c in p.options if c != "no"), key=lambda c: parse_card(c).value)
        if not cards:
            return "no"
        if style == "brute":
            return cards[-1]
        of = str(p.data.get("cheat_of", ""))
        if of == "damage":
            return "no" if style == "cautious" else cards[0]
        if "tn" in p.data and "cheat_av" in p.data:
            tn, av = int(str(p.data["tn"])), int(str(p.data["cheat_av"]))
            flipped = parse_card(str(p.data["cheat_card"]))
            if not flipped.is_black_joker and flipped.value + av >= tn:
                return "no"
            passing = [c for c in cards if parse_card(c).value + av >= tn]
            return passing[0] if passing else "no"
        return cards[0] if style != "cautious" else "no"

    def disengaging(self, eng: TTBRules, p: Prompt, luck: Random) -> str:
        """The striker strikes, and hits as often as its attack duel would (`attack.hit_chance`)."""
        striker, mover = p.who, str(p.data.get("mover", ""))
        usable = attack.weapons_of(eng, striker, "strike") if striker else []
        if not striker or not usable or mover not in eng.sheets:
            return "no"
        chance = attack.hit_chance(eng, striker, mover, usable[0])
        if chance is None:
            return "hit" if luck.random() < 0.5 else "miss"
        return "hit" if luck.random() < float(chance[0]) else "miss"
