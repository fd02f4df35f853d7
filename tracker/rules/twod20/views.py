"""What a 2d20 conflict looks like to its screens: the JSON state, the GM view, the player view.

Moved here from the panels so that the screen never reads a 2d20 engine's insides: it binds the typed
view this module builds (`tracker.rules.view`) and draws it.
"""

from __future__ import annotations

from tracker.rules.commands import ArgKind
from tracker.rules.errors import Refusal
from tracker.rules.family import FamilyEngine, JSONObject, JSONValue
from tracker.rules.twod20 import actions
from tracker.rules.twod20.catalogue import CONDITIONS
from tracker.rules.twod20.core import TwoD20Engine
from tracker.rules.twod20.family import FAMILY
from tracker.rules.twod20.state import TwoD20State
from tracker.rules.view import (
    ActionChoice,
    Block,
    BlockWriter,
    ConditionNote,
    HeaderView,
    OrderRow,
    OrderView,
    PlayerRow,
    PromptView,
    condition_notes,
)
from tracker.rules.words import condition_list, mentions, pips, plain_conditions, quote, status_text, stress_word

COLUMNS = ("▶", "Name", "Side", "Zone", "Status", "Stress", "Harms", "Conditions")

#: When each effect acts, in the GM's words (RULES.md §3.8, §3.11).
TIMING = {
    "persistent": "end of turn: X[CD] per instance ({v} tick(s) left)",
    "burning": "end of turn: {v}[CD] to Vigour and Resolve",
    "bleeding": "start of turn: 3[CD] ignoring Soak",
    "stunned": "no actions on its next turn",
    "prone": "ranged from Medium+ harder; melee gains Momentum; Stand (Minor)",
    "dazed": "+1 Difficulty; again → Staggered (Infinity)",
    "staggered": "1 Momentum per Standard Action",
    "snared": "only breaking free (Difficulty {v})",
}

#: Actions that need more words (a patient, a target): the picker opens the command line for them.
NEEDS_MORE = {"assist"}


def status_of(eng: TwoD20Engine, name: str) -> str:
    a = eng.fighter(name)
    if a.dead:
        return "dead"
    if a.dying:
        return "dying"
    if a.defeated:
        return "defeated"
    if a.unconscious:
        return "unconscious"
    return "ok"


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
    st = eng.st
    out = {"momentum": st.momentum, eng.profile.gm_pool: st.threat}
    if eng.profile.gm_pool != "threat":
        out["threat"] = st.threat
    return out


def round_line(eng: TwoD20Engine) -> str:
    st = eng.st
    if st.phase == "setup":
        return "Not started: press n to start"
    parts = [f"Round {st.round}"]
    if st.active:
        parts.append(f"{st.active} acts")
    waiting = [n for n, a in st.fighters.items() if not a.acted and not a.dead]
    parts.append(f"{len(waiting)} still to act")
    if st.kept_by:
        parts.append(f"{st.kept_by} kept last: an enemy acts before they keep again")
    if st.phase == "ended":
        parts.append("ended")
    return " · ".join(parts)


class TwoD20Encounter(TwoD20Engine, FamilyEngine):
    """TwoD20Engine as the rest of the program sees it: it answers the family seam."""

    family = FAMILY

    def state_json(self) -> JSONObject:
        """CONTRACT.md §4 for 2d20: stress per track, stress_max after Fatigue, harms per kind, zone."""
        st = self.st
        combatants: list[JSONValue] = []
        for sheet in self.sheets.values():
            a = st.fighters[sheet.name]
            entry: JSONObject = {
                "name": sheet.name,
                "side": sheet.side_name,
                "status": status_of(self, sheet.name),
                "npc_type": sheet.npc_type,
                "stress": dict(a.stress),
                "stress_max": self.tracks(sheet.name),
                "harms": harm_counts(self, sheet.name),
                "treated": dict(a.treated),
                "zone": a.zone,
                "conditions": dict(a.conditions),
                "acted": a.acted,
                "fatigue": a.fatigue,
                "majors_this_round": a.majors,
                "minors_this_turn": list(a.minors),
                "reactions_this_round": a.reactions,
                "reach": sorted(n for pair in st.reach if sheet.name in pair for n in pair if n != sheet.name),
            }
            if sheet.pc:
                entry[self.profile.meta_currency.replace(" ", "_")] = a.fortune
            if self.order_rule == "initiative":
                entry["initiative"] = a.initiative
            combatants.append(entry)
        return {
            "system": "2d20",
            "profile": self.profile.name,
            "round": st.round,
            "active": st.active,
            "order": list(st.order),
            "combatants": combatants,
            "pools": pools(self),
            "prompt": st.prompt.question if st.prompt else None,
            "prompt_options": list(st.prompt.options) if st.prompt else [],
            "phase": st.phase,
            "last_actor": st.last_actor,
            "kept_by": st.kept_by,
        }

    def summary(self) -> list[str]:
        """Plain lines for ``tracker exec``: the pools, then zone, stress and Harms of everyone."""
        st = self.st
        first = f"round {st.round}, " + (f"{st.active}'s turn" if st.active else st.phase)
        lines = [first + ", " + ", ".join(f"{k} {v}" for k, v in pools(self).items())]
        for name in self.sheets:
            a = st.fighters[name]
            maxima = self.tracks(name)
            stress = ", ".join(f"{t} {v}/{maxima[t]}" for t, v in a.stress.items())
            harms = ", ".join(f"{k} {v}" for k, v in harm_counts(self, name).items() if v)
            body = f"{a.zone or '-'}; {stress}" + (f"; {harms}" if harms else "")
            conds = plain_conditions(a.conditions)
            lines.append(f"  {name} ({status_of(self, name)}): {body}" + (f" [{conds}]" if conds else ""))
        if st.prompt:
            lines.append(f"? {st.prompt.question}")
        return lines

    def header(self) -> HeaderView:
        st = self.st
        return HeaderView(
            self.setup.encounter.name,
            f"2d20 {self.profile.name}",
            f"Round {st.round}" if st.round else "not started",
            f"Momentum {st.momentum} · {self.pool_name} {st.threat}",
            st.active,
        )

    def order(self) -> OrderView:
        st = self.st
        rows = []
        for name in [*st.order, *(n for n in self.sheets if n not in st.order)]:
            sheet, a = self.sheets[name], st.fighters[name]
            maxima = self.tracks(name)
            stress = " ".join(f"{v}/{maxima[t]}" for t, v in a.stress.items())
            harms = " ".join(f"{k[0].upper()}{v}" for k, v in harm_counts(self, name).items() if v)
            status = status_of(self, name)
            cells = (
                "▶" if st.active == name else ("✓" if a.acted else ""),
                name,
                sheet.side_name,
                a.zone or "",
                status_text(status),
                stress,
                harms,
                condition_list(a.conditions, 48),
            )
            rows.append(OrderRow(name, cells, status in ("dead", "unconscious", "defeated")))
        return OrderView(COLUMNS, tuple(rows), st.active, round_line(self))

    def turn(self) -> Block:
        """Major, Minor and Reaction use of the active combatant this turn and round."""
        who = self.st.active
        out = BlockWriter()
        if who is None:
            return out.add("No turn is open.", "italic").block()
        a = self.fighter(who)
        out.line(who, "bold")
        out.line(f"Major {a.majors_turn}/{a.majors_allowed} this turn ({a.majors}/2 this round)")
        extra = f" (+{len(a.minors) - 1} paid)" if len(a.minors) > 1 else ""
        out.line(f"Minor {len(a.minors)}{extra}: {', '.join(a.minors) or '—'}")
        more = " (the next costs more Heat)" if self.profile.reactions == "escalating" else " of 1"
        out.line(f"Reactions this round: {a.reactions}{more}")
        if a.conditions.get("stunned"):
            out.line("Stunned: no actions this turn", "bold")
        if a.defeated:
            out.line("Defeated: one Free Action", "bold")
        foes = self.in_reach_of_enemy(who)
        if foes:
            out.line(f"Within Reach of {', '.join(foes)}: +2 Difficulty to non-melee tests; Disengage to move")
        return out.block()

    def field(self, focus: str | None) -> Block:
        """The zone map with its occupants and Reach pairs, and range and Difficulty from `focus`."""
        from tracker.rules.twod20.core import range_report

        out = BlockWriter()
        names = self.zones.names()
        if not names:
            return out.add("This encounter has no zones.", "italic").block()
        for zone in names:
            people = [n for n, a in self.st.fighters.items() if a.zone == zone and not a.dead]
            traits = self.zones.traits(zone)
            out.add(zone, "bold")
            if traits:
                out.add(f" [{', '.join(traits)}]", "italic")
            out.line(f" → {', '.join(self.zones.neighbours(zone)) or '—'}")
            if people:
                out.line(f"   {', '.join(people)}")
        if self.st.reach:
            out.line("Reach: " + "; ".join(f"{a}–{b}" for a, b in self.st.reach))
        if focus and self.fighter(focus).zone:
            out.line().line(f"From {focus} (Close-range weapon):", "bold")
            for other, a in self.st.fighters.items():
                if other == focus or a.dead or a.zone is None:
                    continue
                try:
                    out.line(f"  {other}: {range_report(self, focus, other, 'close')}")
                except Refusal as exc:
                    out.line(f"  {other}: {exc}")
        return out.block()

    def resources(self) -> Block:
        """Momentum, Threat (or Heat) and each player character's Fortune."""
        st = self.st
        out = BlockWriter()
        cap = self.profile.momentum_max
        out.add("Momentum ", "bold").line(f"{pips(st.momentum, cap)} {st.momentum}/{cap}")
        out.add(f"{self.pool_name} ", "bold").line(f"{st.threat}")
        if st.bonus_momentum:
            out.line(f"Bonus Momentum this turn: {st.bonus_momentum} (lost if unspent)")
        out.line().line(self.profile.meta_currency.title(), "bold")
        for name, sheet in self.sheets.items():
            if sheet.pc:
                out.line(f"  {name}: {st.fighters[name].fortune}")
        out.line().line(f"Profile: {self.profile.name} · order: {self.order_rule}", "dim")
        return out.block()

    def conditions_of(self, who: str) -> tuple[ConditionNote, ...]:
        return condition_notes(self.fighter(who).conditions, CONDITIONS, TIMING)

    def prompt_view(self) -> PromptView | None:
        p = self.st.prompt
        if p is None:
            return None
        if p.kind in ("pick", "round"):
            answers = tuple(f"pick '{o}'" for o in p.options)
        else:
            answers = tuple(f"answer {quote(o)}" for o in p.options)
        hint = "(type keep NAME to keep the initiative)" if "keep NAME" in p.question else ""
        return PromptView(p.question, tuple(p.options), answers, hint)

    def actions_for(self, who: str) -> list[ActionChoice]:
        out = []
        for key, act in actions.ACTIONS.items():
            typed = key.replace("_", "-")
            out.append(
                ActionChoice(
                    key,
                    typed,
                    act.kind,
                    actions.legality(self, who, key),
                    f"spend {quote(who)} {typed}",
                    key in NEEDS_MORE,
                )
            )
        return sorted(out, key=lambda c: c.reason is not None)

    @property
    def state(self) -> TwoD20State:
        return self.st

    def combatant_names(self) -> list[str]:
        return list(self.sheets)

    def hidden_names(self) -> set[str]:
        return {c.name for c in self.setup.combatants if c.gm_only}

    def encounter_name(self) -> str:
        return self.setup.encounter.name

    def words(self, kind: ArgKind) -> list[str]:
        if kind == "condition":
            return list(CONDITIONS)
        if kind == "action":
            return [k.replace("_", "-") for k in actions.ACTIONS]
        if kind == "zone":
            return list(self.zones.names())
        return []

    def player_row(self, name: str, hidden: set[str]) -> PlayerRow:
        """Player characters' stress exactly; NPCs as the encounter's ``player_view`` allows."""
        sheet, a = self.sheets[name], self.st.fighters[name]
        mode = self.setup.encounter.player_view
        harms = sum(harm_counts(self, name).values())
        maxima = self.tracks(name)
        if sheet.side_name == "players" or mode == "exact":
            health = " ".join(f"{t} {v}/{maxima[t]}" for t, v in a.stress.items())
            if harms:
                health += f", {harms} Harm{'s' if harms > 1 else ''}"
        elif mode == "descriptor":
            track = next(iter(a.stress))
            health = stress_word(a.stress[track], maxima[track], harms)
        else:
            health = ""
        safe = tuple((k, v) for k, v in a.conditions.items() if not (isinstance(v, str) and mentions(v, hidden)))
        return PlayerRow(name, status_of(self, name), health, safe, self.st.active == name, a.acted, a.zone)
