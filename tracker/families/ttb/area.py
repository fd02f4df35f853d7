"""Blasts, Pulses and Auras [000:L122-130; 001:L119] (docs/reference/language.md "Blast, Pulse and Aura").

- **Blast** (a weapon's ``blast = N``, or ``damage NAME W/M/S blast=N``): the primary target takes the flip's
  damage; then every character within 2 yards of it per blast icon suffers the damage one level lower
  [000:L130]: no flip and no cheat [001:L119], each through its own armor (a Weak primary hit leaves nothing
  one level lower: the blast does no damage).
- **Pulse** ``pulse SOURCE YARDS EFFECT… [on=A,B]``: instantaneous, radiating from SOURCE; one centred on a
  character does not affect that character [000:L126].
- **Aura** ``aura SOURCE YARDS EFFECT… [on=A,B]``: emanates continually and affects the character it is centred
  on [000:L128]. It stays in the state (JSON ``auras``) until ``aura SOURCE off`` or the end of Dramatic Time;
  its effect reaches each character inside it at the end of that character's turn (docs/guide/decisions.md
  "Auras"); ``aura SOURCE on=A,B`` says who is inside now.

EFFECT is what reaches each character caught: a damage profile (``2/3/4``: each its own damage flip, which a
Fated source may cheat), a number (that much damage before armor) and conditions (``burning+2``, ``dazed``).

The tracker keeps no yards (melee links only, docs/guide/decisions.md "Shooting into an engagement"), so who
stands in the area is the table's: ``on=`` names them, or a question asks, its first option everyone in a melee
link with the centre (they stand within its engagement range).
"""

from __future__ import annotations

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, count, is_number
from tracker.families.ttb import conditions, damage
from tracker.families.ttb.engine import TTBEngine, step
from tracker.families.ttb.fate.cards import parse_damage_profile
from tracker.families.ttb.records.state import Aura, Prompt

KIND = "area"
HIT = "area_hit"
SEVERITIES = ("weak", "moderate", "severe")
NONE = "none"


# --- what reaches each one caught ---------------------------------------------------------------------------


def effect_words(eng: TTBEngine, words: list[str]) -> list[str]:
    """The EFFECT words checked (a profile, a number, conditions with their values), as the state keeps them."""
    out: list[str] = []
    for word in words:
        # ``burning+2`` (the seeds write "Burning +2"); ``key=value`` would be read as a command option.
        key, _, value = word.replace(":", "+").partition("+")
        if parse_damage_profile(word) is not None or is_number(word):
            if any(parse_damage_profile(w) is not None or is_number(w) for w in out):
                raise Refusal("give one damage: a profile like 2/3/4 or a number")
            out.append(word)
            continue
        cond = conditions.condition_key(key)
        rule = conditions.CONDITIONS[cond]
        if value and not rule.valued:
            raise Refusal(f"{rule.title} is not valued: give it without +N")
        amount = count(value, f"{rule.title}'s value") if value else None
        if amount is not None and amount < 1:
            raise Refusal(f"{rule.title} must gain at least +1")
        out.append(f"{cond}+{amount}" if amount else cond)
    if not out:
        raise Refusal("say what reaches those caught: a damage profile (2/3/4), a number, or conditions (burning+1)")
    return out


def _hit(eng: TTBEngine, who: str, effect: list[str], source: str, what: str) -> None:
    """`effect` reaches `who` (one of those caught): its own damage flip and armor, its own conditions."""
    f = eng.fighter(who)
    if f.dead:
        return
    attacker = source if source in eng.sheets and not eng.fighter(source).dead else None
    for word in effect:
        if parse_damage_profile(word) is not None:
            eng.log(f"{what} reaches {who}: damage flip {word}")
            damage.damage_flip(eng, who, word, 0, None, True, attacker=attacker)
        elif is_number(word):
            damage.damage(eng, who, int(word), why=what)
        else:
            key, _, value = word.partition("+")
            amount = int(value) if value else None
            try:
                conditions.check_gain(eng, who, key, amount)
            except Refusal as exc:
                eng.log(f"{what}: {exc}")
                continue
            conditions.gain(eng, who, key, amount, why=what)


def hit_step(eng: TTBEngine, who: str, arg: str) -> None:
    """Agenda step: one character caught (``what\\tsource\\teffect words``, or a blast's ``amount``)."""
    what, source, *effect = arg.split("\t")
    if what.startswith("blast"):
        amount, severity = int(effect[0]), effect[1]
        if not eng.fighter(who).dead:
            level = next((s for s in damage.SEVERITY_NAMES if s == severity), None)
            damage.damage(eng, who, amount, severity=level, why=what)
        return
    _hit(eng, who, effect, source, what)


# --- who is caught ------------------------------------------------------------------------------------------


def caught(eng: TTBEngine, text: str, exclude: set[str]) -> list[str]:
    """The names in `text` (commas between them, or ``none``), each once; those in `exclude` refused."""
    if text.strip().casefold() in (NONE, "no", "nobody"):
        return []
    out: list[str] = []
    for part in text.split(","):
        if not part.strip():
            continue
        name = names.resolve(part.strip(), [n for n in eng.present_names() if not eng.fighter(n).dead])
        if name in exclude:
            raise Refusal(f"{name} is not caught by this one (it is its centre or its primary target)")
        if name not in out:
            out.append(name)
    return out


def _ask(eng: TTBEngine, question: str, centre: str, skip: set[str], **data: str | int | bool | list[str]) -> None:
    """Who is in the area, asked: option 1 everyone in a melee link with `centre` (within its engagement range)."""
    near = [n for n in eng.linked(centre) if n not in skip and not eng.fighter(n).dead]
    options = [", ".join(near), NONE] if near else [NONE]
    labels = [f"{', '.join(near)}: in melee with {centre}", "none: nobody else"] if near else ["none: nobody"]
    eng.ask(KIND, f"{question}? (names with commas between, or none)", options, who=None, labels=labels, **data)


def answer(eng: TTBEngine, p: Prompt, value: str) -> None:
    """Who is in the area: each caught gets its own hit (an agenda step each), or the aura's members are set."""
    _caught(eng, p.data, caught(eng, value, _excluded(p)))


def check(eng: TTBEngine, p: Prompt, value: str) -> None:
    caught(eng, value, _excluded(p))


def _excluded(p: Prompt) -> set[str]:
    exclude = p.data.get("exclude", [])
    return set(exclude) if isinstance(exclude, list) else set()


def _caught(eng: TTBEngine, data: dict[str, str | int | bool | list[str]], chosen: list[str]) -> None:
    op, what, source = str(data["op"]), str(data["what"]), str(data["source"])
    eng.log(f"{what}: {', '.join(chosen) if chosen else 'nobody'} caught")
    if op == "aura":
        held = next((a for a in eng.st.auras if a.source == source), None)
        if held is not None:
            held.inside = [source, *chosen]
        return
    payload = [str(x) for x in data["payload"]] if isinstance(data["payload"], list) else []
    eng.push(*[step(HIT, n, "\t".join([what, source, *payload])) for n in chosen])


# --- Blast --------------------------------------------------------------------------------------------------


def blast(eng: TTBEngine, primary: str, profile: str, severity: str | None, icons: int) -> None:
    """After the primary target's damage: the blast's question (who else is within 2 yards per icon)."""
    wms = parse_damage_profile(profile)
    assert wms is not None
    yards = 2 * icons
    what = f"blast ({yards} yards around {primary})"
    if severity is None or severity == "weak":
        eng.log(f"{what}: {'no damage' if severity is None else 'Weak'} on {primary}, nothing one level lower")
        return
    lower = SEVERITIES[SEVERITIES.index(severity) - 1]
    amount = wms[SEVERITIES.index(lower)]
    payload = [str(amount), lower]
    question = f"Blast: who else is within {yards} yards of {primary} ({lower} {amount} each, no flip)"
    _ask(eng, question, primary, {primary}, op="blast", what=what, source=primary, payload=payload, exclude=[primary])


# --- Pulse and Aura -----------------------------------------------------------------------------------------


def _centre(eng: TTBEngine, text: str) -> str:
    return eng.living(text)


def pulse(eng: TTBEngine, cmd: Command) -> None:
    """``pulse SOURCE YARDS EFFECT… [on=A,B]``: everyone within YARDS of SOURCE but SOURCE itself [000:L126]."""
    source = _centre(eng, cmd.args[0])
    yards = count(cmd.args[1], "the pulse's yards")
    effect = effect_words(eng, list(cmd.args[2:]))
    what = f"pulse {yards} from {source}"
    data: dict[str, str | int | bool | list[str]] = {
        "op": "pulse",
        "what": what,
        "source": source,
        "payload": effect,
        "exclude": [source],
    }
    eng.log(f"{source} pulses ({yards} yards): {' '.join(effect)}")
    if "on" in cmd.options:
        _caught(eng, data, caught(eng, cmd.options["on"], {source}))
        return
    _ask(eng, f"Pulse: who is within {yards} yards of {source} (not {source} itself)", source, {source}, **data)


def aura(eng: TTBEngine, cmd: Command) -> None:
    """``aura SOURCE YARDS EFFECT… [on=A,B]`` | ``aura SOURCE off`` | ``aura SOURCE on=A,B`` [000:L128]."""
    source = _centre(eng, cmd.args[0])
    st = eng.st
    held = next((a for a in st.auras if a.source == source), None)
    if len(cmd.args) == 2 and cmd.args[1].casefold() == "off":
        if held is None:
            raise Refusal(f"{source} has no aura")
        st.auras.remove(held)
        eng.log(f"{source}'s aura ends")
        return
    if len(cmd.args) == 1:
        if held is None:
            raise Refusal(f"{source} has no aura: aura SOURCE YARDS EFFECT… starts one")
        if "on" not in cmd.options:
            raise Refusal("say who is inside: aura SOURCE on=A,B (or on=none)")
        held.inside = [source, *caught(eng, cmd.options["on"], {source})]
        eng.log(f"{source}'s aura: {', '.join(held.inside)} inside")
        return
    yards = count(cmd.args[1], "the aura's yards")
    effect = effect_words(eng, list(cmd.args[2:]))
    if held is not None:
        st.auras.remove(held)
    # An aura centred on a character affects that character [000:L128].
    new = Aura(source=source, yards=yards, effect=effect, inside=[source])
    st.auras.append(new)
    what = f"aura {yards} of {source}"
    eng.log(f"{source} has an aura ({yards} yards): {' '.join(effect)}, at the end of each turn inside it")
    data: dict[str, str | int | bool | list[str]] = {"op": "aura", "what": what, "source": source, "exclude": [source]}
    if "on" in cmd.options:
        new.inside = [source, *caught(eng, cmd.options["on"], {source})]
        eng.log(f"{what}: {', '.join(new.inside)} inside")
        return
    _ask(eng, f"Aura: who else is within {yards} yards of {source}", source, {source}, **data)


def aura_steps(eng: TTBEngine, who: str) -> list[str]:
    """The auras `who` ends its turn inside: their effects reach it (docs/guide/decisions.md "Auras")."""
    return [
        "\t".join([f"aura {a.yards} of {a.source}", a.source, *a.effect])
        for a in eng.st.auras
        if who in a.inside and not eng.fighter(a.source).dead
    ]
