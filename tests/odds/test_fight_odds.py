"""The odds of the whole fight (docs/reference/cli.md ``tracker odds FILE --fight``): tiny fights whose outcome
is counted exactly agree with the runs within their 95 % interval, in both families; a fight already won reads
100 % in 0 rounds; more enemies lower the party's chance; the same ``--seed`` gives the same figures on one core
or two; the Fate Deck's saved order (the seeded future) is never read; bad input is one line."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import Tracker, run, session_from
from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.playouts.report import fight_odds
from tracker.store.files import parse_text

#: A Fated gunslinger against a Guild Thug: one shot a round (no General AP), the Thug at 1 Wound, and no cheating,
#: so within one round the party wins exactly when the shot hits and its damage flip is no Black Joker.
GUNSLINGER = """
[encounter]
name = "One shot"
system = "ttb"
seed = SEED

[settings]
offer_cheat = false

[[combatants]]
name = "Sofia Ramos"
kind = "fated"
wounds = 30
base_general_ap = 0
skills = { pistol = 3 }
weapons = [{ name = "Peacebringer", kind = "projectile", range = 12, damage = "2/3/4" }]

[[combatants]]
name = "Guild Thug"
rank_value = 5
initiative = -5
defense = 4
wounds = 1
"""


def ttb_one_shot() -> Fraction:
    """The exact chance (docs/rules/ttb.md#s2-2-5, docs/rules/ttb-damage.md#s2-8-1): the duel's card c passes TN 4 + 5 =
    9 with AV 3 when c ≥ 6 (the Red Joker is 14, the Black Joker fails); the accuracy D = c − 6 sets the damage flip's
    cards: 3 at D 0 (⊟⊟), 2 at D 1-5 (⊟), 1 from D 6; the flip does nothing only if the Black Joker is among them
    [000:L386]. Every card drawn before (the initiative flip) is as unknown as the rest, so each card is 1 in 54 and the
    damage cards come from the 53 left."""
    passing = {6: 4, **dict.fromkeys(range(7, 12), 4), 12: 4, 13: 4, 14: 1}
    total = Fraction(0)
    for value, count in passing.items():
        d = value - 6
        cards = 3 if d == 0 else 2 if d <= 5 else 1
        total += Fraction(count, 54) * (1 - Fraction(cards, 53))
    return total


#: Kit shoots a minor NPC at 1 stress: a hit kills (it is Dying) unless the three Challenge Dice all roll blanks.
SHOT_2D20 = """
[encounter]
name = "One shot"
system = "2d20"
seed = SEED
profile = "srd"
action_order = "alternating"
momentum = 0
threat = 0

[[zones]]
name = "Yard"

[[combatants]]
name = "Kit"
attributes = { agility = 10, brawn = 10, coordination = 10, insight = 10, reason = 10, will = 10 }
skills = { fight = 1 }
stress = 40
zone = "Yard"
tactics = "cautious"
weapons = [{ name = "Rifle", range = "close", damage = 2 }]

[[combatants]]
name = "Mook"
npc_type = "minor"
attributes = { agility = 6, brawn = 6, coordination = 6, insight = 6, reason = 6, will = 6 }
stress = 1
harm_capacity = 1
zone = "Yard"
"""


def twod20_one_shot() -> Fraction:
    """The exact chance (docs/rules/2d20.md#s3-2, docs/rules/2d20-combat.md#s3-8): 2d20 against TN 11 (Coordination 10 +
    Fight 1), Difficulty 2; a 1 is two successes [004:L1329]; then 2 + 1 (Fight) Challenge Dice, whose 3s and 4s are
    blanks [004:L1743]."""
    faces = range(1, 21)
    hits = sum(1 for a in faces for b in faces if _successes(a) + _successes(b) >= 2)
    return Fraction(hits, 400) * (1 - Fraction(1, 27))


def _successes(face: int) -> int:
    return 2 if face == 1 else 1 if face <= 11 else 0


def _session(text: str, seed: int = 1) -> Session:
    return Session(parse_text(text.replace("SEED", str(seed)), "<test>"))


def _within(p: float, exact: Fraction, runs: int) -> None:
    q = float(exact)
    half = 1.96 * math.sqrt(q * (1 - q) / runs)
    assert abs(p - q) <= half, f"{p:.4f} vs the exact {q:.4f} ± {half:.4f}"


@pytest.mark.parametrize(("text", "exact"), [(GUNSLINGER, ttb_one_shot()), (SHOT_2D20, twod20_one_shot())])
def test_one_shot_agrees_with_the_exact_count(text: str, exact: Fraction) -> None:
    """Both families: the party's chance to win within one round is the chance its one attack ends the fight."""
    s = _session(text)
    odds = fight_odds(s.family, s.rules, 600, seed=11, cap=1, workers=1)
    _within(odds.summed.sides["players"], exact, 600)
    assert odds.summed.sides["players"] + odds.summed.sides["undecided"] == pytest.approx(1)
    assert odds.summed.ci95 == pytest.approx(1.96 * math.sqrt(float(exact) * (1 - float(exact)) / 600), abs=0.01)


def test_a_fight_already_won_reads_certain_in_no_rounds() -> None:
    s = run(_session(GUNSLINGER), "start", "damage Thug 5", "answer flip")
    odds = fight_odds(s.family, s.rules, 50, seed=1, workers=1)
    assert odds.summed.sides["players"] == 1
    assert (odds.summed.median, odds.summed.p90) == (0, 0)
    assert odds.summed.fates["Guild Thug"][0] == 1
    assert odds.story == ["the players win after 0 rounds"]


def _gang(mooks: int) -> str:
    """Kit (8 stress, steady) against `mooks` copies of the Mook at 6 stress."""
    body = SHOT_2D20.replace("stress = 40", "stress = 8").replace('tactics = "cautious"', "")
    head, _, mook = body.partition('[[combatants]]\nname = "Mook"')
    tougher = mook.replace("stress = 1", "stress = 6")
    return head + "".join(f'[[combatants]]\nname = "Mook {n}"{tougher}' for n in range(mooks))


def test_more_enemies_lower_the_partys_chance() -> None:
    """The same party against one, then three of the same NPC."""
    one, three = _session(_gang(1)), _session(_gang(3))
    alone = fight_odds(one.family, one.rules, 200, seed=3, workers=1).summed.sides["players"]
    gang = fight_odds(three.family, three.rules, 200, seed=3, workers=1).summed.sides["players"]
    assert gang < alone


def test_the_same_seed_gives_the_same_figures_on_one_core_or_two() -> None:
    s = _session(GUNSLINGER)
    a = fight_odds(s.family, s.rules, 240, seed=5, cap=2, workers=1).json()
    b = fight_odds(s.family, s.rules, 240, seed=5, cap=2, workers=2).json()
    assert a == b
    assert a != fight_odds(s.family, s.rules, 240, seed=6, cap=2, workers=1).json()


def test_the_decks_saved_order_is_never_read() -> None:
    """The seeded future of one state turns up the Red Joker at the next flip, of the other the Black Joker: the
    table has seen neither, and both read the same odds."""
    lucky, unlucky = run(_session(GUNSLINGER), "start"), run(_session(GUNSLINGER), "start")
    for s, top in ((lucky, "RJ"), (unlucky, "BJ")):
        deck = s.rules.state.deck  # type: ignore[attr-defined]
        if top in deck:
            deck.remove(top)
            deck.append(top)  # the next flip takes the last card
    a = fight_odds(lucky.family, lucky.rules, 200, seed=2, cap=1, workers=1).json()
    b = fight_odds(unlucky.family, unlucky.rules, 200, seed=2, cap=1, workers=1).json()
    assert lucky.rules.state.deck != unlucky.rules.state.deck  # type: ignore[attr-defined]
    assert a == b


def test_another_file_seed_gives_the_same_odds_within_the_interval() -> None:
    """The file's own seed (or secret) keys the tracker's draws, not the runs': the party's chance stays within
    the interval of the exact one."""
    for seed in (1, 2, 3):
        s = _session(SHOT_2D20, seed)
        odds = fight_odds(s.family, s.rules, 400, seed=9, cap=1, workers=1)
        _within(odds.summed.sides["players"], twod20_one_shot(), 400)


def test_unknown_tactics_is_one_line(tmp_path: Path, tracker: Tracker) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GUNSLINGER.replace("SEED", "1").replace("wounds = 1\n", 'wounds = 1\ntactics = "sneaky"\n'))
    result = tracker("odds", path, "--fight", "--runs", "10")
    assert result.code == 1
    assert result.err.count("\n") == 1 and "tactics" in result.err and "'brute'" in result.err


def test_runs_zero_is_one_line(tmp_path: Path, tracker: Tracker) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GUNSLINGER.replace("SEED", "1"))
    result = tracker("odds", path, "--fight", "--runs", "0")
    assert result.code == 2
    assert result.err.count("\n") == 1 and "--runs" in result.err


def test_a_fight_nobody_can_win_is_undecided_with_the_reason(tmp_path: Path, tracker: Tracker) -> None:
    """Armor no hit gets through: every run stops at the round cap, never hangs."""
    text = SHOT_2D20.replace("SEED", "1").replace("stress = 1\n", "stress = 1\narmor = 40\n")
    text = text.replace("stress = 40\n", "stress = 40\narmor = 40\n")
    path = tmp_path / "t.toml"
    path.write_text(text)
    result = tracker("odds", path, "--fight", "--runs", "20", "--rounds", "3", "--json")
    assert result.code == 0
    data = json.loads(result.out)
    assert data["sides"]["undecided"] == 1
    assert "nobody fell" in data["reason"]
    text_result = tracker("odds", path, "--fight", "--runs", "20", "--rounds", "3")
    assert "undecided 100 %" in text_result.out


def test_json_has_the_contracts_keys(tmp_path: Path, tracker: Tracker) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GUNSLINGER.replace("SEED", "1"))
    data = json.loads(tracker("odds", path, "--fight", "--runs", "30", "--seed", "7", "--json").out)
    assert list(data)[:8] == ["runs", "seed", "rounds_cap", "sides", "ci95", "combatants", "rounds", "typical"]
    assert (data["runs"], data["seed"], data["rounds_cap"]) == (30, 7, 12)
    assert set(data["combatants"]["Sofia Ramos"]) == {"falls", "dies"}
    assert data["typical"][-1].startswith(("the players win", "the fatemaster win", "undecided"))


def test_check_rate_prints_one_line(tmp_path: Path, tracker: Tracker) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GUNSLINGER.replace("SEED", "1"))
    result = tracker("check", path, "--rate")
    assert result.code == 0
    assert result.out.strip().endswith("%") and "the party wins" in result.out


def test_refused_runs_count() -> None:
    s = session_from('[[combatants]]\nname = "A"\nkind = "fated"\nwounds = 3\n')
    with pytest.raises(Refusal):
        fight_odds(s.family, s.rules, 0)


def test_000_l419_a_fight_no_side_can_win_names_who_stood_in_every_run() -> None:
    """[000:L419]: a Fatemaster character that ignores critical effects does not fall at 0 Wounds, so the brawl's
    Clockwork Sentry stands through every run and no side wins: the reason names who never fell, by side."""
    from tracker.store.opening import load_session

    session = load_session(str(Path(__file__).resolve().parents[2] / "examples" / "brawl.toml"))
    odds = fight_odds(session.family, session.rules, 30, seed=1, workers=1)
    assert odds.summed.sides["undecided"] == 1.0
    assert "Clockwork Sentry" in odds.summed.reason and "(fatemaster)" in odds.summed.reason
    assert odds.summed.reason.startswith("no side won in 12 rounds in any run; never fell: ")
