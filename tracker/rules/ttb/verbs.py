"""Through the Breach's command table (CONTRACT.md §3): the verbs a TTB encounter accepts.

Every screen text about commands in a TTB fight (help, completion, usage lines, refusals) is read from
here, so it never names a 2d20-only verb.
"""

from __future__ import annotations

from tracker.rules.commands import VerbSpec, VerbTable, table

TTB = "ttb"

VERBS: VerbTable = table(
    "Through the Breach",
    [
        VerbSpec(
            "add",
            ("name", "condition", "number"),
            2,
            3,
            "add NAME CONDITION [N]",
            "give a condition; a valued one gains +N (default 1)",
            TTB,
            title="Add a condition…",
        ),
        VerbSpec(
            "remove",
            ("name", "condition", "number"),
            2,
            3,
            "remove NAME CONDITION [N]",
            "lower a valued condition by N, or remove it",
            TTB,
            title="Remove a condition…",
        ),
        VerbSpec(
            "damage",
            ("name", "number"),
            2,
            2,
            "damage NAME N [no-armor] [weak|moderate|severe]  or  damage NAME W/M/S [margin=D|mod=±N] [card=C]",
            "damage before armor, or a damage flip on a W/M/S profile",
            TTB,
            options=("margin", "mod", "card"),
            flags=("no-armor", "noarmor", "weak", "moderate", "severe"),
            title="Damage…",
        ),
        VerbSpec(
            "heal",
            ("name", "number"),
            2,
            2,
            "heal NAME N  or  heal NAME W/M/S [card=C]",
            "heal Wounds, or a healing flip on a W/M/S profile",
            TTB,
            options=("card",),
            title="Heal…",
        ),
        VerbSpec(
            "spend",
            ("name", "action", "word"),
            2,
            None,
            "spend NAME ACTION [ARG …]",
            "spend AP on a catalogued action (walk, strike, charge TARGET, defensive 2 …)",
            TTB,
        ),
        VerbSpec(
            "initiative",
            ("name", "card"),
            2,
            2,
            "initiative NAME CARD",
            "set a Fated character's initiative card instead of flipping",
            TTB,
        ),
        VerbSpec("flip", ("number",), 0, 1, "flip [N]", "flip N cards from the Fate Deck", TTB, needs_more=False),
        VerbSpec("engage", ("name", "name"), 2, 2, "engage A B", "record a melee engagement of A with B", TTB),
        VerbSpec("disengage", ("name", "name"), 2, 2, "disengage A B", "end the engagement of A with B", TTB),
        VerbSpec(
            "reshuffle", (), 0, 0, "reshuffle", "shuffle the discards back into the Fate Deck", TTB, needs_more=False
        ),
        VerbSpec(
            "end",
            (),
            0,
            0,
            "end",
            "end Dramatic Time: Fated discard and refill their hands",
            TTB,
            needs_more=False,
            title="End Dramatic Time",
        ),
    ],
)
