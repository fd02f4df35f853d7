"""The GM command language (CONTRACT.md §3): one line → one typed command.

The TUI's command line, its key bindings, ``tracker exec`` and ``[[demo]]`` steps all parse through
`parse`. Names stay as typed here; the engine resolves them (unique prefixes) against the encounter.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from tracker.rules.errors import Refusal


@dataclass(frozen=True)
class Command:
    """A parsed command: its verb and its words (quotes removed), plus ``key=value`` options."""

    verb: str
    args: tuple[str, ...] = ()
    options: dict[str, str] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()
    line: str = ""


#: verb → (minimum words, maximum words or None, usage)
VERBS: dict[str, tuple[int, int | None, str]] = {
    "start": (0, 0, "start"),
    "next": (0, 0, "next"),
    "add": (2, 3, "add NAME CONDITION [N]"),
    "remove": (2, 3, "remove NAME CONDITION [N]"),
    "damage": (2, 2, "damage NAME N [no-armor] [weak|moderate|severe]  or  damage NAME W/M/S [margin=D]"),
    "heal": (2, 2, "heal NAME N  or  heal NAME W/M/S"),
    "spend": (2, None, "spend NAME ACTION [ARG …]"),
    "initiative": (2, 2, "initiative NAME CARD"),
    "flip": (0, 1, "flip [N]"),
    "engage": (2, 2, "engage A B"),
    "disengage": (2, 2, "disengage A B"),
    "move": (2, 2, "move NAME ZONE"),
    "reach": (2, 2, "reach A B"),
    "momentum": (1, None, "momentum ±N [REASON]"),
    "threat": (1, None, "threat ±N [REASON]"),
    "pick": (1, 2, "pick NAME"),
    "keep": (1, 2, "keep NAME [threat]"),
    "roll": (3, None, "roll NAME TN DIFFICULTY [bought=K] [focus=F] [faces=a,b] [pay=threat]"),
    "challenge": (1, 2, "challenge N [faces=a,b,…]"),
    "treat": (2, 3, "treat NAME wound|trauma [N]"),
    "stabilize": (1, 1, "stabilize NAME"),
    "revive": (1, 1, "revive NAME"),
    "fortune": (2, None, "fortune NAME ±N [REASON]"),
    "answer": (1, None, "answer VALUE"),
    "undo": (0, 0, "undo"),
    "redo": (0, 0, "redo"),
    "reshuffle": (0, 0, "reshuffle"),
    "end": (0, 0, "end"),
    "seed": (1, 1, "seed N"),
}

#: Verbs that may run while a prompt waits for its answer (CONTRACT.md §3).
WHILE_PROMPTED = {"answer", "pick", "keep", "undo", "redo"}

FLAGS = {
    "no-armor",
    "no_armor",
    "noarmor",
    "weak",
    "moderate",
    "severe",
    "intense",
    "stun",
    "knockdown",
    "drain",
    "area",
    "snare",
    "perilous",
    "vicious",
    "piercing",
    "persistent",
    "destructive",
    "mental",
    "yield",
    "ignore-soak",
}


def parse(line: str) -> Command:
    """Parse one command line; raises a one-line Refusal for anything malformed."""
    try:
        words = shlex.split(line, comments=False, posix=True)
    except ValueError as exc:
        raise Refusal(f"cannot read '{line.strip()}': {exc}") from None
    if not words:
        raise Refusal("empty command")
    verb_text = words[0].casefold()
    verbs = [v for v in VERBS if v == verb_text] or [v for v in VERBS if v.startswith(verb_text)]
    if len(verbs) != 1:
        if verbs:
            raise Refusal(f"'{words[0]}' is ambiguous: {', '.join(verbs)}")
        raise Refusal(f"unknown command '{words[0]}' (commands: {', '.join(VERBS)})")
    verb = verbs[0]
    args: list[str] = []
    options: dict[str, str] = {}
    flags: set[str] = set()
    for w in words[1:]:
        if verb in ("damage", "heal") and "=" in w and not w.startswith("="):
            k, v = w.split("=", 1)
            options[k.casefold().replace("_", "-")] = v
        elif verb in ("damage", "heal") and len(args) >= 2 and w.casefold() in FLAGS:
            flags.add(w.casefold().replace("_", "-"))
        else:
            args.append(w)
    low, high, usage = VERBS[verb]
    if len(args) < low or (high is not None and len(args) > high):
        raise Refusal(f"usage: {usage}")
    return Command(verb, tuple(args), options, frozenset(flags), line.strip())


def signed_int(text: str, what: str) -> int:
    """Read ``+2``, ``-1`` or ``3``."""
    try:
        return int(text)
    except ValueError:
        raise Refusal(f"{what} must be a whole number, not '{text}'") from None


def count(text: str, what: str) -> int:
    """Read a whole number ≥ 0."""
    value = signed_int(text, what)
    if value < 0:
        raise Refusal(f"{what} cannot be negative")
    return value
