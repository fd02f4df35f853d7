"""Non-lethal Harm [004:L1964] and Infinity's drowning [003:L514-517], driven through the command language."""

from __future__ import annotations

from tests.conftest import d20, d20_state, run, session_from
from tests.rules.twod20.scenes import combatant, header, zones
from tests.rules.twod20.test_traits import scene
from tracker.families.session import Session


def logged(s: Session, text: str) -> bool:
    return any(text in e.text for e in d20_state(s).log)


def test_004_l1964_a_non_lethal_last_harm_renders_unconscious_not_dying_and_is_gone_at_the_scenes_end() -> None:
    """[004:L1964]: if the Harm that would defeat a character was non-lethal, it is unconscious instead; at the
    end of the scene its non-lethal Harms are removed entirely."""
    s = run(scene(), "damage Kit 12 nonlethal")  # 12 stress on 10: 2 Wounds
    run(s, "damage Kit 1 nonlethal")  # the 3rd Harm defeats
    kit = d20_state(s).fighters["Kit"]
    assert (kit.defeated, kit.unconscious, kit.dying, kit.dead) == (True, True, False, False)
    assert logged(s, "Kit is rendered unconscious")
    run(s, "end")
    kit = d20_state(s).fighters["Kit"]
    assert (sum(kit.harms.values()), kit.defeated, kit.unconscious) == (0, False, False)
    assert d20(s).status("Kit") == "ok"


def test_004_l1964_a_lethal_last_harm_defeats_as_ever_and_the_non_lethal_ones_still_count() -> None:
    """The non-lethal Harms count toward Defeat; a lethal last Harm defeats (and Wounds > Traumas: Dying)."""
    s = run(scene(), "damage Kit 12 nonlethal", "damage Kit 1")
    assert d20(s).status("Kit") == "dying"


def test_004_l1964_a_non_lethal_harm_on_the_defeated_does_not_kill() -> None:
    s = run(scene(), "damage Kit 12 nonlethal", "damage Kit 1 nonlethal", "damage Kit 6 nonlethal")
    assert not d20_state(s).fighters["Kit"].dead


def diver(brawn: int, resistance: int) -> Session:
    people = combatant(
        "Diver",
        side="players",
        attributes={"brawn": brawn, "agility": 8, "awareness": 8},
        skills={"resistance": resistance},
        stress={"vigour": 10},
        zone="A",
    ) + combatant("Shark", side="enemies", npc_type="minor", stress={"vigour": 5}, zone="A")
    return session_from(header(profile="infinity") + zones("A") + people)


def test_003_l514_drowning_is_a_resistance_test_each_turn_harder_by_one() -> None:
    """[003:L514-517]: deprived of air, an Average (D1) Resistance test at the start of each turn, +1 Difficulty
    each later turn; passed (Brawn 16 + Resistance 4 = TN 20: every die succeeds), no Wound."""
    s = run(diver(16, 4), "add Diver drowning", "start", "pick Diver")
    assert logged(s, "Diver is deprived of air: Brawn 16 + Resistance 4 = TN 20, Difficulty 1")
    assert sum(d20_state(s).fighters["Diver"].harms.values()) == 0
    assert d20_state(s).fighters["Diver"].conditions["drowning"] == 2  # the next test's Difficulty


def test_003_l514_a_failed_drowning_test_is_a_wound_and_air_ends_it() -> None:
    """A failed test inflicts one Wound [003:L514-517] (Difficulty 5: two d20s score at most 4)."""
    s = run(diver(8, 1), "add Diver drowning 5", "start", "pick Diver")
    assert d20_state(s).fighters["Diver"].harms.get("wound") == 1
    run(s, "remove Diver drowning")
    assert "drowning" not in d20_state(s).fighters["Diver"].conditions
