"""Through the Breach's command words (docs/reference/language.md): its own verbs and its versions of the shared ones.

The family's `VerbTable` is these around the shared verbs of `tracker.engine.language.commands`; help,
completion, the action picker, key prefills, the palette and every usage or refusal message read it.
"""

from __future__ import annotations

from tracker.engine.language.commands import DAMAGE, HEAL, JOIN, LEAVE, SPEND, VerbSpec, VerbTable, table

TTB = "ttb"

#: Through the Breach's own verbs and its versions of the shared ones (docs/rules/ttb.md#s2).
VERBS: tuple[VerbSpec, ...] = (
    DAMAGE._replace(
        usage=(
            "damage NAME N [no-armor] [weak|moderate|severe] [by=NAME]  or  "
            "damage NAME W/M/S [margin=D|mod=±N] [card=C] [by=NAME] [blast=N]"
        ),
        help="damage before armor, or a damage flip on a W/M/S profile (by= the attacker, who may cheat)",
        family=TTB,
        options=("margin", "mod", "card", "by", "blast"),
        actor_option="by",
        flags=("no-armor", "noarmor", "weak", "moderate", "severe"),
    ),
    HEAL._replace(
        usage="heal NAME N  or  heal NAME W/M/S [card=C]",
        help="heal Wounds, or a healing flip on a W/M/S profile",
        family=TTB,
        options=("card",),
    ),
    SPEND._replace(
        help="spend AP on a catalogued action (walk, strike, charge TARGET, defensive 2 …)",
        family=TTB,
        flags=("override",),
    ),
    VerbSpec(
        "attack",
        ("name", "action", "name", "word"),
        1,
        7,
        "attack NAME [strike|shoot|charge] [TARGET] [WEAPON] [+|-] [tn=±N]",
        "an attack as one flow: the target, the weapon, the duel and the damage flip, each asked in turn",
        TTB,
        options=("tn",),
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
    JOIN._replace(
        help="a combatant (or N from a stat block) joins: it flips initiative and acts from the next round",
        family=TTB,
    ),
    LEAVE._replace(family=TTB),
    VerbSpec("engage", ("name", "name"), 2, 2, "engage A B", "record a melee engagement of A with B", TTB),
    VerbSpec("disengage", ("name", "name"), 2, 2, "disengage A B", "end the engagement of A with B", TTB),
    VerbSpec("reshuffle", (), 0, 0, "reshuffle", "shuffle the discards back into the Fate Deck", TTB, needs_more=False),
    VerbSpec(
        "draw",
        ("name", "number"),
        1,
        2,
        "draw NAME [N]",
        "a Fated draws N Twist cards (1: an 'On the Pursuit' ability); a Fatemaster character gains N Fate Points",
        TTB,
        title="Draw a Twist card",
    ),
    VerbSpec(
        "horror",
        ("name", "number"),
        2,
        2,
        "horror NAME TN [from=SOURCE]",
        "a horror duel: Willpower against TN; fail: Paralyzed, success: immune to SOURCE until the end",
        TTB,
        options=("from",),
        title="Horror duel",
    ),
    VerbSpec(
        "trigger",
        ("name", "text"),
        2,
        None,
        "trigger NAME 'TEXT' [suit=Rams|Crows|Tomes|Masks]",
        "declare a trigger after NAME's duel: its suit must be in the final total; the effect text is recorded",
        TTB,
        options=("suit",),
        while_prompted=True,
    ),
    VerbSpec(
        "pulse",
        ("name", "number", "word"),
        3,
        None,
        "pulse SOURCE YARDS EFFECT… [on=A,B]",
        "a Pulse: EFFECT (2/3/4, a number, burning+1 …) reaches everyone within YARDS of SOURCE but SOURCE",
        TTB,
        options=("on",),
    ),
    VerbSpec(
        "aura",
        ("name", "word", "word"),
        1,
        None,
        "aura SOURCE YARDS EFFECT… [on=A,B]  |  aura SOURCE on=A,B  |  aura SOURCE off",
        "an Aura: EFFECT reaches each character inside it (SOURCE too) at the end of its turn",
        TTB,
        options=("on",),
    ),
    VerbSpec(
        "ongoing",
        ("text", "name", "word"),
        1,
        3,
        "ongoing 'NAME' tn=N successes=K failures=F [skill=S] [duration=T]  |  ongoing 'NAME' WHO [SKILL]  |  "
        "ongoing 'NAME' end",
        "an ongoing sequence of duels toward K successes: open it, ask one character's duel, or set it aside",
        TTB,
        options=("tn", "successes", "failures", "skill", "duration"),
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
)


#: The family's command table, as its refusals name it ("unknown command 'x' in a Through the Breach encounter").
TABLE: VerbTable = table("Through the Breach", VERBS)
