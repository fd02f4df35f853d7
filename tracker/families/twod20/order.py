"""Who acts next (docs/rules/2d20-turns.md#s3-4): the alternating order with pick/keep, and its variants.

After each turn the engine either starts the next turn itself (initiative scores) or asks the
hand-over question, which only `pick` and `keep` answer. The question offers exactly the answers that
would be accepted: each candidate is put through the same checks `pick` makes (`pick_cost`), as a pick or,
for the side that acted last, as a keep; the keep ones ride in the prompt's ``keep`` data so the screen
answers them with ``keep``.
"""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.engine.records.model import Prompt
from tracker.families.twod20 import outofturn, pools, tasks, traits
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.turns import open_turn
from tracker.present.words import quote

KEEP_COST = 2
#: The question a keep for the players asks when the Momentum pool cannot pay it: add Threat instead?
CONFIRM = "keep_threat"
#: The prompts that stand for the hand-over (`end` may close the scene while one waits).
HANDOVER = ("pick", "round", CONFIRM)
#: Initiative scores: an NPC ahead of a PC with the same score costs 1 Threat [004:L1412]; acting earlier
#: than one's score allows costs 2 (PCs add it to Threat, NPCs spend it) [004:L1414].
TIE_COST = 1
INTERRUPT_COST = 2


def waiting(eng: TwoD20Engine) -> list[str]:
    """Everyone who can still take a turn this round."""
    return [n for n in eng.sheets if eng.can_take_turn(n) and not eng.fighter(n).acted]


def initiative_order(eng: TwoD20Engine) -> list[str]:
    """Initiative variant: highest score first; across sides the PC first; then by name [004:L1406-1416]."""
    return sorted(
        (n for n in eng.sheets if eng.can_take_turn(n)),
        key=lambda n: (-eng.fighter(n).initiative, 0 if eng.sheet(n).pc else 1, n),
    )


def roll_initiative(eng: TwoD20Engine) -> None:
    """Scores once per scene, for everyone in the fight (`score`)."""
    for name in eng.present_names():
        score(eng, name)


def score(eng: TwoD20Engine, name: str) -> None:
    """`name`'s initiative score: fixed max(Agility, Insight), or rolled [CD] when the settings ask [004:L1416]."""
    value = eng.sheet(name).initiative_score()
    if eng.profile.random_initiative:
        r = dice.roll_challenge(eng.st, value)
        eng.log(f"{name} rolls {r.describe()} for initiative")
        value = r.total
    eng.fighter(name).initiative = value


def begin_round(eng: TwoD20Engine, opener: str | None = None, initiator: bool = False) -> None:
    """A new round; with initiative scores and `initiator`, the scene's first round asks who initiated the
    conflict: that character acts first, the rest by score [004:L1410]."""
    st = eng.st
    st.jumped = []
    st.round += 1
    st.order = []
    for a in st.fighters.values():
        a.acted = False
        a.majors = 0
        a.reactions = 0
        a.rush_used = False
        a.deferred = False
        a.round_spends = []
    eng.log(f"Round {st.round} begins")
    if eng.order_rule == "initiative":
        queue = initiative_order(eng)
        if initiator and queue:
            st.phase = "handover"
            _ask(eng, "pick", "Who initiated the conflict? pick NAME (acts first; then everyone by score)", queue)
        elif queue:
            open_turn(eng, queue[0])
        return
    if opener:
        open_turn(eng, opener)
    else:
        ask_handover(eng)


def after_turn(eng: TwoD20Engine) -> None:
    """The turn is over: the next turn, a hand-over question, or the round's end."""
    st = eng.st
    left = waiting(eng)
    if not left:
        if not any(eng.can_take_turn(n) for n in eng.sheets):
            st.phase = "handover"
            eng.log("Nobody is left to act: 'end' ends the scene")
            return
        eng.log(f"Round {st.round} ends")
        traits.round_ended(eng)
        tasks.round_ended(eng)  # a ticking clock counts down at each round's end [004:L2041-2047]
        if eng.profile.ready_lapses == "round_end":
            for name in st.fighters:
                outofturn.lapse(eng, name, "before the next round [002:L89]")
        if eng.order_rule in ("initiative", "narrative", "player-priority"):
            begin_round(eng)
        else:
            ask_round_opener(eng)
        return
    if eng.order_rule == "initiative":
        # A character that deferred (Pass, no Minor) waits until someone else has taken a turn [004:L1472].
        waits = set(left)  # a set: hundreds of combatants, after every turn
        queue = sorted((n for n in initiative_order(eng) if n in waits), key=lambda n: eng.fighter(n).deferred)
        jumped = [n for n in st.jumped if n in left]
        st.jumped = jumped[1:]
        open_turn(eng, (jumped or queue)[0])
        return
    ask_handover(eng)


def _sides_waiting(eng: TwoD20Engine) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for n in waiting(eng):
        out.setdefault(eng.side(n), []).append(n)
    return out


def ask_handover(eng: TwoD20Engine) -> None:
    st = eng.st
    st.phase = "handover"
    left = waiting(eng)
    last = st.last_actor
    if eng.order_rule == "narrative" or last is None:
        who = "Who acts first?" if last is None else "Who acts next?"
        if last is None and eng.order_rule == "alternating":
            who += f" (an NPC first costs {KEEP_COST} {eng.pool_name})"
        _ask(eng, "pick", f"{who} pick NAME", left)
        return
    if eng.order_rule == "player-priority":
        pcs = [n for n in left if eng.sheet(n).pc]
        if pcs:
            _ask(eng, "pick", f"The players pick who acts next (the GM may insert an NPC for 1 {eng.pool_name})", left)
        else:
            _ask(eng, "pick", "The NPCs act: pick NAME", left)
        return
    sides = _sides_waiting(eng)
    mine = eng.side(last)
    others = [n for s, names in sides.items() if s != mine for n in names]
    if others:
        keep = [n for n in sides.get(mine, [])] if st.kept_by != mine else []
        extra = f"; or keep NAME for {mine} ({KEEP_COST} to keep the initiative)" if keep else ""
        _ask(eng, "pick", f"Hand-over from {last}: the other side picks NAME{extra}", others + keep)
    else:
        _ask(eng, "pick", f"Only {mine} have actors left: pick NAME", sides.get(mine, []))


def _ask(eng: TwoD20Engine, kind: str, question: str, candidates: list[str]) -> None:
    """Ask the hand-over question with only the accepted answers among `candidates` (`legal_answers`)."""
    options, keep = legal_answers(eng, candidates, round_opening=kind == "round")
    eng.ask(kind, question, options, keep=keep, candidates=candidates)


def legal_answers(eng: TwoD20Engine, candidates: list[str], round_opening: bool) -> tuple[list[str], list[str]]:
    """The candidates `pick` or `keep` would accept now, in order, and which of them are keeps."""
    options: list[str] = []
    keep: list[str] = []
    others = _others_waiting(eng, round_opening)
    for name in candidates:
        for as_keep in (False, True):
            try:
                pick_cost(eng, name, as_keep, round_opening, others)
            except Refusal:
                continue
            options.append(name)
            if as_keep:
                keep.append(name)
            break
    return options, keep


def answers(eng: TwoD20Engine) -> list[tuple[str, str]]:
    """The waiting hand-over question's options with the command each stands for, as of now (a pool
    that changed while it waited changes what can be paid), for the screen's number keys."""
    p = eng.st.prompt
    if p is None or p.kind not in ("pick", "round"):
        return []
    asked = p.data.get("candidates", p.options)
    candidates = list(asked) if isinstance(asked, list) else list(p.options)
    options, keep = legal_answers(eng, candidates, round_opening=p.kind == "round")
    return [(name, f"{'keep' if name in keep else 'pick'} {quote(name)}") for name in options]


def refresh(eng: TwoD20Engine) -> None:
    """Bring a waiting hand-over question's saved options (and which are keeps) up to date with the pools:
    they were worked out when it was asked, and a keep the side can no longer pay for (or can again) must not
    be offered (or left out) while it waits (`legal_answers`)."""
    p = eng.st.prompt
    if p is None or p.kind not in ("pick", "round"):
        return
    asked = p.data.get("candidates", p.options)
    candidates = list(asked) if isinstance(asked, list) else list(p.options)
    options, keep = legal_answers(eng, candidates, round_opening=p.kind == "round")
    if options != p.options or keep != p.data.get("keep"):
        p.options = options
        p.data["keep"] = keep


def ask_round_opener(eng: TwoD20Engine) -> None:
    st = eng.st
    st.phase = "handover"
    last = st.last_actor
    mine = eng.side(last) if last else ""
    everyone = [n for n in eng.sheets if eng.can_take_turn(n)]
    _ask(
        eng,
        "round",
        f"Round {st.round + 1}: {last} nominates the other side (pick NAME), or keep NAME for "
        f"{mine} ({KEEP_COST} to open the round)",
        everyone,
    )


def pick(eng: TwoD20Engine, text: str, keep: bool, use_threat: bool) -> None:
    """`pick NAME` / `keep NAME`: answer the hand-over question (docs/reference/language.md)."""
    st = eng.st
    if st.prompt is None and keep and eng.order_rule == "initiative" and st.phase == "turn":
        jump(eng, text, use_threat)
        return
    if st.prompt is None or st.prompt.kind not in ("pick", "round"):
        raise Refusal("nobody is waiting for a hand-over: pick and keep answer it after 'next' or 'start'")
    name = eng.living(text)
    round_opening = st.prompt.kind == "round"
    cost, reason = pick_cost(eng, name, keep, round_opening)
    if cost and eng.sheet(name).pc and not use_threat and st.momentum < cost:
        _confirm_threat(eng, name, keep, cost, reason)
        return
    st.prompt = None
    if cost:
        pools.pay(eng, name, cost, reason, use_threat)
    if keep:
        st.kept_by = eng.side(name)
    elif st.last_actor is not None and eng.enemies(name, st.last_actor):
        st.kept_by = None
    eng.log(f"{'keep' if keep else 'pick'}: {name}")
    if round_opening:
        begin_round(eng, opener=name)
    else:
        open_turn(eng, name)


def _confirm_threat(eng: TwoD20Engine, name: str, keep: bool, cost: int, reason: str) -> None:
    """The players lack the Momentum for a keep: ask before the cost goes to the GM's pool (docs/rules/2d20.md#s3-3:
    players may add Threat instead of spending Momentum, their choice, so the tracker does not make it)."""
    st, p = eng.st, eng.st.prompt
    assert p is not None
    pool = eng.pool_name
    eng.ask(
        CONFIRM,
        f"{'keep' if keep else 'pick'} {name}: to {reason} costs {cost} Momentum and the pool holds {st.momentum}; "
        f"add {cost} {pool} instead?",
        ["yes", "no"],
        who=name,
        of_kind=p.kind,
        of_question=p.question,
        of_options=list(p.options),
        keep=[str(k) for k in _listed(p.data.get("keep"))],
        candidates=[str(c) for c in _listed(p.data.get("candidates", p.options))],
        kept=keep,
        labels=[f"yes: add {cost} {pool}", "no: back to the hand-over"],
    )


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def confirm(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """``answer yes`` pays the keep in Threat and hands the turn over; ``answer no`` asks the hand-over again."""
    word = value.casefold()
    if word not in ("yes", "y", "no", "n"):
        raise Refusal("answer yes (add to the GM's pool) or no (back to the hand-over)")
    kind, question = str(p.data["of_kind"]), str(p.data["of_question"])
    options = [str(o) for o in _listed(p.data.get("of_options"))]
    keep = [str(k) for k in _listed(p.data.get("keep"))]
    candidates = [str(c) for c in _listed(p.data.get("candidates"))]
    eng.log(f"answer: {value}")
    if word in ("yes", "y"):
        eng.st.prompt = Prompt(kind=kind, question=question, options=options, data={"keep": keep})
        pick(eng, str(p.who), keep=bool(p.data.get("kept")), use_threat=True)
    else:
        eng.ask(kind, question, options, keep=keep, candidates=candidates)


def _others_waiting(eng: TwoD20Engine, round_opening: bool) -> bool:
    """Whether the side that did not act last has anyone to hand over to: at a round's opening anyone able to
    act counts; mid-round, those who have not acted yet."""
    last = eng.st.last_actor
    if last is None:
        return False
    theirs = eng.side(last)
    return any(
        eng.side(n) != theirs and (round_opening or not eng.fighter(n).acted) and eng.can_take_turn(n)
        for n in eng.sheets
    )


def pick_cost(
    eng: TwoD20Engine, name: str, keep: bool, round_opening: bool, others: bool | None = None
) -> tuple[int, str]:
    """What `pick NAME` (or `keep NAME`) would cost and why, refusing as `pick` does; changes nothing.
    `others`: `_others_waiting`, when the caller asks for many names at once (it is the same for all)."""
    st = eng.st
    last = st.last_actor
    if eng.out_of_turns(name):
        raise Refusal(f"{name} is {'Dying' if eng.fighter(name).dying else 'Defeated'}: a beaten NPC takes no turn")
    if not eng.can_take_turn(name):
        raise Refusal(f"{name} cannot act (unconscious)")
    if not round_opening and eng.fighter(name).acted:
        raise Refusal(f"{name} has already acted this round")
    cost = 0
    reason = ""
    if eng.order_rule == "alternating" and last is not None:
        same = eng.side(name) == eng.side(last)
        others_waiting = others if others is not None else _others_waiting(eng, round_opening)
        if keep:
            if not same:
                raise Refusal(f"keep is for {eng.side(last)}'s own characters; {name} is on {eng.side(name)}")
            if not others_waiting and not round_opening:
                # Only this side has characters left: they all act in turn, so keep is just a pick [004:L1400].
                pass
            elif st.kept_by == eng.side(last) and not round_opening:
                raise Refusal(f"{eng.side(last)} kept the initiative last time: an enemy must act first")
            else:
                cost, reason = KEEP_COST, "keep the initiative"
        elif same and others_waiting:
            raise Refusal(
                f"the hand-over goes to the other side: pick one of theirs, or keep {name} "
                f"({KEEP_COST} to keep the initiative)"
            )
    elif keep and eng.order_rule in ("alternating", "initiative"):
        raise Refusal("keep answers a hand-over; the first actor is picked")
    if last is None and eng.order_rule == "alternating" and not eng.sheet(name).pc:
        cost, reason = KEEP_COST, "an NPC acts first"
    if (
        eng.order_rule == "player-priority"
        and not round_opening
        and not eng.sheet(name).pc
        and any(eng.sheet(n).pc for n in waiting(eng))
    ):
        cost, reason = 1, "the GM inserts an NPC turn"
    pools.check_pay(eng, name, cost, reason)
    return cost, reason


def jump_cost(eng: TwoD20Engine, name: str) -> tuple[int, str]:
    """What `keep NAME` costs under initiative scores to have NAME act next, refusing as `keep` does.

    Jumping only same-score allies is free (they choose their order [004:L1412]); an NPC jumping only PCs of
    its own score costs 1 Threat (the tie [004:L1412]); anything else is an interrupt at 2 [004:L1414].
    """
    st = eng.st
    if eng.out_of_turns(name):
        raise Refusal(f"{name} is {'Dying' if eng.fighter(name).dying else 'Defeated'}: a beaten NPC takes no turn")
    if not eng.can_take_turn(name):
        raise Refusal(f"{name} cannot act (unconscious)")
    if name == st.active:
        raise Refusal(f"{name} is acting now")
    left = waiting(eng)
    if name not in left:
        raise Refusal(f"{name} has already acted this round")
    if name in st.jumped:
        raise Refusal(f"{name} already acts next")
    ahead_all = [n for n in st.jumped if n in left] + [
        n for n in initiative_order(eng) if n in left and n not in st.jumped and not eng.fighter(n).deferred
    ]
    ahead = [n for n in ahead_all[: ahead_all.index(name)] if n != st.active] if name in ahead_all else []
    if not ahead:
        raise Refusal(f"{name} already acts next in the initiative order")
    score = eng.fighter(name).initiative
    if all(eng.fighter(n).initiative == score and n not in st.jumped for n in ahead):
        if all(eng.side(n) == eng.side(name) for n in ahead):
            return 0, ""
        if not eng.sheet(name).pc and all(eng.sheet(n).pc for n in ahead):
            return TIE_COST, "an NPC acts before a PC of the same initiative score"
    return INTERRUPT_COST, "act earlier than its initiative score allows"


def jump(eng: TwoD20Engine, text: str, use_threat: bool) -> None:
    """`keep NAME` under initiative scores: NAME takes the next turn, ahead of its score (`jump_cost`)."""
    name = eng.living(text)
    cost, reason = jump_cost(eng, name)
    pools.check_pay(eng, name, cost, reason)
    if cost:
        # A PC adds to Threat to act earlier [004:L1414]; an NPC spends Threat.
        pools.pay(eng, name, cost, reason, use_threat=True)
    eng.st.jumped.append(name)
    eng.log(f"keep: {name} acts next" + (f" ({reason})" if reason else " (same score: allies choose their order)"))
