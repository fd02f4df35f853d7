"""What the screens and scripts show of a Through the Breach fight (`TTBPresenter`, the seam's presentation half).

The GM screen's typed view (initiative with Rank and AP pips, the Turn panel's action costs, melee
engagements, the Fate Deck and Control Hands), the player view, the odds and the plain summary, all
built from the fight's rules (`tracker.families.ttb.rules.TTBRules`), which this reads and never changes.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from tracker.engine.records.model import Prompt
from tracker.families.presenter import FamilyPresenter, option_labels
from tracker.families.rules import FamilyRules
from tracker.families.ttb import actions as catalogue
from tracker.families.ttb import ongoing
from tracker.families.ttb.fate.cards import parse_card
from tracker.families.ttb.rules import TTBRules, conditions_json
from tracker.families.ttb.tables.catalogue import SHORT
from tracker.families.values import OddsOptions, OddsReport
from tracker.present import view, words
from tracker.present.story.terms import StoryTerms

if TYPE_CHECKING:
    from tracker.present.map.graph import MapView

COLUMNS = ("▶", "Name", "Init", "Rank", "Status", "Wounds", "AP", "Conditions")


#: A card as the command language writes it (``10M``, ``RJ``), as prompts offer cards.
CARD_CODE = re.compile(r"(?:1[0-3]|[1-9])[RCTM]|RJ|BJ")

#: Prompts a table may answer by typing a card rather than picking an option.
CARD_PROMPTS = ("critical", "suffocating_flip", "hazard_flip", "hand_discard", "discard", "damage_flip")


class TTBPresenter(FamilyPresenter[TTBRules]):
    """Builds the Through the Breach views from a `TTBRules`."""

    def __init__(self, rules: FamilyRules) -> None:
        if not isinstance(rules, TTBRules):
            raise TypeError(f"not Through the Breach rules: {type(rules).__name__}")
        super().__init__(rules)

    @functools.cached_property
    def kept_rows(self) -> view.RowKeeper:
        """The order rows of the last view (`view.RowKeeper`)."""
        return view.RowKeeper()

    @property
    def story(self) -> StoryTerms:
        from tracker.families.ttb.present.story import STORY

        return STORY

    def family_label(self) -> str:
        return "Through the Breach"

    def pools_text(self, style: str = "title") -> str:
        return ""  # the Fate Deck is no pool: it has its own tab

    def summary_body(self, name: str) -> str:
        eng = self.rules
        f, sheet = eng.st.fighters[name], eng.sheets[name]
        return f"init {f.init}, wounds {f.wounds}/{sheet.wounds}, AP {f.ap}+{f.combat_ap}"

    def order(self) -> view.OrderView:
        eng = self.rules
        st = eng.st
        tied = eng.tied()
        sheets, fighters, active, kept = eng.sheets, st.fighters, st.active, self.kept_rows
        effects: dict[str, list[tuple[str, str]]] = {}  # card effects on each combatant show as conditions
        for effect in st.effects:
            effects.setdefault(effect.target, []).append((effect.kind, effect.owner))
        left = set(st.left)
        rows = []
        for name in eng.in_order():
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
            status = eng.status(name)
            gone = eng.has_left(name)
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
            tags = words.condition_tags(conditions_json(eng, name), SHORT)
            rows.append(kept.row(name, cells, gone or status in ("dead", "unconscious"), tags, key))
        return view.OrderView(
            COLUMNS,
            tuple(rows),
            st.active,
            words.round_line(st.phase, st.round, st.active),
            shrinkable=(3, 1),  # Rank, then the Name: names matter most
        )

    def turn_of(self, who: str) -> view.Block:
        """The active combatant's General and Combat AP as pips, and every action's cost and legality."""
        return self._turn(who, view.BlockWriter().line(who, "bold"), actions=True)

    def _turn(self, who: str, out: view.BlockWriter, actions: bool) -> view.Block:
        """`out` (its heading written) with `who`'s AP, Fate Points and engagement, then, with `actions`,
        every action's cost and legality."""
        eng = self.rules
        f = eng.fighter(who)
        base = max(f.ap, eng.sheet(who).base_general_ap)
        out.line(f"General AP {words.pips(f.ap, base)} {f.ap}   Combat AP {words.pips(f.combat_ap, 1)} {f.combat_ap}")
        if not eng.sheet(who).fated:
            out.line(f"Fate Points {f.fate_points}")
        engaged = eng.engaged_by(who)
        if engaged:
            out.line(f"Engaged by {', '.join(engaged)}: no shooting, no Charge", "bold")
        if not actions:
            return out.block()
        out.line()
        for key, act, reason in catalogue.available(eng, who):
            cost = "X" if act.cost is None else str(act.cost)
            text = f"{catalogue.display(key):<15} {cost:>2} AP  "
            if reason is None:
                out.line(text)
            else:
                out.line(text + reason, "dim")
        return out.block()

    def own_sheet(self, who: str) -> view.Block:
        """The turn panel with `who`'s Control Hand under the name (a Fated's cards are their player's secret,
        and theirs to see) and the Twist Deck left; the actions, each with why not, on `who`'s turn only."""
        eng = self.rules
        f = eng.fighter(who)
        out = view.BlockWriter().line(who, "bold")
        if eng.sheet(who).fated:
            cards = " ".join(parse_card(c).short() for c in f.hand) or "no cards"
            out.add("Control Hand ", "bold").line(cards)
            out.line(f"Twist Deck {len(f.twist_deck)} · discards {len(f.twist_discards)}", "dim")
        return self._turn(who, out, actions=eng.st.active == who)

    def field(self, focus: str | None) -> view.Block:
        """What each engagement forbids (docs/rules/ttb-damage.md#s2-9); who is engaged with whom is the map above
        (`field_map`)."""
        eng = self.rules
        out = view.BlockWriter()
        for name in eng.sheets:
            foes = eng.engaged_by(name)
            if foes:
                out.line(
                    f"{name}: engaged by {', '.join(foes)} — no shooting, no Charge; walking away provokes a "
                    "disengaging strike"
                )
        return out.block()

    def field_map(self, focus: str | None) -> MapView:
        """The engagement map (imported only when the Melee tab is shown): `tracker.families.ttb.present.melee_map`."""
        from tracker.families.ttb.present.melee_map import engagement_map

        return engagement_map(self.rules, focus)

    def resources(self) -> view.Block:
        """The Control Hands, each card as the log writes it (``10â¦``), then the Fate Deck, the Twist Decks
        and the Fatemaster's Fate Points. The hands are the first paragraph, a short line each: the screen
        shows it at the tab's top, above the odds table, so the GM sees every hand when the tab opens."""
        eng = self.rules
        st = eng.st
        out = view.BlockWriter()
        out.line("Control Hands", "bold")
        fated = [name for name, sheet in eng.sheets.items() if sheet.fated]
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
        points = [(n, st.fighters[n].fate_points) for n, s in eng.sheets.items() if not s.fated]
        if points:
            out.line().line("Fate Points", "bold")
            for name, value in points:
                out.line(f"  {name}: {value}")
        if st.challenges:
            out.line().line("Ongoing Challenges", "bold")
            for challenge in st.challenges:
                out.line(f"  {ongoing.summary(challenge)}")
        return out.block()

    def odds(self, focus: str | None, seat: frozenset[str] | None = None) -> view.OddsView | None:
        """The next flip's odds and the pending duel's (imported only when the Fate Deck tab is shown), from
        what `seat` knows: another Fated's Control Hand and Twist Deck are no cheat it can count."""
        from tracker.families.ttb.present import odds_report

        return odds_report.panel(self.rules, seat)

    def odds_report(self, options: OddsOptions) -> OddsReport:
        from tracker.families.ttb.present import odds_command

        return odds_command.report(self.rules, options)

    def prompt_hint(self, prompt: Prompt) -> str:
        """A card the table flips may be typed rather than picked."""
        return "or type a card: answer 9R" if prompt.kind in CARD_PROMPTS else ""

    def prompt_view(self) -> view.PromptView | None:
        """The base question, with each card offered and not labelled by the rules (a hand card to discard,
        say) written as the log writes it: ``10♦``, not its code ``10M`` (the answer keeps the code)."""
        shown = super().prompt_view()
        prompt = self.rules.state.prompt
        if shown is None or prompt is None or option_labels(prompt) != tuple(prompt.options):
            return shown
        labels = tuple(parse_card(o).short() if CARD_CODE.fullmatch(o) else o for o in prompt.options)
        return shown._replace(options=labels)

    def player_row(self, name: str, hidden: set[str]) -> view.PlayerRow:
        """Fated wounds exactly; Fatemaster wounds as the encounter's ``player_view`` allows."""
        eng = self.rules
        sheet, f = eng.sheets[name], eng.st.fighters[name]
        mode = eng.setup.encounter.player_view
        if eng.health_shown(name):
            health = f"{f.wounds}/{sheet.wounds} Wounds"
        elif mode == "descriptor":
            health = words.wound_word(f.wounds, sheet.wounds)
        else:
            health = ""
        conds = conditions_json(eng, name)
        safe = tuple((k, v) for k, v in conds.items() if not (isinstance(v, str) and words.mentions(v, hidden)))
        tags = words.condition_tags(dict(safe), SHORT)
        return view.PlayerRow(name, eng.status(name), health, safe, eng.st.active == name, f.acted, None, tags)

    def player_question(self) -> str:
        """The question without the GM's answer hints ("(or flip)", "(yes/no)")."""
        prompt = self.rules.st.prompt
        question = prompt.question if prompt else ""
        return re.sub(r"\s*\((or flip|yes/no)\)", "", question)

    def player_pools(self) -> str:
        return ""  # the Fate Deck and the Fatemaster's Fate Points are the GM's

    def player_notes(self) -> tuple[str, ...]:
        """The Ongoing Challenges the characters work on: the table makes the challenges, so it sees them."""
        return tuple(f"Ongoing Challenge {ongoing.summary(c)}" for c in self.rules.state.challenges)
