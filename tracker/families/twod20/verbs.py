"""The 2d20 System's command words (docs/reference/language.md): its own verbs and its versions of the shared ones.

The family's `VerbTable` is these around the shared verbs of `tracker.engine.language.commands`; help,
completion, the action picker, key prefills, the palette and every usage or refusal message read it.
"""

from __future__ import annotations

from tracker.engine.language.commands import ADD, DAMAGE, HEAL, JOIN, LEAVE, SPEND, VerbSpec, VerbTable, table

D20 = "2d20"

#: Damage effects written as ``name=X`` (docs/rules/2d20-combat.md#s3-8).
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

#: The 2d20 System's own verbs and its versions of the shared ones (docs/rules/2d20.md#s3).
VERBS: tuple[VerbSpec, ...] = (
    ADD._replace(help="give a condition (or fatigue); a valued one gains +N", family=D20),
    DAMAGE._replace(
        usage="damage NAME N [icons=K] [track=T] [cover=C] [soak=S] [from=NAME] [EFFECT[=X] …] "
        "[mental] [yield] [ignore-soak] [nonlethal]",
        help="an attack's rolled damage; resistance, stress, Harm and the effects follow",
        family=D20,
        options=("icons", "track", "cover", "soak", "from", *EFFECT_OPTIONS),
        actor_option="from",
        flags=(*EFFECT_FLAGS, "mental", "yield", "ignore-soak", "no-armor", "nonlethal"),
    ),
    HEAL._replace(
        usage="heal NAME N [track=T]",
        help="remove stress",
        family=D20,
        options=("track",),
    ),
    SPEND._replace(help="take an action (attack, movement, swift …) and pay for it", family=D20),
    VerbSpec(
        "attack",
        ("name", "name", "word", "word"),
        1,
        4,
        "attack NAME [TARGET] [WEAPON] [+N|-N]",
        "an attack as one flow: the target, the weapon, what to buy, the roll and the damage, each asked in turn"
        " (+N/-N: the GM's own Difficulty modifier)",
        D20,
    ),
    VerbSpec("move", ("name", "zone"), 2, 2, "move NAME ZONE", "move to a zone", D20, title="Move to a zone…"),
    JOIN._replace(
        usage="join NAME [from=BLOCK] [count=N] [side=S] [zone=Z] [free]",
        help="reinforcements join: 1 Threat per minor NPC, 2 per notable or major, once the scene runs (free: none)",
        family=D20,
        options=(*JOIN.options, "zone"),
        flags=("free",),
        option_kinds=(*JOIN.option_kinds, ("zone", "zone")),
    ),
    LEAVE._replace(family=D20),
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
        "keep the initiative for an ally (2 Momentum, or Threat); initiative scores: act next (tie 1, interrupt 2)",
        D20,
        while_prompted=True,
    ),
    VerbSpec(
        "roll",
        ("name", "number", "number"),
        3,
        3,
        "roll NAME TN DIFFICULTY [bought=K] [focus=F] [faces=a,b] [range=R] [pay=threat] [spend=K]",
        "a d20 test: successes, Momentum (spend=K spends K at once) and complications",
        D20,
        options=("bought", "focus", "faces", "range", "pay", "spend"),
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
        while_prompted=True,
        title="End the scene",
    ),
)


#: Traits and the problems worked on under fire [004:L205-288, L2039-2084] (`tracker.families.twod20.traits`,
#: `tracker.families.twod20.tasks`, `tracker.families.twod20.overcome`).
PLAY_VERBS: tuple[VerbSpec, ...] = (
    VerbSpec(
        "trait",
        ("word", "text"),
        2,
        None,
        "trait ON 'TEXT' [difficulty=±N] [until=turn|round|scene] [kind=advantage|complication|harm]",
        "a trait on a combatant, a zone or the scene; difficulty= feeds the tests it touches",
        D20,
        options=("difficulty", "until", "kind"),
        while_prompted=True,
        title="Add a trait…",
    ),
    VerbSpec("untrait", ("word", "text"), 2, None, "untrait ON 'TEXT'", "a trait ends", D20, while_prompted=True),
    VerbSpec(
        "task",
        ("text",),
        1,
        None,
        "task 'NAME' stress=N breakthroughs=K [resistance=R] [clock=C] [test=ATTR+SKILL] [difficulty=D]",
        "an extended task: damage it (or overcome it) until K Breakthroughs; clock=C rounds to do it",
        D20,
        options=("stress", "breakthroughs", "resistance", "clock", "test", "difficulty"),
        flags=("clock",),
        while_prompted=True,
    ),
    VerbSpec(
        "consequence",
        ("text",),
        1,
        None,
        "consequence 'NAME' stress=N setbacks=K [resistance=R]",
        "an extended consequence: disastrous at K Setbacks",
        D20,
        options=("stress", "setbacks", "resistance"),
        flags=("clock",),
        while_prompted=True,
    ),
    VerbSpec(
        "tick",
        ("text",),
        1,
        None,
        "tick 'TASK' [free]",
        "a round off a task's clock for 5 Threat (free: no Threat)",
        D20,
        flags=("free",),
        while_prompted=True,
    ),
    VerbSpec(
        "overcome",
        ("name", "word", "word"),
        2,
        3,
        "overcome NAME TASK [+N|-N]",
        "the Overcome action: the task's test, and on a success 2+skill [CD] of damage on it",
        D20,
    ),
)


#: The family's command table, as its refusals name it ("unknown command 'x' in a 2d20 encounter").
TABLE: VerbTable = table("2d20", (*VERBS, *PLAY_VERBS))
