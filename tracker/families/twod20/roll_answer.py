"""Reading the table's answer to a 2d20 test's question: ``roll`` or ``roll+N`` (the tracker rolls, buying N
d20s the question offers), or the faces rolled at the table (``4,17``, or ``4 17``), and after ``vs`` the
defender's two faces of an opposed test (``4,17 vs 9,12``). The attack flow and the Overcome read them alike."""

from __future__ import annotations

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import count
from tracker.engine.records.model import Prompt
from tracker.families.twod20.dice import rolls as dice
from tracker.families.twod20.engine import TwoD20Engine


def opposed(value: str) -> tuple[str, str | None]:
    """``4,17 vs 9,12``: the attacker's answer and the defender's faces (None: the tracker rolls them)."""
    mine, sep, theirs = value.casefold().partition("vs")
    return mine.strip(), theirs.strip() if sep else None


def faces_typed(value: str) -> list[int] | None:
    """The faces the table rolled (``4,17``), or None for ``roll``/``roll+N``."""
    if value.casefold().strip().startswith("roll"):
        return None
    return [count(x.strip(), "face") for x in value.replace(" ", ",").split(",") if x.strip()]


def bought_and_faces(options: list[str], value: str) -> tuple[int, list[int] | None]:
    """How many d20s are bought, and the faces typed (None: the tracker rolls): ``roll+N`` must be one of
    the question's `options`; typed faces must number two to two plus the most it offers."""
    faces = faces_typed(value)
    if faces is None:
        word = value.casefold().replace(" ", "")
        if word not in options:
            raise Refusal(f"answer {', '.join(options)}, or the faces rolled (e.g. 4,17)")
        return int(word.partition("+")[2] or 0), None
    bought = len(faces) - dice.BASE_DICE
    if not 0 <= bought < len(options):
        raise Refusal(f"give {dice.BASE_DICE} to {dice.BASE_DICE + len(options) - 1} faces, one per d20 rolled")
    return bought, faces


def defence_faces(eng: TwoD20Engine, p: Prompt, value: str) -> list[int] | None:
    """The defender's faces typed after ``vs``, checked (two d20s: a defender buys none here)."""
    _, theirs = opposed(value)
    if theirs is None:
        return None
    if "defender" not in p.data:
        raise Refusal("this test is not opposed: give the attacker's faces only (e.g. 4,17)")
    faces = faces_typed(theirs)
    if faces is None:
        raise Refusal("after 'vs' give the defender's faces (e.g. 4,17 vs 9,12)")
    if len(faces) != dice.BASE_DICE:
        raise Refusal(f"the defender rolls {dice.BASE_DICE} d20s: give {dice.BASE_DICE} faces after 'vs'")
    dice.roll_pool(eng.st, 0, 0, dice=len(faces), faces=faces)  # checks the faces, draws nothing
    return faces
