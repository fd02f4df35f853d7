"""2d20 roll odds (docs/rules/2d20.md#s3-2 tests, Focus, bought dice, Momentum, Challenge Dice;
docs/rules/2d20-combat.md#s3-6 the Difficulty by range; docs/rules/2d20-combat.md#s3-8 Effects need an Icon):
hand-computed cases, every face enumerated against the convolution, and the Zones panel's chances per target."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import d20_view, example_session, pinned
from tracker.families.session import Session
from tracker.families.twod20.dice.odds import challenge_odds, ladder, roll_odds
from tracker.families.twod20.dice.rolls import score_pool
from tracker.families.twod20.engine import attack_check
from tracker.families.twod20.present import odds_report
from tracker.present.words import percent
from tracker.store import files

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_s3_2_two_dice_tn_10_difficulty_1() -> None:
    """Each die fails on 11-20 (half the faces), so D1 fails only when both do: 3/4. Successes per die:
    a 1 scores 2 (1/20), 2-10 score 1 (9/20): E[S] = 11/20 a die, 22/20 for two; Momentum = S − 1 on a pass,
    so E = E[S] − 1 + P(S = 0) = 22/20 − 1 + 1/4 = 7/20."""
    odds = roll_odds(10, 1, 2)
    assert odds.success == Fraction(3, 4)
    assert odds.momentum == Fraction(7, 20)
    assert odds.complication == 1 - Fraction(19, 20) ** 2
    assert sum(odds.successes.values()) == 1


def test_s3_2_focus_scores_two_at_or_under_its_rating() -> None:
    """TN 11, Focus 3, D2: a die scores 2 on 1-3 (3/20), 1 on 4-11 (8/20), 0 on 12-20 (9/20). Failing is
    both 0 (81/400) or a 1 and a 0 (2·8·9/400 = 144/400): pass 175/400 = 7/16."""
    assert roll_odds(11, 2, 2, focus=3).success == Fraction(7, 16)
    # Without the Focus only a natural 1 scores 2: 1 − (9/20)² − 2·(10/20)(9/20) = 1 − 81/400 − 180/400.
    assert roll_odds(11, 2, 2).success == Fraction(139, 400)


def test_s3_2_bought_dice_each_marginal_gain_and_cost() -> None:
    """TN 10, D1: 2d20 3/4, 3d20 7/8, 4d20 15/16, 5d20 31/32; the dice cost 1, then 2, then 3 [004:L492-498]."""
    pools = ladder(10, 1)
    assert [p.success for p in pools] == [Fraction(3, 4), Fraction(7, 8), Fraction(15, 16), Fraction(31, 32)]
    assert [p.cost for p in pools] == [0, 1, 3, 6]
    assert odds_report.gains(pools) == [
        "+1d20: 75 % → 88 %, costs 1",
        "+2d20: 88 % → 94 %, costs 2 more (3 in all)",
        "+3d20: 94 % → 97 %, costs 3 more (6 in all)",
    ]


def test_s3_2_difficulty_0_passes_with_no_momentum() -> None:
    """[004:L436-438]: Difficulty 0 is an automatic success with no Momentum."""
    odds = roll_odds(5, 0, 3)
    assert odds.success == 1 and odds.momentum == 0


def test_s3_2_challenge_dice_expectations() -> None:
    """Faces 1, 2, 0, 0, 1+Icon, 1+Icon: 5/6 damage and 1/3 Icon a die; at least one Icon (an Effect can
    trigger, docs/rules/2d20-combat.md#s3-8 [004:L1770]) is 1 − (2/3)^N."""
    one = challenge_odds(1)
    assert (one.expected, one.icons, one.effect_chance) == (Fraction(5, 6), Fraction(1, 3), Fraction(1, 3))
    four = challenge_odds(4)
    assert four.expected == Fraction(20, 6) and four.icons == Fraction(4, 3)
    assert four.effect_chance == 1 - Fraction(2, 3) ** 4
    assert sum(four.totals.values()) == 1
    assert challenge_odds(0).expected == 0


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 20),
    st.integers(0, 5),
    st.integers(1, 3),
    st.one_of(st.none(), st.integers(0, 20)),
    st.integers(1, 5),
)
def test_the_convolution_equals_every_face_scored_by_the_engine(
    tn: int, difficulty: int, dice: int, focus: int | None, complication_range: int
) -> None:
    """All 20^n faces through `dice.score_pool` (the engine's own scoring) give the same exact numbers."""
    faces = list(product(range(1, 21), repeat=dice))
    rolls = [score_pool(f, tn, difficulty, focus, complication_range) for f in faces]
    odds = roll_odds(tn, difficulty, dice, focus, complication_range)
    n = len(faces)
    assert odds.success == Fraction(sum(r.passed for r in rolls), n)
    assert odds.momentum == Fraction(sum(r.momentum for r in rolls), n)
    assert odds.complication == Fraction(sum(r.complications > 0 for r in rolls), n)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 20), st.integers(0, 6), st.one_of(st.none(), st.integers(0, 5)))
def test_a_bought_die_never_lowers_the_chance_and_the_odds_add_up(tn: int, difficulty: int, focus: int | None) -> None:
    pools = ladder(tn, difficulty, focus)
    for pool in pools:
        assert sum(pool.successes.values()) == 1
        assert 0 <= pool.success <= 1
    assert [p.success for p in pools] == sorted(p.success for p in pools)
    assert [p.momentum for p in pools] == sorted(p.momentum for p in pools)


def test_s3_6_the_zones_panel_chance_per_target_uses_the_panels_difficulty() -> None:
    """Ada Vance (Coordination 10 + Fight 2 = TN 12, a Close pistol, Focus "Pistols": a die ≤ 2 scores 2
    [004:L350-351]) against each cultist: the Difficulty is the Zones panel's (range and conditions), the
    chances are the test's with 2d20 and each bought die, the Focus counted."""
    s = example_session(EXAMPLES / "skirmish_srd.toml")
    eng = d20_view(s)
    shown = eng.odds("Ada Vance")
    assert shown is not None
    assert [r.label for r in shown.rows] == ["Cult Enforcer", "Cultist", "Cult Priest"]
    for row in shown.rows:
        check = attack_check(eng.rules, "Ada Vance", row.label, "close")
        assert row.cells[1] == str(check.difficulty)
        assert list(row.cells[2:6]) == [percent(p.success) for p in ladder(12, check.difficulty, focus=2)]
    notes = "".join(span.text for span in shown.notes)
    assert "TN 12 = Coordination 10 + Fight 2" in notes
    assert "Service pistol 4[CD]: 3.3 damage, 1.3 Effects expected" in notes


def test_s3_6_the_panel_follows_prone_at_range() -> None:
    """A Prone target at Medium range or further is +1 Difficulty to a ranged attack (SRD,
    docs/rules/2d20-combat.md#s3-6): the chance against it falls."""
    s = example_session(EXAMPLES / "skirmish_srd.toml")
    eng = d20_view(s)
    before = eng.odds("Ada Vance")
    s.execute("add Cultist prone")
    after = eng.odds("Ada Vance")
    assert before is not None and after is not None
    old, new = before.rows[1], after.rows[1]
    assert old.label == new.label == "Cultist"
    assert int(new.cells[1]) == int(old.cells[1]) + 1
    assert new.cells[2:6] == tuple(percent(p.success) for p in ladder(12, int(new.cells[1]), focus=2))


def test_the_panel_says_when_the_sheet_gives_no_tn() -> None:
    """Infinity's ranged test is Coordination + Ballistics; a Morat Trooper's sheet has no Coordination."""
    s = example_session(EXAMPLES / "firefight_infinity.toml")
    eng = d20_view(s)
    shown = eng.odds("Morat Trooper")
    assert shown is not None and not shown.rows
    assert "has no Coordination" in "".join(span.text for span in shown.notes)
    ishikawa = eng.odds("Lt. Ishikawa")
    assert ishikawa is not None and ishikawa.rows
    assert "TN 13 = Coordination 10 + Ballistics 3" in "".join(span.text for span in ishikawa.notes)


def test_infinity_untrained_attack_shows_complications_on_19_and_20(tmp_path: Path) -> None:
    """docs/rules/2d20.md#s3-2 with [003:L34-36]: under Infinity an untrained skill makes Complications on 19-20; Hacker
    Vel without Ballistics sees the wider range and its chance, and the ladder counts it. A trained attacker
    and the SRD keep a 20 only."""
    text = pinned((EXAMPLES / "firefight_infinity.toml").read_text(encoding="utf-8"))
    untrained = text.replace("skills = { hacking = 3, ballistics = 1,", "skills = { hacking = 3,")
    assert untrained != text
    (tmp_path / "vel.toml").write_text(untrained, encoding="utf-8")
    s = Session(files.load(tmp_path / "vel.toml"))
    shown = d20_view(s).odds("Hacker Vel")
    assert shown is not None and shown.rows
    notes = "".join(span.text for span in shown.notes)
    two = roll_odds(int(odds_report.targets(d20_view(s).rules, "Hacker Vel").tn or 0), 1, 2, None, 2)
    assert f"Untrained in Ballistics: complications on 19-20 ({percent(two.complication, True)} with 2d20)" in notes
    assert two.complication == 1 - Fraction(18, 20) ** 2
    t = odds_report.targets(d20_view(s).rules, "Hacker Vel")
    assert t.complication_range == 2 and all(r.pools[0].complication == two.complication for r in t.rows)
    trained = odds_report.targets(d20_view(s).rules, "Lt. Ishikawa")
    assert trained.complication_range == 1 and not trained.untrained
    srd = example_session(EXAMPLES / "skirmish_srd.toml")
    assert odds_report.complication_range(d20_view(srd).rules, "Ada Vance", "melee") == (1, "")
