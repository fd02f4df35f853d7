"""Traits as play objects (docs/reference/language.md ``trait``/``untrait``; docs/guide/decisions.md).

A trait is a fact of the scene: on a combatant (a personal trait: a Harm [004:L1852], a complication's negative
trait [004:L457-459], a Create Advantage [004:L1470]), on a zone (a location trait) or on the whole scene (a
situation trait) [004:L246-252]. One that makes tests easier or harder carries ``difficulty=±N`` [004:L264-270],
which joins the Difficulty of the tests it touches with its text as the reason (`parts`, `into_parts`, read by
`tracker.families.twod20.skill_test`): a combatant's trait the tests that combatant makes, a zone's the tests
made in it or into it, the scene's every test. It lasts the scene unless ``until=turn|round`` says less, and
the engine's lifecycle ends it then (`turn_ended`, `round_ended`, `scene_ended`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, cast

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command, signed_int
from tracker.families.twod20.records.play import TRAIT_LIMIT, Trait, Until
from tracker.families.values import JSONObject

if TYPE_CHECKING:
    from tracker.families.twod20.engine import TwoD20Engine

SCENE = "scene"
UNTIL = ("turn", "round", "scene")
KINDS = ("advantage", "complication", "harm")
#: What each lifetime is called when a trait ends or is told.
_UNTIL_TEXT = {"turn": "the end of the turn", "round": "the end of the round", "scene": "the end of the scene"}


def owner(eng: TwoD20Engine, text: str) -> str:
    """What ``trait ON`` names: ``scene``, a combatant in the fight, or a zone (any case, a unique prefix)."""
    if text.strip().casefold() == SCENE:
        return SCENE
    people = [n for n in eng.sheets if n not in eng.st.left]
    places = list(eng.zones.names())
    found = names.matching(text, [*people, *places])
    if len(found) != 1:
        what = f"'{text}' is ambiguous: {', '.join(sorted(found)[:6])}" if found else f"nobody and no zone is '{text}'"
        raise Refusal(f"{what}: a trait is on a combatant, a zone or 'scene'")
    return found[0]


def _of(eng: TwoD20Engine, on: str) -> list[Trait]:
    return [t for t in eng.st.traits if t.on == on]


def describe(t: Trait, eng: TwoD20Engine | None = None) -> str:
    """``'Slick with oil' +1`` with what it touches and how long it lasts."""
    out = f"'{t.text}'"
    if t.difficulty:
        out += f" {t.difficulty:+d} Difficulty"
    if t.kind:
        out += f" ({t.kind})"
    return out + ("" if t.until == "scene" else f", until {_UNTIL_TEXT[t.until]}")


def add(eng: TwoD20Engine, cmd: Command) -> None:
    """``trait ON 'TEXT' [difficulty=±N] [until=turn|round|scene] [kind=advantage|complication|harm]``."""
    on = owner(eng, cmd.args[0])
    text = " ".join(cmd.args[1:]).strip()
    if not text:
        raise Refusal("a trait needs its text: trait ON 'TEXT'")
    opts = dict(cmd.options)
    difficulty = signed_int(opts.get("difficulty", "0"), "a trait's Difficulty")
    if abs(difficulty) > TRAIT_LIMIT:
        raise Refusal(f"a trait adds at most +{TRAIT_LIMIT} or takes off at most {TRAIT_LIMIT} (not {difficulty})")
    until = names.resolve(opts.get("until", SCENE), UNTIL, what="lifetime (until=)")
    kind = names.resolve(opts["kind"], KINDS, what="kind of trait") if "kind" in opts else ""
    if any(t.text.casefold() == text.casefold() for t in _of(eng, on)):
        raise Refusal(f"{'the scene' if on == SCENE else on} already has the trait '{text}'")
    if kind == "harm":
        if on not in eng.sheets:
            raise Refusal("a Harm is a trait of the combatant who suffered it [004:L1852]")
        harms = sum(eng.fighter(on).harms.values())
        named = sum(1 for t in _of(eng, on) if t.kind == "harm")
        if named >= harms:
            raise Refusal(f"{on} has {harms} Harm(s), each already a trait: a Harm trait names one suffered")
    if until == "turn" and eng.st.phase != "turn":
        raise Refusal("no turn is open: until=turn lasts to the end of the open turn")
    trait = Trait(
        on=on,
        text=text,
        difficulty=difficulty,
        until=cast(Until, until),
        kind=cast(Literal["", "advantage", "complication", "harm"], kind),
        turn_of=eng.st.active,
    )
    eng.st.traits.append(trait)
    where = "the scene" if on == SCENE else on
    eng.log(f"Trait on {where}: {describe(trait)}")


def remove(eng: TwoD20Engine, cmd: Command) -> None:
    """``untrait ON 'TEXT'``: the trait stops being true [004:L254]."""
    on = owner(eng, cmd.args[0])
    text = " ".join(cmd.args[1:]).strip()
    held = _of(eng, on)
    where = "the scene" if on == SCENE else on
    if not held:
        raise Refusal(f"{where} has no trait")
    chosen = names.resolve(text, [t.text for t in held], what=f"trait on {where}")
    trait = next(t for t in held if t.text == chosen)
    eng.st.traits.remove(trait)
    eng.log(f"Trait on {where} ends: '{trait.text}'")


# --- the tests a trait touches ----------------------------------------------------------------------------


def parts(eng: TwoD20Engine, who: str) -> list[tuple[int, str]]:
    """What traits add to every test `who` makes: its own, its zone's and the scene's, each named by its text."""
    zone = eng.fighter(who).zone
    touching = (who, SCENE) if zone is None else (who, SCENE, zone)
    return [(t.difficulty, t.text) for t in eng.st.traits if t.difficulty and t.on in touching]


def into_parts(eng: TwoD20Engine, who: str, target: str) -> list[tuple[int, str]]:
    """A test made into another zone (an attack on someone there): that zone's traits too."""
    here, there = eng.fighter(who).zone, eng.fighter(target).zone
    if there is None or there == here:
        return []
    return [(t.difficulty, f"{t.text} ({there})") for t in eng.st.traits if t.on == there and t.difficulty]


# --- the lifecycle ---------------------------------------------------------------------------------------


def _end(eng: TwoD20Engine, ending: list[Trait], when: str) -> None:
    for t in ending:
        eng.st.traits.remove(t)
        where = "the scene" if t.on == SCENE else t.on
        eng.log(f"Trait on {where} ends {when}: '{t.text}'")


def turn_ended(eng: TwoD20Engine, name: str) -> None:
    """``until=turn`` traits end with the turn they were made in."""
    _end(eng, [t for t in eng.st.traits if t.until == "turn" and t.turn_of in (None, name)], "with the turn")


def round_ended(eng: TwoD20Engine) -> None:
    _end(eng, [t for t in eng.st.traits if t.until in ("turn", "round")], "with the round")


def scene_ended(eng: TwoD20Engine) -> None:
    """Every trait ends with its scene (docs/reference/language.md: it lasts the scene) but a Harm's, which lasts as the
    Harm [004:L1852]; the file's own zone traits are the setup's, not these."""
    _end(eng, [t for t in eng.st.traits if t.kind != "harm"], "with the scene")


def left(eng: TwoD20Engine, name: str) -> None:
    """A combatant who leaves takes its own traits along."""
    _end(eng, _of(eng, name), f"({name} left)")


def seat_problem(eng: TwoD20Engine, who: str, cmd: Command) -> str:
    """Why a seat may not send this ``trait`` (docs/guide/seating.md), or "": a player adds only its own
    character's Create Advantage — a trait on that character which helps it (``difficulty`` 0 or below) and
    lasts no longer than the scene [004:L1470]; a trait on another, a zone or the scene, or one that hinders,
    is the GM's."""
    opts = dict(cmd.options)
    if names.matching(opts.get("kind", "advantage"), KINDS) != ["advantage"]:
        return "a player adds only its own Create Advantage (kind=advantage): ask the GM for other traits"
    try:
        difficulty = signed_int(opts.get("difficulty", "0"), "a trait's Difficulty")
    except Refusal as exc:
        return str(exc)
    if difficulty > 0:
        return "a Create Advantage helps its maker (difficulty=-N): a trait that hinders is the GM's to add"
    return ""


def as_json(t: Trait) -> JSONObject:
    """docs/reference/json-state.md ``traits``: ``kind`` only where the trait came from a rule."""
    out: JSONObject = {"on": t.on, "text": t.text, "difficulty": t.difficulty, "until": t.until}
    if t.kind:
        out["kind"] = t.kind
    return out
