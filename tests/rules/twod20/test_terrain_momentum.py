"""The Terrain Momentum variant [004:L1591-1601]: a zone's ``momentum_to_leave`` is the Momentum a character
spends to move out of it (its difficult terrain, or an obstacle on the way out); a player character short of
Momentum adds to Threat instead [004:L195]; an NPC spends Threat, and one whose pool cannot pay cannot leave:
refused in one line, nothing changed."""

from __future__ import annotations

from tests.conftest import d20, d20_state, run, session_from
from tests.rules.twod20.scenes import combatant, header, refused
from tracker.families.session import Session
from tracker.families.twod20.present.zonemap import zone_map

MIRE = '\n[[zones]]\nname = "Mire"\nadjacent = ["Road"]\nmomentum_to_leave = 2\n[[zones]]\nname = "Road"\n'


def scene(momentum: int = 3, threat: int = 1) -> Session:
    return session_from(
        header(momentum=momentum, threat=threat)
        + MIRE
        + combatant("Kit", stress=10, zone="Mire")
        + combatant("Brute", npc_type="notable", stress=10, zone="Mire")
    )


def test_004_l1597_leaving_the_mire_costs_its_momentum() -> None:
    s = run(scene(), "start", "pick Kit", "move Kit Road")
    assert d20_state(s).fighters["Kit"].zone == "Road" and d20_state(s).momentum == 1
    assert any("leaving Mire (Terrain Momentum)" in e.text for e in d20_state(s).log)
    back = run(s, "move Kit Mire")
    assert d20_state(back).momentum == 1  # entering costs nothing: leaving does
    mire = next(n for n in zone_map(d20(s), None).nodes if n.key == "Mire")
    assert "2 Momentum to leave" in mire.badges  # the map shows the cost with the zone's traits


def test_004_l1597_a_pc_short_of_momentum_adds_threat_an_npc_short_of_threat_stays() -> None:
    s = run(scene(momentum=0, threat=1), "start", "pick Kit", "move Kit Road")
    assert d20_state(s).threat == 3
    npc = run(scene(momentum=0, threat=1), "start", "pick Kit")
    refused(npc, "move Brute Road", "Brute cannot leave Mire: its terrain costs 2 Threat, the pool holds 1")
