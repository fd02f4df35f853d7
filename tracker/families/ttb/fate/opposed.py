"""Fated vs Fated duels the tracker flips (docs/rules/ttb.md#s2-2-4 last point, docs/rules/ttb.md#s2-2-5; [000:L418]).

When a Fated character attacks another Fated character, there is no Fatemaster TN: both flip. The
aggressor's total (card + the weapon skill's acting value) is opposed by the defender's (card +
Defense); the aggressor wins ties. Then each may Cheat Fate once, **the lower total first, the defender
first on a tie** (`cards.cheat_order`): the one behind plays (or declines) first, and the other answers
knowing that card. The attack then resolves with the final totals; the Margins are counted on the
difference (each full 5, docs/rules/ttb.md#s2-2-5).

Impose and Trick between two Fated (docs/rules/ttb-turns.md#s2-5 Impose, Trick [000:L250, L262]) are such duels too: the
actor's Intimidate (Deceive) against the target's Centering (Scrutiny), both acting values read from ``skills``, the
same order of cheating; the skill the target resists with rides in the data (``resist``), and a side with no
acting value for its skill may not cheat (docs/rules/ttb.md#s2-2-4 [001:L19, L26]).

The duel's progress rides in the prompt's data (``op_*`` keys), so an offer waits on disk like any
prompt, and undo replays it from the history.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tracker.families.ttb.duel import CAP, Part
from tracker.families.ttb.engine import TTBEngine
from tracker.families.ttb.fate import cheat, deck
from tracker.families.ttb.fate.cards import (
    BLACK_JOKER,
    Card,
    accuracy_modifier,
    band_lifted,
    band_text,
    can_cheat,
    cheat_order,
    keep,
    parse_card,
    shown,
)
from tracker.families.ttb.records.state import Prompt

#: The prompt data key that marks an attack duel the tracker can flip for both Fated.
MARK = "opposed"

Data = dict[str, str | int | bool | list[str]]
#: What a duel's result does (`answers.OUTCOMES`): passed, Margins, difference.
Outcome = Callable[[TTBEngine, Prompt, bool, int, int | None], None]


def offer_data(eng: TTBEngine, who: str, target: str, skill: str, resist: str | None = None) -> Data:
    """The prompt data that lets ``answer flip`` run a Fated vs Fated duel (empty when it does not apply):
    `skill` is the aggressor's, `resist` the defender's skill (None: its Defense, as against an attack)."""
    if not (eng.sheet(who).fated and eng.sheet(target).fated):
        return {}
    return {MARK: True, "skill": skill, **({"resist": resist} if resist else {})}


def sides_data(ours: Sequence[Part], theirs: Sequence[Part]) -> Data:
    """Each side's Fate Modifier and what changes the totals, as the prompt carries them (`tracker.families.ttb
    .duel`): the aggressor's ⊞/⊟ and total changes, the defender's, and the aggressor's TN changes, which raise
    the total it must reach (Dazed: the TN of the action it attempts +2 [000:L332])."""

    def net(parts: Sequence[Part]) -> int:
        return max(-CAP, min(CAP, sum(p.fate for p in parts)))

    return {
        "op_fate_a": net(ours),
        "op_fate_d": net(theirs),
        "op_bonus_a": sum(p.total for p in ours),
        "op_bonus_d": sum(p.total for p in theirs) + sum(p.tn for p in ours),
        "op_counted": [p.text() for p in ours if p.fate or p.tn or p.total],
        "op_counted_d": [p.text() for p in theirs if p.fate or p.tn or p.total],
    }


def fates(data: Data) -> tuple[int, int, int, int]:
    """The aggressor's and the defender's net Fate Modifier and total changes (0 where none were counted)."""
    return (
        int(str(data.get("op_fate_a", 0))),
        int(str(data.get("op_fate_d", 0))),
        int(str(data.get("op_bonus_a", 0))),
        int(str(data.get("op_bonus_d", 0))),
    )


def describe(data: Data) -> str:
    """The modifiers of both sides as the question names them."""
    fa, fd, _, _ = fates(data)
    out = []
    for who, key, fate in (("aggressor", "op_counted", fa), ("defender", "op_counted_d", fd)):
        counted = data.get(key)
        if isinstance(counted, list) and counted:
            glyphs = "⊞" * fate if fate > 0 else "⊟" * -fate if fate < 0 else "no modifier"
            out.append(f"{who} {glyphs} ({', '.join(counted)}), {1 + abs(fate)} card{'s' if fate else ''}")
    return "; ".join(out)


def defence(eng: TTBEngine, target: str, data: Data) -> tuple[int, str]:
    """The defender's acting value in a duel and its name: the ``resist`` skill's, else Defense."""
    resist = str(data.get("resist", ""))
    if resist:
        return eng.sheet(target).skills.get(resist, 0), resist.title()
    return eng.sheet(target).defense, "Defense"


def flip(eng: TTBEngine, p: Prompt, outcome: Outcome) -> None:
    """``answer flip``: both flip, then the cheat offers in order, then the outcome."""
    who, target = p.who or "", str(p.data["target"])
    skill = str(p.data.get("skill", ""))
    sheet = eng.sheet(who)
    bonus = eng.fighter(who).assist
    if bonus:
        eng.fighter(who).assist = 0
        eng.fighter(who).assist_turns = 0
    dv, resisted = defence(eng, target, p.data)
    fa, fd, bonus_a, bonus_d = fates(p.data)
    # An Unconscious Fated resisting an attack counts as flipping the Black Joker (docs/rules/ttb-conditions.md#s2-7
    # [000:L350]): no card leaves the deck for it, and it cannot cheat (docs/rules/ttb.md#s2-2-4). Impose and Trick are
    # no attacks.
    blind = not p.data.get("resist") and eng.sheet(target).fated and eng.fighter(target).unconscious
    attack_cards = deck.flip(eng, 1 + abs(fa))
    attack = keep(attack_cards, fa)
    defend_cards = [parse_card(BLACK_JOKER)] if blind else deck.flip(eng, 1 + abs(fd))
    defend = keep(defend_cards, fd)
    av = sheet.skills.get(skill, 0) + bonus + bonus_a
    dv += bonus_d
    flips = "is Unconscious: its Defense counts as the" if blind else "flips"
    eng.log(
        f"{who} flips {shown(attack_cards, attack)} + {skill.title() or 'AV'} {av} = {attack.value + av}; "
        f"{target} {flips} {shown(defend_cards, defend)} + {resisted} {dv} = {defend.value + dv}",
        kind="result",
    )
    resist = str(p.data.get("resist", ""))
    # A side with no acting value for its skill may not cheat (docs/rules/ttb.md#s2-2-4 [001:L19, L26]); Defense always
    # has one; nor a side under net ⊟ or whose flip holds the Black Joker [000:L63-65, L87-89].
    barred = [
        name
        for name, ok, cards, fate in (
            (who, skill in sheet.skills, attack_cards, fa),
            (target, not resist or resist in eng.sheet(target).skills, defend_cards, fd),
        )
        if not ok or not can_cheat(cards, fate)
    ]
    data: Data = {
        **p.data,
        "op_attack": attack.code,
        "op_defend": defend.code,
        "op_av": av,
        "op_dv": dv,
        "op_offered": barred + ([target] if blind and target not in barred else []),
    }
    _next_offer(eng, Prompt(kind=p.kind, question=p.question, options=p.options, who=who, data=data), outcome)


def cheated(eng: TTBEngine, p: Prompt, value: str, outcome: Outcome) -> None:
    """A cheat offer in the duel answered: the played card replaces that side's flip; the next may answer."""
    data = cheat.original_data(p.data)
    side = "op_attack" if p.who == data["op_who"] else "op_defend"
    flipped = parse_card(str(data[side]))
    if value.casefold() in ("no", "n", "none", "keep"):
        eng.log(f"{p.who} keeps the {flipped.label()}")
    else:
        data[side] = cheat.play(eng, p.who or "", parse_card(value).code, flipped).code
    who = str(data["op_who"])
    original = Prompt(kind=str(p.data["cheat_of"]), question=p.question, options=[], who=who, data=data)
    _next_offer(eng, original, outcome)


def _totals(data: Data) -> tuple[Card, int, Card, int]:
    attack, defend = parse_card(str(data["op_attack"])), parse_card(str(data["op_defend"]))
    return attack, attack.value + int(str(data["op_av"])), defend, defend.value + int(str(data["op_dv"]))


def _result(attack: Card, a_total: int, defend: Card, d_total: int) -> tuple[bool, int, int]:
    """Passed, Margins, difference: the aggressor wins ties; a Black Joker fails its side (docs/rules/ttb.md#s2-2-1)."""
    if attack.is_black_joker:
        return False, 0, a_total - d_total
    if defend.is_black_joker:
        diff = max(a_total - d_total, 0)
        return True, diff // 5, diff
    diff = a_total - d_total
    return diff >= 0, max(diff, 0) // 5, diff


def _helps(data: Data, attacker: bool) -> Callable[[Card], bool]:
    """Whether a hand card would do better for one side: a hit, more Margins or a better damage-flip band
    for the aggressor; a miss, fewer Margins or a worse band for the defender (a band counts even when the
    Margins stay the same, docs/rules/ttb-damage.md#s2-8-1; the offer comes only when some card could help,
    docs/rules/ttb.md#s2-2-4)."""
    attack, a_total, defend, d_total = _totals(data)
    passed, margins, diff = _result(attack, a_total, defend, d_total)
    av, dv = int(str(data["op_av"])), int(str(data["op_dv"]))
    banded = not data.get("resist")  # an attack's damage flip has a band; Impose and Trick have none

    def helps(card: Card) -> bool:
        if attacker:
            hit, more, after = _result(card, card.value + av, defend, d_total)
            return hit and (not passed or more > margins or (banded and band_lifted(diff, after)))
        hit, fewer, after = _result(attack, a_total, card, card.value + dv)
        return passed and (not hit or fewer < margins or (banded and band_lifted(after, diff)))

    return helps


def _makes(data: Data, attacker: bool) -> Callable[[Card], str]:
    """What a hand card would make of the duel, as the cheat offer shows it ("13 vs 11: hit, 0 Margins")."""
    attack, a_total, defend, d_total = _totals(data)
    passed, was, diff = _result(attack, a_total, defend, d_total)
    av, dv = int(str(data["op_av"])), int(str(data["op_dv"]))

    def makes(card: Card) -> str:
        if attacker:
            mine, theirs = card.value + av, d_total
            hit, margins, after = _result(card, mine, defend, d_total)
        else:
            mine, theirs = card.value + dv, a_total
            hit, margins, after = _result(attack, a_total, card, mine)
        won, lost = ("pass", "fail") if data.get("resist") else ("hit", "miss")
        outcome = f"{won}, {margins} Margin{'' if margins == 1 else 's'}" if hit else lost
        banded = not data.get("resist")
        if banded and hit and passed and margins == was and accuracy_modifier(after) != accuracy_modifier(diff):
            outcome += f", damage {band_text(after)} rather than {band_text(diff)}"
        return f"{mine} vs {theirs}: {outcome}"

    return makes


def _next_offer(eng: TTBEngine, p: Prompt, outcome: Outcome) -> None:
    """Offer the cheat to whoever has not had the chance, lower total first; resolve when none is left."""
    who, target = p.who or "", str(p.data["target"])
    data: Data = {**p.data, "op_who": who}
    attack, a_total, defend, d_total = _totals(data)
    before = data.get("op_offered")
    offered = list(before) if isinstance(before, list) else []
    for name in cheat_order(who, a_total, target, d_total):
        if name in offered:
            continue
        offered.append(name)
        data["op_offered"] = offered
        flipped = attack if name == who else defend
        helps, makes = _helps(data, name == who), _makes(data, name == who)
        if cheat.offer(eng, name, flipped, [flipped], 0, helps, p.kind, makes, **data):
            return
    passed, margins, diff = _result(attack, a_total, defend, d_total)
    outcome(eng, Prompt(kind=p.kind, question=p.question, options=[], who=who, data=data), passed, margins, diff)
