"""Traits as play objects [004:L205-288]: on a combatant, a zone or the scene, with ``difficulty=±N`` feeding the
Difficulty of the tests they touch (named by their text), lasting to the end of the turn, the round or the scene;
Create Advantage [004:L1470], complications [004:L457-459] and Harms [004:L1852] as traits; a seat's own Create
Advantage; bad input refused with nothing changed. Driven through the command language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import d20_state, d20_view, pending, reloaded, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused, zones
from tracker.engine.records.model import Prompt
from tracker.engine.records.record import dump
from tracker.families.seating import judge
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.store.files import FileInvalid, parse_text
from tracker.store.save import encounter_text

KIT = combatant(
    "Kit",
    side="players",
    attributes={"agility": 10, "coordination": 10, "reason": 10, "insight": 9, "will": 8, "brawn": 8},
    skills={"fight": 2, "move": 1, "survive": 2, "tech": 3},
    stress=10,
    zone="Vault",
    weapons=[{"name": "Pistol", "range": "close", "damage": 3}],
)
THUG = combatant(
    "Thug",
    side="enemies",
    npc_type="minor",
    attributes={"agility": 9, "coordination": 9, "insight": 8, "will": 8, "brawn": 9},
    skills={"fight": 1},
    stress=5,
    zone="Hall",
    weapons=[{"name": "Club", "range": "reach", "damage": 3}],
)


def scene(settings: str = "", seats: str = "") -> Session:
    """Kit in the Vault, the Thug in the Hall next door (Close range), Kit's turn open."""
    text = header("Bomb", threat=6, settings=settings) + zones("Vault", "Hall") + KIT + THUG + seats
    return run(session_from(text), "start", "pick Kit")


def json_traits(s: Session) -> list[dict[str, Any]]:
    return list(state_json(s)["traits"])


def data_list(p: Prompt, key: str) -> list[str]:
    value = p.data[key]
    assert isinstance(value, list)
    return value


def attack_difficulty(s: Session) -> int:
    """Start Kit's attack on the Thug and read the Difficulty its question carries (then undo it)."""
    run(s, "attack Kit Thug")
    value = int(str(pending(d20_state(s)).data["difficulty"]))
    run(s, "undo")
    return value


def test_004_l246_a_trait_on_a_combatant_a_zone_and_the_scene_in_the_json() -> None:
    """[004:L246-252]: personal, location and situation traits; JSON ``traits`` as docs/reference/json-state.md."""
    s = scene()
    run(s, "trait Kit 'Slick with oil' difficulty=+1", "trait hall 'Dark' difficulty=1 until=round", "trait scene Rain")
    assert json_traits(s) == [
        {"on": "Kit", "text": "Slick with oil", "difficulty": 1, "until": "scene"},
        {"on": "Hall", "text": "Dark", "difficulty": 1, "until": "round"},
        {"on": "scene", "text": "Rain", "difficulty": 0, "until": "scene"},
    ]


def test_004_l264_a_combatants_trait_feeds_its_attacks_difficulty_with_its_text_as_the_reason() -> None:
    """[004:L264-270]: a trait that makes the activity harder raises its Difficulty; the question names it."""
    s = scene()
    before = attack_difficulty(s)
    run(s, "trait Kit 'Slick with oil' difficulty=+1", "attack Kit Thug")
    p = pending(d20_state(s))
    assert int(str(p.data["difficulty"])) == before + 1
    assert "Slick with oil +1" in p.question
    assert "Slick with oil +1" in data_list(p, "modifiers")


def test_004_l264_a_helping_trait_lowers_the_difficulty() -> None:
    """[004:L264-270], Create Advantage [004:L1470]: a beneficial trait makes the activity easier."""
    s = scene()
    before = attack_difficulty(s)
    run(s, "trait Kit 'Steady aim' difficulty=-1 kind=advantage")
    assert attack_difficulty(s) == before - 1
    assert json_traits(s) == [
        {"on": "Kit", "text": "Steady aim", "difficulty": -1, "until": "scene", "kind": "advantage"}
    ]


def test_004_l248_a_trait_on_the_target_is_not_the_attackers() -> None:
    """docs/guide/decisions.md: a combatant's trait touches the tests that combatant makes, not those against it."""
    s = scene()
    before = attack_difficulty(s)
    run(s, "trait Thug 'Winded' difficulty=+2")
    assert attack_difficulty(s) == before


def test_004_l246_a_zone_trait_touches_tests_made_in_it_and_into_it() -> None:
    """A location trait [004:L246]: tests made in the zone and attacks made into it."""
    s = scene()
    before = attack_difficulty(s)
    run(s, "trait Hall 'Thick smoke' difficulty=+1")
    assert attack_difficulty(s) == before + 1  # Kit shoots into the Hall
    run(s, "attack Kit Thug")
    assert "Thick smoke (Hall) +1" in pending(d20_state(s)).question
    run(s, "undo", "untrait Hall 'Thick smoke'", "trait Vault 'Cramped' difficulty=+1")
    assert attack_difficulty(s) == before + 1  # Kit shoots from the Vault


def test_004_l250_a_scene_trait_touches_every_test_the_defence_too() -> None:
    """A situation trait affects any character in the scene [004:L250]: both sides of an opposed melee test."""
    s = scene()
    run(s, "trait scene 'Pouring rain' difficulty=+1", "next", "pick Thug", "move Thug Vault", "reach Thug Kit")
    run(s, "attack Thug Kit")
    p = pending(d20_state(s))
    assert "Pouring rain +1" in p.question
    assert "Kit: Pouring rain +1" in data_list(p, "modifiers")


def test_004_l264_a_typed_roll_counts_the_traits_in_play() -> None:
    """``roll NAME TN D``: the traits the test touches join the GM's Difficulty, logged by their text."""
    s = scene()
    run(s, "roll Kit 12 1 faces=5,15")
    assert "D1: pass" in d20_state(s).log[-2].text or "D1: pass" in d20_state(s).log[-1].text
    run(s, "undo", "trait Kit 'Shaking hands' difficulty=+1", "roll Kit 12 1 faces=5,15")
    texts = [e.text for e in d20_state(s).log[-4:]]
    assert any("Difficulty 1 with the traits in play (Shaking hands +1): 2" in t for t in texts)
    assert any("D2: fail" in t for t in texts)


def test_004_l1466_the_odds_see_a_trait() -> None:
    """The chance the attack flow shows is the test's, traits counted (docs/reference/language.md)."""
    s = scene()
    run(s, "attack Kit Thug")
    plain = data_list(pending(d20_state(s)), "labels")
    run(s, "undo", "trait scene 'Fog' difficulty=+2", "attack Kit Thug")
    foggy = data_list(pending(d20_state(s)), "labels")
    assert plain != foggy and plain[0].split("·")[0] == foggy[0].split("·")[0]


def test_until_turn_ends_with_the_turn_round_with_the_round_scene_at_end() -> None:
    """docs/reference/language.md ``until``: the engine's lifecycle ends each trait at its time."""
    s = scene()
    run(s, "trait Kit 'Aiming' difficulty=-1 until=turn", "trait scene 'Flare' until=round", "trait Vault Dust")
    run(s, "next")
    assert [t["text"] for t in json_traits(s)] == ["Flare", "Dust"]
    run(s, "pick Thug", "next")  # everyone has acted: the round ends
    assert [t["text"] for t in json_traits(s)] == ["Dust"]
    run(s, "end")
    assert json_traits(s) == []


def test_004_l1852_a_harm_is_a_trait_that_outlasts_the_scene() -> None:
    """[004:L1852]: each Harm is a trait; it lasts as the Harm does, past the scene's end."""
    s = scene()
    refused(s, "trait Kit 'Broken arm' kind=harm difficulty=+1", "Harm")
    run(s, "damage Kit 5", "trait Kit 'Broken arm' kind=harm difficulty=+1")
    refused(s, "trait Kit 'Cracked rib' kind=harm", "each already a trait")
    run(s, "end")
    assert json_traits(s) == [{"on": "Kit", "text": "Broken arm", "difficulty": 1, "until": "scene", "kind": "harm"}]


def test_004_l457_a_complication_becomes_a_negative_trait() -> None:
    """[004:L457-459]: the GM inflicts a negative trait for a Complication; it hinders that character's tests."""
    s = scene()
    before = attack_difficulty(s)
    run(s, "trait Kit 'Jammed holster' kind=complication difficulty=+1 until=round")
    assert attack_difficulty(s) == before + 1


def test_untrait_ends_a_trait_and_undo_brings_it_back() -> None:
    """[004:L254]: a trait that stops being true vanishes; undo covers it."""
    s = scene()
    run(s, "trait Kit 'Slick with oil' difficulty=+1", "untrait Kit slick")
    assert json_traits(s) == []
    run(s, "undo")
    assert len(json_traits(s)) == 1


def test_bad_traits_are_refused_with_nothing_changed() -> None:
    """A trait on nobody, an untrait of a trait that does not exist, a Difficulty beyond 5, a turn-long trait
    with no turn open: one line each, nothing changed."""
    s = scene()
    refused(s, "trait Nobody 'Lost' difficulty=1", "a trait is on a combatant, a zone or 'scene'")
    refused(s, "untrait Kit 'Nothing'", "Kit has no trait")
    run(s, "trait Kit Wet")
    refused(s, "untrait Kit 'Dry'", "no trait on Kit named 'Dry'")
    refused(s, "trait Kit 'Huge' difficulty=+9", "at most +5")
    refused(s, "trait Kit Wet", "already has the trait")
    refused(s, "trait Kit 'Odd' until=week", "lifetime")
    run(s, "next")
    refused(s, "trait Kit 'Brief' until=turn", "no turn is open")


def test_the_field_and_the_turn_panel_show_the_traits() -> None:
    """Shown on the sheet (the turn panel) and on the Field."""
    s = scene()
    run(s, "trait Kit 'Slick with oil' difficulty=+1", "trait scene Rain")
    turn = "".join(span.text for span in d20_view(s).turn_of("Kit"))
    field = "".join(span.text for span in d20_view(s).field("Kit"))
    assert "Traits: 'Slick with oil' +1 Difficulty" in turn
    assert "Scene: 'Rain'" in field and "Kit: 'Slick with oil' +1 Difficulty" in field


def test_004_l1470_a_seat_adds_its_own_create_advantage_not_a_hindrance() -> None:
    """docs/guide/seating.md: a player adds its own character's Create Advantage on its turn; a trait that
    hinders, or one on another, is refused."""
    s = scene(seats='\n[seats]\nalice = "Kit"\n')
    ok = judge(s, "alice", None, "trait Kit 'High ground' difficulty=-1")
    assert ok.kind == "apply"
    s.execute(ok.line)
    assert json_traits(s) == [{"on": "Kit", "text": "High ground", "difficulty": -1, "until": "scene"}]
    assert judge(s, "alice", None, "trait Kit 'Cursed' difficulty=+1").kind == "refuse"
    assert judge(s, "alice", None, "trait Thug 'Off balance' difficulty=+1").kind == "refuse"


def test_traits_tasks_and_an_open_overcome_survive_a_save_and_a_bad_saved_trait_is_refused() -> None:
    """The saved ``[state]`` keeps the traits, the tasks and an Overcome's question; a saved trait on no
    combatant, zone or scene is a problem of the file, at its key."""
    s = run(scene(), "trait Kit 'Slick with oil' difficulty=+1", "task Bomb stress=8 breakthroughs=2 test=reason+tech")
    run(s, "overcome Kit Bomb")
    again = reloaded(s)
    assert dump(d20_state(again)) == dump(d20_state(s))
    text = encounter_text(s).replace('on = "Kit"', 'on = "Nobody"')
    with pytest.raises(FileInvalid, match="'Nobody' is no combatant, zone or 'scene'"):
        parse_text(text, "x")


def test_004_l205_players_see_the_scenes_traits_and_tasks_but_nothing_naming_a_gm_only_combatant() -> None:
    """[004:L205-215]: a trait is a fact of the scene any player may invoke, so the players' view lists the
    traits and the tasks under way; a trait on a combatant the GM keeps hidden stays off it."""
    spy = combatant("Spy", side="enemies", gm_only=True, stress=4, zone="Hall", attributes={"agility": 9})
    text = header("Bomb", threat=6) + zones("Vault", "Hall") + KIT + THUG + spy
    s = run(session_from(text), "start", "pick Kit")
    run(s, "trait scene 'Alarm blaring'", "trait Hall Dark difficulty=1", "trait Spy 'Hidden blade'")
    run(s, "task 'Defuse the bomb' stress=8 breakthroughs=2 clock=3")
    notes = s.presenter.player_view().notes
    assert notes[:2] == ("Trait on the scene: 'Alarm blaring'", "Trait on Hall: 'Dark' +1 Difficulty")
    assert any(n.startswith("Task Defuse the bomb: Stress 0/8, 0/2 Breakthroughs") for n in notes), notes
    assert not any("Spy" in n or "blade" in n for n in notes), notes
    run(s, "untrait scene 'Alarm blaring'")
    assert not any("Alarm" in n for n in s.presenter.player_view().notes)
