"""Resolving the pending prompt with `answer VALUE` (docs/reference/language.md).

Each prompt kind has a resolver; after it, the engine resumes the agenda where the prompt stopped it.
Duel prompts accept ``pass``/``fail`` or ``flip``: the tracker flips from the Fate Deck and adds the
acting value from the combatant's ``skills`` (plus any Assist bonus).
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count, is_number
from tracker.families.ttb import (
    area,
    attack,
    crowd,
    damage,
    effects,
    horror,
    ongoing,
    outcomes,
    perils,
    show,
    triggers,
)
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate import cheat, deck, opposed
from tracker.families.ttb.fate.cards import Card, band_lifted, band_text, keep, parse_card, shown
from tracker.families.ttb.records.state import Prompt


def _duel(eng: TTBEngine, prompt: Prompt, value: str) -> tuple[bool, int]:
    """pass/fail from the table; returns (passed, margins). A tracker flip goes through `_duel_answer`."""
    words = value.split()
    word = words[0].casefold()
    if word in ("pass", "p", "yes", "success", "hit"):
        margins = count(words[1], "margins") if len(words) > 1 and is_number(words[1]) else 0
        return True, margins
    if word in ("fail", "f", "no", "failure", "miss"):
        # ``fail N``: N Margins of Failure (an Ongoing Challenge counts them, [000:L415]).
        return False, count(words[1], "margins") if len(words) > 1 and is_number(words[1]) else 0
    allowed = "pass, fail" + (" or flip" if flippable(prompt) else "")
    raise Refusal(f"answer {allowed}")


def flippable(p: Prompt) -> bool:
    """Whether ``answer flip`` can resolve this duel: a TN to beat, or a Fated vs Fated duel."""
    return "tn" in p.data or opposed.MARK in p.data


def _score(card: Card, av: int, tn: int) -> tuple[bool, int]:
    """A duel's result for a card: passed, and the Margins of Success (docs/rules/ttb.md#s2-2-5)."""
    total = card.value + av
    passed = not card.is_black_joker and total >= tn
    return passed, max(0, (total - tn) // 5) if passed else 0


def _log_duel(eng: TTBEngine, p: Prompt, card: Card, av: int, bonus: int, cards: list[Card]) -> None:
    tn = int(str(p.data["tn"]))
    skill = str(p.data.get("skill", ""))
    total = card.value + av + bonus
    passed, _ = _score(card, av + bonus, tn)
    extra = f" + Assist {bonus}" if bonus else ""
    eng.log(
        f"{p.who} flips {shown(cards, card)} + {skill.title() or 'AV'} {av}{extra} = {total} vs TN {tn}: "
        f"{'pass' if passed else 'fail'}",
        kind="result",
    )


def _duel_answer(eng: TTBEngine, p: Prompt, value: str) -> None:
    """A duel prompt: the table's pass/fail, or a tracker flip a Fated may cheat (docs/rules/ttb.md#s2-2-4)."""
    word = value.split()[0].casefold()
    if word != "flip" or not flippable(p):
        passed, margins = _duel(eng, p, value)
        # The table's result: no card the tracker knows (a trigger then names its suit, `triggers`).
        triggers.note(eng, p.who, None, p.kind, str(p.data.get("skill", "")))
        OUTCOMES[p.kind](eng, p, passed, margins, None)
        return
    if opposed.MARK in p.data:
        opposed.flip(eng, p, OUTCOMES[p.kind])
        return
    if effects.DEFENDER in p.data:
        _defence_flip(eng, p)
        return
    if effects.COMPARED in p.data:
        _compare(eng, p)
        return
    tn = int(str(p.data["tn"]))
    who = p.who or ""
    skill = str(p.data.get("skill", ""))
    sheet = eng.sheet(who) if who else None
    # A duel on an Aspect rather than a skill (a horror duel's Willpower) carries its acting value (``av``).
    base = int(str(p.data["av"])) if "av" in p.data else sheet.skills.get(skill, 0) if sheet else 0
    av = base + int(str(p.data.get("bonus", 0)))
    bonus = eng.fighter(who).assist if who and "bonus" not in p.data else 0
    fate = int(str(p.data.get("fate", 0)))
    # One card plus one per ⊞ or ⊟, the right one kept (docs/rules/ttb.md#s2-2-3 [000:L83-87], `fate.cards.keep`).
    cards = deck.flip(eng, 1 + abs(fate))
    card = keep(cards, fate)
    _log_duel(eng, p, card, av, bonus, cards)
    if who and eng.fighter(who).assist:
        eng.fighter(who).assist = 0
        eng.fighter(who).assist_turns = 0
    result = _score(card, av + bonus, tn)
    # An untrained duel (no acting value for the skill on the sheet) cannot be cheated (docs/rules/ttb.md#s2-2-4
    # [001:L19, L26]).
    trained = sheet is not None and (skill in sheet.skills or "av" in p.data)
    triggers.note(eng, who, card, p.kind, skill)

    before = card.value + av + bonus - tn
    # An attack's cheat may also lift the damage flip's band with the same Margins (docs/rules/ttb.md#s2-2-4,
    # docs/rules/ttb-damage.md#s2-8-1).
    banded = p.kind == "attack"

    def helps(c: Card) -> bool:
        passed, margins = _score(c, av + bonus, tn)
        if not passed:
            return False
        if not result[0] or margins > result[1]:
            return True
        return banded and band_lifted(before, c.value + av + bonus - tn)

    def makes(c: Card) -> str:
        text = cheat.margins_text(c.value + av + bonus, tn)
        after = c.value + av + bonus - tn
        if banded and result[0] and _score(c, av + bonus, tn) == result and band_lifted(before, after):
            text += f", damage {band_text(after)} rather than {band_text(before)}"
        return text

    if trained and cheat.offer(eng, who, card, cards, fate, helps, p.kind, makes, cheat_av=av + bonus, **p.data):
        return
    OUTCOMES[p.kind](eng, p, *result, card.value + av + bonus - tn)


def _compare(eng: TTBEngine, p: Prompt) -> None:
    """Fatemaster against Fatemaster (docs/rules/ttb.md#s2-2-5): the higher acting value + Rank Value wins, the
    aggressor on a tie; the difference sets the damage flip's modifier (docs/rules/ttb-damage.md#s2-8-1)."""
    attack, defence = int(str(p.data[effects.COMPARED])), int(str(p.data["tn"]))
    diff = attack - defence
    eng.log(
        f"{p.who}: {attack} against {p.data['target']}'s {defence} (acting value + Rank Value, no card): "
        f"{'hit' if diff >= 0 else 'miss'}",
        kind="result",
    )
    OUTCOMES[p.kind](eng, p, diff >= 0, max(diff, 0) // 5, diff if diff >= 0 else None)


def _defence_flip(eng: TTBEngine, p: Prompt) -> None:
    """A Fatemaster's attack on a Fated, flipped by the tracker: the Fated flips Defense against the TN
    (attacker's acting value + Rank Value, docs/rules/ttb.md#s2-2-5) and may cheat a flip that fails
    (docs/rules/ttb.md#s2-2-4)."""
    defender, tn = str(p.data[effects.DEFENDER]), int(str(p.data["tn"]))
    dv = eng.sheet(defender).defense
    if damage.resists_blind(eng, defender):
        # An Unconscious Fated counts as flipping the Black Joker: no card leaves the deck, no cheat
        # (docs/rules/ttb-conditions.md#s2-7).
        eng.log(f"{defender} is Unconscious: its Defense flip counts as the Black Joker", kind="result")
        _defended(eng, p, parse_card("BJ"), dv)
        return
    fate = int(str(p.data.get("fate", 0)))
    cards = deck.flip(eng, 1 + abs(fate))
    card = keep(cards, fate)
    held, _ = _score(card, dv, tn)
    eng.log(
        f"{defender} flips {shown(cards, card)} + Defense {dv} = {card.value + dv} vs TN {tn}: "
        f"{'defends' if held else 'fails'}",
        kind="result",
    )

    def helps(c: Card) -> bool:
        return not held and not c.is_black_joker and c.value > card.value

    def makes(c: Card) -> str:
        total = c.value + dv
        return f"{total} vs TN {tn}: " + ("defends" if total >= tn else f"hit by {tn - total}")

    if cheat.offer(eng, defender, card, cards, fate, helps, p.kind, makes, cheat_av=dv, **p.data):
        return
    _defended(eng, p, card, dv)


def _defended(eng: TTBEngine, p: Prompt, card: Card, dv: int) -> None:
    """The Defense flip is final: the attack hits when it failed, by how far it fell short
    (docs/rules/ttb-damage.md#s2-8-1 step 1)."""
    tn = int(str(p.data["tn"]))
    held, _ = _score(card, dv, tn)
    triggers.note(eng, str(p.data[effects.DEFENDER]), card, p.kind, "defense")
    short = max(tn - card.value - dv, 0)  # a Black Joker fails even a Defense at or above the TN: a tie's hit
    OUTCOMES[p.kind](eng, p, not held, 0 if held else short // 5, None if held else short)


def _cheat(eng: TTBEngine, p: Prompt, value: str) -> None:
    """The cheat offer answered: play a hand card in place of the flip, or keep the flip."""
    assert p.who is not None
    of = str(p.data["cheat_of"])
    flipped = parse_card(str(p.data["cheat_card"]))
    if opposed.MARK in p.data:
        opposed.cheated(eng, p, value, OUTCOMES[of])
        return
    data = cheat.original_data(p.data)
    if value.casefold() in ("no", "n", "none", "keep"):
        card = flipped
        eng.log(f"{p.who} keeps the {flipped.label()}")
    else:
        card = cheat.play(eng, p.who, parse_card(value).code, flipped)
    if effects.DEFENDER in data:
        original = Prompt(kind=of, question=p.question, options=[], who=str(data["attacker"]), data=data)
        if card is not flipped:
            dv = int(str(p.data["cheat_av"]))
            tn = int(str(data["tn"]))
            eng.log(f"{p.who}: {card.label()} + {dv} = {card.value + dv} vs TN {tn}", kind="result")
        _defended(eng, original, card, int(str(p.data["cheat_av"])))
        return
    if of == "damage":
        target, profile = str(data["target"]), str(data["profile"])
        blast = int(str(data.get("blast", 0)))
        damage.land(eng, target, profile, card, bool(data["armor"]), bool(data["kills"]), blast)
        return
    original = Prompt(kind=of, question=p.question, options=[], who=p.who, data=data)
    av = int(str(p.data["cheat_av"]))
    tn = int(str(data["tn"]))
    passed, margins = _score(card, av, tn)
    triggers.note(eng, p.who, card, of, str(data.get("skill", "")))
    if card is not flipped:
        eng.log(
            f"{p.who}: {card.label()} + {av} = {card.value + av} vs TN {tn}: {'pass' if passed else 'fail'}",
            kind="result",
        )
    OUTCOMES[of](eng, original, passed, margins, card.value + av - tn)


#: What each duel prompt does with its result (the table's pass/fail, a flip, or a cheated flip).
OUTCOMES: dict[str, Callable[[TTBEngine, Prompt, bool, int, int | None], None]] = {
    "attack": outcomes.attack_duel,
    "swim": perils.swim,
    "unconscious_check": outcomes.unconscious_check,
    "suffocating_duel": perils.suffocating_duel,
    "doctor": outcomes.doctor,
    "impose": outcomes.contest,
    "trick": outcomes.contest,
    show.KIND: show.resolved,
    ongoing.KIND: ongoing.resolved,
    horror.KIND: horror.resolved,
    horror.AGAINST: horror.resolved_against,
}


def _horror(eng: TTBEngine, p: Prompt, value: str) -> None:
    """A horror duel: a Fatemaster character's is flipped by the horror (`horror.flip_against`)."""
    if value.split()[0].casefold() == "flip" and p.data.get("against"):
        horror.flip_against(eng, p)
        return
    _duel_answer(eng, p, value)


RESOLVERS: dict[str, Callable[[TTBEngine, Prompt, str], None]] = {
    **dict.fromkeys(OUTCOMES, _duel_answer),
    horror.KIND: _horror,
    area.KIND: area.answer,
    crowd.KIND: crowd.answer,
    "cheat": _cheat,
    "end_discard": outcomes.end_discard,
    "hazard_flip": perils.hazard_flip,
    "suffocating_flip": perils.suffocating_flip,
    "critical": outcomes.critical,
    "tie": outcomes.tie,
    "reactivate": outcomes.reactivate,
    "disengaging_strike": outcomes.disengaging_strike,
    "hand_discard": outcomes.hand_discard,
    "discard": outcomes.hand_discard,
    attack.TARGET: attack.answer_target,
    attack.WEAPON: attack.answer_weapon,
    attack.DAMAGE: attack.answer_damage,
    attack.INTO_MELEE: attack.answer_into_melee,
}


def answer(eng: TTBEngine, value: str) -> None:
    """Resolve the pending prompt; a bad value is refused and the prompt stays."""
    prompt = eng.st.prompt
    if prompt is None:
        raise Refusal("there is no question to answer")
    _check(eng, prompt, value)
    eng.st.prompt = None
    eng.log(f"answer: {_shown(prompt, value)}")
    RESOLVERS[prompt.kind](eng, prompt, value)


#: Prompts answered with a card: the log writes the card as the screens do (``10♦``, not ``10M``).
_CARD_ANSWERS = ("cheat", "critical", "suffocating_flip", "hazard_flip", "hand_discard", "discard", attack.DAMAGE)


def _shown(p: Prompt, value: str) -> str:
    """The answer as the log says it: a card in the screens' notation, anything else as typed."""
    if p.kind not in _CARD_ANSWERS:
        return value
    try:
        return parse_card(value).short()
    except Refusal:
        return value


def _check(eng: TTBEngine, p: Prompt, value: str) -> None:
    """Refuse a bad answer before anything changes (so the prompt and the deck stay as they were)."""
    word = value.split()[0].casefold() if value.split() else ""
    if p.kind in ("critical", "suffocating_flip", "hazard_flip"):
        if word != "flip":
            parse_card(value)
    elif p.kind in OUTCOMES:
        ok = {"pass", "p", "yes", "success", "fail", "f", "no", "failure"} | ({"flip"} if flippable(p) else set())
        if word not in ok:
            raise Refusal(f"answer {', '.join(p.options)}")
    elif p.kind == "tie":
        names.resolve(value, p.options)
    elif p.kind == area.KIND:
        area.check(eng, p, value)
    elif p.kind == crowd.KIND:
        crowd.check(eng, p, value)
    elif p.kind in (attack.TARGET, attack.WEAPON, attack.DAMAGE, attack.INTO_MELEE):
        attack.check(eng, p, value)
    elif p.kind == "reactivate":
        if word not in ("yes", "y", "no", "n"):
            raise Refusal("answer yes or no")
    elif p.kind == "disengaging_strike":
        if word not in ("hit", "h", "pass", "yes", "miss", "m", "fail", "no", "n", "decline", "none"):
            raise Refusal("answer hit, miss or no")
    elif p.kind == "end_discard":
        deck.end_discards(eng, p.who or "", value)
    elif p.kind == cheat.KIND:
        if word not in ("no", "n", "none", "keep") and parse_card(value).code not in p.options:
            raise Refusal(f"answer {', '.join(p.options)}")
    elif p.kind in ("hand_discard", "discard"):
        wanted = parse_card(value)
        hand = eng.fighter(p.who or "").hand
        if not any(c == wanted.code or (wanted.suit is None and c.rstrip("RCTM") == str(wanted.value)) for c in hand):
            raise Refusal(f"{p.who}'s Control Hand has no {value} (hand: {', '.join(hand)})")
