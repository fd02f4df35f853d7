"""Actions the 2d20 rules forbid are refused in one line, with the rule and its seed line, and nothing changes:
Snared (by the snaring attack's type, but breaking free) [004:L1782], Stuck [003:L448], Hindered [003:L428-431],
Helpless [003:L425-427], Unconscious [003:L450-454], a Mental Break (final) [004:L1874-1876], and the range of
Defend (Reach) [004:L1489], Bolster and Protect (Close range) [004:L1488, L1473]."""

from __future__ import annotations

from tests.conftest import d20, d20_state, pending, run, session_from
from tests.rules.twod20.scenes import KIT_SKILLS, combatant, header, refused, zones
from tests.rules.twod20.test_attack_flow import scene as armed_scene
from tests.rules.twod20.test_turn_actions import ROUND, kit_turn
from tracker.families.session import Session


def snared(extra: str = "") -> Session:
    """Kit's turn, Kit Snared by a physical hit with 2 Effects (3 damage, no armor: stress gets through)."""
    return run(kit_turn(), f"damage Kit 3 icons=2 snare {extra}".strip())


# --- Snare [004:L1782], docs/rules/2d20-combat.md#s3-8 ----------------------------------------------------------------


def test_004_l1782_a_physical_snare_refuses_physical_actions() -> None:
    """[004:L1782] Snare: the target "cannot take any actions of a type determined by the type of attack ...
    other than to try and break free". A physical hit's Snare refuses Attack, Movement and Aim; talking and a
    mental action (Bolster) stay allowed."""
    s = snared()
    kit = d20_state(s).fighters["Kit"]
    assert (kit.conditions["snared"], kit.snare_kind) == (2, "physical")
    for line in ("spend Kit attack", "spend Kit movement", "spend Kit aim", "move Kit B"):
        why = refused(s, line, "Kit is Snared (physical)")
        assert "[004:L1782]" in str(why) and "\n" not in str(why)
    run(s, "spend Kit speak", "spend Kit bolster")
    assert d20_state(s).fighters["Kit"].minors == ["bolster"]


def test_004_l1782_a_mental_snare_refuses_mental_actions_only() -> None:
    """[004:L1782] "physical actions for physical attacks, etc": a mental hit's Snare binds the mind (Bolster),
    not the body (an Attack is still allowed)."""
    s = snared("mental")
    assert d20_state(s).fighters["Kit"].snare_kind == "mental"
    refused(s, "spend Kit bolster", "Kit is Snared (mental): no mental actions")
    run(s, "spend Kit attack Thug")
    assert d20_state(s).fighters["Kit"].majors == 1


def test_004_l1782_the_attack_flow_refuses_a_snared_attacker() -> None:
    """[004:L1782]: the attack flow (`attack NAME`) asks the same legality: a Snared Kit cannot attack."""
    s = run(armed_scene(), "start", "pick Kit", "damage Kit 3 icons=1 snare")
    refused(s, "attack Kit", "Kit is Snared (physical)")
    refused(s, "attack Kit Thug", "[004:L1782]")


def test_004_l1782_break_free_is_a_test_at_the_snares_difficulty() -> None:
    """[004:L1782]: breaking free "requires a Skill Test with a Difficulty equal to the number of [!] rolled".
    `spend Kit break-free 11 12,15` (TN 11, the table's faces) scores 0 successes at D2: still Snared, and the
    Major Action is spent. Next round faces 1 and 5 score 3: free, 1 Momentum banked, and Kit may move."""
    s = snared()
    run(s, "spend Kit break-free 11 12,15")
    kit = d20_state(s).fighters["Kit"]
    assert kit.conditions["snared"] == 2 and kit.majors == 1
    assert "Kit is still Snared" in d20_state(s).log[-1].text
    run(s, *ROUND)
    before = d20_state(s).momentum
    run(s, "spend Kit break-free 11 1,5")
    kit = d20_state(s).fighters["Kit"]
    assert "snared" not in kit.conditions
    assert d20_state(s).momentum == before + 1
    run(s, "spend Kit movement")


def test_004_l1782_break_free_is_rolled_seeded_when_no_faces_are_typed() -> None:
    """The tracker rolls the break-free test with the seeded dice: two d20s drawn, the same on a replay."""
    s = snared()
    draws = d20_state(s).draws
    run(s, "spend Kit break-free 11")
    assert d20_state(s).draws == draws + 2
    assert "Kit tries to break free: d20:" in "\n".join(e.text for e in d20_state(s).log)


def test_004_l1782_break_free_refusals_change_nothing() -> None:
    """Breaking free needs a Snare, a TN, and faces a d20 has; each refusal leaves the state as it was."""
    refused(kit_turn(), "spend Kit break-free 11", "Kit is not Snared")
    s = snared()
    refused(s, "spend Kit break-free", "usage: spend Kit break-free TN")
    refused(s, "spend Kit break-free 11 1,25", "not a face of a d20")
    refused(s, "spend Kit break-free 11 1,2,3", "expected 2 faces")


def test_004_l1782_a_snare_ends_with_remove() -> None:
    """The GM may end a Snare with `remove`; the character acts freely again."""
    s = run(snared(), "remove Kit snared", "spend Kit movement")
    assert d20_state(s).fighters["Kit"].minors == ["movement"]


# --- Infinity: Stuck, Hindered, Helpless; Unconscious ----------------------------------------------------


def test_003_l448_stuck_cannot_move() -> None:
    """[003:L448] Stuck: "Unable to move from current object or location": Movement, Sprint, Withdraw and
    Adjust are refused, and so is `move`; other actions are not."""
    s = run(kit_turn("infinity"), "add Kit stuck")
    for line in ("spend Kit movement", "spend Kit sprint", "spend Kit withdraw", "spend Kit adjust", "move Kit B"):
        assert "[003:L448]" in str(refused(s, line, "Kit is Stuck"))
    run(s, "spend Kit attack Thug")


def test_003_l428_hindered_cannot_move_as_a_free_action() -> None:
    """[003:L428-431] Hindered: "unable to move as a Free Action": Adjust (Infinity) and Shift (SRD) are
    refused; the Movement minor is not (it moves one zone fewer, a warning on `move`)."""
    s = run(kit_turn("infinity"), "add Kit hindered")
    refused(s, "spend Kit adjust", "Kit is Hindered: no movement as a Free Action [003:L428-431]")
    run(s, "spend Kit movement")
    srd = run(kit_turn(), "add Kit hindered")
    refused(srd, "spend Kit shift", "Hindered")
    run(srd, "remove Kit hindered", "spend Kit shift")


def test_003_l437_prone_counts_as_hindered_under_infinity() -> None:
    """[003:L437] Prone characters "are also considered Hindered": a Prone Kit may not Adjust."""
    s = run(kit_turn("infinity"), "spend Kit drop-prone")
    refused(s, "spend Kit adjust", "Hindered")


def test_003_l425_helpless_takes_no_reactions() -> None:
    """[003:L425-427] Helpless: "Unable to take Reactions": Ada's Defence is refused, the Heat unchanged."""
    s = run(kit_turn("infinity"), "add Ada helpless")
    refused(s, "spend Ada defence", "Ada is Helpless: no Reactions [003:L425-427]")
    run(s, "remove Ada helpless", "spend Ada defence")


def test_003_l450_unconscious_takes_no_actions() -> None:
    """[003:L450-454] Unconscious: "Also considered Helpless. Unable to take any actions": no Reaction, no Free
    Action; it is not offered a turn."""
    s = run(kit_turn("infinity"), "add Ada unconscious")
    refused(s, "spend Ada defence", "Ada is unconscious: no actions")
    refused(s, "spend Ada speak", "003:L450-454")
    run(s, "next")
    assert "Ada" not in pending(d20_state(s)).options


# --- A Mental Break is final [004:L1874-1876] -------------------------------------------------------------


def broken() -> Session:
    """Kit (1 Wound, 1 Trauma) Defeated by a third Harm, then a Trauma while Defeated: a mental break."""
    kit = combatant("Kit", extra="harms = { wound = 1, trauma = 1 }", skills=KIT_SKILLS, stress=10, zone="A")
    text = header() + zones("A", "B") + kit + combatant("Thug", npc_type="minor", stress=12, zone="B")
    s = run(session_from(text), "start", "pick Kit", "damage Kit 6", "damage Kit 7 mental")
    assert d20_state(s).fighters["Kit"].broken
    return s


def test_004_l1874_a_mental_break_is_not_undone_by_revive() -> None:
    """[004:L1874-1876]: another Trauma while Defeated is a mental break, "no longer a playable character";
    the revive of [004:L1876] leaves Defeated, not a mental break: refused, Kit still Defeated."""
    s = broken()
    why = refused(s, "revive Kit", "Kit has suffered a mental break: final")
    assert "[004:L1874-1876]" in str(why)
    assert d20_state(s).fighters["Kit"].defeated


def test_004_l1874_a_mental_break_is_not_undone_by_fortune() -> None:
    """[004:L1874-1876]: the Fortune point that removes Defeated does not undo a mental break; Kit's Fortune
    stays unspent, and Kit takes no more actions (not even the Defeated's Free Action)."""
    s = broken()
    fortune = d20_state(s).fighters["Kit"].fortune
    refused(s, "spend Kit undefeated", "Fortune does not undo it [004:L1874-1876]")
    refused(s, "spend Kit speak", "no longer a playable character")
    assert d20_state(s).fighters["Kit"].fortune == fortune
    assert not d20(s).can_take_turn("Kit"), "the hand-over no longer offers a broken character"


# --- Range of ally actions ---------------------------------------------------------------------------------


def test_004_l1489_defend_an_ally_only_within_reach() -> None:
    """[004:L1489] Defend: "defends themselves or an ally within Reach": Ada in the same zone but not within
    Reach is refused; once `reach Kit Ada` is declared the +2[CD] Cover is granted."""
    s = kit_turn()
    why = refused(s, "spend Kit defend Ada", "Ada is not within Kit's Reach")
    assert "[004:L1489]" in str(why)
    run(s, "reach Kit Ada", "spend Kit defend Ada")
    assert [g.kind for g in d20_state(s).fighters["Ada"].granted] == ["cover"]


def test_004_l1488_bolster_an_ally_only_within_close_range() -> None:
    """[004:L1488] Bolster: "reassure an ally within Close range" (the same zone): Ada next door is refused."""
    s = run(kit_turn(), "move Ada B")
    refused(s, "spend Kit bolster Ada", "not within Close range of Kit (A): Bolster reaches an ally in the same zone")
    run(s, "move Ada A", "spend Kit bolster Ada")
    assert [g.kind for g in d20_state(s).fighters["Ada"].granted] == ["morale"]


def test_004_l1473_protect_conferred_only_within_close_range() -> None:
    """[004:L1473] Protect: "confer the benefits of this Action to an ally within Close Range": Ada next door
    is refused; Protect for Kit itself, or Ada in Kit's zone, is taken."""
    s = run(kit_turn(), "move Ada B")
    assert "[004:L1473]" in str(refused(s, "spend Kit protect Ada", "not within Close range"))
    run(s, "move Ada A", "spend Kit protect Ada")
    assert d20_state(s).fighters["Kit"].majors == 1
