"""The 2d20 System's command table (CONTRACT.md §3): the verbs a 2d20 encounter accepts.

Every screen text about commands in a 2d20 fight (help, completion, usage lines, refusals) is read from
here, so it never names a Through the Breach-only verb.
"""

from __future__ import annotations

from tracker.rules.commands import VerbSpec, VerbTable, table

D20 = "2d20"

#: Damage effects written as ``name=X`` (RULES.md §3.8).
EFFECT_OPTIONS = ("vicious", "piercing", "persistent", "incendiary")
#: Damage effects written as bare words.
EFFECT_FLAGS = (
    "intense",
    "stun",
    "knockdown",
    "drain",
    "area",
    "snare",
    "perilous",
    "destructive",
    "vicious",
    "piercing",
)

VERBS: VerbTable = table(
    "2d20",
    [
        VerbSpec(
            "add",
            ("name", "condition", "number"),
            2,
            3,
            "add NAME CONDITION [N]",
            "give a condition (or fatigue); a valued one gains +N",
            D20,
            title="Add a condition…",
        ),
        VerbSpec(
            "remove",
            ("name", "condition", "number"),
            2,
            3,
            "remove NAME CONDITION [N]",
            "lower a valued condition by N, or remove it",
            D20,
            title="Remove a condition…",
        ),
        VerbSpec(
            "damage",
            ("name", "number"),
            2,
            2,
            "damage NAME N [icons=K] [track=T] [cover=C] [soak=S] [from=NAME] [EFFECT[=X] …] [mental] "
            "[yield] [ignore-soak]",
            "an attack's rolled damage; resistance, stress, Harm and the effects follow",
            D20,
            options=("icons", "track", "cover", "soak", "from", *EFFECT_OPTIONS),
            flags=(*EFFECT_FLAGS, "mental", "yield", "ignore-soak", "no-armor"),
            title="Damage…",
        ),
        VerbSpec(
            "heal",
            ("name", "number"),
            2,
            2,
            "heal NAME N [track=T]",
            "remove stress",
            D20,
            options=("track",),
            title="Heal…",
        ),
        VerbSpec(
            "spend",
            ("name", "action", "word"),
            2,
            None,
            "spend NAME ACTION [ARG …]",
            "take an action (attack, movement, swift …) and pay for it",
            D20,
        ),
        VerbSpec("move", ("name", "zone"), 2, 2, "move NAME ZONE", "move to a zone", D20, title="Move to a zone…"),
        VerbSpec("reach", ("name", "name"), 2, 2, "reach A B", "declare A within Reach of B", D20),
        VerbSpec(
            "momentum",
            ("signed", "text"),
            1,
            None,
            "momentum ±N [REASON]",
            "change the Momentum pool",
            D20,
            needs_more=False,
        ),
        VerbSpec(
            "threat", ("signed", "text"), 1, None, "threat ±N [REASON]", "change the GM's pool", D20, needs_more=False
        ),
        VerbSpec(
            "pick",
            ("name", "word"),
            1,
            2,
            "pick NAME",
            "hand the turn to an opposing character",
            D20,
            while_prompted=True,
        ),
        VerbSpec(
            "keep",
            ("name", "word"),
            1,
            2,
            "keep NAME [threat]",
            "keep the initiative for an ally (2 Momentum, or Threat)",
            D20,
            while_prompted=True,
        ),
        VerbSpec(
            "roll",
            ("name", "number", "number"),
            3,
            3,
            "roll NAME TN DIFFICULTY [bought=K] [focus=F] [faces=a,b] [range=R] [pay=threat]",
            "a d20 test: successes, Momentum and complications",
            D20,
            options=("bought", "focus", "faces", "range", "pay"),
        ),
        VerbSpec(
            "challenge",
            ("number",),
            1,
            1,
            "challenge N [faces=a,b,…]",
            "roll N Challenge Dice",
            D20,
            options=("faces",),
        ),
        VerbSpec(
            "treat",
            ("name", "word", "number"),
            2,
            3,
            "treat NAME wound|trauma [N]",
            "mark Harms treated (they still count)",
            D20,
        ),
        VerbSpec("stabilize", ("name",), 1, 1, "stabilize NAME", "a Dying character is stabilized", D20),
        VerbSpec("revive", ("name",), 1, 1, "revive NAME", "a Defeated character is revived", D20),
        VerbSpec(
            "fortune",
            ("name", "signed", "text"),
            2,
            None,
            "fortune NAME ±N [REASON]",
            "change a player character's Fortune",
            D20,
        ),
        VerbSpec(
            "end",
            (),
            0,
            0,
            "end",
            "end the scene: stress clears, the untreated Dying die",
            D20,
            needs_more=False,
            title="End the scene",
        ),
    ],
)
