"""docs/rules/2d20-turns.md#s3-4 (2d20 action order): the alternating order with its first-actor and hand-over prompts,
`pick` / `keep` (keeping the initiative), a side with nobody left, the round's end, Pass without a Minor
(the turn is not used, with the loop guard of docs/rules/2d20-lifecycle.md#s3-13 turn_end 4), and the variants
Initiative Scores, Player Priority and Narrative First; the dead and the unconscious take no turns
(docs/rules/2d20-lifecycle.md#s3-13 turn_start 4). Every refused command leaves the state unchanged
(docs/rules/index.md#s1, docs/reference/language.md)."""

from __future__ import annotations

from tests.conftest import d20_state, pending, run, session_from
from tests.rules.twod20.scenes import KIT_ATTRIBUTES, KIT_SKILLS, combatant, header, refused, zones
from tests.rules.twod20.test_attack_flow import kit_attacks
from tracker.engine.records.record import dump
from tracker.families.session import Session
from tracker.families.snapshot import state_json

KIT = combatant("Kit", attributes=KIT_ATTRIBUTES, skills=KIT_SKILLS, stress=10, zone="A")
ADA = combatant("Ada", attributes={"agility": 8, "insight": 11}, stress=10, zone="A")
CY = combatant("Cy", initiative=7, stress=10, zone="A")
DEE = combatant("Dee", attributes={"agility": 9}, stress=10, zone="A")
THUG = combatant("Thug", npc_type="minor", attributes={"agility": 10}, stress=5, zone="B")
BOSS = combatant("Boss", npc_type="major", attributes={"agility": 12, "insight": 8}, stress=8, zone="B")
GRUNT = combatant("Grunt", npc_type="notable", initiative=3, stress=5, zone="B")


def encounter(*blocks: str, order: str = "alternating", momentum: int = 2, threat: int = 4, settings: str = "") -> str:
    """A 2d20 SRD encounter in two adjacent zones with the given combatant blocks (and `[settings]` lines)."""
    table = header(order=order, momentum=momentum, threat=threat, settings=settings)
    return table + zones("A", "B") + "".join(blocks)


def fight(*blocks: str, order: str = "alternating", momentum: int = 2, threat: int = 4) -> Session:
    return session_from(encounter(*blocks, order=order, momentum=momentum, threat=threat))


def duel(order: str = "alternating", momentum: int = 2, threat: int = 4) -> Session:
    """Two PCs (Kit, Ada) against two NPCs (Thug, Boss)."""
    return fight(KIT, ADA, THUG, BOSS, order=order, momentum=momentum, threat=threat)


def options(s: Session) -> list[str]:
    assert d20_state(s).prompt is not None, "a prompt should be pending"
    return list(pending(d20_state(s)).options)


def pools(s: Session) -> tuple[int, int]:
    return d20_state(s).momentum, d20_state(s).threat


# --- docs/rules/2d20-turns.md#s3-4 rule 1: the first actor ------------------------------------------------------------


def test_s3_4_start_asks_who_acts_first() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 1: `start` opens round 1 with the first-actor prompt listing everyone able to
    act; no turn is open until it is answered, and the question says an NPC first costs 2 Threat."""
    s = run(duel(), "start")
    st = d20_state(s)
    assert st.round == 1
    assert st.active is None
    assert st.phase == "handover"
    assert st.prompt is not None and st.prompt.kind == "pick"
    assert "Who acts first?" in st.prompt.question
    assert "an NPC first costs 2 Threat" in st.prompt.question
    assert options(s) == ["Kit", "Ada", "Thug", "Boss"]
    data = state_json(s)
    assert data["prompt"] == st.prompt.question
    assert data["prompt_options"] == ["Kit", "Ada", "Thug", "Boss"]


def test_s3_4_pick_a_pc_first_is_free() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 1: the GM picks a PC to act first at no cost; that turn opens."""
    s = run(duel(), "start", "pick Kit")
    st = d20_state(s)
    assert st.active == "Kit"
    assert st.phase == "turn"
    assert st.prompt is None
    assert st.order == ["Kit"]
    assert st.fighters["Kit"].acted
    assert pools(s) == (2, 4)


def test_s3_4_pick_accepts_a_unique_prefix_any_case() -> None:
    """docs/reference/language.md with docs/rules/2d20-turns.md#s3-4: names are case-insensitive and a unique prefix is
    accepted."""
    s = run(duel(), "start", "pick ki")
    assert d20_state(s).active == "Kit"


def test_s3_4_an_npc_first_costs_2_threat() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 1: the GM spends 2 Threat to have an NPC act first; the spend is logged."""
    s = run(duel(threat=4), "start", "pick Thug")
    assert d20_state(s).active == "Thug"
    assert pools(s) == (2, 2)
    assert any("Threat -2" in line.text and "an NPC acts first" in line.text for line in d20_state(s).log)


def test_s3_4_an_npc_first_is_refused_without_2_threat() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 1, docs/rules/2d20.md#s3-3: with 1 Threat the GM cannot pay for an NPC first;
    nothing changes."""
    s = run(duel(threat=1), "start")
    refused(s, "pick Thug", "costs 2 Threat")
    run(s, "pick Kit")
    assert d20_state(s).active == "Kit"


def test_s3_4_keep_cannot_answer_the_first_actor_prompt() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 1: the first actor is picked; there is no initiative to keep yet."""
    s = run(duel(), "start")
    refused(s, "keep Kit", "the first actor is picked")


def test_s3_4_commands_other_than_pick_wait_for_the_prompt() -> None:
    """docs/reference/language.md / docs/rules/2d20-turns.md#s3-4: while the hand-over prompt waits, `spend` and `next`
    are refused with the prompt's question."""
    s = run(duel(), "start")
    refused(s, "spend Kit attack", "waiting for an answer")
    refused(s, "next", "Who acts first")


def test_s3_4_pick_and_keep_need_a_pending_question() -> None:
    """docs/rules/2d20-turns.md#s3-4: `pick` answers the hand-over; during a turn there is nothing to answer."""
    s = run(duel(), "start", "pick Kit")
    refused(s, "pick Thug", "nobody is waiting for a hand-over")
    refused(s, "keep Ada", "nobody is waiting for a hand-over")


def test_s3_4_pick_before_start_is_refused() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 scene_start: the order exists only once the scene has started."""
    refused(duel(), "pick Kit", "has not started")


# --- docs/rules/2d20-turns.md#s3-4 rules 2-3: the hand-over and keeping the initiative --------------------------------


def test_s3_4_handover_prompt_after_next() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 2: after a turn the opposing side picks one of its characters who has not
    acted; the prompt also offers the acting side's waiting allies for `keep`."""
    s = run(duel(), "start", "pick Kit", "next")
    st = d20_state(s)
    assert st.active is None
    assert st.phase == "handover"
    assert st.prompt is not None and st.prompt.kind == "pick"
    assert "Hand-over from Kit" in st.prompt.question
    assert "keep NAME for players" in st.prompt.question
    assert options(s) == ["Thug", "Boss", "Ada"]


def test_s3_4_the_other_side_picks_for_free() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 2: picking an opposing character costs nothing and opens its turn."""
    s = run(duel(), "start", "pick Kit", "next", "pick Boss")
    assert d20_state(s).active == "Boss"
    assert d20_state(s).order == ["Kit", "Boss"]
    assert pools(s) == (2, 4)


def test_s3_4_pick_must_name_an_opposing_character() -> None:
    """docs/rules/2d20-turns.md#s3-4 rules 2-3: while the other side has actors, `pick` of an ally is refused (it would
    be keeping the initiative, which `keep` does and pays for)."""
    s = run(duel(), "start", "pick Kit", "next")
    refused(s, "pick Ada", "the hand-over goes to the other side")


def test_s3_4_pick_must_name_someone_who_has_not_acted() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 2: a character who has acted this round cannot be picked again."""
    s = run(duel(), "start", "pick Kit", "next", "pick Thug", "next")
    refused(s, "pick Kit", "already acted this round")
    refused(s, "pick Thug", "already acted this round")
    refused(s, "pick Nobody", "no combatant named")


def test_s3_4_keep_for_a_pc_costs_2_momentum() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 3: the players keep the initiative for an ally by paying 2 Momentum
    (logged)."""
    s = run(duel(momentum=3), "start", "pick Kit", "next", "keep Ada")
    assert d20_state(s).active == "Ada"
    assert pools(s) == (1, 4)
    assert d20_state(s).kept_by == "players"
    assert any("Momentum -2" in line.text and "keep the initiative" in line.text for line in d20_state(s).log)


def test_s3_4_keep_for_a_pc_adds_2_threat_when_momentum_is_short() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 3, docs/rules/2d20.md#s3-3 [004:L1396-1402]: PCs may pay any Momentum cost
    with Threat; with 1 Momentum, +2 Threat, once the table says yes to the question (paying the GM is the players'
    choice)."""
    s = run(duel(momentum=1, threat=4), "start", "pick Kit", "next", "keep Ada")
    p = d20_state(s).prompt
    assert p is not None and p.kind == "keep_threat" and p.options == ["yes", "no"]
    assert "costs 2 Momentum and the pool holds 1; add 2 Threat instead?" in p.question
    assert pools(s) == (1, 4) and d20_state(s).active is None  # nothing paid yet
    run(s, "answer yes")
    assert d20_state(s).active == "Ada"
    assert pools(s) == (1, 6)


def test_s3_4_a_keep_short_of_momentum_answered_no_asks_the_hand_over_again() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 3, docs/rules/2d20.md#s3-3 [004:L1396-1402]: `no` pays nothing and the
    hand-over question stands as it was."""
    s = run(duel(momentum=1, threat=4), "start", "pick Kit", "next")
    before = d20_state(s).prompt
    run(s, "keep Ada", "answer no")
    after = d20_state(s).prompt
    assert after is not None and before is not None
    assert (after.kind, after.question, after.options) == (before.kind, before.question, before.options)
    assert after.data.get("keep") == before.data.get("keep")
    assert pools(s) == (1, 4) and d20_state(s).active is None
    again = run(duel(momentum=1, threat=4), "start", "pick Kit", "next", "keep Ada")
    again.execute("undo")
    assert pending(d20_state(again)).kind == "pick"


def test_s3_4_keep_name_threat_pays_with_threat_by_choice() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 3: `keep NAME threat` adds 2 Threat even when the Momentum pool could pay."""
    s = run(duel(momentum=5, threat=4), "start", "pick Kit", "next", "keep Ada threat")
    assert d20_state(s).active == "Ada"
    assert pools(s) == (5, 6)


def test_s3_4_keep_with_a_stray_word_is_refused() -> None:
    """docs/reference/language.md: `keep NAME [threat]`; any other second word is refused."""
    s = run(duel(), "start", "pick Kit", "next")
    refused(s, "keep Ada momentum", "usage")


def test_s3_4_keep_for_an_npc_costs_2_threat() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 3: enemy NPCs keep the initiative by spending 2 Threat."""
    s = run(duel(threat=4), "start", "pick Kit", "next", "pick Thug", "next", "keep Boss")
    assert d20_state(s).active == "Boss"
    assert pools(s) == (2, 2)
    assert d20_state(s).kept_by == "npcs"


def test_s3_4_keep_for_an_npc_is_refused_when_threat_cannot_pay() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 3, docs/rules/2d20.md#s3-3: with 1 Threat the GM cannot keep the initiative;
    nothing changes."""
    s = run(duel(threat=1), "start", "pick Kit", "next", "pick Thug", "next")
    refused(s, "keep Boss", "costs 2 Threat")
    run(s, "pick Ada")
    assert d20_state(s).active == "Ada"


def test_s3_4_keep_must_name_an_ally() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 3: keep is for the acting side's own characters."""
    s = run(duel(), "start", "pick Kit", "next")
    refused(s, "keep Thug", "keep is for players's own characters")


def test_s3_4_keep_must_name_an_ally_who_has_not_acted() -> None:
    """docs/rules/2d20-turns.md#s3-4 rules 2-3: a kept turn goes to an ally still without a turn this round."""
    s = fight(KIT, ADA, CY, THUG, momentum=6)
    run(s, "start", "pick Kit", "next", "keep Ada", "next", "pick Thug", "next")
    refused(s, "keep Kit", "already acted")


def test_s3_4_keep_not_twice_in_a_row_but_again_after_an_enemy_acted() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 3: after keeping the initiative, an enemy must take a turn before that side
    may keep it again; once an enemy has acted, keeping is allowed (and paid) again."""
    s = fight(KIT, ADA, CY, DEE, THUG, BOSS, momentum=6)
    run(s, "start", "pick Kit", "next", "keep Ada", "next")
    assert d20_state(s).prompt is not None and "keep NAME" not in pending(d20_state(s)).question
    assert options(s) == ["Thug", "Boss"]
    refused(s, "keep Cy", "kept the initiative last time")
    run(s, "pick Thug", "next", "pick Cy", "next")
    assert d20_state(s).kept_by is None
    run(s, "keep Dee")
    assert d20_state(s).active == "Dee"
    assert d20_state(s).momentum == 2, "two keeps at 2 Momentum each from 6"


def test_s3_4_kept_npc_side_cannot_keep_twice() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 3: the not-twice rule binds the GM's side as well."""
    s = fight(KIT, ADA, THUG, BOSS, GRUNT, threat=10)
    run(s, "start", "pick Kit", "next", "pick Thug", "next", "keep Boss", "next")
    refused(s, "keep Grunt", "kept the initiative last time")
    assert d20_state(s).threat == 8


# --- docs/rules/2d20-turns.md#s3-4 rule 4: a side with nobody left ----------------------------------------------------


def test_s3_4_a_side_with_nobody_left_lets_the_other_side_continue() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 4: once the NPCs have all acted, the players act one at a time, picking their
    own characters for free (it is no keep)."""
    s = fight(KIT, ADA, CY, THUG, momentum=2)
    run(s, "start", "pick Kit", "next", "pick Thug", "next", "pick Ada", "next")
    assert d20_state(s).prompt is not None
    assert "Only players have actors left" in pending(d20_state(s)).question
    assert options(s) == ["Cy"]
    run(s, "pick Cy")
    assert d20_state(s).active == "Cy"
    assert pools(s) == (2, 4)


def test_s3_4_the_last_side_left_hands_over_to_itself_after_the_other_side_ran_out() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 4: when the acting side is the only one left, the next pick is its own."""
    s = fight(KIT, THUG, BOSS, GRUNT, threat=10)
    run(s, "start", "pick Kit", "next", "pick Thug", "next")
    assert options(s) == ["Boss", "Grunt"]
    run(s, "pick Boss")
    assert d20_state(s).threat == 10


# --- docs/rules/2d20-turns.md#s3-4 rule 5: the round's end ------------------------------------------------------------


def test_s3_4_round_end_asks_who_opens_the_next_round() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 5: when everyone has acted, the last actor nominates the other side (pick) or
    pays 2 to keep (keep); the round does not advance until answered."""
    s = run(duel(), "start", "pick Kit", "next", "pick Thug", "next", "pick Ada", "next", "pick Boss", "next")
    st = d20_state(s)
    assert st.round == 1
    assert st.prompt is not None and st.prompt.kind == "round"
    assert "Round 2" in st.prompt.question
    assert "Boss nominates the other side" in st.prompt.question


def test_s3_4_round_end_pick_opens_the_next_round_for_free() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 5, docs/rules/2d20-lifecycle.md#s3-13 round_start: nominating the other side
    opens round 2 with that character; everyone's turn bookkeeping is reset."""
    s = run(duel(), "start", "pick Kit", "next", "pick Thug", "next", "pick Ada", "next", "pick Boss", "next")
    run(s, "pick Kit")
    st = d20_state(s)
    assert st.round == 2
    assert st.active == "Kit"
    assert st.order == ["Kit"]
    assert [st.fighters[n].acted for n in ("Kit", "Ada", "Thug", "Boss")] == [True, False, False, False]
    assert pools(s) == (2, 4)


def test_s3_4_round_end_keep_costs_2_and_opens_with_own_side() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 5: the last actor's side pays 2 (NPCs: 2 Threat) to open the next round."""
    s = run(
        duel(threat=6),
        "start",
        "pick Kit",
        "next",
        "pick Thug",
        "next",
        "pick Ada",
        "next",
        "pick Boss",
        "next",
        "keep Thug",
    )
    assert d20_state(s).round == 2
    assert d20_state(s).active == "Thug"
    assert pools(s) == (2, 4)


def test_s3_4_round_end_pc_keep_costs_2_momentum() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 5: a PC's side keeps the first turn of the next round for 2 Momentum."""
    s = run(
        duel(momentum=4),
        "start",
        "pick Thug",
        "next",
        "pick Kit",
        "next",
        "pick Boss",
        "next",
        "pick Ada",
        "next",
        "keep Kit",
    )
    assert d20_state(s).round == 2
    assert d20_state(s).active == "Kit"
    assert pools(s) == (2, 2)


def test_s3_4_round_end_own_side_needs_keep() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 5: `pick` at the round's end nominates the other side; an ally needs
    `keep`."""
    s = run(duel(), "start", "pick Kit", "next", "pick Thug", "next", "pick Ada", "next", "pick Boss", "next")
    refused(s, "pick Boss", "hand-over goes to the other side")


def test_s3_4_round_end_keep_refused_when_the_npc_pool_is_short() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 5, docs/rules/2d20.md#s3-3: an NPC side with 1 Threat cannot pay to open the
    round."""
    s = run(duel(threat=1), "start", "pick Kit", "next", "pick Thug", "next", "pick Ada", "next", "pick Boss", "next")
    refused(s, "keep Boss", "costs 2 Threat")


# --- docs/rules/2d20-turns.md#s3-4 rule 6: Pass without a Minor -------------------------------------------------------


def test_s3_4_pass_without_a_minor_does_not_use_the_turn() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 6, docs/rules/2d20-lifecycle.md#s3-13 turn_end 4: Pass and no Minor Action:
    the character has not used its turn, leaves the order, hands over, and may be picked again later this round."""
    s = run(duel(), "start", "pick Kit", "spend Kit pass", "next")
    kit = d20_state(s).fighters["Kit"]
    assert not kit.acted
    assert "Kit" not in d20_state(s).order
    assert any("has not used its turn" in line.text for line in d20_state(s).log)
    assert "Kit" in options(s)
    run(s, "pick Thug", "next", "pick Kit")
    assert d20_state(s).active == "Kit"
    assert d20_state(s).order == ["Thug", "Kit"]


def test_s3_4_pass_with_a_minor_uses_the_turn() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 6: a Pass that took a Minor Action has used the turn."""
    s = run(duel(), "start", "pick Kit", "spend Kit pass", "spend Kit aim", "next")
    assert d20_state(s).fighters["Kit"].acted
    assert "Kit" not in options(s)


def test_s3_4_a_deferred_character_acting_later_uses_its_turn() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 6: the deferral belongs to the turn that passed; when the character is picked
    again and attacks, that turn counts, even if the enemy deferred in between too."""
    s = run(duel(), "start", "pick Kit", "spend Kit pass", "next", "pick Thug", "spend Thug pass", "next")
    assert not d20_state(s).fighters["Thug"].acted
    run(s, "pick Kit", "spend Kit attack", "next")
    assert d20_state(s).fighters["Kit"].acted
    assert "Kit" not in options(s)
    assert d20_state(s).fighters["Kit"].majors == 1


def test_s3_4_a_deferred_pass_is_not_a_major_action_of_the_round() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 6 with docs/rules/2d20-turns.md#s3-5-1 (2 Majors per round): an unused turn's
    Pass does not count, so the later turn may still take 2 Major Actions with a Swift Action."""
    s = run(duel(momentum=4), "start", "pick Kit", "spend Kit pass", "next", "pick Thug", "next", "pick Kit")
    assert d20_state(s).fighters["Kit"].majors == 0
    run(s, "spend Kit attack", "spend Kit swift", "spend Kit attack")
    assert d20_state(s).fighters["Kit"].majors == 2


def test_s3_4_loop_guard_when_everyone_left_has_deferred() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 turn_end 4: once every character still without a turn has deferred since the
    last turn actually taken, the latest deferral counts as a turn, so the round always ends."""
    s = fight(KIT, THUG, momentum=2)
    run(s, "start", "pick Kit", "spend Kit pass", "next")
    assert not d20_state(s).fighters["Kit"].acted
    run(s, "pick Thug", "spend Thug pass", "next")
    assert d20_state(s).fighters["Thug"].acted, "Kit had deferred, so Thug's deferral counts as its turn"
    assert d20_state(s).order == ["Thug"]
    assert options(s) == ["Kit"]
    run(s, "pick Kit", "spend Kit pass", "next")
    assert d20_state(s).fighters["Kit"].acted, "the last character without a turn cannot defer"
    assert d20_state(s).prompt is not None and pending(d20_state(s)).kind == "round"


def test_s3_4_a_real_turn_clears_the_deferrals() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 turn_end 4: the loop guard counts deferrals since the last turn actually
    taken."""
    s = fight(KIT, ADA, THUG, momentum=2)
    run(s, "start", "pick Kit", "spend Kit pass", "next")
    assert d20_state(s).fighters["Kit"].deferred
    run(s, "pick Thug", "spend Thug attack", "next")
    assert not d20_state(s).fighters["Kit"].deferred
    assert sorted(options(s)) == ["Ada", "Kit"]


# --- the dead and the unconscious ------------------------------------------------------------------------


def test_s3_4_unconscious_characters_take_no_turns() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 turn_start 4, docs/rules/2d20-harm.md#s3-10-3: the unconscious are never
    offered, cannot be picked, and the round ends without them."""
    sleeper = KIT.replace('zone = "A"', 'zone = "A"\nconditions = { unconscious = true }')
    s = fight(sleeper, ADA, THUG)
    run(s, "start")
    assert options(s) == ["Ada", "Thug"]
    refused(s, "pick Kit", "cannot act")
    run(s, "pick Ada", "next")
    assert options(s) == ["Thug"]
    run(s, "pick Thug", "next")
    assert d20_state(s).prompt is not None and pending(d20_state(s)).kind == "round"


def test_s3_4_the_dead_take_no_turns() -> None:
    """docs/rules/2d20-harm.md#s3-10-2, docs/rules/2d20-lifecycle.md#s3-13: a character killed mid-round (a Wound while
    Defeated) drops out of the hand-over and cannot be picked."""
    hurt = THUG.replace("stress = 5", "stress = 5\nharms = { wound = 2 }")
    s = fight(KIT, ADA, hurt, BOSS)
    # the 3rd Wound defeats, the 4th kills (docs/rules/2d20-harm.md#s3-10-2)
    run(s, "start", "pick Kit", "damage Thug 9")
    assert d20_state(s).fighters["Thug"].dead
    run(s, "next")
    assert options(s) == ["Boss", "Ada"]
    refused(s, "pick Thug", "dead")


def test_s3_4_a_side_wiped_out_leaves_the_other_side_to_act() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 4: with the only enemy dead, the players pick among themselves."""
    hurt = THUG.replace("stress = 5", "stress = 5\nharms = { wound = 2 }")
    s = fight(KIT, ADA, hurt)
    run(s, "start", "pick Kit", "damage Thug 9", "next")
    assert d20_state(s).fighters["Thug"].dead
    assert options(s) == ["Ada"]
    run(s, "pick Ada")
    assert d20_state(s).active == "Ada"


# --- variant: Initiative Scores -----------------------------------------------------------------------


def test_s3_4_initiative_variant_orders_by_score_without_prompts() -> None:
    """docs/rules/2d20-turns.md#s3-4 Initiative Scores: score = max(Agility, Insight) or the `initiative` field; turns
    run highest first with no prompt; a cross-side tie goes to the PC (Kit 10 before Thug 10). `start` first asks
    who initiated the conflict (docs/reference/language.md "Initiative-score order", [004:L1410]); here the highest,
    Boss, so the order is unchanged and no later turn asks."""
    s = fight(KIT, ADA, CY, THUG, BOSS, GRUNT, order="initiative")
    run(s, "start")
    assert options(s) == ["Boss", "Ada", "Kit", "Thug", "Cy", "Grunt"]
    run(s, "pick Boss")
    st = d20_state(s)
    scores = {n: a.initiative for n, a in st.fighters.items()}
    assert scores == {"Kit": 10, "Ada": 11, "Cy": 7, "Thug": 10, "Boss": 12, "Grunt": 3}
    assert st.prompt is None
    seen = [st.active]
    for _ in range(5):
        run(s, "next")
        assert d20_state(s).prompt is None
        seen.append(d20_state(s).active)
    assert seen == ["Boss", "Ada", "Kit", "Thug", "Cy", "Grunt"]
    assert state_json(s)["combatants"][0]["initiative"] == 10


def test_s3_4_initiative_variant_next_round_starts_with_the_highest() -> None:
    """docs/rules/2d20-turns.md#s3-4 Initiative Scores: later rounds start with the highest score, automatically, free
    (round 1 opens with the initiator picked at `start` [004:L1410])."""
    s = fight(KIT, THUG, BOSS, order="initiative")
    run(s, "start", "pick Kit", "next", "next", "next")
    assert d20_state(s).round == 2
    assert d20_state(s).active == "Boss"
    assert d20_state(s).prompt is None
    assert pools(s) == (2, 4)


def test_s3_4_initiative_variant_has_no_hand_over_to_answer() -> None:
    """docs/rules/2d20-turns.md#s3-4 Initiative Scores: after the initiator is picked the order is automatic, so `pick`
    has nothing to answer. `keep NAME` is the interrupt of [004:L1414]; for the one
    already next it is refused, and it is refused outright before a turn is open."""
    s = run(fight(KIT, THUG, order="initiative"), "start")
    refused(s, "keep Kit", "the first actor is picked")
    run(s, "pick Kit")
    refused(s, "pick Thug", "nobody is waiting")
    refused(s, "keep Thug", "already acts next")


def test_s3_4_initiative_variant_random_scores_rolled_once_per_scene() -> None:
    """docs/rules/2d20-turns.md#s3-4 Initiative Scores, random option: `[settings] random_initiative = true` rolls [CD]
    equal to max(Agility, Insight) once when the conflict starts (logged); the total is the score all scene."""
    text = encounter(KIT, THUG, BOSS, order="initiative", settings="random_initiative = true")
    s = run(session_from(text), "start", "pick Kit")
    rolls = [line.text for line in d20_state(s).log if "for initiative" in line.text]
    assert [line.split(" rolls ")[0] for line in rolls] == ["Kit", "Thug", "Boss"]
    assert "10[CD]" in rolls[0] and "12[CD]" in rolls[2]
    scores = {n: a.initiative for n, a in d20_state(s).fighters.items()}
    for name, line in zip(("Kit", "Thug", "Boss"), rolls, strict=True):
        assert f"→ {scores[name]}," in line or line.endswith(f"→ {scores[name]} for initiative")
    assert 0 <= scores["Kit"] <= 20 and 0 <= scores["Boss"] <= 24
    run(s, "next", "next", "next")
    assert d20_state(s).round == 2
    assert {n: a.initiative for n, a in d20_state(s).fighters.items()} == scores, "kept for the whole scene"
    assert len([line for line in d20_state(s).log if "for initiative" in line.text]) == 3


def test_s3_4_initiative_variant_skips_the_dead_and_unconscious() -> None:
    """docs/rules/2d20-turns.md#s3-4 with docs/rules/2d20-lifecycle.md#s3-13: the unconscious take no turns in
    initiative order either."""
    sleeper = BOSS.replace('zone = "B"', 'zone = "B"\nconditions = { unconscious = true }')
    s = run(fight(KIT, THUG, sleeper, order="initiative"), "start")
    assert "Boss" not in options(s)
    run(s, "pick Kit")
    assert d20_state(s).active == "Kit"
    run(s, "next")
    assert d20_state(s).active == "Thug"
    run(s, "next")
    assert d20_state(s).round == 2 and d20_state(s).active == "Kit"


def test_s3_4_initiative_variant_pass_defers_past_the_next_actor() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 6 in the Initiative variant: a Pass without a Minor does not use the turn; the
    next character in order acts, and the passer then takes its turn later in the round."""
    s = run(fight(KIT, ADA, THUG, order="initiative"), "start", "pick Ada")
    assert d20_state(s).active == "Ada"
    run(s, "spend Ada pass", "next")
    assert d20_state(s).active == "Kit"
    assert not d20_state(s).fighters["Ada"].acted
    run(s, "next")
    assert d20_state(s).active == "Ada"
    run(s, "next")
    assert d20_state(s).active == "Thug"
    run(s, "next")
    assert d20_state(s).round == 2


def test_s3_4_initiative_scores_the_initiator_acts_first_then_by_score() -> None:
    """docs/rules/2d20-turns.md#s3-4 Initiative Scores, docs/reference/language.md "Initiative-score order" [004:L1410]:
    `start` asks who initiated the conflict; Thug (10) acts first, then everyone else from the highest score: Boss 12,
    Ada 11, Kit 10; round 2 opens with the highest score, with no question."""
    s = run(fight(KIT, ADA, THUG, BOSS, order="initiative"), "start")
    assert "initiated" in pending(d20_state(s)).question
    refused(s, "next", "waiting for an answer")
    run(s, "pick Thug")
    seen = [d20_state(s).active]
    for _ in range(3):
        run(s, "next")
        seen.append(d20_state(s).active)
    assert seen == ["Thug", "Boss", "Ada", "Kit"]
    assert pools(s) == (2, 4), "picking the initiator is free"
    run(s, "next")
    assert d20_state(s).round == 2 and d20_state(s).active == "Boss" and d20_state(s).prompt is None


def test_s3_4_initiative_scores_an_npc_ahead_of_a_pc_on_a_tie_costs_1_threat() -> None:
    """docs/rules/2d20-turns.md#s3-4 Initiative Scores [004:L1412]: Kit (PC) and Thug (NPC) both score 10; the PC acts
    first unless the GM spends 1 Threat (`keep Thug` during the turn before) to have the NPC act first."""
    s = run(fight(KIT, THUG, BOSS, order="initiative"), "start", "pick Boss")
    run(s, "keep Thug")
    assert pools(s) == (2, 3)
    run(s, "next")
    assert d20_state(s).active == "Thug"
    run(s, "next")
    assert d20_state(s).active == "Kit"


def test_s3_4_initiative_scores_an_interrupt_costs_2_threat() -> None:
    """docs/rules/2d20-turns.md#s3-4 Initiative Scores [004:L1414]: acting earlier than one's score allows costs 2 — an
    NPC spends 2 Threat, a PC adds 2 to Threat; refused when the NPC pool cannot pay."""
    s = run(fight(KIT, ADA, CY, GRUNT, order="initiative", threat=4), "start", "pick Ada")
    run(s, "keep Grunt")
    assert pools(s) == (2, 2)
    run(s, "next")
    assert d20_state(s).active == "Grunt"
    run(s, "keep Cy")
    assert pools(s) == (2, 4), "a PC adds 2 to Threat"
    run(s, "next")
    assert d20_state(s).active == "Cy"
    s2 = run(fight(KIT, ADA, GRUNT, order="initiative", threat=1), "start", "pick Ada")
    refused(s2, "keep Grunt", "costs 2 Threat")


def test_s3_4_initiative_scores_same_score_allies_choose_their_order_for_free() -> None:
    """docs/rules/2d20-turns.md#s3-4 Initiative Scores [004:L1412]: two characters of one side with the same score
    choose their order: jumping only such an ally is free."""
    twin = KIT.replace('name = "Kit"', 'name = "Kat"')
    s = run(fight(KIT, twin, ADA, THUG, order="initiative"), "start", "pick Ada")
    run(s, "keep Kit")
    assert pools(s) == (2, 4)
    run(s, "next")
    assert d20_state(s).active == "Kit"


# --- variant: Player Priority ---------------------------------------------------------------------------


def test_s3_4_player_priority_pcs_pick_for_free() -> None:
    """docs/rules/2d20-turns.md#s3-4 Player Priority: the PCs act in the order they choose, at no cost."""
    s = run(duel(order="player-priority"), "start")
    assert d20_state(s).prompt is not None
    assert "an NPC first costs" not in pending(d20_state(s)).question
    run(s, "pick Ada", "next", "pick Kit")
    assert d20_state(s).active == "Kit"
    assert pools(s) == (2, 4)


def test_s3_4_player_priority_inserting_an_npc_costs_1_threat() -> None:
    """docs/rules/2d20-turns.md#s3-4 Player Priority: before a PC turn the GM may spend 1 Threat to insert an NPC
    turn."""
    s = run(duel(order="player-priority", threat=4), "start", "pick Thug")
    assert d20_state(s).active == "Thug"
    assert pools(s) == (2, 3)
    assert any("the GM inserts an NPC turn" in line.text for line in d20_state(s).log)
    run(s, "next", "pick Kit", "next", "pick Boss")
    assert pools(s) == (2, 2)


def test_s3_4_player_priority_insert_refused_without_threat() -> None:
    """docs/rules/2d20-turns.md#s3-4 Player Priority, docs/rules/2d20.md#s3-3: with 0 Threat the GM cannot insert an NPC
    turn."""
    s = run(duel(order="player-priority", threat=0), "start")
    refused(s, "pick Boss", "costs 1 Threat")


def test_s3_4_player_priority_npcs_act_free_once_pcs_are_done() -> None:
    """docs/rules/2d20-turns.md#s3-4 Player Priority: once every PC has acted, the NPCs act at no cost; the next round
    starts by itself with the players choosing again."""
    s = run(duel(order="player-priority", threat=4), "start", "pick Kit", "next", "pick Ada", "next")
    assert d20_state(s).prompt is not None and "The NPCs act" in pending(d20_state(s)).question
    run(s, "pick Boss", "next", "pick Thug")
    assert pools(s) == (2, 4)
    run(s, "next")
    assert d20_state(s).round == 2
    assert d20_state(s).prompt is not None and pending(d20_state(s)).kind == "pick"
    assert "The players pick" in pending(d20_state(s)).question


# --- variant: Narrative First ---------------------------------------------------------------------------


def test_s3_4_narrative_gm_picks_anyone_for_free() -> None:
    """docs/rules/2d20-turns.md#s3-4 Narrative First: the GM picks every actor, any side, in any sequence, at no
    cost."""
    s = run(duel(order="narrative", threat=0), "start")
    assert d20_state(s).prompt is not None and "an NPC first costs" not in pending(d20_state(s)).question
    run(s, "pick Thug", "next", "pick Boss", "next", "pick Kit", "next", "pick Ada")
    assert d20_state(s).order == ["Thug", "Boss", "Kit", "Ada"]
    assert pools(s) == (2, 0)


def test_s3_4_narrative_next_round_is_picked_again() -> None:
    """docs/rules/2d20-turns.md#s3-4 Narrative First: at the round's end the next round begins and the GM picks
    again."""
    s = run(fight(KIT, THUG, order="narrative"), "start", "pick Thug", "next", "pick Kit", "next")
    assert d20_state(s).round == 2
    assert d20_state(s).prompt is not None and "Who acts next?" in pending(d20_state(s)).question
    refused(s, "pick Nobody", "no combatant")
    run(s, "pick Thug")
    assert d20_state(s).active == "Thug"


def test_s3_4_narrative_still_refuses_someone_who_acted() -> None:
    """docs/rules/2d20-turns.md#s3-4 / docs/rules/index.md#s1-1: every combatant gets exactly one turn a round, whoever
    picks."""
    s = run(duel(order="narrative"), "start", "pick Kit", "next")
    refused(s, "pick Kit", "already acted")


# --- undo ---------------------------------------------------------------------------------------------


def test_s3_4_undo_restores_a_paid_keep() -> None:
    """docs/rules/2d20-turns.md#s3-4 with docs/reference/language.md undo: undoing a keep gives back the 2 Momentum and
    the prompt."""
    s = run(duel(momentum=3), "start", "pick Kit", "next")
    before = dump(d20_state(s))
    run(s, "keep Ada", "undo")
    assert dump(d20_state(s)) == before


def test_s3_4_keep_when_only_one_side_has_actors_left_is_free() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 4 [004:L1400]: when only one side still has characters to act they all act in
    turn, so `keep NAME` for the last side is just a pick: free, even right after that side kept."""
    s = fight(KIT, ADA, CY, THUG, momentum=2)
    run(s, "start", "pick Kit", "next", "pick Thug", "next", "pick Ada", "next")
    run(s, "keep Cy")
    assert d20_state(s).active == "Cy"
    assert pools(s) == (2, 4)


# --- A beaten NPC takes no turn; the scene may end at a hand-over ------------------------------------------


def test_s3_4_a_defeated_npc_is_never_offered_and_refused_if_picked() -> None:
    """docs/rules/2d20-turns.md#s3-4, docs/rules/2d20-harm.md#s3-10-2 [004:L1872]: the hand-over offers no Defeated NPC
    (the GM runs no beaten NPC's turn; profile ``defeated_npcs_act`` off), and `pick` refuses it, changing nothing."""
    s = run(duel(), "start", "pick Kit")
    d20_state(s).fighters["Thug"].defeated = True
    run(s, "next")
    assert "Thug" not in options(s) and "Boss" in options(s)
    refused(s, "pick Thug", "Thug is Defeated: a beaten NPC takes no turn")


def test_s3_4_a_dying_npc_is_never_offered_and_its_side_runs_out() -> None:
    """docs/rules/2d20-turns.md#s3-4 rule 5, docs/rules/2d20-harm.md#s3-10-2: a Dying NPC is out of the hand-over; with
    every NPC beaten the players' characters act in turn and the round then ends."""
    s = run(duel(), "start", "pick Kit")
    d20_state(s).fighters["Thug"].dying = True
    d20_state(s).fighters["Thug"].defeated = True
    d20_state(s).fighters["Boss"].defeated = True
    run(s, "next")
    assert options(s) == ["Ada"]
    refused(s, "pick Boss", "Boss is Defeated")
    refused(s, "pick Thug", "Thug is Dying")


def test_s3_4_a_defeated_pc_still_takes_its_turns() -> None:
    """docs/rules/2d20-harm.md#s3-10-2 [004:L1872]: a Defeated player character still has its turn (one Free Action)."""
    s = run(duel(), "start", "pick Thug")
    d20_state(s).fighters["Kit"].defeated = True
    run(s, "next")
    assert "Kit" in options(s)


def test_s3_4_defeated_npcs_act_is_a_table_setting() -> None:
    """docs/rules/2d20-harm.md#s3-10-2 [004:L1872]: `[settings] defeated_npcs_act = true` gives a Defeated NPC its
    turns."""
    s = session_from(encounter(KIT, ADA, THUG, BOSS, settings="defeated_npcs_act = true"))
    run(s, "start", "pick Kit")
    d20_state(s).fighters["Thug"].defeated = True
    run(s, "next")
    assert "Thug" in options(s)


def test_s3_13_end_is_accepted_while_the_hand_over_waits() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 scene_end [004:L1906]: the table may end the scene between two turns, with the
    hand-over asked."""
    s = run(duel(), "start", "pick Kit", "next")
    assert pending(d20_state(s)).kind == "pick"
    run(s, "end")
    assert d20_state(s).phase == "ended" and d20_state(s).prompt is None
    first = run(duel(), "start")
    run(first, "end")
    assert d20_state(first).phase == "ended"


def test_s3_13_end_is_accepted_while_the_keep_question_waits_but_not_mid_attack() -> None:
    """docs/rules/2d20-lifecycle.md#s3-13 [004:L1906]: the keep-with-Threat question is part of the hand-over, so `end`
    closes the scene; an attack's question is not, so `end` waits for its answer."""
    s = run(duel(momentum=1), "start", "pick Kit", "next", "keep Ada")
    assert pending(d20_state(s)).kind == "keep_threat"
    run(s, "end")
    assert d20_state(s).phase == "ended"
    s = kit_attacks()
    assert pending(d20_state(s)).kind.startswith("attack")
    refused(s, "end", "waiting for an answer")
