"""A Through the Breach fight as its screens and scripts see it (`TTBEncounter`, the seam's live side).

The JSON state of CONTRACT.md §4, the GM screen's typed view (initiative with Rank and AP pips, the
Turn panel's action catalogue, melee engagements, the Fate Deck and Control Hands) and the player view.
The screen binds what this builds and never reads the engine itself.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from tracker.families.seam import Carried, FamilyEngine, JSONObject, OddsOptions, OddsReport
from tracker.families.ttb import actions, carry
from tracker.families.ttb.catalogue import CONDITIONS, SHORT, TIMING
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate.cards import parse_card
from tracker.families.ttb.initiative import tied_groups
from tracker.present import view, words

if TYPE_CHECKING:
    from tracker.present.map.graph import MapView

COLUMNS = ("▶", "Name", "Init", "Rank", "Status", "Wounds", "AP", "Conditions")


#: A card as the command language writes it (``10M``, ``RJ``), as prompts offer cards.
CARD_CODE = re.compile(r"(?:1[0-3]|[1-9])[RCTM]|RJ|BJ")

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


class TTBEncounter(TTBEngine, FamilyEngine):
    """TTBEngine as the rest of the program sees it: it answers the family seam."""

    CATALOGUE = view.Catalogue(CONDITIONS, TIMING, tuple(actions.ACTIONS))

    def lasting(self, name: str) -> list[Carried]:
        """What `name` carries into the next fight: `tracker.families.ttb.carry`."""
        return carry.lasting(self, name)

    def status(self, name: str) -> str:
        """``ok``, ``unconscious``, ``defeated``, ``dying`` or ``dead``: the worst that is true."""
        f = self.fighter(name)
        return "dead" if f.dead else "unconscious" if f.unconscious else "ok"

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
            "conditions": conditions_json(self, name),
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
            entry["criticals"] = [c.model_dump() for c in f.criticals]
        return entry

    def table_json(self) -> JSONObject:
        """The Fate Deck's counts, and who is tied on initiative (the table decides each round)."""
        st = self.st
        return {
            "deck": {"left": len(st.deck), "discards": len(st.discards), "reshuffles": st.reshuffles},
            "tied": sorted({n for group in tied_groups(self) for n in group}) if st.phase != "setup" else [],
        }

    def shown_conditions(self, name: str) -> dict[str, int | bool | str]:
        return conditions_json(self, name)

    def family_label(self) -> str:
        return "Through the Breach"

    def pools_text(self, style: str = "title") -> str:
        return ""  # the Fate Deck is no pool: it has its own tab

    def summary_body(self, name: str) -> str:
        f, sheet = self.st.fighters[name], self.sheets[name]
        return f"init {f.init}, wounds {f.wounds}/{sheet.wounds}, AP {f.ap}+{f.combat_ap}"

    @functools.cached_property
    def kept_rows(self) -> view.RowKeeper:
        """The order rows of the last view (`view.RowKeeper`)."""
        return view.RowKeeper()

    def order(self) -> view.OrderView:
        st = self.st
        tied = {n for group in tied_groups(self) for n in group} if st.phase != "setup" else set()
        sheets, fighters, active, kept = self.sheets, st.fighters, st.active, self.kept_rows
        effects: dict[str, list[tuple[str, str]]] = {}  # card effects on each combatant show as conditions
        for effect in st.effects:
            effects.setdefault(effect.target, []).append((effect.kind, effect.owner))
        left = set(st.left)
        rows = []
        for name in self.in_order():
            sheet, f = sheets[name], fighters[name]
            # A row shows its combatant's record, its sheet and these; unchanged, it is the row kept.
            key = kept.key(f, active == name, name in tied, name in left, effects.get(name), id(sheet))
            row = kept.unchanged(name, key)
            if row is not None:
                rows.append(row)
                continue
            fated = sheet.fated
            # Before a Fated flips, the column shows its Initiative aspect plus the card still to come, so it
            # is not read as a total like a Fatemaster's (Rank Value + Initiative).
            init = f"{sheet.initiative}+card" if fated and f.init_card is None else str(f.init)
            if f.pending_init_mod:
                init += f"→{f.init + f.pending_init_mod}"  # Pass/Wait from next round
            if name in tied:
                init += " ="  # tied: the table decides each round
            status = self.status(name)
            gone = self.has_left(name)
            if f.arriving:
                init += " next"  # joined this round: in the order from the next one
            cells = (
                "▶" if active == name else ("✓" if f.acted and not gone else ""),
                name,
                init,
                "Fated" if fated else str(sheet.rank_title() or ""),
                words.status_text("left" if gone else status),
                f"{f.wounds}/{sheet.wounds}",
                f"{words.pips(f.ap, 2)} {words.pips(f.combat_ap, 1)}" if active == name else "",
            )
            tags = words.condition_tags(conditions_json(self, name), SHORT)
            rows.append(kept.row(name, cells, gone or status in ("dead", "unconscious"), tags, key))
        return view.OrderView(
            COLUMNS,
            tuple(rows),
            st.active,
            words.round_line(self.st.phase, self.st.round, self.st.active),
            shrinkable=(3, 1),  # Rank, then the Name: names matter most
        )

    def turn_of(self, who: str) -> view.Block:
        """The active combatant's General and Combat AP as pips, and every action's cost and legality."""
        out = view.BlockWriter()
        f = self.fighter(who)
        base = max(f.ap, self.sheet(who).base_general_ap)
        out.line(who, "bold")
        out.line(f"General AP {words.pips(f.ap, base)} {f.ap}   Combat AP {words.pips(f.combat_ap, 1)} {f.combat_ap}")
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

    def field(self, focus: str | None) -> view.Block:
        """What each engagement forbids (§2.9); who is engaged with whom is the map above (`field_map`)."""
        out = view.BlockWriter()
        for name in self.sheets:
            foes = self.engaged_by(name)
            if foes:
                out.line(
                    f"{name}: engaged by {', '.join(foes)} — no shooting, no Charge; walking away provokes a "
                    "disengaging strike"
                )
        return out.block()

    def field_map(self, focus: str | None) -> MapView:
        """The engagement map (imported only when the Melee tab is shown): `tracker.families.ttb.present.melee_map`."""
        from tracker.families.ttb.present.melee_map import engagement_map

        return engagement_map(self, focus)

    def resources(self) -> view.Block:
        """The Control Hands, each card as the log writes it (``10♦``), then the Fate Deck, the Twist Decks
        and the Fatemaster's Fate Points. The hands are the first paragraph, a short line each: the screen
        shows it at the tab's top, above the odds table, so the GM sees every hand when the tab opens."""
        st = self.st
        out = view.BlockWriter()
        out.line("Control Hands", "bold")
        fated = [name for name, sheet in self.sheets.items() if sheet.fated]
        for name in fated:
            hand = st.fighters[name].hand
            over = " (over 5: discard pending)" if len(hand) > 5 else ""
            out.line(f"  {name}: {' '.join(parse_card(c).short() for c in hand) or 'no cards'}{over}")
        out.line()
        out.add("Fate Deck ", "bold")
        out.line(f"{len(st.deck)} left · {len(st.discards)} discarded · {words.counted(st.reshuffles, 'reshuffle')}")
        jokers = [c for c in st.discards if c in ("RJ", "BJ")]
        seen = ", ".join("Red Joker" if c == "RJ" else "Black Joker" for c in jokers)
        out.line(f"Jokers in the discards: {seen or 'none'}")
        if fated:
            out.line("Twist Decks: " + " · ".join(f"{name} {len(st.fighters[name].twist_deck)}" for name in fated))
        points = [(n, st.fighters[n].fate_points) for n, s in self.sheets.items() if not s.fated]
        if points:
            out.line().line("Fate Points", "bold")
            for name, value in points:
                out.line(f"  {name}: {value}")
        return out.block()

    def odds(self, focus: str | None) -> view.OddsView | None:
        """The next flip's odds and the pending duel's (imported only when the Fate Deck tab is shown)."""
        from tracker.families.ttb.present import odds_report

        return odds_report.panel(self)

    def odds_report(self, options: OddsOptions) -> OddsReport:
        from tracker.families.ttb.present import odds_report

        return odds_report.report(self, options)

    def prompt_view(self) -> view.PromptView | None:
        p = self.st.prompt
        if p is None:
            return None
        answers = tuple(f"answer {words.quote(o)}" for o in p.options)
        hint = "or type a card: answer 9R" if p.kind in CARD_PROMPTS else ""
        # A card offered (cheat with 10M) reads as the question and the log write it: 10♦.
        labels = tuple(parse_card(o).short() if CARD_CODE.fullmatch(o) else o for o in p.options)
        return view.PromptView(p.question, labels, answers, hint)

    def held_conditions(self, who: str) -> list[str]:
        """`who`'s conditions as ``remove`` takes them, Unconscious (a state ``remove`` ends) included; the
        table effects shown beside them (Waiting, Assisted …) end otherwise."""
        f = self.fighter(who)
        return [key for key, value in f.conditions.items() if value] + (["unconscious"] if f.unconscious else [])

    def actions_for(self, who: str) -> list[view.ActionChoice]:
        out = []
        for key, act, reason in actions.available(self, who):
            cost = "X AP (you say how many)" if act.cost is None else f"{act.cost} AP"
            typed = key.replace("_", "-")
            out.append(
                view.ActionChoice(
                    key, actions.display(key), cost, reason, f"spend {words.quote(who)} {typed}", key in NEEDS_MORE
                )
            )
        return out

    def player_row(self, name: str, hidden: set[str]) -> view.PlayerRow:
        """Fated wounds exactly; Fatemaster wounds as the encounter's ``player_view`` allows."""
        sheet, f = self.sheets[name], self.st.fighters[name]
        mode = self.setup.encounter.player_view
        if self.health_shown(name):
            health = f"{f.wounds}/{sheet.wounds} Wounds"
        elif mode == "descriptor":
            health = words.wound_word(f.wounds, sheet.wounds)
        else:
            health = ""
        conds = conditions_json(self, name)
        safe = tuple((k, v) for k, v in conds.items() if not (isinstance(v, str) and words.mentions(v, hidden)))
        tags = words.condition_tags(dict(safe), SHORT)
        return view.PlayerRow(name, self.status(name), health, safe, self.st.active == name, f.acted, None, tags)

    def player_question(self) -> str:
        """The question without the GM's answer hints ("(or flip)", "(yes/no)")."""
        question = self.st.prompt.question if self.st.prompt else ""
        return re.sub(r"\s*\((or flip|yes/no)\)", "", question)

    def player_pools(self) -> str:
        return ""  # the Fate Deck and the Fatemaster's Fate Points are the GM's
