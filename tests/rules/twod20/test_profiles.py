"""docs/rules/2d20.md#s3-0 (2d20 profiles and parameters as data): `resolve_profile` for srd, infinity and
secret-war, per-encounter overrides through the file's ``[settings]`` table, and bad overrides as file
errors. Decisions B1 (ranged base Difficulty), B4 (Prone), B5 (Secondary Target), B23 (Reactions),
B32 (stress display) and B34 (stress recovery)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from tests.conftest import d20, d20_state, pending, run, session_from
from tests.rules.twod20.scenes import KIT_ATTRIBUTES, KIT_SKILLS, combatant, header, zones
from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.families.twod20.engine import TwoD20Engine, range_report
from tracker.families.twod20.tables.profiles import OVERRIDABLE, PROFILES, Profile, resolve_profile
from tracker.store.files import FileInvalid, parse_text


def encounter(profile: str = "srd", settings: str = "", stress: object = 10) -> str:
    """A small 2d20 file: a PC in zone A and a minor NPC two zones away in C."""
    return (
        header(profile=profile, settings=settings)
        + zones("A", "B", "C")
        + combatant("Kit", attributes=KIT_ATTRIBUTES, skills=KIT_SKILLS, stress=stress, zone="A")
        + combatant("Thug", npc_type="minor", stress=5, zone="C")
    )


def engine_of(s: Session) -> TwoD20Engine:
    eng = s.rules
    assert isinstance(eng, TwoD20Engine)
    return eng


# --- resolve_profile ---------------------------------------------------------------------------------


def test_s3_0_three_profiles_are_defined_by_name() -> None:
    """docs/rules/2d20.md#s3-0: the profiles are srd (default), infinity and secret-war, each a Profile named so."""
    assert set(PROFILES) == {"srd", "infinity", "secret-war"}
    for name in PROFILES:
        profile = resolve_profile(name)
        assert isinstance(profile, Profile)
        assert profile.name == name


def test_s3_0_srd_parameters() -> None:
    """docs/rules/2d20.md#s3-0 srd column: Threat, Momentum max 6 and −1 decay, Fortune 3/5, ranged D2 (B1),
    one Stress track with Wounds, Defeated at 3 Harms, Prone +1/+1 (B4), half rounded up (B5),
    1 Reaction per round (B23), stress filling up (B32) and clearing at scene end."""
    p = resolve_profile("srd")
    assert p.gm_pool == "threat"
    assert (p.momentum_max, p.momentum_decay) == (6, 1)
    assert (p.meta_currency, p.starting_meta, p.meta_max) == ("fortune", 3, 5)
    assert p.ranged_base_difficulty == 2
    assert p.melee_base_difficulty == 1 and p.mental_base_difficulty == 1
    assert p.tracks == (("stress", "wound", "armor"),)
    assert p.mental_harm == "trauma"
    assert p.defeat_at_harms == 3
    assert (p.prone_ranged_difficulty, p.prone_bonus_momentum, p.prone_hindered) == (1, 1, False)
    assert p.secondary_target == "up"
    assert p.reactions == "one"
    assert p.stress_display == "taken"
    assert p.stress_recovery == "scene_end"
    assert p.harm_threshold == 5 and p.harm_per_5_stress is False


def test_s3_0_infinity_parameters() -> None:
    """docs/rules/2d20.md#s3-0 infinity column: Heat, Vigour/Resolve/Firewall with Wound/Metanoia/Breach, 5 Wounds
    or 5 Breaches lethal, ranged D1 (B1), Prone +2/+2 and Hindered (B4), half rounded down (B5),
    escalating Reactions (B23), stress shown as what remains (B32); Momentum falls back to the SRD."""
    p = resolve_profile("infinity")
    assert p.gm_pool == "heat"
    assert [t for t, _, _ in p.tracks] == ["vigour", "resolve", "firewall"]
    assert [h for _, h, _ in p.tracks] == ["wound", "metanoia", "breach"]
    assert dict(p.lethal_harms) == {"wound": 5, "breach": 5}
    assert p.defeat_at_harms == 0
    assert p.ranged_base_difficulty == 1
    assert (p.prone_ranged_difficulty, p.prone_bonus_momentum, p.prone_hindered) == (2, 2, True)
    assert p.secondary_target == "down"
    assert p.dazed_twice_staggered is True
    assert p.reactions == "escalating"
    assert p.stress_display == "remaining"
    assert p.infinity_conditions is True
    assert (p.momentum_max, p.momentum_decay) == (6, 1)


def test_s3_0_secret_war_parameters() -> None:
    """docs/rules/2d20.md#s3-0 sw_sheet column: Threat, ranged D1 (B1), Secondary Target full effects (B5), stress
    cleared at the start of the next scene (B34); everything the sheet is silent on is the SRD value. The
    action list differs too: the sheet lists its own actions [002:L79-99] (tested below)."""
    p = resolve_profile("secret-war")
    srd = resolve_profile("srd")
    assert p.gm_pool == "threat"
    assert p.ranged_base_difficulty == 1
    assert p.secondary_target == "full"
    assert p.stress_recovery == "scene_start"
    assert p.ready_lapses == "round_end"  # a readied action is lost before the next round [002:L89], B9
    # The attack tests' attribute + skill [002:L119-121]: the sheet names its skills Fighting and Academia.
    assert (p.melee_test, p.ranged_test, p.mental_test) == (
        "agility+fighting",
        "coordination+fighting",
        "will+academia",
    )
    # Bonus Damage at most 3 [002:L61, L138] (B7); bonus damage by the attribute bands [002:L101-109], the
    # attributes the SRD variant names [004:L1750]; Confidence to the start of the next turn [002:L140] (B6).
    assert p.bonus_damage_max == 3 and p.damage_bonus == "attribute" and p.confidence_lasts == "turn"
    assert (p.melee_damage_bonus, p.ranged_damage_bonus, p.mental_damage_bonus) == ("brawn", "insight", "will")
    # The target's side of the opposed melee and mental attacks [002:L119-121].
    assert (p.melee_defence, p.mental_defence) == ("agility+fighting", "will+resilience")
    silent = {f.name for f in fields(Profile)} - {
        "name",
        "ranged_base_difficulty",
        "secondary_target",
        "stress_recovery",
        "ready_lapses",
        "actions",
        "melee_test",
        "ranged_test",
        "mental_test",
        "bonus_damage_max",
        "damage_bonus",
        "melee_damage_bonus",
        "ranged_damage_bonus",
        "mental_damage_bonus",
        "confidence_lasts",
        "melee_defence",
        "mental_defence",
    }
    for key in silent:
        assert getattr(p, key) == getattr(srd, key), key


def test_s3_0_unknown_profile_is_refused() -> None:
    """docs/rules/2d20.md#s3-0: only the three profiles exist; another name is refused with the choices."""
    with pytest.raises(Refusal, match="srd, infinity, secret-war"):
        resolve_profile("dune")


def test_s3_0_no_overrides_returns_the_base_profile() -> None:
    """docs/rules/2d20.md#s3-0: with no overrides (None or empty), the profile is the table's column unchanged."""
    assert resolve_profile("srd", None) is PROFILES["srd"]
    assert resolve_profile("infinity", {}) is PROFILES["infinity"]


def test_s3_0_override_replaces_one_parameter_and_keeps_the_rest() -> None:
    """docs/rules/2d20.md#s3-0 / B1: a table can mix, e.g. the SRD with ranged base Difficulty 1 (L1678's reading)."""
    p = resolve_profile("srd", {"ranged_base_difficulty": 1})
    assert p.ranged_base_difficulty == 1
    assert p.name == "srd"
    assert p.momentum_max == 6 and p.gm_pool == "threat"
    assert PROFILES["srd"].ranged_base_difficulty == 2, "the shared base profile is never mutated"


def test_s3_0_several_overrides_mix_profiles() -> None:
    """docs/rules/2d20.md#s3-0: Infinity with SRD reactions and a Momentum cap of 8 (parameters, not profile checks)."""
    p = resolve_profile("infinity", {"reactions": "one", "momentum_max": 8, "harm_per_5_stress": True})
    assert (p.reactions, p.momentum_max, p.harm_per_5_stress) == ("one", 8, True)
    assert p.gm_pool == "heat"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"bogus": 1}, "'bogus' is not a profile parameter"),
        ({"name": "srd"}, "'name' is not a profile parameter"),
        ({"tracks": []}, "'tracks' is not a profile parameter"),
        ({"ranged_base_difficulty": "2"}, "takes a int"),
        ({"momentum_max": 6.0}, "takes a int"),
        ({"harm_per_5_stress": 1}, "takes a bool"),
        ({"ranged_base_difficulty": True}, "takes a int"),
    ],
)
def test_s3_0_bad_override_is_refused(overrides: dict[str, Any], message: str) -> None:
    """docs/rules/2d20.md#s3-0: an override must name an overridable parameter and have that parameter's type."""
    with pytest.raises(Refusal, match=message):
        resolve_profile("srd", overrides)


def test_s3_0_overridable_parameters_exclude_identity_and_track_layout() -> None:
    """docs/rules/2d20.md#s3-0: every parameter is overridable except the profile's name and its track layout."""
    assert "name" not in OVERRIDABLE
    assert "tracks" not in OVERRIDABLE
    assert "lethal_harms" not in OVERRIDABLE
    assert {"ranged_base_difficulty", "momentum_max", "reactions", "gm_pool"} <= OVERRIDABLE


# --- the encounter file -------------------------------------------------------------------------------


def test_s3_0_encounter_uses_the_named_profile() -> None:
    """docs/rules/2d20.md#s3-0: `profile = "infinity"` runs the Infinity parameters (Heat is the GM pool)."""
    s = session_from(encounter("infinity", stress={"vigour": 10, "resolve": 8, "firewall": 6}))
    eng = engine_of(s)
    assert eng.profile.name == "infinity"
    assert eng.pool_name == "Heat"
    run(s, "start")
    data = state_json(s)
    assert data["profile"] == "infinity"
    assert data["pools"]["heat"] == 4
    assert data["pools"]["momentum"] == 2


def test_s3_0_profile_defaults_to_srd() -> None:
    """docs/rules/2d20.md#s3-0: without `profile` the encounter runs the SRD."""
    s = session_from(encounter().replace('profile = "srd"\n', ""))
    assert engine_of(s).profile == PROFILES["srd"]


def test_s3_0_settings_override_ranged_base_difficulty_in_play() -> None:
    """docs/rules/2d20.md#s3-0, B1, C37: `[settings] ranged_base_difficulty = 1` lowers the SRD ranged Difficulty;
    a Close weapon at Long range is then 1 + 2 = 3 instead of the default 4."""
    plain = session_from(encounter())
    mixed = session_from(encounter(settings="ranged_base_difficulty = 1"))
    assert engine_of(plain).profile.ranged_base_difficulty == 2
    assert engine_of(mixed).profile.ranged_base_difficulty == 1
    assert engine_of(mixed).profile.name == "srd"
    assert "Long range, Difficulty 4" in range_report(engine_of(plain), "Kit", "Thug", "close")
    assert "Long range, Difficulty 3" in range_report(engine_of(mixed), "Kit", "Thug", "close")


def test_s3_0_settings_override_momentum_cap_in_play() -> None:
    """docs/rules/2d20.md#s3-0, docs/rules/2d20.md#s3-3: the Momentum cap is a parameter; `momentum_max = 8` lets the
    pool hold 8 (2 + 9 = 11: 8 kept, 3 lost)."""
    s = run(session_from(encounter(settings="momentum_max = 8")), "start")
    run(s, f"pick '{pending(d20_state(s)).options[0]}'", "momentum +9 test")
    assert d20_state(s).momentum == 8
    assert "2 → 8 (3 lost over the cap of 8)" in d20_state(s).log[-1].text


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ('ranged_base_difficulty = "two"', "ranged_base_difficulty"),
        ("bogus_parameter = 3", "bogus_parameter"),
        ("harm_per_5_stress = 1", "harm_per_5_stress"),
        ('name = "infinity"', "name"),
    ],
)
def test_s3_0_bad_settings_override_is_a_file_error(settings: str, message: str) -> None:
    """docs/rules/2d20.md#s3-0 / docs/reference/file-format.md: a bad override (unknown key or wrong type) makes the
    file invalid, with a `FILE:LINE:COL: message` problem naming the parameter; no session starts."""
    with pytest.raises(FileInvalid) as info:
        parse_text(encounter(settings=settings), "fight.toml")
    lines = info.value.lines()
    assert lines
    assert lines[0].startswith("fight.toml:")
    assert message in lines[0]


def test_s3_0_random_initiative_is_a_table_setting() -> None:
    """docs/rules/2d20-turns.md#s3-4 Initiative Scores (random option) as a `[settings]` parameter: off by default, a
    bool."""
    assert resolve_profile("srd").random_initiative is False
    assert resolve_profile("infinity", {"random_initiative": True}).random_initiative is True
    with pytest.raises(Refusal, match="takes a bool"):
        resolve_profile("srd", {"random_initiative": "yes"})
    setup = parse_text(encounter(settings="random_initiative = true"), "r.toml")
    assert d20(Session(setup, seed=1)).profile.random_initiative is True


def test_s3_0_good_settings_override_validates() -> None:
    """docs/rules/2d20.md#s3-0: a well-typed override of a known parameter is a valid file."""
    setup = parse_text(encounter(settings='ranged_base_difficulty = 1\nreactions = "escalating"'), "ok.toml")
    assert d20(Session(setup, seed=1)).profile.reactions == "escalating"


# --- docs/rules/2d20-turns.md#s3-5-1 to #s3-5-3: each profile offers exactly its own actions -----


def _profile_session(profile: str) -> Session:
    stress = "{ vigour = 10 }" if profile == "infinity" else "10"
    return session_from(
        f'[encounter]\nname = "T"\nsystem = "2d20"\nseed = 1\nprofile = "{profile}"\n'
        'action_order = "narrative"\n[[zones]]\nname = "A"\n'
        f'[[combatants]]\nname = "Kit"\nstress = {stress}\nzone = "A"\n'
        f'[[combatants]]\nname = "Thug"\nnpc_type = "minor"\nstress = {stress}\nzone = "A"\n'
    )


def _offered(profile: str) -> set[str]:
    s = run(_profile_session(profile), "start", "pick Kit")
    return {c.key for c in d20(s).actions_for("Kit")}


INFINITY_ONLY = {"sprint", "withdraw", "absterge", "defence", "guard", "retaliate"}


def test_s3_5_1_srd_offers_none_of_infinitys_actions() -> None:
    """docs/rules/2d20-turns.md#s3-5-1 [004:L1448-1529] vs docs/rules/2d20-turns.md#s3-5-2: the SRD's picker and `spend`
    know none of Infinity's Sprint, Withdraw, Absterge, Defence, Guard, Retaliate; `spend` names only the SRD's
    actions."""
    offered = _offered("srd")
    assert not offered & INFINITY_ONLY
    assert {"attack", "defend", "bolster", "hit_the_dirt", "swift", "disengage"} <= offered
    s = run(_profile_session("srd"), "start", "pick Kit")
    with pytest.raises(Refusal, match="no action named 'sprint'") as info:
        s.execute("spend Kit sprint")
    assert "absterge" not in str(info.value)
    assert "sprint" not in d20(s).words("action")


def test_s3_5_2_infinity_offers_its_own_actions() -> None:
    """docs/rules/2d20-turns.md#s3-5-2 [003:L171-267]: Infinity offers Sprint, Withdraw, Absterge and the Response
    actions, and none of the SRD-only Bolster, Defend, Disengage, Hit the Dirt."""
    offered = _offered("infinity")
    assert offered >= INFINITY_ONLY
    assert not offered & {"bolster", "defend", "disengage", "hit_the_dirt", "aid", "protect"}


def test_s3_5_3_secret_war_sheet_actions() -> None:
    """docs/rules/2d20-turns.md#s3-5-3 [002:L79-99]: the Secret War sheet has no Swift Action and has Catch Breath, Go
    Prone (a Major that makes the character Prone), Stabilise, Cast (after the Prepare minor), Command and
    Create Truth."""
    offered = _offered("secret-war")
    assert "swift" not in offered
    assert {"catch_breath", "go_prone", "stabilise", "cast", "command", "create_truth"} <= offered
    s = run(_profile_session("secret-war"), "start", "pick Kit")
    with pytest.raises(Refusal, match="Prepare"):
        s.execute("spend Kit cast")
    run(s, "spend Kit prepare", "spend Kit go-prone")
    assert d20_state(s).fighters["Kit"].conditions.get("prone") is True
    assert "Major" in d20_state(s).log[-1].text
    with pytest.raises(Refusal, match="no action named 'swift'"):
        s.execute("spend Kit swift")


# --- every parameter against what it may be ---------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"default_track": "mana"}, "profile srd has no stress track 'mana' \\(tracks: stress\\)"),
        ({"gm_pool": "momentum"}, "'gm_pool' is one of threat, heat"),
        ({"meta_currency": "gold"}, "'meta_currency' is one of fortune, determination, infinity points"),
        ({"mental_harm": "wound2"}, "'mental_harm' is one of trauma, metanoia"),
        ({"ranged_step_rule": "sideways"}, "'ranged_step_rule' is one of table, either_direction"),
        ({"reactions": "many"}, "'reactions' is one of one, escalating"),
        ({"ranged_base_difficulty": 6}, "'ranged_base_difficulty' runs from 0 to 5 \\(not 6\\)"),
        ({"melee_base_difficulty": -1}, "runs from 0 to 5"),
        ({"harm_threshold": 0}, "'harm_threshold' runs from 1 to 99"),
        ({"momentum_max": 100}, "'momentum_max' runs from 0 to 99"),
        ({"max_move_zones": -2}, "runs from 0 to 99"),
        ({"meta_max": 2}, "starting_meta \\(3\\) is above meta_max \\(2\\)"),
        ({"momentum_decay": 7}, "momentum_decay \\(7\\) is above momentum_max \\(6\\)"),
        ({"infinity_conditions": True}, "infinity_conditions needs a Resolve track"),
    ],
)
def test_s3_0_a_parameter_takes_only_what_it_may_be(overrides: dict[str, Any], message: str) -> None:
    """docs/rules/2d20.md#s3-0: `default_track = "mana"` passed the checker, then the first mental hit was a
    KeyError. Each parameter is checked against its values: a track of the profile, a Literal's words, a
    Difficulty 0-5 [004:L373-408], a sane 0-99 elsewhere (a harm threshold of at least 1: it divides)."""
    with pytest.raises(Refusal, match=message):
        resolve_profile("srd", overrides)


def test_s3_0_a_legal_track_and_literal_still_mix_profiles() -> None:
    p = resolve_profile("infinity", {"default_track": "resolve", "gm_pool": "threat", "ranged_step_rule": "table"})
    assert (p.default_track, p.gm_pool, p.ranged_step_rule) == ("resolve", "threat", "table")


def test_s3_0_parameters_wrong_only_together_are_reported_at_settings() -> None:
    """Each alone is fine (3 ≤ 5, and 4 ≤ 5 for the base's start); together the start is above the max."""
    text = encounter(settings="starting_meta = 4\nmeta_max = 3")
    with pytest.raises(FileInvalid) as info:
        parse_text(text, "x")
    line = text.splitlines().index("[settings]") + 1
    assert info.value.lines() == [f"x:{line}:1: settings: starting_meta (4) is above meta_max (3)"]
