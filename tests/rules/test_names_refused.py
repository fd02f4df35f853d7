"""Nothing typed is silently dropped: every name a command holds resolves the one way (docs/reference/language.md).

A combatant, weapon, skill, zone, track, Harm or pool a command names resolves as ``leave`` resolves a name
(`tracker.engine.names.resolve`: any case, a unique prefix of the name or of one of its words). A name that
matches nothing is refused naming the known ones; one that matches several is refused naming the
candidates; a combatant who has left the fight is refused, saying so. A refused command changes nothing:
the JSON state and the history are as they were, and no AP, Momentum or Threat is spent.
"""

from __future__ import annotations

import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import run, session_from, ttb_state
from tests.rules.twod20.scenes import combatant, header, zones
from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json

TTB = """
[encounter]
name = "Docks"
system = "ttb"
seed = 5

[[combatants]]
name = "Sofia Ramos"
rank_value = 5
initiative = 20
wounds = 8
skills = { melee = 2, athletics = 1 }
weapons = [{ name = "Sword", damage = "2/3/4" }, { name = "Pistol", kind = "projectile", range = 10 }]

[[combatants]]
name = "Ana Ruiz"
rank_value = 5
initiative = 10
wounds = 6

[[combatants]]
name = "Guild Thug"
rank_value = 5
initiative = 1
side = "enemies"
wounds = 5

[[combatants]]
name = "Guild Thug 2"
rank_value = 5
initiative = 0
side = "enemies"
wounds = 5

[[combatants]]
name = "Watchman"
rank_value = 6
initiative = 3
side = "enemies"
wounds = 7
"""

D20 = (
    header("Pier", seed=5, profile=None, momentum=3, threat=9)
    + zones("Pier", "Warehouse")
    + combatant(
        "Kit",
        stress=10,
        zone="Pier",
        weapons=[
            {"name": "Rifle", "range": "medium", "damage": 4},
            {"name": "Knife", "range": "reach", "damage": 2},
        ],
    )
    + combatant("Ada", stress=10, zone="Pier")
    + combatant("Guild Thug", npc_type="minor", side="enemies", stress=5, zone="Pier")
    + combatant("Guild Thug 2", npc_type="minor", side="enemies", stress=5, zone="Pier")
    + combatant("Watchman", npc_type="minor", side="enemies", stress=6, zone="Warehouse")
)


def ttb_turn() -> Session:
    """Sofia's turn is open (initiative 20); the Watchman has left the fight."""
    return run(session_from(TTB), "leave Watchman", "start")


def d20_turn() -> Session:
    """Kit's turn is open (picked first); the Watchman has left the fight."""
    return run(session_from(D20), "leave Watchman", "start", "pick Kit")


def unchanged(s: Session, line: str, *parts: str) -> str:
    """`line` is refused in one line holding each of `parts`; the JSON state and the history are as they were."""
    before, history = state_json(s), dump(s.history)
    with pytest.raises(Refusal) as info:
        s.execute(line)
    message = str(info.value)
    assert "\n" not in message
    for part in parts:
        assert part in message, (line, message)
    assert state_json(s) == before
    assert dump(s.history) == history
    return message


def log(s: Session) -> list[str]:
    """The log's lines, as the state keeps them."""
    return [line.text for line in s.rules.state.log]


# --- Through the Breach -------------------------------------------------------------------------------


def test_ttb_strike_at_an_unknown_name_is_refused_naming_who_is_known() -> None:
    """docs/reference/language.md "Weapons (TTB)": `spend NAME strike TARGET`: a target that names nobody is refused,
    naming the combatants still in the fight, and no AP is spent."""
    s = ttb_turn()
    message = unchanged(s, "spend Sofia strike zzz", "no combatant named 'zzz'", "Guild Thug", "Ana Ruiz")
    assert "Watchman" not in message


def test_ttb_strike_at_an_ambiguous_name_is_refused_naming_the_candidates() -> None:
    """docs/reference/language.md (a unique prefix of a name is accepted): `thug` names two Guild Thugs, as `leave thug`
    says, so the strike is refused naming both."""
    s = ttb_turn()
    leave = unchanged(s, "leave thug", "'thug' is ambiguous: Guild Thug, Guild Thug 2")
    assert unchanged(s, "spend Sofia strike thug", "'thug' is ambiguous: Guild Thug, Guild Thug 2") == leave
    run(s, "spend Sofia strike 'guild thug 2'")
    assert any("Sofia Ramos strikes at Guild Thug 2" in line for line in log(s))


def test_ttb_no_action_targets_one_who_has_left() -> None:
    """docs/reference/language.md ``leave``: one who has left the fight is no target of strike, shoot, charge or a
    targeted action, nor the attacker of a damage flip (`by=`)."""
    s = ttb_turn()
    for line in (
        "spend Sofia strike Watchman",
        "spend Sofia shoot Watchman",
        "spend Sofia charge Watchman",
        "spend Sofia assist Watchman",
        "damage Ana 2/3/4 by=Watchman",
        "engage Sofia Watchman",
    ):
        unchanged(s, line, "Watchman has left the fight")


def test_one_who_left_is_not_swapped_for_one_present_nor_hides_an_ambiguity() -> None:
    """docs/reference/language.md ``leave``: the full name of one who left is refused, not read as a prefix of someone
    still in the fight (Guild Thug left: not Guild Thug 2); a prefix that fits several present is ambiguous
    even when it also fits one who left."""
    boss = '[[combatants]]\nname = "Thug Boss"\nrank_value = 6\nside = "enemies"\nwounds = 7\n'
    s = run(session_from(TTB + boss), "leave 'Guild Thug'", "leave 'Thug Boss'", "start")
    unchanged(s, "spend Sofia strike 'Guild Thug'", "Guild Thug has left the fight")
    unchanged(s, "damage 'thug boss' 1", "Thug Boss has left the fight")
    run(s, "leave 'Guild Thug 2'")
    unchanged(s, "damage thug 1", "has left the fight")
    s = run(session_from(TTB + boss), "leave 'Thug Boss'", "start")
    unchanged(s, "spend Sofia strike thug", "'thug' is ambiguous: Guild Thug, Guild Thug 2")


def test_ttb_unknown_weapon_is_refused_naming_the_weapons() -> None:
    """docs/reference/language.md "Weapons (TTB)": `strike|shoot|charge TARGET [WEAPON]` and `reload WEAPON`: a weapon
    the character does not carry is refused naming the ones it does, not swapped for the first on file."""
    s = ttb_turn()
    for line in (
        "spend Sofia strike 'Guild Thug' zzz",
        "spend Sofia charge 'Guild Thug' zzz",
        "spend Sofia shoot 'Guild Thug' zzz",
        "spend Sofia reload zzz 1",
    ):
        unchanged(s, line, "no weapon of Sofia Ramos's named 'zzz'", "Sword", "Pistol")
    unchanged(s, "spend Ana strike 'Guild Thug' Sword", "it is not Ana Ruiz's turn")


def test_ttb_strike_with_weapon_and_target_resolves_both() -> None:
    """docs/reference/language.md "Weapons (TTB)": prefixes name the target and the weapon; the duel asks about both."""
    s = run(ttb_turn(), "spend sof strike 'Guild Thug 2' sw")
    prompt = state_json(s)["prompt"]
    assert "Sofia Ramos attacks Guild Thug 2 with the Sword" in prompt


def test_ttb_a_word_fitting_a_weapon_and_a_combatant_is_ambiguous() -> None:
    """docs/reference/language.md "Weapons (TTB)": the word after strike or shoot is the target, or a weapon alone; one
    that fits both (`s`: Sofia Ramos, Sword) is refused naming both, and a strike on oneself is refused."""
    s = ttb_turn()
    unchanged(s, "spend Sofia strike s", "'s' is ambiguous: Sofia Ramos, Sword")
    unchanged(s, "spend Sofia strike sofia", "Sofia Ramos cannot attack itself")
    run(s, "spend Sofia shoot pist")
    assert state_json(s)["prompt"] is None


def test_ttb_targeted_actions_refuse_unknown_names_and_stray_words() -> None:
    """docs/rules/ttb-turns.md#s2-5: Doctor, Order, Impose, Trick, Show, Assist act on someone: an unknown target is
    refused, and so is a word the action has no use for (it would be dropped)."""
    s = ttb_turn()
    for action in ("impose", "trick", "show", "assist", "charge"):
        unchanged(s, f"spend Sofia {action} zzz", "no combatant named 'zzz'")
    unchanged(s, "spend Sofia impose Ana zzz", "Impose takes one target", "'zzz'")


def test_ttb_wait_checks_the_words_of_the_action_it_waits_for() -> None:
    """docs/rules/ttb-turns.md#s2-5 Wait (decision A17): `wait strike TARGET` names its target now, the one way."""
    s = ttb_turn()
    unchanged(s, "spend Sofia wait strike zzz", "no combatant named 'zzz'")
    unchanged(s, "spend Sofia wait strike thug", "ambiguous")


def test_ttb_assist_skill_is_a_known_skill() -> None:
    """docs/rules/ttb-turns.md#s2-5 Assist: the skill whose ranks are given is a skill the encounter knows; `meele` is
    refused naming the known skills rather than read as an untrained skill."""
    s = ttb_turn()
    unchanged(s, "spend Sofia assist Ana meele", "no skill named 'meele'", "melee", "athletics")
    run(s, "spend Sofia assist Ana mel")
    assert ttb_state(s).fighters["Ana Ruiz"].assist == 2


def test_ttb_damage_by_resolves_the_attacker() -> None:
    """docs/reference/language.md (TTB damage, `by=` the attacker): unknown and ambiguous attackers are refused."""
    s = ttb_turn()
    unchanged(s, "damage Ana 2/3/4 by=zzz", "no combatant named 'zzz'")
    unchanged(s, "damage Ana 2/3/4 by=thug", "'thug' is ambiguous")


def test_ttb_odds_who_is_never_one_who_left_and_skill_is_known() -> None:
    """docs/reference/cli.md ``tracker odds`` (the family's options): `--who` names no combatant who has left; an
    unknown `--skill` is refused naming the known skills; a known skill the sheet lacks stays untrained."""
    s = ttb_turn()
    odds = s.presenter.odds_report
    with pytest.raises(Refusal, match="Watchman has left the fight"):
        odds({"tn": 10, "who": "Watchman", "skill": "melee"})
    with pytest.raises(Refusal, match=r"no skill named 'meele'.*melee"):
        odds({"tn": 10, "who": "Sofia", "skill": "meele"})
    with pytest.raises(Refusal, match="no combatant named 'zzz'") as info:
        odds({"tn": 10, "who": "zzz", "skill": "melee"})
    assert "Watchman" not in str(info.value)
    assert odds({"tn": 10, "who": "sof", "skill": "mel"}).data["duel"]["av"] == 2  # type: ignore[index,call-overload]
    untrained = odds({"tn": 10, "who": "Ana", "skill": "athletics"})
    assert untrained.data["duel"]["av"] == 0  # type: ignore[index,call-overload]


# --- 2d20 ---------------------------------------------------------------------------------------------


def test_d20_attack_on_an_unknown_name_is_refused_and_nothing_is_spent() -> None:
    """docs/rules/2d20-turns.md#s3-5 Attack (docs/reference/language.md `spend`): `spend Kit attack zzz` names nobody:
    refused, naming those in the fight, the Major Action not taken."""
    s = d20_turn()
    message = unchanged(s, "spend Kit attack zzz", "no combatant named 'zzz'", "Guild Thug", "Ada")
    assert "Watchman" not in message
    unchanged(s, "spend Kit attack thug", "'thug' is ambiguous: Guild Thug, Guild Thug 2")
    unchanged(s, "spend Kit attack Watchman", "Watchman has left the fight")
    unchanged(s, "spend Kit attack Kit", "Kit cannot Attack itself")


def test_d20_attack_weapon_is_one_of_the_attackers() -> None:
    """docs/rules/2d20-combat.md#s3-7 (docs/reference/language.md `spend NAME attack TARGET [WEAPON]`): a weapon is one
    on the attacker's sheet, by prefix; an unknown one is refused naming them."""
    s = d20_turn()
    unchanged(s, "spend Kit attack 'Guild Thug 2' zzz", "no weapon of Kit's named 'zzz'", "Rifle", "Knife")
    run(s, "spend Kit attack 'guild thug 2' rif")
    assert log(s)[-1].endswith("— Guild Thug 2 Rifle")


def test_d20_targeted_actions_resolve_their_target() -> None:
    """docs/rules/2d20-turns.md#s3-5-1: Defend, Bolster, Aid, Protect and Assist name their ally or patient: an unknown
    one is refused (it no longer falls back to the actor), as is a stray word after it."""
    s = d20_turn()
    for action in ("defend", "bolster", "aid", "protect", "assist"):
        unchanged(s, f"spend Kit {action} zzz", "no combatant named 'zzz'")
    unchanged(s, "spend Kit defend Ada zzz", "Defend takes one target", "'zzz'")
    run(s, "reach Kit Ada", "spend Kit defend ad")  # Defend reaches an ally within Reach [004:L1489]
    assert "Ada gains +2[CD] Cover" in log(s)[-1]


def test_d20_a_reaction_names_whom_it_answers() -> None:
    """docs/rules/2d20-turns.md#s3-5-2 Reactions (Infinity): the attacker a Retaliate answers is resolved, refused when
    unknown, and kept in the log under its full name."""
    infinity = D20.replace('system = "2d20"', 'system = "2d20"\nprofile = "infinity"')
    s = run(session_from(infinity), "start", "pick Kit", "spend Kit attack 'Guild Thug'", "next", "pick 'Guild Thug'")
    unchanged(s, "spend Kit retaliate zzz", "no combatant named 'zzz'")
    run(s, "spend Kit retaliate 'guild thug'")
    assert log(s)[-1].startswith("Kit: Retaliate (Reaction 1 this round) — Guild Thug")


def test_d20_names_in_options_zones_tracks_harms_and_pools() -> None:
    """docs/reference/language.md: `damage … from=`, `move NAME ZONE`, `heal … track=`, `treat NAME KIND`, `roll … pay=`
    resolve the one way: unknown refused naming the known, one who left refused."""
    s = d20_turn()
    unchanged(s, "damage Ada 3 from=zzz", "no combatant named 'zzz'")
    unchanged(s, "damage Ada 3 from=Watchman", "Watchman has left the fight")
    unchanged(s, "move Kit zzz", "no zone named 'zzz'", "Pier", "Warehouse")
    unchanged(s, "move Watchman Pier", "Watchman has left the fight")
    unchanged(s, "heal Kit 1 track=zzz", "no track of Kit's named 'zzz'", "stress")
    unchanged(s, "damage Kit 3 track=zzz", "no track of Kit's named 'zzz'", "stress", "mental")
    unchanged(s, "treat Kit zzz", "no Harm named 'zzz'", "wound", "trauma")
    unchanged(s, "roll Kit 10 1 bought=1 pay=zzz", "no pool named 'zzz'", "momentum", "threat")
    run(s, "damage Kit 2 track=str", "roll Kit 10 1 bought=1 faces=1,1,1 pay=thr")


def test_d20_odds_who_is_never_one_who_left() -> None:
    """docs/reference/cli.md ``tracker odds --who``: one who has left is refused, and is listed as no one's target."""
    s = d20_turn()
    odds = s.presenter.odds_report
    with pytest.raises(Refusal, match="Watchman has left the fight"):
        odds({"who": "Watchman"})
    run(s, "move Kit Warehouse")
    targets = odds({"who": "Kit"}).data
    assert "Watchman" not in str(targets)


# --- the property: no accepted command names nobody ----------------------------------------------------

#: Words a GM might type for a name: real names, their prefixes and words, and garbled or unknown ones.
REAL = ["Sofia Ramos", "Ana Ruiz", "Guild Thug", "Guild Thug 2", "Watchman", "Kit", "Ada", "Pier", "Warehouse"]
TYPED = st.one_of(
    st.sampled_from([*REAL, "sof", "ana", "thug", "thug 2", "guild", "watch", "k", "a", "g", "pi", "ware"]),
    st.text(alphabet="abcdeghikmnorstuwz", min_size=1, max_size=6),
    st.sampled_from(REAL).map(lambda n: n[:-1] + "x"),
)

TTB_FORMS = (
    "spend Sofia strike {a}",
    "spend Sofia strike {a} {b}",
    "spend Sofia charge {a}",
    "spend Sofia shoot {a}",
    "spend Sofia impose {a}",
    "damage {a} 2/3/4 by={b}",
    "damage {a} 1",
    "engage Sofia {a}",
    "add {a} burning",
)
D20_FORMS = (
    "spend Kit attack {a}",
    "spend Kit attack {a} {b}",
    "spend Kit defend {a}",
    "damage {a} 3 from={b}",
    "move {a} {b}",
    "reach Kit {a}",
    "heal {a} 1",
)


def _present(s: Session) -> list[str]:
    return [c["name"] for c in state_json(s)["combatants"] if not c.get("left")]


def _names_someone(word: str, candidates: list[str]) -> bool:
    try:
        names.resolve(word, candidates)
    except Refusal:
        return False
    return True


@pytest.mark.parametrize("family", ["ttb", "2d20"])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_accepted_command_names_nobody(family: str, data: st.DataObject) -> None:
    """docs/reference/language.md: a command line with random names is either refused, changing nothing, or every name
    in it resolves to a real one: a combatant still in the fight (or, where the form takes one, a weapon of
    the actor's or a zone)."""
    s = ttb_turn() if family == "ttb" else d20_turn()
    form = data.draw(st.sampled_from(TTB_FORMS if family == "ttb" else D20_FORMS))
    a, b = data.draw(TYPED), data.draw(TYPED)
    line = form.format(a=shlex.quote(a), b=shlex.quote(b))
    before, history = state_json(s), dump(s.history)
    try:
        s.execute(line)
    except Refusal as exc:
        assert "\n" not in str(exc)
        assert state_json(s) == before
        assert dump(s.history) == history
        return
    people = _present(s)
    weapons = ["Sword", "Pistol"] if family == "ttb" else ["Rifle", "Knife"]
    for slot, word in (("{a}", a), ("{b}", b)):
        if slot not in form:
            continue
        groups = [people]
        if slot == "{b}" and form.startswith("move"):
            groups = [["Pier", "Warehouse"]]
        elif "strike" in form or "shoot" in form:
            groups = [people, weapons]
        elif slot == "{b}" and ("attack" in form or "charge" in form):
            groups = [weapons]
        assert any(_names_someone(word, group) for group in groups), (line, word)
