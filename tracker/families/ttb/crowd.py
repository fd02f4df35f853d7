"""Shooting into an engagement [000:L294] (docs/rules/ttb-damage.md#s2-9): a card for the engaged target and one for
each other legal target within 2 yards of it; the lowest card is hit. "A Fated attacker may cheat these flips": after
the tracker's flip, the attack flow offers the Control Hand's cards that would put the shot on the declared target
(``answer CARD NAME``: that card from the hand in place of NAME's flip; ``answer no`` keeps the flips). No offer
once the Black Joker is among the flips [000:L156-159], nor with ``[settings] offer_cheat = false``.
"""

from __future__ import annotations

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.fate import cheat, deck
from tracker.families.ttb.fate.cards import Card, parse_card
from tracker.families.ttb.records.state import Prompt

KIND = "into_melee_cheat"
GUIDED = "guided"


def lowest(crowd: list[str], cards: list[Card], target: str) -> str:
    """Who is hit: the lowest card; a tie keeps the declared target, else the first named [000:L294]."""
    low = min(c.value for c in cards)
    hit = [n for n, c in zip(crowd, cards, strict=True) if c.value == low]
    return target if target in hit else hit[0]


def flip(eng: TTBEngine, who: str, target: str, weapon: str, gm: str, crowd: list[str]) -> None:
    """The tracker flips a card for each of `crowd`; a Fated attacker may then cheat one of them."""
    cards = deck.flip(eng, len(crowd))
    hit = lowest(crowd, cards, target)
    eng.log(
        "shooting into the melee: "
        + ", ".join(f"{n} {c.label()}" for n, c in zip(crowd, cards, strict=True))
        + f" → {hit} is hit",
        kind="result",
    )
    options = _offers(eng, who, target, crowd, cards) if hit != target else []
    if options:
        eng.ask(
            KIND,
            f"{who} flipped for the melee around {target} ({hit} is hit): cheat a flip with a card from the hand?",
            [*options, "no"],
            who=who,
            target=target,
            weapon=weapon,
            gm=gm,
            crowd=crowd,
            cards=[c.code for c in cards],
            labels=[*(f"{o}: {target} is hit" for o in options), f"no: {hit} is hit"],
        )
        return
    shot(eng, who, hit, target, weapon, gm)


def _offers(eng: TTBEngine, who: str, target: str, crowd: list[str], cards: list[Card]) -> list[str]:
    """``CARD NAME`` for each hand card that, played in place of NAME's flip, puts the shot on `target`."""
    if not eng.settings.offer_cheat or not eng.sheet(who).fated or any(c.is_black_joker for c in cards):
        return []
    out = []
    for code in eng.fighter(who).hand:
        card = parse_card(code)
        for i, name in enumerate(crowd):
            swapped = [*cards[:i], card, *cards[i + 1 :]]
            if lowest(crowd, swapped, target) == target:
                out.append(f"{code} {name}")
    return out


def shot(eng: TTBEngine, who: str, hit: str, target: str, weapon: str, gm: str) -> None:
    """The attack duel against whoever is hit."""
    eng.push(step("attack", who, f"{hit}\t{weapon}\t{GUIDED}\t{gm}"))
    if hit != target:
        eng.log(f"{who}'s shot goes to {hit} instead of {target}")


def check(eng: TTBEngine, p: Prompt, value: str) -> None:
    if value.strip().casefold() in ("no", "n", "none", "keep"):
        return
    if _option(p, value) is None:
        raise Refusal(f"answer one of: {', '.join(p.options)}")


def _option(p: Prompt, value: str) -> str | None:
    words = value.split()
    if len(words) < 2:
        return None
    try:
        code = parse_card(words[0]).code
    except Refusal:
        return None
    crowd = [o.split(" ", 1)[1] for o in p.options if o != "no"]
    try:
        name = names.resolve(" ".join(words[1:]), sorted(set(crowd)))
    except Refusal:
        return None
    wanted = f"{code} {name}"
    return wanted if wanted in p.options else None


def answer(eng: TTBEngine, p: Prompt, value: str) -> None:
    """The cheat offer answered: the hand card replaces that flip (both to their discard piles), or no."""
    assert p.who is not None
    crowd = [str(n) for n in p.data["crowd"]] if isinstance(p.data["crowd"], list) else []
    cards = [parse_card(str(c)) for c in p.data["cards"]] if isinstance(p.data["cards"], list) else []
    target, weapon, gm = str(p.data["target"]), str(p.data["weapon"]), str(p.data.get("gm", ""))
    chosen = _option(p, value)
    if chosen is not None:
        code, name = chosen.split(" ", 1)
        i = crowd.index(name)
        cards[i] = cheat.play(eng, p.who, code, cards[i])
        eng.log(f"{name}'s flip is now {cards[i].label()}")
    else:
        eng.log(f"{p.who} keeps the flips")
    shot(eng, p.who, lowest(crowd, cards, target), target, weapon, gm)
