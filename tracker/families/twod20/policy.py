"""The 2d20 System's default policy for the fight's odds (docs/reference/cli.md ``tracker odds FILE --fight``).

It plays every combatant with the commands and answers the GM types, choosing among the legal ones, sensibly
rather than optimally (the styles a sheet's ``tactics`` names are docs/reference/file-format.md's):

* **Its turn.** Within Reach of a standing enemy with a Reach weapon: attack the weakest of them (least stress
  left) [004:L1627-1642]. Else shoot the weakest enemy a ranged weapon reaches (the tracker's own attack flow
  refuses what is out of range). Else, with a Reach weapon and an enemy in its zone, close to Reach (free
  within the zone [004:L1516, L1567]); else take the Movement minor towards the nearest enemy and move one
  zone [004:L1494, L1583]. Then end the turn. ``cautious`` never closes to Reach while it has a ranged weapon.
* **Which weapon.** One that can take the enemy out of the fight comes first: any, where a count of Harms of
  any kind defeats (the SRD's 3 [004:L1854], a sheet's ``harm_capacity``); only a physical one where only
  Wounds kill (Infinity: Breaches destroy a system, Metanoia is the GM's [003:L350-353]). A hack or a psywar
  attack that cannot is still made when nothing better can be: at the enemy with most of that track left to
  lose, never at one with no Firewall or whose system its Breaches have destroyed. Among the weapons of a
  form, the first on the sheet; the weakest enemy is the one with least left on the weapon's own track.
* **Dice and Momentum.** The k-th bought d20 is bought while it adds at least 10 points to the chance to hit
  (``brute``: always, as far as the pool pays; ``cautious``: never) [004:L1329-1340]; the Momentum the hit
  generated goes on Bonus Damage (``brute``: all it may spend; ``cautious``: none) [004:L1764].
* **The hand-over.** The next actor is the first one the hand-over offers that costs nothing; a keep only when
  nothing else is offered [004:L1416-1428]. Reactions, weapons and other questions take the tracker's default
  (option 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from tracker.engine.records.model import Prompt
from tracker.engine.records.record import copied
from tracker.families.file import EncounterFile
from tracker.families.rules import FamilyRules
from tracker.families.seam import Pilot
from tracker.families.twod20 import attack, infowar, order
from tracker.families.twod20.attack_test import form
from tracker.families.twod20.records.file import TwoD20File
from tracker.families.twod20.records.sheet import TwoD20Weapon
from tracker.families.twod20.records.state import TwoD20State
from tracker.families.twod20.rules import TwoD20Rules
from tracker.present.words import quote

#: The weapon a combatant with none on file fights with in a run: the Unarmed Strike, Reach, 1[CD] with Stun
#: [004:L1924] (docs/guide/decisions.md "Fight odds: the unarmed").
UNARMED = TwoD20Weapon(name="Unarmed strike", range="reach", damage=1, effects=["stun"])
#: The least gain in the chance to hit that one more bought d20 must bring (the steady style).
WORTH = 0.10
#: Ranged targets tried per turn, weakest first (the rest are rarely better, and each try costs a refusal).
TRIED = 3


def _chance(label: str) -> float | None:
    """The chance a roll option's label shows (``3d20 for 1 Momentum · 61%``)."""
    tail = label.rpartition("·")[2].strip().rstrip("%")
    return int(tail) / 100 if tail.isdigit() else None


class TwoD20Pilot(Pilot):
    """One run's policy."""

    def armed(self, setup: EncounterFile) -> EncounterFile:
        assert isinstance(setup, TwoD20File)
        fighters = [c if c.weapons else copied(c, weapons=[UNARMED]) for c in setup.combatants]
        return copied(setup, combatants=fighters)

    def over(self, setup: EncounterFile, state: object) -> FamilyRules:
        # The dispatch installs the engine's handlers: a worker process that never opened a file (the GM
        # screen's) has not imported it, and every verb but the kernel's would be refused.
        from tracker.families.twod20 import dispatch  # noqa: F401
        from tracker.families.twod20.verbs import TABLE

        assert isinstance(setup, TwoD20File) and isinstance(state, TwoD20State)
        return TwoD20Rules(setup, state, TABLE)

    def commands(self, rules: FamilyRules, luck: Random) -> Sequence[str]:
        assert isinstance(rules, TwoD20Rules)
        st = rules.st
        if st.prompt is not None:
            return [self.answer(rules, st.prompt)]
        if st.phase in ("setup", "ended"):
            return ["start"]
        if st.phase != "turn" or st.active is None:
            return ["next"]
        return [*self.turn(rules, st.active), "next"]

    # --- a turn ---------------------------------------------------------------------------------------
    def left(self, eng: TwoD20Rules, name: str) -> int:
        """Stress `name` may still take (the weakest has the least)."""
        taken = eng.fighter(name).stress
        return sum(top - taken.get(track, 0) for track, top in eng.tracks(name).items())

    def turn(self, eng: TwoD20Rules, who: str) -> list[str]:
        a = eng.fighter(who)
        if eng.status(who) != "ok" or a.majors_turn >= a.majors_allowed:
            return []
        style = eng.sheet(who).tactics or "steady"
        foes = [n for n in eng.present_names() if eng.enemies(who, n) and eng.status(n) == "ok"]
        if not foes or a.zone is None:
            return []
        foes.sort(key=lambda n: self.left(eng, n))
        me = quote(who)
        weapons = eng.sheet(who).weapons
        melee = [w for w in weapons if form(w) == "melee"]
        ranged = [w for w in weapons if form(w) != "melee"]
        held = eng.in_reach_of_enemy(who)
        reach = {n for n in held if n in foes}
        near = [n for n in foes if eng.fighter(n).zone == a.zone]
        out: list[str] = []
        if melee:
            out += [f"attack {me} {quote(n)} {quote(melee[0].name)}" for n in foes if n in reach][:1]
        out += self.shots(eng, me, ranged, foes)
        if melee and near and not (ranged and style == "cautious"):
            out += [f"reach {me} {quote(n)}" for n in near if n not in reach][:1]
        if not near and not reach:
            step = self.towards(eng, a.zone, foes)
            if step and a.move_budget > 0:
                out.append(f"move {me} {quote(step)}")
            elif step and held and "disengage" not in a.minors:
                out.append(f"spend {me} disengage")  # from the fallen, to go after the standing [004:L1490]
            elif step and "movement" not in a.minors:
                out.append(f"spend {me} movement")
        return out

    def shots(self, eng: TwoD20Rules, me: str, ranged: list[TwoD20Weapon], foes: list[str]) -> list[str]:
        """The ranged, mental and quantronic attacks to try, in order: with each enemy's first weapon that can
        take it out, weakest on that weapon's track first; then the ones that cannot, at whom they still hurt."""
        decisive: list[tuple[int, str, TwoD20Weapon]] = []
        lesser: list[tuple[int, str, TwoD20Weapon]] = []
        forms = [(weapon, form(weapon)) for weapon in ranged]  # once a turn, not once an enemy
        for name in foes:
            for weapon, kind in forms:
                left = self.track_left(eng, name, kind)
                if left is None:
                    continue
                if self.decides(eng, name, kind):
                    decisive.append((left, name, weapon))
                    break
                lesser.append((-left, name, weapon))
        tried = sorted(decisive, key=lambda t: t[0])[:TRIED] or sorted(lesser, key=lambda t: t[0])[:TRIED]
        return [f"attack {me} {quote(name)} {quote(weapon.name)}" for _, name, weapon in tried]

    def track_left(self, eng: TwoD20Rules, name: str, kind: str) -> int | None:
        """Stress `name` may still take on the track an attack of `kind` hits (all its tracks on a single-track
        profile), or None when the attack can do nothing to it: no Firewall to hack, or a system its Breaches
        have destroyed [003:L344-345, L350]."""
        tracks = eng.profile.tracks
        if len(tracks) == 1:
            return self.left(eng, name)
        track, harm, _ = tracks[{"mental": 1, infowar.INFOWAR: 2}.get(kind, 0)]
        top = eng.tracks(name).get(track)
        if top is None:
            return None
        a = eng.fighter(name)
        if any(k == harm and a.harms.get(k, 0) >= limit for k, limit in eng.profile.lethal_harms):
            return None
        return top - a.stress.get(track, 0)

    def decides(self, eng: TwoD20Rules, name: str, kind: str) -> bool:
        """Whether the Harms an attack of `kind` deals can take `name` out of the fight."""
        if eng.profile.defeat_at_harms or eng.sheet(name).harm_capacity:
            return True
        return kind not in ("mental", infowar.INFOWAR)

    def towards(self, eng: TwoD20Rules, zone: str, foes: list[str]) -> str | None:
        """The neighbouring zone on a shortest way to the nearest enemy."""
        goals = {z for z in (eng.fighter(n).zone for n in foes) if z is not None}

        def nearest(place: str) -> int:
            found = [d for d in (eng.zones.distance(place, g) for g in goals) if d is not None]
            return min(found) if found else 10**6

        here = nearest(zone)
        steps = [z for z in eng.zones.neighbours(zone) if nearest(z) < here]
        return min(steps, key=nearest) if steps else None

    # --- the questions --------------------------------------------------------------------------------
    def answer(self, eng: TwoD20Rules, p: Prompt) -> str:
        style = (eng.sheet(p.who).tactics if p.who in eng.sheets else None) or "steady"
        if p.kind in ("pick", "round"):
            keep = p.data.get("keep")
            kept = set(keep) if isinstance(keep, list) else set()
            free = [n for n in p.options if n not in kept]
            name = free[0] if free else p.options[0]
            return f"{'keep' if name in kept else 'pick'} {quote(name)}"
        if p.kind == order.CONFIRM:
            return "answer no"
        if p.kind == attack.TARGET:
            return f"answer {quote(min(p.options, key=lambda n: self.left(eng, n)))}"
        if p.kind == attack.ROLL:
            return f"answer {self.bought(p, style)}"
        if p.kind == attack.DAMAGE:
            return f"answer {self.bonus(p, style)}"
        return f"answer {quote(p.options[0])}" if p.options else "answer roll"

    def bought(self, p: Prompt, style: str) -> str:
        """How many d20s to buy: each while it adds `WORTH` to the chance to hit (as the option says)."""
        if style == "cautious" or len(p.options) == 1:
            return p.options[0]
        if style == "brute":
            return p.options[min(2, len(p.options) - 1)]
        labels = p.data.get("labels")
        chances = [_chance(str(x)) for x in labels] if isinstance(labels, list) else []
        pick = 0
        for k in range(1, min(len(p.options), len(chances))):
            now, before = chances[k], chances[pick]
            if now is None or before is None or now - before < WORTH:
                break
            pick = k
        return p.options[pick]

    def bonus(self, p: Prompt, style: str) -> str:
        """Bonus Damage: the Momentum the hit generated (``brute``: all it may; ``cautious``: none)."""
        if style == "cautious":
            return p.options[0]
        if style == "brute":
            return p.options[-1]
        momentum = p.data.get("momentum")
        spare = momentum if isinstance(momentum, int) else 0
        return p.options[min(spare, len(p.options) - 1)]
