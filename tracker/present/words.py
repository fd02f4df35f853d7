"""Words and symbols both families use to say things the way the table says them.

Status is never shown by colour alone: each has a symbol and a word. Nothing here changes state.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import SupportsFloat

from tracker.present.view import ConditionTag

STATUS_MARK = {
    "ok": "●",
    "unconscious": "◌",
    "defeated": "▼",
    "dying": "✚",
    "dead": "✖",
    #: Not a status of docs/reference/json-state.md (the JSON says ``"left": true``): how the order table shows it.
    "left": "←",
}


def status_text(status: str) -> str:
    return f"{STATUS_MARK.get(status, '?')} {status}"


def plural(word: str, n: int) -> str:
    """The noun for `n` of it: shot/shots, success/successes, Breach/Breaches; Metanoia stays.

    One helper for every count the log and the views print, so none says "1 shots" or "round(s)".
    """
    if n in (1, -1) or word.endswith("ia"):
        return word
    return word + ("es" if word.endswith(("ch", "sh", "s", "x")) else "s")


def counted(n: int, word: str) -> str:
    """ "1 shot", "2 shots", "0 shots": a count and its noun in the right number."""
    return f"{n} {plural(word, n)}"


def pips(left: int, total: int) -> str:
    """``●●○``: filled pips left, hollow ones spent."""
    total = max(total, left)
    return "●" * left + "○" * (total - left)


def plain_conditions(conditions: Mapping[str, object]) -> str:
    """``burning 2, prone`` with the keys as the JSON state writes them (``tracker exec``)."""
    return ", ".join(k if v is True else f"{k} {v}" for k, v in conditions.items())


def quote(word: str) -> str:
    """A name as the command language wants it: quoted when it has a space."""
    return f"'{word}'" if " " in word else word


def wound_word(current: int, maximum: int) -> str:
    """A descriptor for how hurt someone looks, never a number."""
    if current <= 0:
        return "down"
    share = current / maximum
    if share >= 1:
        return "unhurt"
    if share > 0.5:
        return "hurt"
    if share > 0.25:
        return "bloodied"
    return "badly hurt"


def stress_word(taken: int, maximum: int, harms: int) -> str:
    """A descriptor for a 2d20 combatant's state, never a number."""
    if harms >= 2:
        return "badly hurt"
    if harms == 1:
        return "wounded"
    if taken == 0:
        return "fresh"
    return "strained" if taken < maximum else "spent"


def mentions(text: str, names: set[str]) -> bool:
    """Whether `text` names anyone in `names` (the player view drops such text)."""
    low = text.casefold()
    return any(n.casefold() in low for n in names)


def round_line(phase: str, round_no: int, active: str | None, notes: Sequence[str] = ()) -> str:
    """The line above the order: "Round 2 · Sofia acts · …", or how to start before the fight."""
    if phase == "setup":
        return "Not started: press n to start"
    parts = [f"Round {round_no}"] + ([f"{active} acts"] if active else []) + list(notes)
    if phase == "ended":
        parts.append("ended")
    return " · ".join(parts)


#: Tags already worked out, by the `short` table they used and the conditions (each value with its type:
#: ``dazed = true`` and ``dazed = 1`` are not the same tag). The order table asks for every combatant
#: after every command and few combatants' conditions change, so most rows find theirs here, as the very
#: tuple they had last time (which lets the screen see at once that the row did not change).
_TAGS: dict[tuple[object, ...], tuple[Mapping[str, str], tuple[ConditionTag, ...]]] = {}
#: Enough for every condition set of a large fight; beyond it the cache starts again.
_TAGS_KEPT = 4096


def condition_tags(
    conditions: Mapping[str, object],
    short: Mapping[str, str],
    shown: Mapping[str, tuple[str, str, str]] | None = None,
) -> tuple[ConditionTag, ...]:
    """Conditions as the order table writes them: ``burning 2`` in full, ``Brn2`` when room is short.

    `short` gives each key's stem (a key without one uses its first four letters); `shown` may give a
    key's full text, short text and what the short text means (a 2d20 Persistent with its rating and
    ticks).
    """
    try:
        key = (
            id(short),
            tuple(conditions.items()),
            tuple(map(type, conditions.values())),
            tuple(shown.items()) if shown else (),
        )
        hit = _TAGS.get(key)
    except TypeError:  # a value that cannot be a key: work it out every time
        return _condition_tags(conditions, short, shown)
    if hit is not None and hit[0] is short:
        return hit[1]
    tags = _condition_tags(conditions, short, shown)
    if len(_TAGS) >= _TAGS_KEPT:
        _TAGS.clear()
    _TAGS[key] = (short, tags)
    return tags


def _condition_tags(
    conditions: Mapping[str, object],
    short: Mapping[str, str],
    shown: Mapping[str, tuple[str, str, str]] | None,
) -> tuple[ConditionTag, ...]:
    tags = []
    for key, value in conditions.items():
        name = key.replace("_", " ")
        stem = short.get(key) or key[:4].title()
        full = name if value is True else f"{name} {value}"
        brief = stem if value is True else f"{stem}:{value}" if isinstance(value, str) else f"{stem}{value}"
        full, brief, meaning = (shown or {}).get(key, (full, brief, name))
        tags.append(ConditionTag(full, brief, stem, meaning))
    return tuple(tags)


def percent(chance: SupportsFloat, sign: bool = False) -> str:
    """A chance as a whole percentage ("38", or "38 %" with `sign`): 0 and 100 only when certain, so a
    one-in-three-hundred chance reads 1, never 0, and a near-certainty 99, never 100."""
    p = float(chance)
    if p <= 0:
        text = "0"
    elif p >= 1:
        text = "100"
    else:
        text = str(min(99, max(1, round(p * 100))))
    return text + " %" if sign else text


#: Characters no one's words are drawn with (Unicode categories Cc, Cf, Zl, Zp: the controls, the format
#: characters with every bidi mark, override and isolate, the line and paragraph separators): a player's line
#: could otherwise forge a log line, reorder what the GM reads, or move a terminal's cursor.
_UNDRAWN = frozenset({"Cc", "Cf", "Zl", "Zp"})


def plain(text: str) -> str:
    """`text` without control and format characters (`_UNDRAWN`): as a player's words are accepted and drawn."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(ch for ch in text if unicodedata.category(ch) not in _UNDRAWN)


def said_as_someone(text: str, hidden: Iterable[str]) -> str:
    """`text` with every name in `hidden` said as "someone" (a question about a seat's character that names a
    GM-only enemy: "Rotten Belle strikes Sofia Ramos"), as the player view says them."""
    for name in sorted(hidden, key=len, reverse=True):
        text = re.sub(re.escape(name), "someone", text, flags=re.IGNORECASE)
    return text
