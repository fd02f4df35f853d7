"""Horror duels [000:L401-405, and the horror column of the rank table, L417-424] (docs/reference/language.md
``horror``).

``horror NAME TN [from=SOURCE]`` asks for the duel as a prompt like any other (``flip``, ``pass``, ``fail``):

- a Fated makes a Willpower duel against TN: its ``willpower`` is the acting value, its own state counts
  (Intoxicated ⊟, Crazy; a horror duel resists, so Dazed and Focused do not), and the tracker's flip may be
  cheated like any duel (docs/rules/ttb.md#s2-2-4);
- a Fatemaster character flips no card (docs/rules/ttb.md#s2-2-5): the rank table's cell says the Fated "uses half TN of
horror
  duel as acting value vs Fatemaster character's Willpower". The card is the horror's: half the TN (rounded
  down) plus the card against the character's Willpower + Rank Value (the rank table's TN for a Fatemaster
  character, [000:L418-419]). When SOURCE is a Fated combatant, it is that Fated's flip, and it may cheat it
  with its own hand; any other source's card is nobody's and is not cheated (docs/guide/decisions.md "Horror
  duels").

Failure: Paralyzed [000:L403] (mid-turn it ends the turn, `conditions.gain`). Success: immune to horror
duels from SOURCE until the end of Dramatic Time [000:L405]; a horror duel from that source against an
immune character is refused in one line, nothing changed. ``answer pass``/``fail`` always say whether the
character who makes the horror duel resists it.
"""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, count
from tracker.families.ttb import conditions, duel, triggers
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate import cheat, deck
from tracker.families.ttb.fate.cards import Card, keep, shown
from tracker.families.ttb.records.state import Prompt

KIND = "horror"
#: The cheat offer's outcome for a Fatemaster character's horror duel: the flip is the horror's (a Fated
#: source's), so its "pass" means the character fails to resist.
AGAINST = "horror_against"
#: The source when ``from=`` is not given: one unnamed horror, so its immunity holds against itself.
UNNAMED = "horror"


def source_of(eng: TTBEngine, text: str | None) -> str:
    """The source as the immunity records it: a combatant's full name when `text` names one, else as typed."""
    if not text:
        return UNNAMED
    try:
        return eng.name(text)
    except Refusal:
        return text.strip()


def immune(eng: TTBEngine, who: str, source: str) -> str | None:
    """The source as `who`'s immunity recorded it, if `who` is immune to `source`'s horror duels."""
    return next((s for s in eng.fighter(who).horror_immune if s.casefold() == source.casefold()), None)


def command(eng: TTBEngine, cmd: Command) -> None:
    """``horror NAME TN [from=SOURCE]``: checked, then asked."""
    who = eng.living(cmd.args[0])
    tn = count(cmd.args[1], "the horror duel's TN")
    if tn < 1:
        raise Refusal("a horror duel's TN is at least 1")
    if eng.st.phase == "ended":
        raise Refusal("Dramatic Time has ended: horror duels are made during it ('start' begins a new one)")
    source = source_of(eng, cmd.options.get("from"))
    if source == who:
        raise Refusal(f"{who} is not a horror to itself")
    known = immune(eng, who, source)
    if known is not None:
        raise Refusal(f"{who} is immune to horror duels from {known} until the end of Dramatic Time")
    ask(eng, who, tn, source)


def ask(eng: TTBEngine, who: str, tn: int, source: str) -> None:
    """The horror duel's prompt: every modifier named, ``flip`` first among the table's answers."""
    sheet = eng.sheet(who)
    origin = f" from {source}" if source != UNNAMED else ""
    if sheet.fated:
        parts = duel.acting(eng, who, "willpower", action=False)
        test = duel.Duel(who, f"Willpower {sheet.willpower}", sheet.willpower, tn, "", tuple(parts))
        eng.ask(
            KIND,
            f"{who} faces a horror{origin}: {test.describe()} — pass or fail? (or flip; fail: Paralyzed)",
            ["flip", "pass", "fail"],
            who=who,
            source=source,
            skill="willpower",
            av=sheet.willpower,
            horror_tn=tn,
            **test.data(),
        )
        return
    # A Fatemaster character: the horror flips half the TN against its Willpower + Rank Value (module docstring).
    rank = sheet.rank_value or 0
    half = tn // 2
    own = duel.acting(eng, who, "willpower", action=False)
    parts = [p for p in duel.reversed_parts(eng, own, who) if p.fate] + [
        duel.Part(f"{p.source} ({who})", tn=-p.total) for p in own if p.total
    ]
    flipper = source if source in eng.sheets and eng.sheet(source).fated else ""
    test = duel.Duel(
        flipper or "the horror",
        f"half the TN {half}",
        half,
        sheet.willpower + rank,
        f"{who}'s Willpower {sheet.willpower} + Rank {rank}",
        tuple(parts),
    )
    eng.ask(
        KIND,
        f"{who} faces a horror{origin}: {test.describe()} — pass or fail? (or flip; pass: {who} resists)",
        ["flip", "pass", "fail"],
        who=who,
        source=source,
        skill="willpower",
        av=half,
        horror_tn=tn,
        against=True,
        flipper=flipper,
        **test.data(),
    )


def flip_against(eng: TTBEngine, p: Prompt) -> None:
    """``answer flip`` for a Fatemaster character: the horror's card; a Fated source may cheat it
    (docs/rules/ttb.md#s2-2-4)."""
    assert p.who is not None
    tn, av, fate = int(str(p.data["tn"])), int(str(p.data["av"])), int(str(p.data.get("fate", 0)))
    flipper = str(p.data.get("flipper", ""))
    cards = deck.flip(eng, 1 + abs(fate))
    card = keep(cards, fate)
    total = card.value + av
    holds = not card.is_black_joker and total >= tn
    eng.log(
        f"the horror{f' ({flipper})' if flipper else ''} flips {shown(cards, card)} + half the TN {av} = "
        f"{total} vs {p.who}'s TN {tn}: {p.who} {'fails' if holds else 'resists'}",
        kind="result",
    )
    triggers.note(eng, flipper, card, KIND)

    def helps(c: Card) -> bool:
        return not holds and not c.is_black_joker and c.value + av >= tn

    def makes(c: Card) -> str:
        return f"{c.value + av} vs TN {tn}: {p.who} {'fails' if c.value + av >= tn else 'resists'}"

    data = {**{k: v for k, v in p.data.items() if k != "labels"}, "subject": p.who}
    if flipper and cheat.offer(eng, flipper, card, cards, fate, helps, AGAINST, makes, cheat_av=av, **data):
        return
    settle(eng, p.who, str(p.data["source"]), not holds)


def resolved(eng: TTBEngine, p: Prompt, passed: bool, margins: int, diff: int | None) -> None:
    """The duel's result from the side of the one who makes it (`answers.OUTCOMES`)."""
    assert p.who is not None
    settle(eng, p.who, str(p.data["source"]), passed)


def resolved_against(eng: TTBEngine, p: Prompt, passed: bool, margins: int, diff: int | None) -> None:
    """After a Fated source's cheat offer: its flip "passed" means the Fatemaster character failed."""
    settle(eng, str(p.data["subject"]), str(p.data["source"]), not passed)


def settle(eng: TTBEngine, who: str, source: str, resisted: bool) -> None:
    """Fail: Paralyzed [000:L403]; success: immune to `source` until the end of Dramatic Time [000:L405]."""
    origin = f" from {source}" if source != UNNAMED else ""
    if resisted:
        f = eng.fighter(who)
        if immune(eng, who, source) is None:
            f.horror_immune.append(source)
        eng.log(f"{who} resists the horror{origin}: immune to it until the end of Dramatic Time")
        return
    eng.log(f"{who} fails the horror duel{origin}")
    if eng.fighter(who).dead:
        return
    conditions.gain(eng, who, "paralyzed", why=f"horror{origin}")
