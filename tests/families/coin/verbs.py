"""The coin duel's command words: ``attack`` (and ``spend NAME flip``) around the shared verbs."""

from __future__ import annotations

from tracker.engine.language.commands import SPEND, VerbSpec, table

COIN = "coin"

TABLE = table(
    "Coin Duel",
    (
        VerbSpec(
            "attack",
            ("name", "name"),
            1,
            2,
            "attack NAME [TARGET]",
            "flip a coin at the target (the one enemy standing when none is named): heads, the target is down",
            COIN,
        ),
        SPEND._replace(usage="spend NAME flip [TARGET]", help="take the one action: flip at a target", family=COIN),
    ),
)
