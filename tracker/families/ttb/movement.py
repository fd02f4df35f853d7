"""Walk and Run under engagement (docs/rules/ttb-turns.md#s2-5, docs/rules/ttb-damage.md#s2-9): how far a move
goes as the log says it, the disengaging strike each engaging enemy may make (decision A20), and the move
completed (the engagements end) or cancelled by a hit (no damage; the AP stay spent [000:L284-286]).
"""

from __future__ import annotations

from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.tables.actions import ACTIONS
from tracker.present.words import counted


def move(eng: TTBEngine, who: str, key: str, args: list[str]) -> None:
    """Walk or Run: leaving engagement offers each engaging enemy one disengaging strike
    (docs/rules/ttb-damage.md#s2-9)."""
    title = ACTIONS[key].title
    strikers = eng.engaged_by(who)
    stays = any(a.casefold() in ("stay", "within", "engaged") for a in args)
    f = eng.fighter(who)
    if any(a.casefold() in ("hazard", "hazardous") for a in args) and not f.hazard_immune:
        f.hazard_pending = True
        eng.log(f"{who} moves through hazardous terrain")
    # A pending hazard resolves when the movement ends (docs/rules/ttb-turns.md#s2-6).
    after = [step("hazard", who)] if f.hazard_pending else []
    if not strikers or stays:
        eng.log(f"{who} {title.lower()}s ({distance(eng, who, key)})")
        if not stays and any(eng.enemies(who, n) for n in eng.linked(who)):
            # No one able to strike (an Unconscious or Paralyzed enemy, A20, A21): the move still leaves
            # the melee, so its links end as after the strikes [000:L284].
            move_done(eng, who, key)
        eng.push(*after)
        return
    eng.log(f"{who} {title.lower()}s away from {', '.join(strikers)}: disengaging strikes may follow")
    eng.push(*[step("disengage_offer", who, s) for s in strikers], step("move_done", who, key), *after)


def distance(eng: TTBEngine, who: str, key: str) -> str:
    """How far a Walk or Run goes, as the log says it (docs/rules/ttb-turns.md#s2-5 Walk, Run;
    docs/rules/ttb-conditions.md#s2-7 Useless Limb).

    Walk moves up to the character's Walk, Run up to 2×Walk + Athletics ranks; a useless leg takes 2
    from Walk (minimum 1). Decision: yards are given only from a ``walk`` the file states. A
    sheet without ``walk`` has no Walk the tracker knows, and a made-up default must not read as the
    character's stat, so the log then names the rule instead: "up to its Walk".
    """
    sheet = eng.sheet(who)
    leg = bool(eng.fighter(who).conditions.get("useless_leg"))
    athletics = sheet.skills.get("athletics", 0)
    if sheet.walk is not None:
        walk = max(1, sheet.walk - 2) if leg else sheet.walk
        return f"up to {counted(walk if key == 'walk' else 2 * walk + athletics, 'yard')}"
    if key == "walk":
        return "up to its Walk" + (" − 2 (useless leg; at least 1 yard)" if leg else "")
    return "up to twice its Walk" + (f" + {athletics} (Athletics)" if athletics else "")


def disengage_offer(eng: TTBEngine, who: str, striker: str) -> None:
    """Agenda step: the enemy may make one disengaging strike; the GM answers (decision A20)."""
    if not eng.can_attack(striker) or eng.fighter(who).dead:
        return
    eng.ask(
        "disengaging_strike",
        f"{striker} may make a disengaging strike on {who}: hit, miss, or no strike?",
        ["hit", "miss", "no"],
        who=striker,
        mover=who,
    )


def move_done(eng: TTBEngine, who: str, key: str) -> None:
    """Every strike missed or was declined: the move completes and the engagements end."""
    before = len(eng.st.engagements)
    eng.st.engagements = [pair for pair in eng.st.engagements if who not in pair or not eng.enemies(pair[0], pair[1])]
    eng.log(
        f"{who} completes the {ACTIONS[key].title} and leaves {counted(before - len(eng.st.engagements), 'engagement')}"
    )


def cancel_move(eng: TTBEngine, who: str) -> None:
    """A disengaging strike hit: no damage, the move is cancelled, its AP are lost [000:L284-286]."""
    eng.st.agenda = [
        s for s in eng.st.agenda if not (s.op in ("disengage_offer", "move_done", "hazard") and s.who == who)
    ]
    eng.log(f"{who}'s move is cancelled (no damage); the AP spent on it are lost")
