"""What Through the Breach tells the story of a fight (`tracker.present.story.terms`): Wounds lost and
healed, the Fate Deck over time, reshuffles, and the attacks its commands declare."""

from __future__ import annotations

from tracker.families.ttb.actions import action_key
from tracker.present.story.terms import Hurt, JSONMap, StoryTerms, TableTurn, number, numbers

#: Actions that are attacks (docs/rules/ttb-turns.md#s2-5): the damage that resolves them later in the turn is theirs.
ATTACKS = frozenset({"strike", "shoot", "charge", "cast_resisted"})
#: The gauges, as the Fate Deck panel names them.
DECK, DISCARDS = "Fate Deck", "discards"


class TTBStoryTerms(StoryTerms):
    """Damage is Wounds lost; the gauges are the Fate Deck's cards left and discarded."""

    damage_unit = "Wounds"
    damage_one = "Wound"
    gauges_title = "Fate Deck"
    # The player view shows neither the Fate Deck nor the Fatemaster's Fate Points (README "Commands").
    player_gauges: frozenset[str] = frozenset()
    attacker_option = "by"
    attacks = ATTACKS

    def hurt(self, before: JSONMap, after: JSONMap) -> Hurt:
        was, now = number(before, "wounds"), number(after, "wounds")
        change = f"Wounds {was} → {now}"
        if now < was:
            return Hurt(damage=was - now, change=change)
        if now > was:
            return Hurt(healed=now - was, change=change)
        return Hurt()

    def gauges(self, state: JSONMap) -> dict[str, int]:
        deck = numbers(state, "deck")
        return {DECK: deck.get("left", 0), DISCARDS: deck.get("discards", 0)}

    def table_turns(self, before: JSONMap, after: JSONMap) -> list[TableTurn]:
        """A reshuffle of the Fate Deck (by the rules when it runs out, or by the Fatemaster): every Fated
        draws a Twist card and the odds start afresh (docs/rules/ttb.md#s2-2-2)."""
        was, now = numbers(before, "deck"), numbers(after, "deck")
        if now.get("reshuffles", 0) > was.get("reshuffles", 0):
            return [TableTurn(DECK, f"the Fate Deck is reshuffled ({now.get('left', 0)} cards)")]
        return []

    def action_key(self, text: str) -> str:
        return action_key(text)


STORY = TTBStoryTerms()
