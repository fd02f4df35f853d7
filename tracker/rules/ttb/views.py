"""What a Through the Breach fight looks like to its screens: the JSON state, the GM view, the player view.

Moved here from the panels so that the screen never reads a TTB engine's insides: it binds the typed
view this module builds (`tracker.rules.view`) and draws it.
"""

from __future__ import annotations

from tracker.rules.commands import ArgKind
from tracker.rules.family import FamilyEngine, JSONObject, JSONValue
from tracker.rules.ttb import actions
from tracker.rules.ttb.catalogue import CONDITIONS
from tracker.rules.ttb.core import TTBEngine
from tracker.rules.ttb.family import FAMILY
from tracker.rules.ttb.initiative import tied_groups
from tracker.rules.ttb.state import TTBState
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
from tracker.rules.words import condition_list, mentions, pips, plain_conditions, quote, status_text, wound_word

COLUMNS = ("▶", "Name", "Init", "Rank", "Status", "Wounds", "AP", "Conditions")

#: When each condition acts, in the GM's words (RULES.md §2.7.2, §2.11).
TIMING = {
    "burning": "end of turn: {v} damage (armor applies), then ends",
    "poison": "end of turn: 1 damage, then −1",
    "bleeding_out": "end of turn: +1; dies at +10 (now +{v})",
    "suffocating": "end of turn: Toughness duel vs TN {v} (unconscious: 3/4/5, no armor)",
    "defensive": "⊞ on Defense duels (max ⊞⊞⊞) until its next turn starts",
    "fast": "+1 General AP; ends at the end of its turn",
    "slow": "−1 General AP (min 1); ends at the end of its turn",
    "focused": "spend for ⊞ per point; ends at the end of its turn",
    "paralyzed": "no AP, no actions; ends at the end of its turn",
    "reactivate": "round end: may take one extra turn",
    "dazed": "+2 TN on every action",
    "intoxicated": "⊟ on Willpower duels; again → Poison +1",
    "crazy": "−{v} to Mental duels",
    "prone": "⊞ Defense vs projectiles, ⊟ vs melee; Stand Up 1 AP",
    "blind": "⊟⊟ on actions that need sight",
    "useless_arm": "⊟⊟ on duels needing the arm",
    "useless_leg": "Walk −2, no Run or Charge",
    "hazardous": "damage flip after moving or at turn end",
    "rough_water": "turn start: Athletics or Suffocating +1",
    "swimming": "no Charge",
    "flying": "ignores terrain; unstable platform",
}

#: Prompts a table may answer by typing a card rather than picking an option.
CARD_PROMPTS = ("critical", "suffocating_flip", "hazard_flip", "hand_discard", "discard")

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


def status_of(eng: TTBEngine, name: str) -> str:
    f = eng.fighter(name)
    return "dead" if f.dead else "unconscious" if f.unconscious else "ok"


def conditions_json(eng: TTBEngine, name: str) -> dict[str, int | bool | str]:
    """The conditions and the table effects CONTRACT.md §4 lists with them (waiting, assisted, imposed …)."""
    f = eng.fighter(name)
    conds: dict[str, int | bool | str] = dict(f.conditions)
    if f.wait:
        conds["waiting"] = f.wait
    if f.assist:
        conds["assisted"] = f.assist
    for effect in eng.st.effects:
        if effect.target == name:
            conds[f"{effect.kind}d_by"] = effect.owner
    return conds


def round_line(eng: TTBEngine) -> str:
    st = eng.st
    if st.phase == "setup":
        return "Not started: press n to start"
    parts = [f"Round {st.round}"]
    if st.active:
        parts.append(f"{st.active} acts")
    if st.phase == "ended":
        parts.append("ended")
    return " · ".join(parts)


class TTBEncounter(TTBEngine, FamilyEngine):
    """TTBEngine as the rest of the program sees it: it answers the family seam."""

    family = FAMILY

    def state_json(self) -> JSONObject:
        """CONTRACT.md §4 for Through the Breach; extra keys are additions, never changes of meaning."""
        st = self.st
        combatants: list[JSONValue] = []
        for sheet in self.sheets.values():
            f = st.fighters[sheet.name]
            entry: JSONObject = {
                "name": sheet.name,
                "side": sheet.side_name,
                "kind": sheet.kind,
                "status": status_of(self, sheet.name),
                "initiative": f.init,
                "initiative_change": f.pending_init_mod,
                "wounds": f.wounds,
                "wounds_max": sheet.wounds,
                "ap": f.ap,
                "combat_ap": f.combat_ap,
                "conditions": conditions_json(self, sheet.name),
                "engaged_with": sorted(self.linked(sheet.name)),
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
                entry["criticals"] = [c.model_dump() for c in f.criticals]
            combatants.append(entry)
        return {
            "system": "ttb",
            "round": st.round,
            "active": st.active,
            "order": list(st.order),
            "combatants": combatants,
            "deck": {"left": len(st.deck), "discards": len(st.discards), "reshuffles": st.reshuffles},
            "prompt": st.prompt.question if st.prompt else None,
            "prompt_options": list(st.prompt.options) if st.prompt else [],
            "phase": st.phase,
            "tied": sorted({n for group in tied_groups(self) for n in group}) if st.phase != "setup" else [],
        }

    def summary(self) -> list[str]:
        """Plain lines for ``tracker exec``: initiative, wounds and AP of everyone."""
        st = self.st
        lines = [f"round {st.round}, " + (f"{st.active}'s turn" if st.active else st.phase)]
        for name, sheet in self.sheets.items():
            f = st.fighters[name]
            conds = plain_conditions(conditions_json(self, name))
            body = f"init {f.init}, wounds {f.wounds}/{sheet.wounds}, AP {f.ap}+{f.combat_ap}"
            lines.append(f"  {name} ({status_of(self, name)}): {body}" + (f" [{conds}]" if conds else ""))
        if st.prompt:
            lines.append(f"? {st.prompt.question}")
        return lines

    def header(self) -> HeaderView:
        st = self.st
        return HeaderView(
            self.setup.encounter.name,
            "Through the Breach",
            f"Round {st.round}" if st.round else "not started",
            "",
            st.active,
        )

    def order(self) -> OrderView:
        st = self.st
        tied = {n for group in tied_groups(self) for n in group} if st.phase != "setup" else set()
        rows = []
        for name in [*st.order, *(n for n in self.sheets if n not in st.order)]:
            sheet, f = self.sheets[name], st.fighters[name]
            active = st.active == name
            init = str(f.init)
            if f.pending_init_mod:
                init += f"→{f.init + f.pending_init_mod}"  # Pass/Wait from next round
            if name in tied:
                init += " ="  # tied: the table decides each round
            status = status_of(self, name)
            cells = (
                "▶" if active else ("✓" if f.acted else ""),
                name,
                init,
                "Fated" if sheet.fated else str(sheet.rank_title() or ""),
                status_text(status),
                f"{f.wounds}/{sheet.wounds}",
                f"{pips(f.ap, 2)} {pips(f.combat_ap, 1)}" if active else "",
                condition_list(conditions_json(self, name), 48),
            )
            rows.append(OrderRow(name, cells, status in ("dead", "unconscious")))
        return OrderView(COLUMNS, tuple(rows), st.active, round_line(self))

    def turn(self) -> Block:
        """The active combatant's General and Combat AP as pips, and every action's cost and legality."""
        who = self.st.active
        out = BlockWriter()
        if who is None:
            return out.add("No turn is open.", "italic").block()
        f = self.fighter(who)
        base = max(f.ap, self.sheet(who).base_general_ap)
        out.line(who, "bold")
        out.line(f"General AP {pips(f.ap, base)} {f.ap}   Combat AP {pips(f.combat_ap, 1)} {f.combat_ap}")
        if not self.sheet(who).fated:
            out.line(f"Fate Points {f.fate_points}")
        engaged = self.engaged_by(who)
        if engaged:
            out.line(f"Engaged by {', '.join(engaged)}: no shooting, no Charge", "bold")
        out.line()
        for key, act, reason in actions.available(self, who):
            cost = "X" if act.cost is None else str(act.cost)
            text = f"{actions.display(key):<15} {cost:>2} AP  "
            if reason is None:
                out.line(text)
            else:
                out.line(text + reason, "dim")
        return out.block()

    def field(self, focus: str | None) -> Block:
        """Melee engagements and what they forbid (§2.9)."""
        out = BlockWriter()
        if not self.st.engagements:
            out.line("Nobody is engaged in melee.", "italic")
        for a, b in self.st.engagements:
            out.line(f"{a} ⚔ {b}", "bold")
        for name in self.sheets:
            foes = self.engaged_by(name)
            if foes:
                out.line(
                    f"  {name}: engaged by {', '.join(foes)} — no shooting, no Charge; walking away provokes a "
                    "disengaging strike"
                )
        return out.block()

    def resources(self) -> Block:
        """The Fate Deck, the Control Hands and the Fatemaster's Fate Points."""
        st = self.st
        out = BlockWriter()
        out.add("Fate Deck ", "bold")
        out.line(f"{len(st.deck)} left · {len(st.discards)} discarded · {st.reshuffles} reshuffles")
        jokers = [c for c in st.discards if c in ("RJ", "BJ")]
        seen = ", ".join("Red Joker" if c == "RJ" else "Black Joker" for c in jokers)
        out.line(f"Jokers in the discards: {seen or 'none'}")
        out.line().line("Control Hands", "bold")
        for name, sheet in self.sheets.items():
            if sheet.fated:
                f = st.fighters[name]
                over = " (over 5: discard pending)" if len(f.hand) > 5 else ""
                out.line(f"  {name}: {len(f.hand)} cards, Twist Deck {len(f.twist_deck)}{over}")
        points = [(n, st.fighters[n].fate_points) for n, s in self.sheets.items() if not s.fated]
        if points:
            out.line().line("Fate Points", "bold")
            for name, value in points:
                out.line(f"  {name}: {value}")
        return out.block()

    def conditions_of(self, who: str) -> tuple[ConditionNote, ...]:
        return condition_notes(self.fighter(who).conditions, CONDITIONS, TIMING)

    def prompt_view(self) -> PromptView | None:
        p = self.st.prompt
        if p is None:
            return None
        answers = tuple(f"answer {quote(o)}" for o in p.options)
        hint = "or type a card: answer 9R" if p.kind in CARD_PROMPTS else ""
        return PromptView(p.question, tuple(p.options), answers, hint)

    def actions_for(self, who: str) -> list[ActionChoice]:
        out = []
        for key, act, reason in actions.available(self, who):
            cost = "X AP (you say how many)" if act.cost is None else f"{act.cost} AP"
            typed = key.replace("_", "-")
            out.append(
                ActionChoice(key, actions.display(key), cost, reason, f"spend {quote(who)} {typed}", key in NEEDS_MORE)
            )
        return out

    @property
    def state(self) -> TTBState:
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
        return []

    def player_row(self, name: str, hidden: set[str]) -> PlayerRow:
        """Fated wounds exactly; Fatemaster wounds as the encounter's ``player_view`` allows."""
        sheet, f = self.sheets[name], self.st.fighters[name]
        mode = self.setup.encounter.player_view
        if sheet.side_name == "players" or mode == "exact":
            health = f"{f.wounds}/{sheet.wounds} Wounds"
        elif mode == "descriptor":
            health = wound_word(f.wounds, sheet.wounds)
        else:
            health = ""
        conds = conditions_json(self, name)
        safe = tuple((k, v) for k, v in conds.items() if not (isinstance(v, str) and mentions(v, hidden)))
        return PlayerRow(name, status_of(self, name), health, safe, self.st.active == name, f.acted)
