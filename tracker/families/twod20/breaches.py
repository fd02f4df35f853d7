"""What an infowar or psywar hit brings: a hack's Breach Effects and a technique's Metanoia Effect [003:L553-651]
after the damage, a threat's test on receipt [004:L2395-2396] and Inspire [003:L607, L611] before it.

Each Breach a hack inflicts asks the hacker for its Breach Effect (``answer tag``; ``answer blind 4,17``
types the target's Resistance or Tech test); a psywar technique's Metanoia brings the technique's Metanoia
Effect. Each is kept as a condition on the target (`tracker.families.twod20.tables.quantronic`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count
from tracker.families.twod20 import conditions, harm, psywar
from tracker.families.twod20.attack_test import defence_spec
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.infowar import INFOWAR
from tracker.families.twod20.records.state import Grant
from tracker.families.twod20.skill_test import build
from tracker.families.twod20.tables.quantronic import BREACH_EFFECTS, METANOIA_EFFECTS, technique

if TYPE_CHECKING:
    from tracker.engine.records.model import Prompt
    from tracker.families.twod20.engine import TwoD20Engine
    from tracker.families.twod20.records.sheet import TwoD20Weapon

#: The question after a hack's Breach: which Breach Effect.
BREACH = "attack_breach"
#: The Breach Effects the screen's keys 1-8 answer (then `none`); Spoof/Sniff and Revoke Authentication are typed.
ON_KEYS = (
    "dazed",
    "blind",
    "brain_blast",
    "system_disruption",
    "lock_connection",
    "tagged",
    "disable_function",
    "data_manipulation",
)
#: The test a Blind Breach Effect forces: Resistance or Tech, the better [003:L618-623].
BLIND_TEST = "brawn+resistance|intelligence+tech"


def after_hit(eng: TwoD20Engine, who: str, target: str, weapon: TwoD20Weapon, kind: str, before: int) -> None:
    """The Harms the hit inflicted bring their effects: each Breach of a hack asks for its Breach Effect;
    a psywar technique's Metanoia brings the technique's Metanoia Effect [003:L553-651]."""
    a = eng.fighter(target)
    if a.dead or not eng.profile.infinity_conditions:
        return
    if kind == INFOWAR:
        gained = a.harms.get("breach", 0) - before
        if gained > 0:
            breach_offer(eng, who, target, gained)
        return
    found = technique(weapon.name)
    if kind != "mental" or a.harms.get(eng.profile.mental_harm, 0) <= before:
        return
    if found is None:
        eng.log(f"Metanoia: the GM names its Metanoia Effect ('add {target} EFFECT')")
        return
    held = bool(a.conditions.get(found.metanoia))
    a.conditions[found.metanoia] = True
    title = METANOIA_EFFECTS[found.metanoia].title
    eng.log(f"{target} {'already has' if held else 'suffers'} the Metanoia Effect {title} ({weapon.name}, {who})")


def harm_before(eng: TwoD20Engine, target: str, kind: str) -> int:
    """The Harms of the kind the hit may inflict, counted before it (`after_hit` compares)."""
    harm = "breach" if kind == INFOWAR else eng.profile.mental_harm
    return eng.fighter(target).harms.get(harm, 0)


def breach_offer(eng: TwoD20Engine, who: str, target: str, left: int) -> None:
    """Ask the hacker for the Breach Effect of one Breach (`left` still to choose)."""
    # The screen keys nine answers: the eight most in play and `none` first; the rest are typed (the hint).
    options = [*ON_KEYS, "none", *(k for k in BREACH_EFFECTS if k not in ON_KEYS)]
    # Short, so that all eleven fit an 80×24 screen; the Conditions panel says the rest.
    ends = {"the GM removes it": "GM ends it"}
    shown = {k: f"{fx.title} ({ends.get(fx.ends, fx.ends)})" for k, fx in BREACH_EFFECTS.items()}
    labels = [shown.get(k, k) for k in options]
    more = f" ({left} to choose)" if left > 1 else ""
    eng.ask(
        BREACH,
        f"{who} breaches {target}: which Breach Effect?{more}",
        options,
        who=who,
        target=target,
        left=left,
        labels=labels,
    )


def _split(value: str) -> tuple[str, list[int] | None]:
    """``blind 4,17``: the effect and the target's faces for its test (None: the tracker rolls)."""
    word, _, rest = value.strip().partition(" ")
    faces = [count(x.strip(), "face") for x in rest.replace(" ", ",").split(",") if x.strip()]
    return word, faces or None


def check(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Refuse a bad answer before anything changes: an effect the list has; faces only for Blind's test."""
    word, faces = _split(value)
    key = names.resolve(names.normalise(word), p.options, what="Breach Effect")
    if faces is not None:
        if key != "blind":
            raise Refusal(f"only Blind has a test to give faces for ('{value}')")
        if len(faces) != dice.BASE_DICE:
            raise Refusal(f"the target rolls {dice.BASE_DICE} d20s: give {dice.BASE_DICE} faces")
        dice.roll_pool(eng.st, 0, 0, dice=len(faces), faces=faces)  # checks the faces, draws nothing


def answer(eng: TwoD20Engine, p: Prompt, value: str) -> None:
    """Apply the chosen Breach Effect [003:L614-651]; ask again while Breaches are left."""
    who, target, left = str(p.who), str(p.data["target"]), int(str(p.data["left"]))
    word, faces = _split(value)
    key = names.resolve(names.normalise(word), p.options, what="Breach Effect")
    a = eng.fighter(target)
    if key == "blind":
        _blind(eng, target, faces)
    elif key == "dazed":
        conditions.gain(eng, target, "dazed", None)
    elif key == "brain_blast":
        _brain_blast(eng, target)
    elif key != "none":
        held = bool(a.conditions.get(key))
        a.conditions[key] = True
        fx = BREACH_EFFECTS[key]
        eng.log(f"{target} {'already has' if held else 'suffers'} the Breach Effect {fx.title} ({who}): {fx.summary}")
    else:
        eng.log(f"{who} takes no Breach Effect")
    if left > 1 and not a.dead:
        breach_offer(eng, who, target, left - 1)


def _blind(eng: TwoD20Engine, target: str, faces: list[int] | None) -> None:
    """Blind: a Resistance or Tech test at Difficulty = current Breaches, or Blind; the Breach stays [003:L618-623]."""
    breaches = eng.fighter(target).harms.get("breach", 0)
    test = build(eng, target, BLIND_TEST, breaches, "Breaches", [])
    if isinstance(test, str):
        eng.log(f"{target} cannot test against Blind ({test}): Blind")
        conditions.gain(eng, target, "blind", None)
        return
    result = test.roll(eng.st, 0, faces)
    eng.log(f"{target} resists Blind: {test.tn_text()}, Difficulty {test.difficulty}: {result.describe()}", "result")
    if result.passed:
        eng.log(f"{target} avoids the Breach Effect Blind (the Breach stays)")
        return
    conditions.gain(eng, target, "blind", None)


def _brain_blast(eng: TwoD20Engine, target: str) -> None:
    """Brain Blast: a target using Neural equipment suffers a Wound instead of the Breach [003:L627-629]."""
    a = eng.fighter(target)
    a.harms["breach"] = a.harms.get("breach", 0) - 1
    if not a.harms["breach"]:
        a.harms.pop("breach")
    eng.log(f"Brain Blast: {target}'s Breach becomes a Wound (Neural equipment)")
    wound = eng.profile.tracks[0][1]
    harm.suffer(eng, target, wound, 1)


# --- psywar: a threat received, Inspire ---------------------------------------------------------------


def shrugged_off(eng: TwoD20Engine, target: str, faces: list[int] | None, pressure: int = 0) -> bool:
    """A delayed or written threat's test on receipt: Will + Survive (the profile's mental defence) at
    Difficulty 1, +1 for each Momentum the attacker spent on it (``pressure``), avoids the damage
    [004:L2395-2396]; a sheet that cannot make it does not avoid it."""
    parts = [(pressure, "Momentum spent")] if pressure else []
    test = build(eng, target, defence_spec(eng, "mental"), psywar.RECEIPT_DIFFICULTY, "on receipt", parts)
    if isinstance(test, str):
        eng.log(f"{target} cannot test on receipt ({test})")
        return False
    result = test.roll(eng.st, 0, faces)
    eng.log(f"{target} tests on receipt: {test.tn_text()}, Difficulty {test.difficulty}: {result.describe()}", "result")
    return result.passed


def inspire(eng: TwoD20Engine, who: str, further: list[str] | None = None) -> None:
    """Inspire: each ally in `who`'s zone (Close range), and in each `further` zone its Momentum bought, gains
    +1[CD] Morale Soak until the start of its next turn [003:L607, L611]."""
    zones = {eng.fighter(who).zone, *(further or [])}
    allies = [n for n, b in eng.st.fighters.items() if n != who and b.zone in zones and not b.dead]
    allies = [n for n in allies if not eng.enemies(who, n)]
    for name in allies:
        eng.fighter(name).granted.append(Grant(kind="morale", dice=1, source="Inspire", until=name))
    where = "within Close range" + (f" or in {', '.join(further)}" if further else "")
    if not allies:
        eng.log(f"Inspire: no ally {where}")
        return
    eng.log(f"Inspire: {', '.join(allies)} gain +1[CD] Morale until the start of their next turn")
