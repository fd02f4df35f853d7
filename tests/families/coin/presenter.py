"""What the screens show of a coin duel: the order, who is down, the coin's count; the story's words."""

from __future__ import annotations

from tests.families.coin.rules import CoinRules
from tracker.engine.errors import Refusal
from tracker.families.presenter import FamilyPresenter
from tracker.families.rules import FamilyRules
from tracker.families.values import OddsOptions, OddsReport
from tracker.present import words
from tracker.present.map.graph import MapView
from tracker.present.story.terms import Hurt, JSONMap, StoryTerms, TableTurn, number
from tracker.present.view import Block, BlockWriter, OddsView, OrderRow, OrderView, PlayerRow

COLUMNS = ("", "Name", "Side", "Status", "Conditions")
SHORT = {"dazed": "Dz"}


class CoinStory(StoryTerms):
    """The story of a duel: a hit puts one down; the gauges are the coin's heads and tails."""

    damage_unit = "hits"
    damage_one = "hit"
    gauges_title = "the coin"
    player_gauges = frozenset({"heads", "tails"})
    attacker_option = "by"
    attacks = frozenset({"flip"})

    def hurt(self, before: JSONMap, after: JSONMap) -> Hurt:
        down = bool(after.get("down")) and not before.get("down")
        return Hurt(damage=1, change="up → down") if down else Hurt()

    def gauges(self, state: JSONMap) -> dict[str, int]:
        coin = state.get("coin")
        return {"heads": number(coin, "heads"), "tails": number(coin, "tails")} if isinstance(coin, dict) else {}

    def table_turns(self, before: JSONMap, after: JSONMap) -> list[TableTurn]:
        return []

    def action_key(self, text: str) -> str:
        if text.casefold() != "flip":
            raise Refusal(f"'{text}' is not an action of a coin duel")
        return "flip"


class CoinPresenter(FamilyPresenter[CoinRules]):
    """A coin duel as the screens show it."""

    def __init__(self, rules: FamilyRules) -> None:
        if not isinstance(rules, CoinRules):
            raise TypeError(f"not a coin duel's rules: {type(rules).__name__}")
        super().__init__(rules)

    @property
    def story(self) -> StoryTerms:
        return CoinStory()

    def family_label(self) -> str:
        return "Coin Duel"

    def pools_text(self, style: str = "title") -> str:
        return ""

    def summary_body(self, name: str) -> str:
        return "down" if self.rules.fighter(name).down else "standing"

    def order(self) -> OrderView:
        eng = self.rules
        rows = []
        for name in eng.in_order():
            down = eng.fighter(name).down
            cells = ("▶" if eng.st.active == name else "", name, eng.side(name), words.status_text(eng.status(name)))
            rows.append(OrderRow(name, cells, down, words.condition_tags(eng.shown_conditions(name), SHORT)))
        return OrderView(
            COLUMNS, tuple(rows), eng.st.active, words.round_line(eng.st.phase, eng.st.round, eng.st.active)
        )

    def turn_of(self, who: str) -> Block:
        writer = BlockWriter().line(who, "bold")
        for choice in self.rules.actions_for(who):
            writer.line(f"{choice.label}: {choice.reason or 'heads, the target is down'}")
        return writer.block()

    def field(self, focus: str | None) -> Block:
        writer = BlockWriter()
        for side in dict.fromkeys(self.rules.side(n) for n in self.rules.combatant_names()):
            standing = [n for n in self.rules.standing() if self.rules.side(n) == side]
            writer.line(f"{side}: {', '.join(standing) or 'nobody standing'}")
        return writer.block()

    def resources(self) -> Block:
        st = self.rules.st
        return BlockWriter().line(f"Heads {st.heads} · Tails {st.tails}").block()

    def field_map(self, focus: str | None) -> MapView | None:
        return None

    def odds(self, focus: str | None, seat: frozenset[str] | None = None) -> OddsView | None:
        return None

    def odds_report(self, options: OddsOptions) -> OddsReport:
        raise Refusal("a coin has no odds to ask: heads is one in two")

    def player_row(self, name: str, hidden: set[str]) -> PlayerRow:
        eng = self.rules
        conditions = tuple(eng.shown_conditions(name).items())
        down = eng.fighter(name).down
        return PlayerRow(
            name, eng.status(name), "down" if down else "standing", conditions, eng.st.active == name, False
        )

    def player_question(self) -> str:
        prompt = self.rules.st.prompt
        return prompt.question if prompt else ""

    def player_pools(self) -> str:
        return ""
