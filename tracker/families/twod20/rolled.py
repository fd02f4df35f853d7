"""The tests the GM types (docs/reference/language.md): ``roll NAME TN D …``, a d20 test of any skill outside the
attack flow, and ``challenge N``, Challenge Dice rolled on their own.

Kept apart from the command table's dispatch because a typed test has its own care about what may be refused
before a die is drawn (a refusal must never show the table the dice to come).
"""

from __future__ import annotations

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, count
from tracker.families.twod20 import outofturn, pools, traits
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine


def roll(eng: TwoD20Engine, cmd: Command) -> None:
    """`roll NAME TN D [bought=K] [focus=F] [faces=a,b] [range=R] [pay=threat] [spend=K]`: a d20 test.

    The options were parsed, and unknown ones refused, by the 2d20 command table (`tracker.families.twod20.verbs`).
    `spend=K` spends K of the test's Momentum at once (e.g. Bonus Damage) before the rest is saved to the
    group pool under its cap [004:L510, L530]. No refusal may depend on dice the tracker draws: a refused
    roll that named them (or only their Momentum) would show the table the next roll's dice, and a player
    could try ``spend=`` after ``spend=`` until the roll came good (docs/guide/shared-box.md). So a K no roll of these
    dice could generate is refused before any die is drawn; a K above what the drawn dice generated spends
    all they generated, and the log says so. With typed ``faces=`` the dice are known, and a K above their
    Momentum is refused.
    """
    name = eng.living(cmd.args[0])
    tn = count(cmd.args[1], "TN")
    difficulty = count(cmd.args[2], "Difficulty")
    # The traits the test touches join the Difficulty the GM gave, each by its text (docs/guide/decisions.md).
    touching = traits.parts(eng, name)
    given = difficulty
    difficulty = max(0, given + sum(n for n, _ in touching))
    opts = dict(cmd.options)
    if "pay" in opts:  # the pool a bought die is paid from, named the one way names are
        pool = names.resolve(opts["pay"], ["momentum", "threat", "heat"], what="pool")
        opts["pay"] = "momentum" if pool == "momentum" else "threat"
    bought = count(opts.get("bought", "0"), "bought dice")
    cost = dice.bought_dice_cost(bought)
    faces = [count(x, "face") for x in opts["faces"].split(",")] if "faces" in opts else None
    focus = count(opts["focus"], "focus") if "focus" in opts else None
    rng_range = count(opts.get("range", "1"), "complication range")
    spent = count(opts["spend"], "Momentum to spend") if "spend" in opts else None
    # Everything that can refuse comes before the pools change and before a die is drawn (a refused roll
    # leaves the state as it was, and shows nothing of the dice to come).
    pools.check_pay(eng, name, cost, f"{bought} bought d20")
    faces, helper_faces = outofturn.split_faces(eng, name, faces, 2 + bought)
    if spent is not None and faces is None:
        rolled = 2 + bought + len(eng.fighter(name).assisted_by)  # an assistant's d20 can add successes
        most = dice.most_momentum(difficulty, rolled)
        if spent > most:
            raise Refusal(
                f"spend={spent}: a test of {rolled}d20 at Difficulty {difficulty} generates at most {most} Momentum"
            )
    result = dice.roll_pool(
        eng.st, tn, difficulty, dice=2 + bought, focus=focus, complication_range=rng_range, faces=faces
    )
    result, assists = outofturn.join(eng, name, result, helper_faces)
    if spent is not None and spent > result.momentum:
        if faces is not None:
            raise Refusal(f"spend={spent}: the test generates only {result.momentum} Momentum ({result.describe()})")
        eng.log(f"spend={spent}: the test generated only {result.momentum} Momentum, all of it spent at once")
        spent = result.momentum
    if cost:
        if eng.sheet(name).pc and opts.get("pay") not in ("threat", "heat") and eng.st.momentum < cost:
            from_pool = eng.st.momentum
            if from_pool:
                pools.momentum(eng, -from_pool, f"{name} buys d20s")
            pools.threat(eng, cost - from_pool, f"{name} buys d20s")
        else:
            pools.pay(eng, name, cost, f"{bought} bought d20", use_threat=opts.get("pay") in ("threat", "heat"))
    outofturn.used(eng, name, assists)
    if touching:
        named = "; ".join(f"{why} {n:+d}" for n, why in touching)
        eng.log(f"{name}'s Difficulty {given} with the traits in play ({named}): {difficulty}")
    helped = " (assisting d20s counted)" if assists else ""
    eng.log(f"{name} tests: {result.describe()}{helped}", kind="result")
    left = result.momentum
    if spent:
        left -= spent
        eng.log(f"{name} spends {spent} of the test's Momentum at once (e.g. Bonus Damage); {left} left")
    if left:
        if eng.sheet(name).pc:
            cap = eng.profile.momentum_max
            lost = eng.st.momentum + left - cap
            if lost > 0 and spent is None:
                eng.log(
                    f"{name}'s test would waste {lost} Momentum over the cap of {cap}: spend it now "
                    f"('undo', then the same roll with faces={','.join(map(str, result.faces))} spend={lost})"
                )
            pools.momentum(eng, left, f"{name}'s test")
        else:
            eng.log(
                f"{name} (NPC) has {left} Momentum to spend now; unspent, the GM may bank it "
                f"as {eng.pool_name} ('threat +{left}')"
            )


def challenge(eng: TwoD20Engine, cmd: Command) -> None:
    n = count(cmd.args[0], "the number of dice", dice.MAX_CHALLENGE_DICE)
    faces = [count(x, "face") for x in cmd.options["faces"].split(",")] if "faces" in cmd.options else None
    roll = dice.roll_challenge(eng.st, n, faces)
    eng.log(f"{roll.describe()}", kind="result")
