"""What the 2d20 System tells the story of a fight (`tracker.present.story.terms`): stress taken and
Harms, Momentum and the GM's pool over time, pool swings, and the attacks its commands declare."""

from __future__ import annotations

from tracker.families.twod20.actions import action_key
from tracker.present.story.terms import Hurt, JSONMap, StoryTerms, TableTurn, numbers
from tracker.present.words import counted

#: Actions that are attacks (docs/rules/2d20-turns.md#s3-5): the damage that resolves them later in the turn is theirs.
ATTACKS = frozenset({"attack", "retaliate", "return_fire", "covering_fire"})
#: A change of a pool by this much in one command is a turning point (a Swift Action costs 2; a
#: swing of 3 or more is a bought d20 and more, a big roll's Momentum, or the GM's reinforcements).
SWING = 3
MOMENTUM = "Momentum"


class TwoD20StoryTerms(StoryTerms):
    """Damage is stress taken, with the Harms it caused; the gauges are Momentum and the GM's pool."""

    damage_unit = "stress"
    damage_one = "stress"
    gauges_title = "Pools"
    # Players see the group's Momentum; the GM's pool stays the GM's (the player view's pools).
    player_gauges = frozenset({MOMENTUM})
    attacker_option = "from"
    attacks = ATTACKS
    # The end of the scene clears all stress (docs/rules/2d20-harm.md#s3-10-4 [004:L1906]): a reset, not healing.
    resets = frozenset({"end"})

    def hurt(self, before: JSONMap, after: JSONMap) -> Hurt:
        was, now = numbers(before, "stress"), numbers(after, "stress")
        maxima = numbers(after, "stress_max")
        taken = sum(max(0, now.get(t, 0) - was.get(t, 0)) for t in now)
        healed = sum(max(0, was.get(t, 0) - now.get(t, 0)) for t in was)
        harms_was, harms_now = numbers(before, "harms"), numbers(after, "harms")
        harms = tuple((k, v - harms_was.get(k, 0)) for k, v in harms_now.items() if v > harms_was.get(k, 0))
        if not (taken or healed or harms):
            return Hurt()
        parts = [f"{t} {was.get(t, 0)} → {v} of {maxima.get(t, v)}" for t, v in now.items() if v != was.get(t, 0)]
        parts += [f"+{counted(n, kind.title())}" for kind, n in harms]
        return Hurt(damage=taken, healed=healed, harms=harms, change=", ".join(parts))

    def gauges(self, state: JSONMap) -> dict[str, int]:
        pools = numbers(state, "pools")
        # Infinity's GM pool is Heat (the JSON has it as "heat" and as "threat"); the others' is Threat.
        gm = "heat" if "heat" in pools else "threat"
        return {MOMENTUM: pools.get("momentum", 0), gm.title(): pools.get(gm, 0)}

    def table_turns(self, before: JSONMap, after: JSONMap) -> list[TableTurn]:
        """A pool that moves by `SWING` or more in one command."""
        was, now = self.gauges(before), self.gauges(after)
        return [
            TableTurn(name, f"{name} {'jumps' if v > was.get(name, 0) else 'drops'} {was.get(name, 0)} → {v}")
            for name, v in now.items()
            if abs(v - was.get(name, 0)) >= SWING
        ]

    def action_key(self, text: str) -> str:
        return action_key(text)


STORY = TwoD20StoryTerms()
