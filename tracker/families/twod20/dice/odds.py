"""Exact odds of a 2d20 test and of Challenge Dice (docs/rules/2d20.md#s3-2, docs/rules/2d20-combat.md#s3-8).

A test's dice are independent, so the chance of every total is a convolution of one die's twenty faces,
each scored by the engine's own `dice.die_successes` (≤ TN 1 success; a 1, or ≤ the Focus's rating, 2)
and complication range: every one of the 20^n outcomes counted once, as whole numbers (`Fraction`), not
sampled. Likewise Challenge Dice from their six faces (1, 2, 0, 0, 1 + Effect, 1 + Effect).

What a test is worth (docs/rules/2d20.md#s3-2): it passes when the successes reach the Difficulty, and then
generates Momentum = successes − Difficulty; Difficulty 0 passes with no roll and no Momentum. The
expected Momentum counts a failed test as 0, so it is what the table can expect to bank before rolling.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from tracker.engine.errors import Refusal
from tracker.families.twod20.dice.rolls import (
    BASE_DICE,
    CHALLENGE_FACES,
    MAX_BOUGHT_DICE,
    MAX_COMPLICATION_RANGE,
    MAX_DICE,
    bought_dice_cost,
    complication_floor,
    die_successes,
    opposed_outcome,
)

#: (successes, complications) → how many outcomes give it.
Counts = dict[tuple[int, int], int]


def _die(tn: int, focus: int | None, complication_range: int) -> Counts:
    """One d20's twenty faces, scored as the engine scores them."""
    floor = complication_floor(complication_range)
    out: Counts = {}
    for face in range(1, 21):
        key = (die_successes(face, tn, focus), 1 if face >= floor else 0)
        out[key] = out.get(key, 0) + 1
    return out


def _add(a: Counts, b: Counts) -> Counts:
    out: Counts = {}
    for (s1, c1), n1 in a.items():
        for (s2, c2), n2 in b.items():
            key = (s1 + s2, c1 + c2)
            out[key] = out.get(key, 0) + n1 * n2
    return out


@functools.lru_cache(maxsize=1024)  # exact sums over 20^dice faces: the same few tests are asked again and again
def pool_counts(tn: int, dice: int, focus: int | None = None, complication_range: int = 1) -> Counts:
    """(successes, complications) → outcomes of `dice` d20s, over all 20^dice of them."""
    one = _die(tn, focus, complication_range)
    out: Counts = {(0, 0): 1}
    for _ in range(dice):
        out = _add(out, one)
    return out


@dataclass(frozen=True)
class RollOdds:
    """One test with `dice` d20s: pass, expected Momentum, at least one Complication, and the successes."""

    dice: int
    #: Momentum (or Threat) the bought dice of this pool cost in all (docs/rules/2d20.md#s3-2: 1, 2, 3).
    cost: int
    success: Fraction
    momentum: Fraction
    complication: Fraction
    #: successes → chance.
    successes: Mapping[int, Fraction]


@functools.lru_cache(maxsize=4096)  # a pure function of its arguments; the result is never changed by a caller
def roll_odds(tn: int, difficulty: int, dice: int, focus: int | None = None, complication_range: int = 1) -> RollOdds:
    """The exact odds of a test of `dice` d20s against `tn` and `difficulty` (docs/rules/2d20.md#s3-2)."""
    if difficulty < 0:
        raise Refusal(f"Difficulty cannot be negative (D{difficulty})")
    if not 1 <= dice <= MAX_DICE:
        raise Refusal(f"a test rolls 1 to {MAX_DICE} d20s ({dice} asked)")
    if focus is not None and focus < 0:
        raise Refusal(f"a Focus rating cannot be negative ({focus})")
    if not 1 <= complication_range <= MAX_COMPLICATION_RANGE:
        raise Refusal(f"complication range must be 1-{MAX_COMPLICATION_RANGE} (20 up to 16-20)")
    counts = pool_counts(tn, dice, focus, complication_range)
    ways = 20**dice
    by_successes: dict[int, int] = {}
    passed = momentum = complicated = 0
    for (s, c), n in counts.items():
        by_successes[s] = by_successes.get(s, 0) + n
        if s >= difficulty:
            passed += n
            if difficulty > 0:
                momentum += (s - difficulty) * n
        if c:
            complicated += n
    bought = max(0, dice - BASE_DICE)
    return RollOdds(
        dice,
        bought * (bought + 1) // 2,
        Fraction(passed, ways),
        Fraction(momentum, ways),
        Fraction(complicated, ways),
        {s: Fraction(n, ways) for s, n in sorted(by_successes.items())},
    )


def ladder(tn: int, difficulty: int, focus: int | None = None, complication_range: int = 1) -> list[RollOdds]:
    """The test with 2d20 and with each bought die up to the most (docs/rules/2d20.md#s3-2: 3 bought, 5d20)."""
    bought_dice_cost(MAX_BOUGHT_DICE)  # the rule's own cap
    return [roll_odds(tn, difficulty, BASE_DICE + k, focus, complication_range) for k in range(MAX_BOUGHT_DICE + 1)]


def outcomes(
    tn: int, difficulty: int, dice: int, focus: int | None = None, complication_range: int = 1
) -> dict[tuple[bool, int], int]:
    """(passed, Momentum) → how many of the 20^dice outcomes give it, scored as `score_pool` scores them."""
    out: dict[tuple[bool, int], int] = {}
    for (s, _), n in pool_counts(tn, dice, focus, complication_range).items():
        passed = s >= difficulty
        key = (passed, s - difficulty if passed and difficulty > 0 else 0)
        out[key] = out.get(key, 0) + n
    return out


@dataclass(frozen=True)
class OpposedOdds:
    """An opposed test (docs/rules/2d20.md#s3-2): the chance the active side wins, that the reactive side wins, and the
    active side's expected Momentum (0 when it does not win)."""

    active: Fraction
    reactive: Fraction
    momentum: Fraction


@functools.lru_cache(maxsize=4096)
def opposed_odds(
    active: tuple[int, int, int, int | None, int], reactive: tuple[int, int, int, int | None, int]
) -> OpposedOdds:
    """Exact odds of an opposed test; each side is (TN, Difficulty, dice, focus, complication range).

    The two pools are independent, so every pair of their outcomes is counted once, weighted by how many
    faces give each, and settled by `opposed_outcome`, the function the roll itself uses.
    """
    for tn, difficulty, dice, focus, crange in (active, reactive):
        roll_odds(tn, difficulty, dice, focus, crange)  # the same checks as a lone test
    mine, theirs = outcomes(*active), outcomes(*reactive)
    ways = 20 ** (active[2] + reactive[2])
    won = lost = momentum = 0
    for (ap, am), n in mine.items():
        for (rp, rm), k in theirs.items():
            side, left = opposed_outcome(ap, am, rp, rm)
            if side == "active":
                won += n * k
                momentum += left * n * k
            elif side == "reactive":
                lost += n * k
    return OpposedOdds(Fraction(won, ways), Fraction(lost, ways), Fraction(momentum, ways))


# --- Challenge Dice ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChallengeOdds:
    """`dice` Challenge Dice: the expected total and Effects, and the chance of at least one Effect (no
    damage effect triggers without one, docs/rules/2d20-combat.md#s3-8 [004:L1770])."""

    dice: int
    expected: Fraction
    icons: Fraction
    effect_chance: Fraction
    #: total → chance.
    totals: Mapping[int, Fraction]


def challenge_odds(dice: int) -> ChallengeOdds:
    if dice < 0:
        raise Refusal(f"cannot roll {dice}[CD]: the number of Challenge Dice cannot be negative")
    one: Counts = {}
    for value, icon in CHALLENGE_FACES.values():
        key = (value, 1 if icon else 0)
        one[key] = one.get(key, 0) + 1
    counts: Counts = {(0, 0): 1}
    for _ in range(dice):
        counts = _add(counts, one)
    ways = len(CHALLENGE_FACES) ** dice
    totals: dict[int, int] = {}
    for (t, _), n in counts.items():
        totals[t] = totals.get(t, 0) + n
    return ChallengeOdds(
        dice,
        Fraction(sum(t * n for (t, _), n in counts.items()), ways),
        Fraction(sum(i * n for (_, i), n in counts.items()), ways),
        Fraction(sum(n for (_, i), n in counts.items() if i), ways),
        {t: Fraction(n, ways) for t, n in sorted(totals.items())},
    )
