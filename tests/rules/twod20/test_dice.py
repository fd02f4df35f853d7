"""docs/rules/2d20.md#s3-2 (Dice and tests: TN, Focus, natural 1, complication range, Momentum, Difficulty 0,
Challenge Dice), docs/rules/2d20.md#s3-3 (bought dice, Fortune's Perfect Opportunity), scenario C32 and decision B14."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.engine.errors import Refusal
from tracker.families.twod20.dice.rolls import (
    CHALLENGE_FACES,
    ChallengeRoll,
    PoolRoll,
    bought_dice_cost,
    die_successes,
    roll_challenge,
    roll_pool,
)


@dataclass
class Dice:
    """A seeded state (the `Seeded` protocol of tracker.engine.rng): a seed and a draw counter."""

    seed: int = 7
    draws: int = 0
    secret: str | None = None
    branch: int = 0


# --- docs/rules/2d20.md#s3-2 Challenge Dice (B14) ---------------------------------------------------------------------


def test_s3_2_challenge_face_table_b14_faces_5_and_6_both_give_1_and_an_icon() -> None:
    """docs/rules/2d20.md#s3-2, B14: 1 → 1; 2 → 2; 3, 4 → 0; 5 and 6 → 1 + Icon in every profile."""
    assert CHALLENGE_FACES == {1: (1, False), 2: (2, False), 3: (0, False), 4: (0, False), 5: (1, True), 6: (1, True)}
    for face, (value, icon) in CHALLENGE_FACES.items():
        roll = roll_challenge(Dice(), 1, faces=[face])
        assert (roll.total, roll.icons) == (value, int(icon))


def test_s3_2_challenge_dice_total_and_effects_from_gm_faces() -> None:
    """docs/rules/2d20.md#s3-2: a [CD] roll totals the face values and counts the Effects (5 and 6)."""
    roll = roll_challenge(Dice(), 6, faces=[1, 2, 3, 4, 5, 6])
    assert roll == ChallengeRoll(faces=(1, 2, 3, 4, 5, 6), total=5, icons=2)


def test_s3_2_challenge_describe_shows_every_face() -> None:
    """docs/rules/2d20.md#s3-2: the log line shows each face, starring the Effects."""
    assert roll_challenge(Dice(), 3, faces=[1, 5, 3]).describe() == "3[CD]: 1, 5★, 3 → 2, 1 Effect"
    assert roll_challenge(Dice(), 2, faces=[6, 5]).describe() == "2[CD]: 6★, 5★ → 2, 2 Effects"


def test_s3_2_zero_challenge_dice_total_zero() -> None:
    """docs/rules/2d20.md#s3-2: 0[CD] is allowed, totals 0 and draws nothing."""
    state = Dice()
    roll = roll_challenge(state, 0)
    assert roll == ChallengeRoll(faces=(), total=0, icons=0)
    assert state.draws == 0
    assert roll.describe() == "0[CD] → 0, 0 Effects"


def test_s3_2_challenge_dice_seeded_and_replayable() -> None:
    """docs/rules/index.md#s1-3 / docs/rules/2d20.md#s3-2: the same seed and draw counter give the same faces; each die
    advances the counter."""
    first, second = Dice(seed=42, draws=3), Dice(seed=42, draws=3)
    a = roll_challenge(first, 8)
    b = roll_challenge(second, 8)
    assert a == b
    assert first.draws == second.draws == 3 + 8
    assert all(1 <= face <= 6 for face in a.faces)
    assert roll_challenge(first, 8) == roll_challenge(second, 8)


@pytest.mark.parametrize(
    ("count", "faces"),
    [(3, [1, 2]), (2, [1, 2, 3]), (1, [0]), (1, [7]), (-1, None)],
)
def test_s3_2_challenge_dice_refuse_bad_counts_and_faces(count: int, faces: list[int] | None) -> None:
    """docs/rules/2d20.md#s3-2: GM faces must be 1-6 and one per die; a refusal draws nothing."""
    state = Dice()
    with pytest.raises(Refusal) as info:
        roll_challenge(state, count, faces=faces)
    assert "\n" not in str(info.value)
    assert state.draws == 0


@given(st.lists(st.integers(min_value=1, max_value=6), max_size=12))
def test_s3_2_challenge_total_is_at_most_twice_the_dice(faces: list[int]) -> None:
    """docs/rules/2d20.md#s3-2: no Challenge Die is worth more than 2, and Effects never exceed the dice."""
    roll = roll_challenge(Dice(), len(faces), faces=faces)
    assert 0 <= roll.total <= 2 * len(faces)
    assert 0 <= roll.icons <= len(faces)


# --- docs/rules/2d20.md#s3-2 d20 tests --------------------------------------------------------------------------------


def test_s3_2_each_die_at_or_under_tn_scores_one_success() -> None:
    """docs/rules/2d20.md#s3-2: each die ≤ TN scores 1 success; above TN scores none."""
    roll = roll_pool(Dice(), target=10, difficulty=1, faces=[10, 11])
    assert roll.successes == 1
    assert roll.passed
    assert roll.momentum == 0


def test_s3_2_natural_1_scores_two_successes() -> None:
    """docs/rules/2d20.md#s3-2: a natural 1 is a critical, worth 2 successes."""
    roll = roll_pool(Dice(), target=10, difficulty=2, faces=[1, 15])
    assert roll.successes == 2
    assert roll.passed


def test_s3_2_focus_die_at_or_under_skill_scores_two() -> None:
    """docs/rules/2d20.md#s3-2: with a Focus, a die ≤ the skill rating scores 2; above it the TN rule applies."""
    roll = roll_pool(Dice(), target=11, difficulty=2, focus=3, faces=[3, 4])
    assert roll.successes == 2 + 1
    without = roll_pool(Dice(), target=11, difficulty=2, faces=[3, 4])
    assert without.successes == 2


def test_s3_2_no_die_scores_more_than_two() -> None:
    """docs/rules/2d20.md#s3-2: a 1 under a Focus still scores 2, not 3 or 4 ("a 1 adds nothing more")."""
    assert die_successes(1, target=12, focus=4) == 2
    assert die_successes(1, target=12, focus=None) == 2
    assert die_successes(4, target=12, focus=4) == 2
    assert die_successes(5, target=12, focus=4) == 1
    assert die_successes(13, target=12, focus=4) == 0


def test_s3_2_focus_zero_adds_nothing() -> None:
    """docs/rules/2d20.md#s3-2: a Focus on a skill rated 0 gives no die ≤ 0, so only the TN and natural-1 rules
    score."""
    roll = roll_pool(Dice(), target=8, difficulty=1, focus=0, faces=[2, 9])
    assert roll.successes == 1


def test_s3_2_pass_and_momentum_is_successes_minus_difficulty() -> None:
    """docs/rules/2d20.md#s3-2: pass if successes ≥ Difficulty; Momentum = successes − Difficulty."""
    roll = roll_pool(Dice(), target=11, difficulty=2, focus=3, faces=[3, 17, 1], dice=3)
    assert (roll.successes, roll.passed, roll.momentum) == (4, True, 2)


def test_s3_2_fail_gives_no_momentum() -> None:
    """docs/rules/2d20.md#s3-2: a failed test generates no Momentum."""
    roll = roll_pool(Dice(), target=9, difficulty=3, faces=[5, 12])
    assert (roll.successes, roll.passed, roll.momentum) == (1, False, 0)


def test_s3_2_difficulty_0_passes_with_no_momentum() -> None:
    """docs/rules/2d20.md#s3-2 [004:L436-438]: Difficulty 0 is an automatic success with no Momentum, even when
    rolled."""
    roll = roll_pool(Dice(), target=12, difficulty=0, faces=[1, 2])
    assert roll.passed
    assert roll.successes == 3
    assert roll.momentum == 0
    assert roll_pool(Dice(), target=5, difficulty=0, faces=[18, 19]).passed


def test_s3_2_complication_on_20_by_default() -> None:
    """docs/rules/2d20.md#s3-2: the complication range is normally 1 — only a 20 is a Complication."""
    roll = roll_pool(Dice(), target=10, difficulty=1, faces=[20, 19])
    assert roll.complications == 1


@pytest.mark.parametrize(
    ("complication_range", "expected"),
    [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)],
)
def test_s3_2_complication_range_widens_one_face_per_step(complication_range: int, expected: int) -> None:
    """docs/rules/2d20.md#s3-2: +1 range → 19-20, +2 → 18-20 … the maximum 5 → 16-20."""
    roll = roll_pool(
        Dice(), target=10, difficulty=1, dice=5, complication_range=complication_range, faces=[20, 19, 18, 17, 16]
    )
    assert roll.complications == expected
    assert (
        roll_pool(Dice(), target=10, difficulty=1, complication_range=complication_range, faces=[15, 15]).complications
        == 0
    )


@pytest.mark.parametrize("complication_range", [0, 6, -1])
def test_s3_2_complication_range_outside_1_to_5_refused(complication_range: int) -> None:
    """docs/rules/2d20.md#s3-2: the complication range runs 1 (20) to 5 (16-20)."""
    state = Dice()
    with pytest.raises(Refusal, match="complication range"):
        roll_pool(state, target=10, difficulty=1, complication_range=complication_range)
    assert state.draws == 0


def test_s3_2_complication_and_success_on_the_same_die() -> None:
    """docs/rules/2d20.md#s3-2: a die in the complication range still scores if it is ≤ TN (TN 19, range 2, a 19)."""
    roll = roll_pool(Dice(), target=19, difficulty=1, complication_range=2, faces=[19, 20])
    assert (roll.successes, roll.complications) == (1, 2)


def test_s3_2_pool_describe() -> None:
    """docs/rules/2d20.md#s3-2: the log line shows every die, TN, focus, the counts and the verdict."""
    roll = roll_pool(Dice(), target=11, difficulty=2, dice=3, focus=3, faces=[3, 17, 1])
    assert roll.describe() == "d20: 3, 17, 1 vs TN 11 (focus 3) → 4 successes, 0 complications; D2: pass, 2 Momentum"
    failed = roll_pool(Dice(), target=9, difficulty=3, complication_range=2, faces=[5, 20])
    assert failed.describe() == "d20: 5, 20 vs TN 9 (complications on 19-20) → 1 success, 1 complication; D3: fail"


def test_s3_2_pool_seeded_and_replayable() -> None:
    """docs/rules/index.md#s1-3 / docs/rules/2d20.md#s3-2: the same seed and draws give the same d20s; each die advances
    the counter by one."""
    first, second = Dice(seed=2024, draws=11), Dice(seed=2024, draws=11)
    a = roll_pool(first, target=10, difficulty=1, dice=4, focus=2)
    b = roll_pool(second, target=10, difficulty=1, dice=4, focus=2)
    assert a == b
    assert len(a.faces) == 4
    assert all(1 <= face <= 20 for face in a.faces)
    assert first.draws == second.draws == 11 + 4
    again = roll_pool(first, target=10, difficulty=1, dice=4, focus=2)
    assert first.draws == 11 + 8
    assert again == roll_pool(second, target=10, difficulty=1, dice=4, focus=2)


def test_s3_2_different_seeds_give_different_rolls() -> None:
    """docs/rules/index.md#s1-3: the seed matters (a long enough roll from two seeds differs)."""
    a = roll_challenge(Dice(seed=1), 20)
    b = roll_challenge(Dice(seed=2), 20)
    assert a.faces != b.faces


def test_s3_2_gm_faces_draw_nothing() -> None:
    """docs/rules/2d20.md#s3-2: faces the GM rolled at the table are scored as given, without touching the seed."""
    state = Dice(draws=5)
    roll = roll_pool(state, target=10, difficulty=1, faces=[4, 20])
    assert roll.faces == (4, 20)
    assert state.draws == 5


@pytest.mark.parametrize(
    ("dice", "faces"),
    [(2, [4]), (2, [4, 5, 6]), (2, [0, 5]), (2, [21, 5]), (3, [1, 2])],
)
def test_s3_2_gm_faces_refused_when_wrong(dice: int, faces: list[int]) -> None:
    """docs/rules/2d20.md#s3-2: GM faces must be 1-20, one per die; the refusal is one line."""
    with pytest.raises(Refusal) as info:
        roll_pool(Dice(), target=10, difficulty=1, dice=dice, faces=faces)
    assert "\n" not in str(info.value)


def test_s3_2_at_most_three_bought_dice() -> None:
    """docs/rules/2d20.md#s3-2 [004:L349, L492]: 2d20 plus at most 3 bought dice — a 6th die is refused."""
    assert len(roll_pool(Dice(), target=10, difficulty=1, dice=5).faces) == 5
    state = Dice()
    with pytest.raises(Refusal, match="at most 3 bought d20s"):
        roll_pool(state, target=10, difficulty=1, dice=6)
    assert state.draws == 0


def test_s3_2_negative_difficulty_refused() -> None:
    """docs/rules/2d20.md#s3-2: Difficulty runs from 0 upwards."""
    with pytest.raises(Refusal, match="Difficulty"):
        roll_pool(Dice(), target=10, difficulty=-1)


def test_s3_2_single_die_for_an_assistant() -> None:
    """docs/rules/2d20.md#s3-2 Assistance: an assistant rolls one d20 with no bought dice."""
    roll = roll_pool(Dice(), target=10, difficulty=1, dice=1, faces=[7])
    assert roll.successes == 1
    with pytest.raises(Refusal):
        roll_pool(Dice(), target=10, difficulty=1, dice=0)


@given(
    st.lists(st.integers(min_value=1, max_value=20), min_size=1, max_size=5),
    st.integers(min_value=1, max_value=20),
    st.integers(min_value=0, max_value=8),
    st.one_of(st.none(), st.integers(min_value=0, max_value=5)),
    st.integers(min_value=1, max_value=5),
)
def test_s3_2_pool_invariants(
    faces: list[int], target: int, difficulty: int, focus: int | None, complication_range: int
) -> None:
    """docs/rules/2d20.md#s3-2: at most 2 successes per die; Momentum ≥ 0 and only on a pass; pass ⇔ successes ≥ D."""
    roll = roll_pool(
        Dice(), target, difficulty, dice=len(faces), focus=focus, complication_range=complication_range, faces=faces
    )
    assert 0 <= roll.successes <= 2 * len(faces)
    assert 0 <= roll.complications <= len(faces)
    assert roll.passed == (roll.successes >= difficulty)
    assert roll.momentum == (roll.successes - difficulty if roll.passed and difficulty else 0)


# --- C32: buying dice, Perfect Opportunity -----------------------------------------------------------


def test_c32_bought_dice_cost_1_2_3() -> None:
    """C32 / docs/rules/2d20.md#s3-2 [004:L492-498]: the bought dice cost 1, 2, 3 — three cost 1 + 2 + 3 = 6."""
    assert [bought_dice_cost(n) for n in range(4)] == [0, 1, 3, 6]


def test_c32_fourth_bought_die_refused() -> None:
    """C32: a 4th bought die is refused."""
    with pytest.raises(Refusal, match="at most 3 bought d20s"):
        bought_dice_cost(4)
    with pytest.raises(Refusal):
        bought_dice_cost(-1)


def test_c32_perfect_opportunity_sets_first_die_to_1_and_adds_no_die() -> None:
    """C32 / docs/rules/2d20.md#s3-3 Fortune: Perfect Opportunity makes one die a 1 before rolling; the pool stays 2."""
    state = Dice(seed=3)
    roll = roll_pool(state, target=10, difficulty=2, perfect_opportunity=True)
    assert len(roll.faces) == 2
    assert roll.faces[0] == 1
    assert roll.perfect_opportunity
    assert state.draws == 1
    assert roll.successes >= 2
    assert roll.passed


def test_c32_perfect_opportunity_with_bought_dice_and_gm_faces() -> None:
    """C32: with 3 bought dice and Perfect Opportunity the GM enters the 4 dice actually rolled."""
    roll = roll_pool(Dice(), target=10, difficulty=3, dice=5, perfect_opportunity=True, faces=[12, 20, 9, 14])
    assert roll.faces == (1, 12, 20, 9, 14)
    assert (roll.successes, roll.complications, roll.momentum) == (3, 1, 0)
    assert roll.describe().startswith("d20: 1 (Perfect Opportunity), 12, 20, 9, 14 vs TN 10")
    with pytest.raises(Refusal, match="Perfect Opportunity"):
        roll_pool(Dice(), target=10, difficulty=1, perfect_opportunity=True, faces=[1, 5])


def test_pool_roll_is_frozen() -> None:
    """docs/rules/index.md#s1-3: a roll is a record of what happened; it cannot be edited after the fact."""
    roll = roll_pool(Dice(), target=10, difficulty=1, faces=[3, 4])
    assert isinstance(roll, PoolRoll)
    with pytest.raises(AttributeError):
        roll.momentum = 5  # type: ignore[misc]
