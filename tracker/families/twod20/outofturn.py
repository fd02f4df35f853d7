"""2d20 actions taken outside the actor's own turn, and the test that breaks a Snare (docs/rules/2d20.md#s3-2,
docs/rules/2d20-turns.md#s3-5-1, docs/rules/2d20-combat.md#s3-8).

- **Assist** [004:L1457-1465]: declared when the ally declares its test, even on the ally's turn, if the
  assister has not acted yet this round; it uses up the assister's turn. ``spend ADA assist KIT [TN [FOCUS]]``
  on Kit's turn marks Ada as having acted (the hand-over no longer offers her) and, with a TN, records her
  d20 for Kit's next test: `join` rolls it with Kit's ``roll`` (own TN and Focus, no bought dice; its
  successes count only if Kit scores at least one, docs/rules/2d20.md#s3-2 Assistance [004:L502-506]).
- **Ready** [004:L1474]: ``spend KIT ready ACTION [TRIGGER …]`` holds a Major Action; when the GM says the
  trigger happened, ``spend KIT ACTION …`` (or ``attack KIT …``) on another's turn interrupts it. The readied
  action counts against the 2 Major Actions a round (B31) and is lost at the character's next turn (SRD,
  Infinity) or at the end of the round (Secret War [002:L89]), B9.
- **Break free** of a Snare [004:L1782]: ``spend KIT break-free TN [a,b]``, a Major Action whose test is rolled
  at the Snare's Difficulty (seeded, or the faces typed).
"""

from __future__ import annotations

from dataclasses import replace

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count
from tracker.families.twod20 import pools
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.state import Assist
from tracker.present.words import counted

#: Actions never held by Ready: Ready itself and Pass, which hold nothing.
NOT_READIED = frozenset({"ready", "pass"})


def readied(eng: TwoD20Engine, who: str, key: str) -> bool:
    """`who` takes its readied `key` on another's turn: the trigger the GM answers (docs/rules/2d20-turns.md#s3-5-1
    Ready)."""
    a = eng.fighter(who)
    return a.ready == key and eng.st.phase == "turn" and eng.st.active not in (None, who)


def assisting(eng: TwoD20Engine, who: str, key: str) -> bool:
    """`who` assists on another's turn [004:L1457-1465]."""
    return key == "assist" and eng.st.phase == "turn" and eng.st.active not in (None, who)


def assist_bar(eng: TwoD20Engine, who: str) -> str | None:
    """Why `who` may not assist on another's turn: it has acted this round, or its turn is Stunned away."""
    a = eng.fighter(who)
    if a.acted:
        return (
            f"{who} has already acted this round: an Assist on another's turn takes up the assister's turn "
            "[004:L1461-1465]"
        )
    if a.conditions.get("stunned"):
        return f"{who} is Stunned: its next turn, which an Assist would take up, has no actions [004:L1783]"
    return None


def assist_terms(eng: TwoD20Engine, who: str, args: list[str]) -> tuple[str | None, int | None, int | None]:
    """The ally and the assister's TN and Focus of ``spend WHO assist ALLY [TN [FOCUS]]``, checked before anything
    changes: on another's turn the ally is the acting character, named; never an enemy."""
    out_of_turn = assisting(eng, who, "assist")
    if not args:
        if out_of_turn:
            raise Refusal(f"name the ally {who} assists: spend {who} assist {eng.st.active} [TN [FOCUS]]")
        return None, None, None
    ally = eng.living(args[0])
    if ally == who:
        raise Refusal(f"{who} cannot assist itself")
    if eng.enemies(who, ally):
        raise Refusal(f"{ally} is an enemy of {who}: Assist is for an ally [004:L1459]")
    if out_of_turn and ally != eng.st.active:
        raise Refusal(f"on {eng.st.active}'s turn {who} may assist only {eng.st.active}, whose test is declared")
    if len(args) > 3:
        raise Refusal(f"Assist takes an ally, a TN and a Focus (spend {who} assist {ally} TN FOCUS), not '{args[3]}'")
    tn = count(args[1], "the assister's TN") if len(args) > 1 else None
    focus = count(args[2], "the assister's Focus") if len(args) > 2 else None
    return ally, tn, focus


def assist(eng: TwoD20Engine, who: str, ally: str | None, tn: int | None, focus: int | None) -> None:
    """Record the assist: out of turn the assister's turn is used up; with a TN its d20 joins the ally's test."""
    a = eng.fighter(who)
    if assisting(eng, who, "assist"):
        a.acted = True
        eng.log(f"{who} assists {ally} on {ally}'s turn: {who}'s turn this round is used up [004:L1461-1465]")
    if ally is None:
        return
    if tn is None:
        eng.log(f"{who}'s d20 helps {ally}'s next test (rolled at the table: no TN given)")
        return
    eng.fighter(ally).assisted_by.append(Assist(by=who, tn=tn, focus=focus))
    shown = f"TN {tn}" + (f", Focus {focus}" if focus is not None else "")
    eng.log(f"{who}'s d20 ({shown}) joins {ally}'s next test; it counts if {ally} scores a success")


def assist_dice(eng: TwoD20Engine, who: str) -> list[Assist]:
    """The assisting d20s waiting for `who`'s next test (the attack flow's roll may call `join` with them)."""
    return list(eng.fighter(who).assisted_by)


def split_faces(
    eng: TwoD20Engine, who: str, faces: list[int] | None, rolled: int
) -> tuple[list[int] | None, list[int] | None]:
    """The typed faces of `who`'s test split into its own `rolled` d20s and its assistants' (one each, after
    its own); the assistants' may be left out (then they are rolled). Checked before any die is drawn."""
    if faces is None or len(faces) == rolled:
        return faces, None
    helpers = eng.fighter(who).assisted_by
    if not helpers or len(faces) != rolled + len(helpers):
        want = f"{rolled}" + (f" (or {rolled + len(helpers)} with the assisting d20s)" if helpers else "")
        raise Refusal(f"d20 test: expected {want} faces, got {len(faces)}")
    extra = faces[rolled:]
    for face, helper in zip(extra, helpers, strict=True):
        dice.roll_pool(eng.st, helper.tn, 0, dice=1, faces=[face], focus=helper.focus)
    return faces[:rolled], extra


def join(
    eng: TwoD20Engine, who: str, result: dice.PoolRoll, faces: list[int] | None = None
) -> tuple[dice.PoolRoll, list[str]]:
    """`who`'s test with its assistants' d20s (docs/rules/2d20.md#s3-2 Assistance [004:L502-506]): each rolls 1d20 at
    its own TN and Focus (the faces typed after the leader's, or seeded); their successes count only if the leader
    scored at least one; complications count either way. Returns the joined test and the lines to log; the
    caller logs them and clears the assists (`used`) once nothing can refuse any more."""
    helpers = eng.fighter(who).assisted_by
    if not helpers:
        return result, []
    lines: list[str] = []
    extra, complications = 0, 0
    floor = dice.complication_floor(1)
    for n, helper in enumerate(helpers):
        face = faces[n] if faces is not None else dice.roll_pool(eng.st, helper.tn, 0, dice=1).faces[0]
        won = dice.die_successes(face, helper.tn, helper.focus)
        complications += face >= floor
        extra += won
        focus = f" (focus {helper.focus})" if helper.focus is not None else ""
        lines.append(f"{helper.by} assists {who}: d20 {face} vs TN {helper.tn}{focus} → {counted(won, 'success')}")
    if result.successes < 1:
        lines.append(f"{who} scored no success: the assistance does not count [004:L504]")
        extra = 0
    successes = result.successes + extra
    passed = successes >= result.difficulty
    momentum = max(0, successes - result.difficulty) if passed and result.difficulty > 0 else 0
    joined = replace(
        result,
        successes=successes,
        complications=result.complications + complications,
        passed=passed,
        momentum=momentum,
    )
    return joined, lines


def used(eng: TwoD20Engine, who: str, lines: list[str]) -> None:
    """Log the assisting dice and use the assists up."""
    for line in lines:
        eng.log(line)
    eng.fighter(who).assisted_by = []


def title(key: str) -> str:
    """An action's name as the log says it ("create_advantage" → "Create Advantage")."""
    return key.replace("_", " ").title()


def hold(eng: TwoD20Engine, who: str, key: str, trigger: str) -> None:
    """Ready: `who` holds the Major Action `key` until `trigger` (`tracker.families.twod20.actions` checks it)."""
    a = eng.fighter(who)
    a.ready, a.ready_trigger = key, trigger
    when = f" (trigger: {trigger})" if trigger else ""
    eng.log(f"{who} readies {title(key)}{when}: 'spend {who} {key.replace('_', '-')}' on another's turn")


def lapse(eng: TwoD20Engine, who: str, why: str) -> None:
    """A readied action not triggered in time is lost (docs/rules/2d20-turns.md#s3-5-1 Ready, B9)."""
    a = eng.fighter(who)
    if a.ready is None:
        return
    eng.log(f"{who}'s readied {title(a.ready)} is lost: not triggered {why}")
    a.ready, a.ready_trigger = None, ""


def break_terms(eng: TwoD20Engine, who: str, args: list[str]) -> tuple[int, list[int] | None]:
    """The TN and the faces (``a,b``) of ``spend WHO break-free TN [a,b]``; the seeds leave the skill to the GM."""
    if not args or len(args) > 2:
        raise Refusal(f"usage: spend {who} break-free TN [a,b] (the test's attribute + skill, the GM's choice)")
    tn = count(args[0], "TN")
    faces = [count(x, "face") for x in args[1].split(",")] if len(args) > 1 else None
    if faces is not None:  # checked before anything changes (typed faces draw nothing)
        dice.roll_pool(eng.st, tn, 0, faces=faces)
    return tn, faces


def break_free(eng: TwoD20Engine, who: str, tn: int, faces: list[int] | None) -> None:
    """The test at Difficulty = the Snare's Effects [004:L1782]; a pass ends the Snare, its Momentum banked."""
    a = eng.fighter(who)
    difficulty = int(a.conditions["snared"])
    result = dice.roll_pool(eng.st, tn, difficulty, faces=faces)
    eng.log(f"{who} tries to break free: {result.describe()}", kind="result")
    if not result.passed:
        eng.log(f"{who} is still Snared")
        return
    del a.conditions["snared"]
    a.snare_kind = "physical"
    eng.log(f"{who} breaks free: no longer Snared")
    if result.momentum and eng.sheet(who).pc:
        pools.momentum(eng, result.momentum, f"{who}'s test")
    elif result.momentum:
        eng.log(f"{who} (NPC) has {result.momentum} Momentum to spend now")
