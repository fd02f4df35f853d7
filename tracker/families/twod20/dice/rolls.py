"""Dice of the 2d20 System: skill tests on d20 pools and Challenge Dice (docs/rules/2d20.md#s3-2,
docs/rules/2d20.md#s3-3).

Every roll goes through the seeded generator in `tracker.engine.rng`, so replaying a session from its seed
gives the same faces. The GM may instead type the faces rolled at the table; those are checked and scored
by the same rules. Everything is validated before the first die is drawn, so a refused roll never advances
the draw counter (a Refusal leaves the state untouched).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tracker.engine import rng
from tracker.engine.errors import Refusal
from tracker.present.words import counted

#: Challenge Die faces → (value, Effect icon). Faces 5 and 6 both give 1 + Icon in every profile,
#: despite the Infinity screen's "each 6 creates an Effect" (docs/rules/2d20.md#s3-2, decision B14).
CHALLENGE_FACES: dict[int, tuple[int, bool]] = {
    1: (1, False),
    2: (2, False),
    3: (0, False),
    4: (0, False),
    5: (1, True),
    6: (1, True),
}

#: The most Challenge Dice one count may ask for (README "Limits"): a `challenge N`, a damage's `cover=`, a
#: Persistent or Burning X, a combatant's Cover or Morale. The rules set no maximum; the largest roll they
#: build, a weapon's rating + a skill or attribute bonus of at most 5 [004:L1745, 003:L276-286] + Momentum
#: (at most 6 [004:L193]) + an advantage's 2 [004:L1766], stays under 25, so 50 is a sane cap, and a
#: typo of 100000000 is refused instead of rolling for hours.
MAX_CHALLENGE_DICE = 50
#: The most dice any one roll makes, the bounded counts added up (Cover with the Defend, Bolster and Hit the
#: Dirt grants on top): never reached by a file or a command, it only guards against a hang.
_ROLL_CEILING = 4 * MAX_CHALLENGE_DICE

#: A test rolls two d20s; up to three more may be bought (docs/rules/2d20.md#s3-2 [004:L349, L492]).
BASE_DICE = 2
MAX_BOUGHT_DICE = 3
MAX_DICE = BASE_DICE + MAX_BOUGHT_DICE

#: The complication range is normally 1 (a 20) and widens to at most 5 (16-20) (docs/rules/2d20.md#s3-2).
MAX_COMPLICATION_RANGE = 5


def _check_faces(faces: Sequence[int], count: int, sides: int, what: str) -> tuple[int, ...]:
    """The GM's faces, checked: exactly `count` of them, each a face the die really has."""
    given = tuple(faces)
    if len(given) != count:
        raise Refusal(f"{what}: expected {count} faces, got {len(given)}")
    for face in given:
        # bool is an int subclass; True is not a face anyone rolled.
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise Refusal(f"{what}: {face!r} is not a face of a d{sides} (1-{sides})")
    return given


# --- Challenge Dice -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChallengeRoll:
    """A roll of Challenge Dice ([CD]): the faces, their total and the Effects (icons) among them."""

    faces: tuple[int, ...]
    total: int
    icons: int

    def describe(self) -> str:
        """One log line showing every face, e.g. "3[CD]: 1, 5★, 3 → 2, 1 Effect"."""
        shown = ", ".join(f"{face}★" if CHALLENGE_FACES[face][1] else str(face) for face in self.faces)
        head = f"{len(self.faces)}[CD]" + (f": {shown}" if shown else "")
        return f"{head} → {self.total}, {counted(self.icons, 'Effect')}"


def score_challenge(faces: Sequence[int]) -> ChallengeRoll:
    """Score Challenge Dice faces by the face table (docs/rules/2d20.md#s3-2): 1 → 1, 2 → 2, 3-4 → 0, 5-6 → 1 + Icon."""
    given = tuple(faces)
    total = sum(CHALLENGE_FACES[face][0] for face in given)
    icons = sum(1 for face in given if CHALLENGE_FACES[face][1])
    return ChallengeRoll(faces=given, total=total, icons=icons)


def roll_challenge(state: rng.Seeded, count: int, faces: Sequence[int] | None = None) -> ChallengeRoll:
    """Roll `count` Challenge Dice, or score the faces the GM rolled at the table.

    A count of 0 is allowed (a damage rating can drop to nothing) and totals 0.
    """
    if count < 0:
        raise Refusal(f"cannot roll {count}[CD]: the number of Challenge Dice cannot be negative")
    if count > _ROLL_CEILING:
        raise Refusal(f"cannot roll {count}[CD]: at most {_ROLL_CEILING} Challenge Dice in one roll")
    if faces is not None:
        return score_challenge(_check_faces(faces, count, 6, f"{count}[CD]"))
    return score_challenge([rng.roll(state, 6) for _ in range(count)])


# --- d20 skill tests ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolRoll:
    """A skill test: the d20 faces, what they were rolled against, and the outcome (docs/rules/2d20.md#s3-2)."""

    faces: tuple[int, ...]
    target: int
    difficulty: int
    focus: int | None
    complication_range: int
    successes: int
    complications: int
    passed: bool
    momentum: int
    #: The first face is the 1 set by Fortune's Perfect Opportunity, not a rolled die (C32).
    perfect_opportunity: bool = False

    def describe(self) -> str:
        """One log line showing every die, e.g.

        "d20: 3, 17, 1 vs TN 11 (focus 3) → 4 successes, 0 complications; D2: pass, 2 Momentum".
        """
        shown = [str(face) for face in self.faces]
        if self.perfect_opportunity and shown:
            shown[0] += " (Perfect Opportunity)"
        against = f"TN {self.target}"
        extras = []
        if self.focus is not None:
            extras.append(f"focus {self.focus}")
        if self.complication_range > 1:
            extras.append(f"complications on {complication_floor(self.complication_range)}-20")
        if extras:
            against += f" ({', '.join(extras)})"
        counts = f"{counted(self.successes, 'success')}, {counted(self.complications, 'complication')}"
        verdict = f"pass, {self.momentum} Momentum" if self.passed else "fail"
        return f"d20: {', '.join(shown)} vs {against} → {counts}; D{self.difficulty}: {verdict}"


def complication_floor(complication_range: int) -> int:
    """The lowest face that is a Complication: range 1 → 20 only, range 2 → 19-20 … range 5 → 16-20."""
    return 21 - complication_range


def die_successes(face: int, target: int, focus: int | None) -> int:
    """Successes one d20 scores (docs/rules/2d20.md#s3-2): ≤ TN → 1; a natural 1, or ≤ the Focus's skill rating → 2.

    A die never scores more than 2, however many of the rules apply to it.
    """
    if face == 1 or (focus is not None and face <= focus):
        return 2
    return 1 if face <= target else 0


def most_momentum(difficulty: int, dice: int) -> int:
    """The most Momentum a test of `dice` d20s at `difficulty` can generate: every die scoring 2 (a 1, or
    under the Focus, docs/rules/2d20.md#s3-2); none at Difficulty 0 [004:L436-438]. Known before any die is drawn."""
    return max(0, 2 * dice - difficulty) if difficulty > 0 else 0


def bought_dice_cost(bought: int) -> int:
    """Momentum (or Threat) for buying extra d20s: the 1st costs 1, the 2nd 2, the 3rd 3 (C32: 3 dice = 6).

    At most 3 can be bought; a 4th is refused (docs/rules/2d20.md#s3-2 [004:L492-498]).
    """
    if bought < 0:
        raise Refusal(f"cannot buy {bought} d20s")
    if bought > MAX_BOUGHT_DICE:
        raise Refusal(f"at most {MAX_BOUGHT_DICE} bought d20s (asked for {bought})")
    return bought * (bought + 1) // 2


def _check_test(target: int, difficulty: int, dice: int, focus: int | None, complication_range: int) -> None:
    """Refuse a test the rules do not allow, before any die is drawn."""
    if difficulty < 0:
        raise Refusal(f"Difficulty cannot be negative (D{difficulty})")
    if dice > MAX_DICE:
        raise Refusal(f"at most {MAX_BOUGHT_DICE} bought d20s ({dice} dice asked, {MAX_DICE} at most)")
    if dice < 1:
        raise Refusal(f"a test rolls at least one d20 ({dice} asked)")
    if focus is not None and focus < 0:
        raise Refusal(f"a Focus rating cannot be negative ({focus})")
    if not 1 <= complication_range <= MAX_COMPLICATION_RANGE:
        raise Refusal(
            f"complication range must be 1-{MAX_COMPLICATION_RANGE} (20 up to 16-20), not {complication_range}"
        )


def score_pool(
    faces: Sequence[int],
    target: int,
    difficulty: int,
    focus: int | None = None,
    complication_range: int = 1,
    perfect_opportunity: bool = False,
) -> PoolRoll:
    """Score d20 faces against TN and Difficulty (docs/rules/2d20.md#s3-2).

    Pass when successes ≥ Difficulty; Momentum is the excess. Difficulty 0 passes with no Momentum
    (docs/rules/2d20.md#s3-2 [004:L436-438]): the dice are only rolled at the GM's discretion there, and their
    successes buy nothing, though a rolled 20 is still a Complication.
    """
    given = tuple(faces)
    successes = sum(die_successes(face, target, focus) for face in given)
    floor = complication_floor(complication_range)
    complications = sum(1 for face in given if face >= floor)
    passed = successes >= difficulty
    momentum = successes - difficulty if passed and difficulty > 0 else 0
    return PoolRoll(
        faces=given,
        target=target,
        difficulty=difficulty,
        focus=focus,
        complication_range=complication_range,
        successes=successes,
        complications=complications,
        passed=passed,
        momentum=momentum,
        perfect_opportunity=perfect_opportunity,
    )


#: Who an opposed test goes to (docs/rules/2d20.md#s3-2 "Opposed test"): the active side, the reactive side, or neither.
Side = Literal["active", "reactive", "none"]


def opposed_outcome(
    active_passed: bool, active_momentum: int, reactive_passed: bool, reactive_momentum: int
) -> tuple[Side, int]:
    """Who wins an opposed test and with how much Momentum (docs/rules/2d20.md#s3-2 [004:L446-451; 002:L49-55]).

    Active passes and reactive fails: active, its Momentum. Active fails and reactive passes: reactive, its
    Momentum. Both fail: neither. Both pass: the higher Momentum wins, less the loser's; a tie goes to the
    active side with 0 Momentum. The odds (`tracker.families.twod20.dice.odds.opposed_odds`) count with this
    same function, so the chance the tracker states is the chance of this rule.
    """
    if active_passed and not reactive_passed:
        return "active", active_momentum
    if reactive_passed and not active_passed:
        return "reactive", reactive_momentum
    if not active_passed:
        return "none", 0
    if active_momentum >= reactive_momentum:
        return "active", active_momentum - reactive_momentum
    return "reactive", reactive_momentum - active_momentum


def roll_pool(
    state: rng.Seeded,
    target: int,
    difficulty: int,
    dice: int = BASE_DICE,
    focus: int | None = None,
    complication_range: int = 1,
    faces: Sequence[int] | None = None,
    perfect_opportunity: bool = False,
) -> PoolRoll:
    """Roll a skill test of `dice` d20s (2 + bought dice, at most 5) against TN `target`.

    `focus` is the skill rating when an applicable Focus applies (a die at or under it scores 2).
    `perfect_opportunity` (Fortune) sets the first die to 1 before rolling; it adds no die, so only
    `dice - 1` are rolled (C32). GM-entered `faces` are the faces of the dice actually rolled: `dice` of
    them, or `dice - 1` with Perfect Opportunity. A single die (`dice=1`) is an assistant's roll.
    """
    _check_test(target, difficulty, dice, focus, complication_range)
    rolled = dice - 1 if perfect_opportunity else dice
    if faces is not None:
        hint = " (Perfect Opportunity sets the first die; enter the others)" if perfect_opportunity else ""
        got = _check_faces(faces, rolled, 20, f"d20 test{hint}")
    else:
        got = tuple(rng.roll(state, 20) for _ in range(rolled))
    final = ((1,) if perfect_opportunity else ()) + got
    return score_pool(final, target, difficulty, focus, complication_range, perfect_opportunity)
