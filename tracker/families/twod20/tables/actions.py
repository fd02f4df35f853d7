"""The 2d20 actions a turn can take, by kind (docs/rules/2d20-turns.md#s3-5-1 to #s3-5-3): a table of the
game's own words, apart from the bookkeeping that spends them (`tracker.families.twod20.actions`), so the
catalogue, the screens and the policies read it without loading how each one is paid."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: Zones a movement action lets `move` cover this turn (docs/rules/2d20-combat.md#s3-6 [004:L1476, L1494];
#: [003:L573-581]).
MOVE_ZONES = {"movement": 1, "rush": 1, "sprint": 2}

#: +2[CD] Cover or Morale from actions (docs/rules/2d20-turns.md#s3-5-1 [004:L1488-1489, L1529]).
GRANTS: dict[str, tuple[Literal["cover", "morale"], ...]] = {
    "defend": ("cover",),
    "bolster": ("morale",),
    "hit_the_dirt": ("cover", "morale"),
}
GRANT_DICE = 2

Kind = Literal["major", "minor", "free", "reaction", "spend"]


@dataclass(frozen=True)
class Action:
    title: str
    kind: Kind
    summary: str = ""
    movement: bool = False


ACTIONS: dict[str, Action] = {
    "attack": Action("Attack", "major"),
    "aid": Action("Aid", "major", "Patient within Reach removes stress."),
    "assist": Action("Assist", "major"),
    "create_advantage": Action("Create Advantage", "major"),
    "overcome": Action("Overcome", "major"),
    "pass": Action("Pass", "major", "No Major; with no Minor either, the turn is not used."),
    "protect": Action("Protect", "major"),
    "ready": Action("Ready", "major"),
    "recover": Action("Recover", "major"),
    "rush": Action("Rush", "major", "Move 1 zone + 1 per Momentum; once per round.", movement=True),
    "sprint": Action("Sprint", "major", "Infinity: move within Long range; tests +1 until next turn.", True),
    "skill_test": Action("Skill Test", "major"),
    "treat": Action("Treat", "major"),
    "withdraw": Action("Withdraw", "major", "Infinity: move to Close range without Retaliate.", True),
    "brace": Action("Brace", "major", "Infinity: steady an Unwieldy weapon."),
    "exploit": Action("Exploit", "major", "Infinity: find a weakness to exploit at once."),
    "cast": Action("Cast a Spell", "major", "Secret War: needs the Prepare minor first."),
    "catch_breath": Action("Catch Breath", "major", "Secret War: Will + Resilience D2; stress or a weapon effect."),
    "command": Action("Command", "major", "Secret War: command a character under your control."),
    "create_truth": Action("Create Truth", "major", "Secret War: a skill test D2 for an advantage."),
    "go_prone": Action("Go Prone", "major", "Secret War: hit the dirt (Prone)."),
    "stabilise": Action("Stabilise", "major", "Secret War: Coordination + Medicine D2, prevents dying."),
    "break_free": Action("Break Free", "major", "A Snared character's test, Difficulty = the Snare's Effects."),
    "aim": Action("Aim", "minor"),
    "bolster": Action("Bolster", "minor"),
    "defend": Action("Defend", "minor"),
    "disengage": Action("Disengage", "minor", "Leave an enemy's Reach within the zone."),
    "draw_item": Action("Draw Item", "minor"),
    "drop_prone": Action("Drop Prone", "minor"),
    "stand": Action("Stand", "minor"),
    "interact": Action("Interact", "minor"),
    "movement": Action("Movement", "minor", "Within Medium range; not with an enemy in Reach.", True),
    "prepare": Action("Prepare", "minor"),
    "absterge": Action("Absterge", "minor", "Infinity: rid oneself of a condition (not Fatigued)."),
    "swap_ammo": Action("Swap Ammo", "minor"),
    "transmit": Action("Transmit", "minor", "Infinity: an Infowar transmission."),
    "access_system": Action("Access System", "major", "Infinity: connect to a known access point, or disconnect."),
    "reset": Action("Reset", "major", "Infinity: D1 Hacking restores the Firewall; comlog/AR +4, −1 per Momentum."),
    "use_program": Action("Use Program", "major", "Infinity: use a program."),
    "link": Action("Link", "reaction", "Infinity: D1 Hacking to follow an enemy leaving Reach, to its turn's end."),
    "shift": Action("Shift", "free"),
    "speak": Action("Speak", "free"),
    "drop": Action("Drop Item", "free"),
    "adjust": Action("Adjust", "free"),
    "hit_the_dirt": Action("Hit the Dirt", "reaction"),
    "defence": Action("Defence", "reaction"),
    "guard": Action("Guard", "reaction"),
    "retaliate": Action("Retaliate", "reaction"),
    "return_fire": Action("Return Fire", "reaction"),
    "covering_fire": Action("Covering Fire", "reaction"),
    "swift": Action("Swift Action", "spend", "2 Momentum: an extra Major Action this turn."),
    "surge": Action("Surge of Activity", "spend", "1 Fortune: an extra Major Action this turn."),
    "undefeated": Action("Undefeated", "spend", "1 Fortune: no longer Defeated."),
}
