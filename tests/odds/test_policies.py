"""The default policies (tracker/families/ttb/policy.py, tracker/families/twod20/policy.py) choose among the
commands a GM types, by the styles docs/reference/file-format.md "Tactics" names."""

from __future__ import annotations

import random

import pytest

from tests.conftest import session_from, ttb, ttb_state
from tracker.engine.records.model import Prompt
from tracker.families.ttb.fate.cards import parse_card
from tracker.families.ttb.policy import TTBPilot
from tracker.families.twod20.policy import TwoD20Pilot

GUNSLINGER = """
[[combatants]]
name = "Sofia Ramos"
kind = "fated"
initiative = 9
wounds = 8
skills = {{ melee = 2, pistol = 2 }}
{tactics}
weapons = [
  {{ name = "Sabre", kind = "melee", damage = "2/3/5" }},
  {{ name = "Peacebringer", kind = "projectile", range = 12, damage = "2/3/4" }},
]

[[combatants]]
name = "Guild Thug"
rank_value = 5
initiative = -5
wounds = 6
"""


@pytest.mark.parametrize(
    ("tactics", "first"),
    [
        ("", "attack 'Sofia Ramos' shoot 'Guild Thug' Peacebringer"),
        ('tactics = "cautious"', "attack 'Sofia Ramos' shoot 'Guild Thug' Peacebringer"),
        ('tactics = "brute"', "attack 'Sofia Ramos' charge 'Guild Thug' Sabre"),
    ],
)
def test_ttb_a_free_gunslinger_shoots_unless_a_brute(tactics: str, first: str) -> None:
    """docs/rules/ttb-turns.md#s2-5, docs/rules/ttb-damage.md#s2-9: not engaged, a loaded gun shoots [000:L284, L290]; a
    brute Charges [000:L276]; the cautious never Charge."""
    s = session_from(GUNSLINGER.format(tactics=tactics))
    s.execute("start")
    options = TTBPilot().commands(s.rules, random.Random(1))
    assert options[0] == first
    assert options[-1] == "next"
    if "cautious" in tactics:
        assert not any(" charge " in line for line in options)


def test_ttb_engaged_it_strikes_the_weakest_engaged() -> None:
    """docs/rules/ttb-damage.md#s2-9: engaged, a Strike reaches the engaged enemy [000:L272, L284]."""
    s = session_from(GUNSLINGER.format(tactics=""))
    s.execute("start")
    s.execute("engage Sofia Thug")
    assert TTBPilot().commands(s.rules, random.Random(1))[0] == "attack 'Sofia Ramos' strike 'Guild Thug' Sabre"


def _cheat(of: str, flipped: str, style: str = "") -> str:
    s = session_from(GUNSLINGER.format(tactics=style))
    s.execute("start")
    prompt = Prompt(
        kind="cheat",
        question="?",
        options=["7R", "9C", "no"],
        who="Sofia Ramos",
        data={"cheat_of": of, "cheat_card": flipped, "tn": 10, "cheat_av": 2},
    )
    return TTBPilot().cheat(ttb(s), prompt)


def test_ttb_cheats_a_fail_into_a_pass_with_the_lowest_card_that_does() -> None:
    """docs/rules/ttb.md#s2-2-4 [000:L63-65]: 5 + 2 fails TN 10; 7 + 2 would too; 9 + 2 passes."""
    assert _cheat("attack", "5R") == "9C"
    assert _cheat("attack", "9R") == "no"  # 9 + 2 passes already: the hand is kept
    assert _cheat("damage", "3R") == "7R"  # a damage flip the offer says a card raises: the lowest
    assert _cheat("damage", "3R", 'tactics = "cautious"') == "no"
    assert _cheat("attack", "9R", 'tactics = "brute"') == "9C"


def _roll(style: str) -> str:
    prompt = Prompt(
        kind="attack_roll",
        question="?",
        options=["roll", "roll+1", "roll+2"],
        data={"labels": ["2d20 · 35%", "3d20 for 1 Momentum · 52%", "4d20 for 3 Momentum · 58%"]},
    )
    return TwoD20Pilot().bought(prompt, style)


def test_2d20_buys_dice_while_they_add_ten_points() -> None:
    """docs/rules/2d20.md#s3-2, docs/rules/2d20.md#s3-3 [004:L1329-1340]: the third d20 adds 17 points, the fourth 6."""
    assert _roll("steady") == "roll+1"
    assert _roll("cautious") == "roll"
    assert _roll("brute") == "roll+2"


def test_2d20_bonus_damage_spends_the_hits_momentum() -> None:
    """docs/rules/2d20-combat.md#s3-8 [004:L1764]: the Momentum the hit made goes on Bonus Damage."""
    prompt = Prompt(kind="attack_damage", question="?", options=["roll", "roll+1", "roll+2"], data={"momentum": 1})
    pilot = TwoD20Pilot()
    assert (pilot.bonus(prompt, "steady"), pilot.bonus(prompt, "brute"), pilot.bonus(prompt, "cautious")) == (
        "roll+1",
        "roll+2",
        "roll",
    )


INFOWAR = """
[encounter]
name = "T"
system = "2d20"
profile = "infinity"
seed = 1

[[zones]]
name = "Room"

[[combatants]]
name = "Mira"
attributes = { agility = 10, awareness = 10, brawn = 9, coordination = 10, personality = 11, willpower = 10 }
skills = { persuade = 3, ballistics = 2 }
stress = { vigour = 10, resolve = 11, firewall = 9 }
zone = "Room"
weapons = [
  { name = "Intimidate", range = "close", fixed = 1, damage = 4, effects = ["mental"] },
  { name = "Intrusion", range = "close", fixed = 1, damage = 2, effects = ["quantronic"] },
  { name = "Pistol", range = "close", fixed = 1, damage = 3 },
]
{extra}

[[combatants]]
name = "Trooper"
npc_type = "minor"
attributes = { agility = 9, awareness = 9, brawn = 10, coordination = 9, willpower = 8 }
stress = { vigour = 10, resolve = 8 }
zone = "Room"
{breaches}

[[combatants]]
name = "Hacker"
npc_type = "notable"
attributes = { agility = 9, brawn = 8, coordination = 9, intelligence = 11, willpower = 9 }
stress = { vigour = 9, resolve = 9, firewall = 10 }
zone = "Room"
"""


def _attacks(weapons: str = "", breaches: str = "") -> list[str]:
    text = INFOWAR.replace("{extra}", "").replace("{breaches}", "")
    if weapons:
        start = text.index("weapons = [")
        text = text[:start] + weapons + text[text.index("]\n", start) + 2 :]
    s = session_from(text)
    s.execute("start")
    s.execute("pick Mira")
    for line in breaches.splitlines():
        s.execute(line)
    return [c for c in TwoD20Pilot().commands(s.rules, random.Random(1)) if c.startswith("attack")]


def test_2d20_infinity_shoots_before_it_hacks_or_talks_where_only_wounds_kill() -> None:
    """[003:L350-353] (docs/rules/2d20-harm.md): in Infinity only Wounds kill, Breaches destroy a system and
    Metanoia is the GM's, so with a pistol in hand the runs shoot; the weakest enemy on the Vigour track first."""
    attacks = _attacks()
    assert attacks and all(line.endswith("Pistol") for line in attacks)
    assert attacks[0] == "attack Mira Hacker Pistol"  # Vigour 9 left against the Trooper's 10


def test_2d20_a_hacker_with_nothing_else_hacks_only_a_firewall_it_can_still_breach() -> None:
    """[003:L344-345, L350]: a hack needs a Firewall, and 5 Breaches destroy the system: with only a program,
    the runs hack whom they can, never the Trooper (no Firewall), and nobody once its system is gone."""
    program = 'weapons = [{ name = "Intrusion", range = "close", fixed = 1, damage = 2, effects = ["quantronic"] }]\n'
    assert _attacks(program) == ["attack Mira Hacker Intrusion"]
    assert _attacks(program, "damage Hacker 20 track=firewall ignore-soak\n" * 3) == []


def test_ttb_cautious_engaged_strikes_with_combat_ap_then_stands_defensive() -> None:
    """docs/rules/ttb-turns.md Defensive Stance [000:L246, L336]: a cautious fighter in melee strikes with its
    Combat AP, then spends the General AP left on Defensive Stance, discarding its lowest card; steady strikes on."""
    s = session_from(GUNSLINGER.format(tactics='tactics = "cautious"'))
    s.execute("start")
    s.execute("engage Sofia Thug")
    pilot = TTBPilot()
    st = ttb_state(s)
    assert pilot.commands(s.rules, random.Random(1))[0].startswith("attack 'Sofia Ramos' strike")
    st.fighters["Sofia Ramos"].combat_ap = 0
    low = min(st.fighters["Sofia Ramos"].hand, key=lambda c: parse_card(c).value)
    first = pilot.commands(s.rules, random.Random(1))[0]
    assert first == f"spend 'Sofia Ramos' defensive {st.fighters['Sofia Ramos'].ap} {low}"
    s.execute(first)
    assert st.fighters["Sofia Ramos"].conditions.get("defensive") == 2
    steady = session_from(GUNSLINGER.format(tactics=""))
    steady.execute("start")
    steady.execute("engage Sofia Thug")
    ttb_state(steady).fighters["Sofia Ramos"].combat_ap = 0
    assert TTBPilot().commands(steady.rules, random.Random(1))[0].startswith("attack 'Sofia Ramos' strike")
