"""The GM command language (docs/reference/language.md): one command table per rule family, one parser.

A `VerbSpec` says everything about one verb: its argument kinds, its ``key=value`` options and bare
flags, whether a key binding leaves the line open for more input, its usage line and one-line help.
Each family has a `VerbTable`: the shared verbs defined here plus its own from the one command table
(each family's `verbs` module, in its own folder), and every
place that speaks about commands reads that table: the parser, the command line's completion, the
action picker, key prefills, the palette, ``?`` help and every usage or refusal message. That is how
a 2d20 screen never offers a Through the Breach verb, and the reverse.

Names stay as typed here; the engine resolves them (unique prefixes) against the encounter.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Literal, NamedTuple

from tracker.engine.errors import Refusal

#: What a positional argument is, so completion can offer the right words. ``held`` is a condition the
#: combatant named before it has (``remove`` completes only those), ``condition`` any condition, ``block``
#: a stat block of the encounter (``join``).
ArgKind = Literal[
    "name", "condition", "held", "action", "zone", "number", "signed", "card", "answer", "text", "word", "block"
]


class Command(NamedTuple):
    """A parsed command: its verb and its words (quotes removed), plus ``key=value`` options."""

    verb: str
    args: tuple[str, ...] = ()
    options: Mapping[str, str] = MappingProxyType({})
    flags: frozenset[str] = frozenset()
    line: str = ""


class VerbSpec(NamedTuple):
    """One verb of one rule family's command language."""

    verb: str
    #: Kinds of the positional arguments in order; the last repeats when `most` is None.
    args: tuple[ArgKind, ...]
    #: Fewest and most positional words (None: the rest of the line, e.g. a reason or an answer).
    least: int
    most: int | None
    usage: str
    help: str
    #: "both" for the verbs every family has, else the family's name ("ttb", "2d20").
    family: str = "both"
    #: ``key=value`` options the verb knows (names as typed, lower case).
    options: tuple[str, ...] = ()
    #: Bare words recognised as flags once the required arguments are given.
    flags: tuple[str, ...] = ()
    #: A key that prefills this verb leaves the line open for the GM to finish (a number, a condition).
    needs_more: bool = True
    #: Accepted while a prompt waits for its answer (docs/reference/language.md).
    while_prompted: bool = False
    #: Its entry in the command palette ("Damage…"); empty: not offered there.
    title: str = ""
    #: What the value of a ``key=value`` option is, for completion (``from=`` a stat block, ``zone=`` a zone).
    option_kinds: tuple[tuple[str, ArgKind], ...] = ()
    #: The option a key's prefill fills with the acting combatant (damage: the attacker, TTB ``by=``, 2d20
    #: ``from=``), so what the GM finishes is not told as unattributed; empty: none.
    actor_option: str = ""

    def option_kind(self, key: str) -> ArgKind | None:
        """The kind of the value `key=` takes (None: nothing to complete)."""
        return dict(self.option_kinds).get(key.casefold())

    def kind_at(self, position: int) -> ArgKind | None:
        """The kind of the positional argument at `position` (1 = the first word after the verb)."""
        if position < 1:
            return None
        if position <= len(self.args):
            return self.args[position - 1]
        return self.args[-1] if self.args and self.most is None else None


def prefilled(spec: VerbSpec | None, verb: str, target: str | None, active: str | None) -> str:
    """The command line a key opens for `verb` (``d``: ``damage Thug by=Sofia ``), for the GM to finish:
    the selected `target`, and the acting combatant in the verb's `VerbSpec.actor_option` when one acts
    and it is not the target itself."""
    line = f"{verb} {quote_name(target)} " if target else f"{verb} "
    if spec is not None and spec.actor_option and active and active != target:
        line += f"{spec.actor_option}={quote_name(active)} "
    return line


def quote_name(word: str) -> str:
    """A name as a command line wants it: quoted when it has a space."""
    return f"'{word}'" if " " in word else word


def _normal_flag(word: str) -> str:
    return word.casefold().replace("_", "-")


class VerbTable:
    """A family's verbs: parsing, lookups and the texts that describe them."""

    def __init__(self, family_title: str, specs: Iterable[VerbSpec]) -> None:
        self.family_title = family_title
        self._specs: dict[str, VerbSpec] = {s.verb: s for s in specs}

    def __iter__(self) -> Iterator[VerbSpec]:
        return iter(self._specs.values())

    def __contains__(self, verb: object) -> bool:
        return verb in self._specs

    def get(self, verb: str) -> VerbSpec | None:
        return self._specs.get(verb)

    def verbs(self) -> list[str]:
        return list(self._specs)

    def while_prompted(self) -> frozenset[str]:
        return frozenset(v for v, s in self._specs.items() if s.while_prompted)

    def usage(self, verb: str) -> str:
        """``usage: …`` for one verb, as this family spells it."""
        spec = self._specs.get(verb)
        return f"usage: {spec.usage}" if spec else f"usage: {verb}"

    def resolve_verb(self, text: str) -> VerbSpec:
        """The verb `text` names: exact, or a unique prefix, among this family's verbs only."""
        key = text.casefold()
        if key in self._specs:
            return self._specs[key]
        matches = [v for v in self._specs if v.startswith(key)]
        if len(matches) == 1:
            return self._specs[matches[0]]
        if matches:
            raise Refusal(f"'{text}' is ambiguous: {', '.join(matches)}")
        raise Refusal(
            f"unknown command '{text}' in a {self.family_title} encounter (commands: {', '.join(self._specs)})"
        )

    def parse(self, line: str) -> Command:
        """Parse one command line; raises a one-line Refusal for anything malformed."""
        _check_text(line)
        try:
            words = shlex.split(line, comments=False, posix=True)
        except ValueError as exc:
            raise Refusal(f"cannot read '{line.strip()}': {exc}") from None
        if not words:
            raise Refusal("empty command")
        spec = self.resolve_verb(words[0])
        args: list[str] = []
        options: dict[str, str] = {}
        flags: set[str] = set()
        for word in words[1:]:
            if spec.options and "=" in word and not word.startswith("="):
                key, value = word.split("=", 1)
                key = _normal_flag(key)
                if key not in spec.options:
                    known = ", ".join(f"{o}=" for o in spec.options)
                    raise Refusal(f"unknown {spec.verb} option '{key}' (it knows {known})")
                options[key] = value
            elif spec.flags and len(args) >= spec.least and _normal_flag(word) in spec.flags:
                flags.add(_normal_flag(word))
            elif len(args) >= spec.least and _normal_flag(word) in spec.options:
                # An option typed without its value ("persistent" for "persistent=2"): say what it needs.
                raise Refusal(f"{spec.verb}: '{word}' needs a value: {_normal_flag(word)}=X")
            else:
                args.append(word)
        if len(args) < spec.least or (spec.most is not None and len(args) > spec.most):
            raise Refusal(self.usage(spec.verb))
        return Command(spec.verb, tuple(args), options, frozenset(flags), line.strip())


#: The longest command line (README "Limits"): every accepted line is kept in the file's history, and a
#: pasted page of text would make the file large for nothing.
MAX_COMMAND_CHARS = 1000


def _check_text(line: str) -> None:
    """Refuse a line the file could not keep: too long, or with bytes that are not UTF-8 text (stdin
    decodes those as lone surrogates, which no UTF-8 file can hold, so the save would fail)."""
    if len(line) > MAX_COMMAND_CHARS:
        raise Refusal(f"a command is at most {MAX_COMMAND_CHARS} characters (this one has {len(line)})")
    if not line.isascii():
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:
            raise Refusal("the command has bytes that are not UTF-8 text") from None


# --- the verbs every family has -------------------------------------------------------------

START = VerbSpec("start", (), 0, 0, "start", "begin the fight: the order, round 1, the first turn", needs_more=False)
NEXT = VerbSpec("next", (), 0, 0, "next", "end the active turn (end-of-turn effects), start the next", needs_more=False)
ANSWER = VerbSpec("answer", ("answer",), 1, None, "answer VALUE", "resolve the pending question", while_prompted=True)
UNDO = VerbSpec(
    "undo", (), 0, 0, "undo", "step back one command, with all its effects", needs_more=False, while_prompted=True
)
REDO = VerbSpec("redo", (), 0, 0, "redo", "step forward again after an undo", needs_more=False, while_prompted=True)
ADD = VerbSpec(
    "add",
    ("name", "condition", "number"),
    2,
    3,
    "add NAME CONDITION [N]",
    "give a condition; a valued one gains +N (default 1)",
    title="Add a condition…",
)
REMOVE = VerbSpec(
    "remove",
    ("name", "held", "number"),
    2,
    3,
    "remove NAME CONDITION [N]",
    "lower a valued condition by N, or remove it",
    title="Remove a condition…",
)
DAMAGE = VerbSpec("damage", ("name", "number"), 2, 2, "damage NAME N", "damage a combatant", title="Damage…")
HEAL = VerbSpec("heal", ("name", "number"), 2, 2, "heal NAME N", "heal a combatant", title="Heal…")
SPEND = VerbSpec("spend", ("name", "action", "word"), 2, None, "spend NAME ACTION [ARG …]", "take an action")
SEED = VerbSpec("seed", ("number",), 1, 1, "seed N", "set the random seed for the flips and rolls to come")
JOIN = VerbSpec(
    "join",
    ("block",),
    1,
    1,
    "join NAME [from=BLOCK] [count=N] [side=S]",
    "a combatant (or N from a stat block) joins mid-fight",
    options=("from", "count", "side"),
    title="Join the fight…",
    option_kinds=(("from", "block"),),
)
LEAVE = VerbSpec(
    "leave",
    ("name",),
    1,
    1,
    "leave NAME",
    "a combatant leaves the fight (out of the order, kept in the file)",
    title="Leave the fight…",
)

# --- players at their own terminals (docs/guide/seating.md): what the GM's process issues for them -----------------
# All four run while a prompt waits: a request must never block the GM, and ``by`` wraps an answer as often as
# anything (the command it wraps is then checked against the prompt like the GM's own).

REQUEST = VerbSpec(
    "request",
    ("word", "name", "text"),
    3,
    None,
    "request SEAT NAME COMMAND …",
    "a player's command waits for the GM's approve or deny (the GM's process types it)",
    while_prompted=True,
)
APPROVE = VerbSpec(
    "approve",
    ("number",),
    0,
    1,
    "approve [ID]",
    "run a player's waiting request as the GM's own (default: the oldest)",
    needs_more=False,
    while_prompted=True,
)
DENY = VerbSpec(
    "deny",
    ("number",),
    0,
    1,
    "deny [ID]",
    "drop a player's waiting request (default: the oldest)",
    needs_more=False,
    while_prompted=True,
)
BY = VerbSpec(
    "by",
    ("word", "text"),
    2,
    None,
    "by SEAT COMMAND …",
    "a seated player's command, applied as the GM's own and logged with who sent it",
    while_prompted=True,
)
#: The verbs that act on other commands: never the command inside a request or a ``by``.
WRAPPERS = frozenset({"request", "approve", "deny", "by", "undo", "redo"})


def table(family_title: str, specs: Sequence[VerbSpec]) -> VerbTable:
    """A family's table: the shared verbs (or the family's own version of one) around its own."""
    own = {s.verb: s for s in specs}
    first = [own.pop(s.verb, s) for s in (START, NEXT, ADD, REMOVE)]
    last = [own.pop(s.verb, s) for s in (JOIN, LEAVE, ANSWER, UNDO, REDO, SEED, REQUEST, APPROVE, DENY, BY)]
    return VerbTable(family_title, [*first, *own.values(), *last])


#: The most digits a number in a command may have (README "Limits"): room for any seed, Wound or pool a
#: table uses, while a pasted 5,000-digit number is refused before Python is asked to convert it.
MAX_DIGITS = 10


def is_number(text: str) -> bool:
    """Whether `text` is a whole number as commands write it: ASCII digits after an optional sign.

    ``str.isdigit`` is not enough: it accepts ``²``, which `int` refuses, and ``١``, which no table types.
    """
    body = text[1:] if text[:1] in ("+", "-") else text
    return body.isascii() and body.isdigit()


def signed_int(text: str, what: str) -> int:
    """Read ``+2``, ``-1`` or ``3`` (at most `MAX_DIGITS` digits)."""
    if not is_number(text):
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise Refusal(f"{what} must be a whole number, not '{shown}'")
    if len(text.lstrip("+-")) > MAX_DIGITS:
        raise Refusal(f"{what} is too large (numbers have at most {MAX_DIGITS} digits)")
    return int(text)


def count(text: str, what: str, most: int | None = None) -> int:
    """Read a whole number ≥ 0, and at most `most` when the rules (or a sane cap) bound it."""
    value = signed_int(text, what)
    if value < 0:
        raise Refusal(f"{what} cannot be negative")
    if most is not None and value > most:
        raise Refusal(f"{what} is at most {most} (not {value})")
    return value
