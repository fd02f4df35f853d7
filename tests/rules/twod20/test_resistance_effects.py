"""Conditional Resistance effects [004:L1795-1800]: the GM may make a combatant's own Cover or Morale Sturdy
(+1 Resistance per [!]), Fragile (each [!] a die lost for later, destroyed at none), Uncertain (1 Threat per
[!]) or Volatile X (one [!] or more: X[CD] damage to the holder, and it is destroyed). They are rolled apart
from the Cover and Morale actions grant; a file naming an effect the rules lack is an error at its line."""

from __future__ import annotations

import re

import pytest

from tests.conftest import d20_state, run, session_from
from tests.rules.twod20.scenes import combatant, header, zones
from tracker.families.session import Session
from tracker.families.snapshot import state_json
from tracker.store.reading import FileInvalid


def scene(fx: list[str], cover: int = 8, threat: int = 4) -> Session:
    """Kit, and a Brute behind `cover`[CD] of Cover with the effects `fx`: 99 Harms defeat it (no hit ends it)."""
    return session_from(
        header(threat=threat)
        + zones("A")
        + combatant("Kit", stress=10, zone="A")
        + combatant("Brute", npc_type="major", stress=30, harm_capacity=99, zone="A", cover=cover, cover_effects=fx)
    )


def cover_roll(s: Session) -> tuple[int, int, str]:
    """The Brute's own Cover roll in the last damage line: its total, its Effects, and the whole line."""
    line = next(e.text for e in reversed(d20_state(s).log) if e.text.startswith("Brute takes"))
    found = re.search(r"cover (\d+)\[CD\][^→]*→ (\d+), (\d+) Effects?", line)
    assert found, line
    return int(found.group(2)), int(found.group(3)), line


def test_004_l1797_sturdy_adds_one_resistance_per_effect() -> None:
    s = run(scene(["sturdy"]), "start", "pick Kit", "damage Brute 20")
    total, icons, line = cover_roll(s)
    assert icons >= 1, line  # 8[CD] under this seed roll some Effects
    assert f"Sturdy +{icons}" in line and f"= {total + icons}:" in line


def test_004_l1798_fragile_loses_a_die_per_effect_and_is_destroyed_at_none() -> None:
    s = run(scene(["fragile"]), "start", "pick Kit", "damage Brute 20")
    _, icons, _ = cover_roll(s)
    brute = d20_state(s).fighters["Brute"]
    assert icons >= 1 and brute.resistance_lost == {"cover": icons}
    for _ in range(12):
        if brute.resistance_lost.get("cover", 0) >= 8:
            break
        run(s, "damage Brute 20")
    assert brute.resistance_lost["cover"] == 8
    assert any("Brute's Fragile cover loses" in e.text and "it is destroyed" in e.text for e in d20_state(s).log)
    run(s, "damage Brute 20")
    line = next(e.text for e in reversed(d20_state(s).log) if e.text.startswith("Brute takes"))
    assert "cover" not in line.partition("resistance")[2].partition("=")[0]  # no Cover left to roll


def test_004_l1799_uncertain_adds_a_threat_per_effect() -> None:
    s = run(scene(["uncertain"]), "start", "pick Kit")
    before = d20_state(s).threat
    run(s, "damage Brute 20")
    _, icons, _ = cover_roll(s)
    assert d20_state(s).threat == before + icons


def test_004_l1800_volatile_deals_its_damage_to_the_holder_and_is_destroyed() -> None:
    s = run(scene(["volatile=3"]), "start", "pick Kit", "damage Brute 20")
    _, icons, _ = cover_roll(s)
    log = [e.text for e in d20_state(s).log]
    assert icons >= 1
    assert any("Brute's Volatile cover goes off and is destroyed: 3[CD] damage to Brute" in t for t in log)
    assert any(t.startswith("Volatile cover: Brute takes") for t in log)
    assert d20_state(s).fighters["Brute"].resistance_lost == {"cover": 8}
    brute = next(c for c in state_json(s)["combatants"] if c["name"] == "Brute")
    assert brute["resistance_lost"] == {"cover": 8}


def test_a_plain_cover_rolls_as_before_and_typed_cover_skips_the_effects() -> None:
    """No effects: one roll with what actions grant, no state kept; ``cover=C`` on the damage is the GM's own
    dice, not the sheet's, so its effects stay out of it."""
    s = run(scene([]), "start", "pick Kit", "damage Brute 20")
    assert d20_state(s).fighters["Brute"].resistance_lost == {}
    f = run(scene(["fragile"]), "start", "pick Kit", "damage Brute 20 cover=3")
    assert d20_state(f).fighters["Brute"].resistance_lost == {}


@pytest.mark.parametrize(
    ("effects", "message"),
    [(["sturdy", "sturdy"], "given twice"), (["volatile"], "volatile=X"), (["shiny"], "not a conditional")],
)
def test_a_file_naming_a_wrong_effect_is_refused_at_its_line(effects: list[str], message: str) -> None:
    with pytest.raises(FileInvalid) as found:
        scene(effects)
    assert message in str(found.value)
