"""``answer``: the question waiting is answered through the module that asked it (docs/reference/language.md
``answer``): the hand-over's confirmation, an Overcome's or a Key Test's test, the attack flow's questions."""

from __future__ import annotations

from collections.abc import Callable

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command
from tracker.engine.records.model import Prompt
from tracker.families.twod20 import attack, challenges, order, overcome, reloads
from tracker.families.twod20.engine import TwoD20Engine

#: The tests asked outside the attack flow: an Overcome's and a Key Test's, each checked then answered.
TESTS: dict[str, tuple[Callable[[TwoD20Engine, Prompt, str], None], Callable[[TwoD20Engine, Prompt, str], None]]] = {
    **dict.fromkeys(overcome.KINDS, (overcome.check, overcome.answer)),
    challenges.ROLL: (overcome.check_test, challenges.answer),
}


def answer(eng: TwoD20Engine, cmd: Command) -> None:
    """The attack flow's questions take ``answer``; the hand-over takes ``pick`` or ``keep``."""
    prompt = eng.st.prompt
    if prompt is None:
        raise Refusal("there is no question to answer")
    if prompt.kind == order.CONFIRM:
        order.confirm(eng, prompt, " ".join(cmd.args))
        return
    tested = TESTS.get(prompt.kind)
    if tested is not None:
        check, answer_it = tested
        value = " ".join(cmd.args)
        check(eng, prompt, value)
        eng.st.prompt = None
        eng.log(f"answer: {value}")
        answer_it(eng, prompt, value)
        return
    if prompt.kind not in attack.KINDS:
        raise Refusal("answer the hand-over with 'pick NAME' or 'keep NAME'")
    value = " ".join(cmd.args)
    if prompt.kind == attack.ROLL:
        attack_roll(eng, prompt, value)
        return
    attack.check(eng, prompt, value)
    eng.st.prompt = None
    eng.log(f"answer: {value}")
    attack.answer(eng, prompt, value)


def attack_roll(eng: TwoD20Engine, prompt: Prompt, value: str) -> None:
    """The attack's test, with the Reloads spent before its dice (``answer roll+1 reloads=2``): each gives
    1 bonus Momentum on this attack, an M weapon spends one anyway, docs/rules/2d20-combat.md#s3-7 [004:L1695-1701];
    bonus Momentum not spent on the hit is lost [004:L518]."""
    test, spent = reloads.reloads_word(value)
    who = str(prompt.who)
    weapon = next(w for w in eng.sheet(who).weapons if w.name == str(prompt.data["weapon"]))
    reloads.check_reloads(eng, who, weapon, spent)
    attack.check(eng, prompt, test)
    eng.st.prompt = None
    eng.log(f"answer: {value}")
    reloads.spend_reloads(eng, who, weapon, spent)
    attack.answer(eng, prompt, test)
    if eng.st.prompt is None and eng.st.bonus_momentum:
        eng.log(f"{eng.st.bonus_momentum} bonus Momentum from Reloads is lost: no hit to spend it on")
        eng.st.bonus_momentum = 0
