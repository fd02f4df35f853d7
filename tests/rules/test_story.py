"""The story of a fight: the history replayed, told round by round (tracker.report.telling).

Small scripted fights whose every number is checked by hand against the rules' log; who dealt the
damage follows the rule in tracker/rules/telling.py (outright ``by=``/``from=``, or a declared attack
resolved later in the same turn, else unattributed).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run, session_from
from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.present.story.events import Story
from tracker.report.telling import Teller, follow
from tracker.store import files

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

DUEL = """
[[combatants]]
name = "Sofia Ramos"
kind = "fated"
initiative = 2
wounds = 8

[[combatants]]
name = "Guild Thug"
rank_value = 5
wounds = 5
"""

#: Sofia strikes (3, declared then resolved by a bare damage), burns for 2 at her turn's end
#: (unattributed), the Thug strikes back for 2; in round 2 her Severe flip (13) deals 4 (by=Sofia)
#: and the Severe Critical drops the Thug unconscious.
DUEL_LINES = [
    "initiative Sofia 13",
    "start",
    "spend Sofia strike",
    "damage Thug 3",
    "add Sofia burning 2",
    "next",
    "spend Thug strike",
    "damage Sofia 2",
    "next",
    "damage Thug 1/2/4 card=13R by=Sofia",
    "answer 1M",
]


def told(session: Session, player: bool = False) -> Story:
    teller = Teller(session.setup, session.history)
    teller.tell_all(session.history.commands)
    return teller.story(player=player)


def test_a_duel_told_round_by_round() -> None:
    story = told(run(session_from(DUEL), *DUEL_LINES))
    assert [r.number for r in story.rounds] == [1, 2]
    one, two = story.rounds
    assert [(t.who, t.actions) for t in one.turns] == [
        ("Sofia Ramos", (("Sofia Ramos", "strike"),)),
        ("Guild Thug", (("Guild Thug", "strike"),)),
    ]
    assert [(h.target, h.by, h.damage, h.change) for h in one.hits] == [
        ("Guild Thug", "Sofia Ramos", 3, "Wounds 5 → 2"),
        ("Sofia Ramos", None, 2, "Wounds 8 → 6"),  # her own Burning: nobody's attack
        ("Sofia Ramos", "Guild Thug", 2, "Wounds 6 → 4"),
    ]
    assert dict(one.taken) == {"fatemaster": 3, "players": 4}
    assert dict(one.dealt) == {"players": 3, "unattributed": 2, "fatemaster": 2}
    [burning] = one.gained
    assert (burning.who, burning.label, burning.ended_round) == ("Sofia Ramos", "Burning +2", 1)
    assert burning.ended_by == "Sofia Ramos's Burning ends"
    assert [(h.by, h.damage) for h in two.hits] == [("Sofia Ramos", 4)]
    assert [r.text for r in two.results] == ["damage flip vs Guild Thug: 13♥ (13 of Rams), severe 4"]
    [fall] = two.statuses
    assert (fall.who, fall.was, fall.now) == ("Guild Thug", "ok", "unconscious")
    assert "falls Unconscious" in fall.line
    fighters = {f.name: f for f in story.fighters}
    assert (fighters["Sofia Ramos"].dealt, fighters["Sofia Ramos"].taken) == (7, 4)
    assert (fighters["Guild Thug"].dealt, fighters["Guild Thug"].taken) == (2, 7)


def test_turning_points_are_the_falls_the_biggest_hit_and_the_table_turns() -> None:
    """Defined in tracker/rules/story.py: a fall, the biggest hit (the first of equals), a table turn."""
    story = told(run(session_from(DUEL), *DUEL_LINES, "reshuffle"))
    assert [(p.round, p.kind, p.text) for p in story.turning_points] == [
        (2, "biggest hit", "the biggest hit: Sofia Ramos hits Guild Thug for 4 Wounds"),
        (2, "fall", "Guild Thug falls unconscious"),
        (2, "table", "the Fate Deck is reshuffled (54 cards)"),
    ]


def test_a_declared_attack_holds_only_for_its_turn() -> None:
    """Sofia's strike is declared in her turn; damage on the Thug's turn without an attacker named is
    not hers (nor is damage to her own side)."""
    story = told(run(session_from(DUEL), "initiative Sofia 13", "start", "spend Sofia strike", "next", "damage Thug 2"))
    assert [(h.target, h.by) for h in story.rounds[0].hits] == [("Guild Thug", None)]


def test_the_fate_deck_over_the_fight() -> None:
    story = told(run(session_from(DUEL), *DUEL_LINES, "flip 3"))
    assert story.gauge_names() == ["Fate Deck", "discards"]
    first, last = story.readings[0], story.readings[-1]
    assert (first.step, dict(first.values)) == (0, {"Fate Deck": 54, "discards": 0})
    # The last reading is the deck as the JSON state counts it after the last command.
    session = run(session_from(DUEL), *DUEL_LINES, "flip 3")
    deck = state_json(session)["deck"]
    assert dict(last.values) == {"Fate Deck": deck["left"], "discards": deck["discards"]}


SKIRMISH = [
    "start",
    "pick Ada",
    "spend Ada attack",
    "roll Ada 12 3 bought=1 focus=2 faces=3,11,1",
    "damage Cultist 4 icons=1 vicious=1",
    "next",
    "pick Enforcer",
    "threat +3 reinforcements",
    "damage Ada 3 from=Enforcer",
]


def skirmish() -> Session:
    return run(Session(files.load(EXAMPLES / "skirmish_srd.toml"), seed=5), *SKIRMISH)


def test_2d20_stress_harms_pools_and_attackers() -> None:
    """Stress taken and the Harm it causes (docs/rules/2d20-combat.md#s3-8), the roll's dice, Momentum and Threat over
    the fight, a swing of 3 Threat as a table turn, ``from=`` naming the attacker outright."""
    story = told(skirmish())
    [one] = story.rounds
    assert [(h.target, h.by, h.damage, h.harms) for h in one.hits] == [
        ("Cultist", "Ada Vance", 5, (("wound", 1),)),  # 4 + Vicious 1, no armor: the Cultist's 6 stress
        ("Ada Vance", "Cult Enforcer", 2, ()),  # 3 less her armor 1
    ]
    assert one.hits[0].change == "stress 0 → 5 of 6, +1 Wound"
    assert [r.text.split(":")[0] for r in one.results] == ["Ada Vance tests"]
    assert story.gauge_names() == ["Momentum", "Threat"]
    assert dict(story.readings[0].values) == {"Momentum": 1, "Threat": 5}
    assert [(p.kind, p.text) for p in story.turning_points if p.kind == "table"] == [
        ("table", "Threat jumps 5 → 8"),
    ]
    assert [(p.kind, p.text) for p in story.turning_points if p.kind == "fall"] == [("fall", "Cultist is dying")]


def test_the_players_story_leaves_out_gm_only_and_the_gms_numbers() -> None:
    """As the player view: the gm_only Cult Priest never appears; an NPC's stress (player_view
    "descriptor") is a hit without numbers; the GM's Threat is not among the gauges."""
    session = run(skirmish(), "next", "pick Brann", "next", "pick Priest", "spend Priest attack", "damage Brann 4")
    gm, players = told(session), told(session, player=True)
    assert "Cult Priest" in {f.name for f in gm.fighters}
    assert "Cult Priest" not in {f.name for f in players.fighters}
    assert all("Priest" not in repr(r) for r in players.rounds)
    assert [(h.target, h.by) for h in gm.rounds[0].hits][-1] == ("Brann Okafor", "Cult Priest")
    assert [(h.target, h.by) for h in players.rounds[0].hits][-1] == ("Brann Okafor", None)
    cultist = next(h for h in players.rounds[0].hits if h.target == "Cultist")
    assert (cultist.exact, cultist.damage, cultist.change) == (False, 0, "")
    assert players.gauge_names() == ["Momentum"]
    assert not [p for p in players.turning_points if p.kind == "table"]  # the Threat swing is the GM's


def test_following_a_session_tells_only_the_new_commands_and_starts_again_after_an_undo() -> None:
    session = run(session_from(DUEL), *DUEL_LINES[:6])
    teller = follow(None, session.setup, session.history, session.history.commands)
    first = teller
    run(session, *DUEL_LINES[6:])
    teller = follow(teller, session.setup, session.history, session.history.commands)
    assert teller is first and len(teller.lines) == len(DUEL_LINES)
    assert teller.story() == told(session)
    run(session, "undo", "undo")
    teller = follow(teller, session.setup, session.history, session.history.commands)
    assert teller is not first
    assert teller.story() == told(session)
    assert [r.number for r in teller.story().rounds] == [1, 2]


def test_a_combatant_who_joins_and_one_who_leaves_mid_fight() -> None:
    """CONTRACT §3 join/leave: the newcomer appears in the story from the round it joined (its damage counted
    from then), the one who leaves is marked as such; both are turning points once the fight is under way."""
    text = DUEL + '\n[[stat_blocks]]\nname = "Minion"\nrank_value = 5\ninitiative = 2\nwounds = 6\n'
    lines = ["initiative Sofia 13", "start", "join Minion", "next", "next", "damage Minion 2", "leave Thug"]
    story = told(run(session_from(text), *lines))
    assert [(a.who, a.joined, a.round) for r in story.rounds for a in r.arrivals] == [
        ("Minion", True, 1),
        ("Guild Thug", False, 2),
    ]
    fighters = {f.name: f for f in story.fighters}
    assert (fighters["Minion"].joined, fighters["Minion"].taken) == (1, 2)
    assert fighters["Guild Thug"].left and not fighters["Sofia Ramos"].left
    assert [(p.round, p.text) for p in story.turning_points] == [
        (1, "Minion joins the fight (fatemaster)"),
        (2, "the biggest hit: Minion takes 2 Wounds"),
        (2, "Guild Thug leaves the fight"),
    ]


def test_the_attack_flow_tells_who_hit() -> None:
    """docs/reference/language.md ``attack``: the flow's damage lands on a later answer in the same turn; it is the
    attacker's, as a declared strike's is."""
    sheet = DUEL.replace(
        'name = "Sofia Ramos"', 'name = "Sofia Ramos"\nweapons = [{ name = "Sabre", damage = "2/3/5" }]'
    )
    lines = ["initiative Sofia 13", "start", "attack Sofia", "answer 'Guild Thug'", "answer pass 1", "answer 12T"]
    story = told(run(session_from(sheet), *lines))
    assert [(h.target, h.by) for h in story.rounds[0].hits] == [("Guild Thug", "Sofia Ramos")]
    assert ("Sofia Ramos", "attack") in [a for t in story.rounds[0].turns for a in t.actions]


def test_the_end_of_a_2d20_scene_is_no_healing() -> None:
    """docs/rules/2d20-harm.md#s3-10-4 [004:L1906]: the end of the scene clears all stress; that reset is not healing,
    so the story's Healed total stays at what `heal` healed (Brann was told "healed 7" for the reset)."""
    session = run(skirmish(), "next", "pick Brann", "heal Brann 1", "end")
    story = told(session)
    brann = next(f for f in story.fighters if f.name == "Brann Okafor")
    ada = next(f for f in story.fighters if f.name == "Ada Vance")
    assert ada.taken == 2 and ada.healed == 0  # her 2 stress went at the end of the scene: not healed
    assert brann.healed == 0  # heal on an unhurt Brann heals nothing
    hurt = run(skirmish(), "next", "pick Brann", "damage Brann 5", "heal Brann 2", "end")
    brann = next(f for f in told(hurt).fighters if f.name == "Brann Okafor")
    assert brann.healed == 2  # the heal counts; the reset of the rest does not
    assert all(h.who != "Ada Vance" for r in told(hurt).rounds for h in r.heals)


def test_ttb_plain_damage_by_the_actor_is_told_as_theirs() -> None:
    """The `d` key's ``by=ACTOR`` on plain TTB damage (docs/rules/ttb-damage.md#s2-8: Wounds before armor) names the
    attacker for the story (not "unattributed"); it changes no number, a name that is no one is refused, and
    margin=, mod= and card= still need a damage profile."""
    session = run(session_from(DUEL), "initiative Sofia 13", "start", "damage Thug 3 by=Sofia")
    [one] = told(session).rounds
    assert [(h.target, h.by, h.damage) for h in one.hits] == [("Guild Thug", "Sofia Ramos", 3)]
    for line in ("damage Thug 3 by=zzz", "damage Thug 3 margin=2 by=Sofia"):
        with pytest.raises(Refusal):
            session.execute(line)
