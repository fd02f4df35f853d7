"""Who may do what from a player's own terminal (docs/guide/seating.md): a pure judgement over the session.

The GM's process asks `judge` about each line a player sends, with the OS account the kernel reported for
the connection (never a name the player typed), and runs the line the `Verdict` gives as the GM's own:

* ``apply``: ``by SEAT COMMAND``, a command the seat takes itself (its own character's action on its turn,
  the answer to a question about its character), applied and logged with who sent it;
* ``request``: ``request SEAT NAME COMMAND``, anything else, waiting for the GM's ``approve`` or ``deny``;
* ``refuse``: one line saying why, for a command acting for a character not seated for the account, or not
  theirs to take now (another's turn, another's question). Those never become requests: the GM would only
  be asked to approve a slip.

What differs between the families (which verbs are a character's own actions, whose choice a 2d20 hand-over
is, a cheat from a Control Hand) is each family's rules' answer (`FamilyRules.SEAT_VERBS`, `ANSWER_VERBS`,
`prompt_subject`, `seat_answer_problem`); this module only puts them together.

Players never ``undo``, ``redo``, ``approve``, ``deny``, ``request`` or ``by``: those act on the whole
table's commands, so they are refused (the player asks at the table) rather than queued. ``undo`` as a
request could only step back the request itself, since undo steps back the last command of the history.
Nor ``seed``: a seed a player chose is a future that player knows (docs/guide/shared-box.md),
so it is not even
put to the GM as a request.
"""

from __future__ import annotations

import re
import shlex
import unicodedata
from typing import Literal, NamedTuple

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import WRAPPERS, ArgKind, Command
from tracker.families.session import Session
from tracker.present.words import plain, said_as_someone

__all__ = ["Verdict", "judge", "plain", "said_to_seat", "seats_of", "underlying", "unknown_name", "visible_names"]

#: The verbs a seat never sends, not even as a request: the ones acting on other commands, and ``seed``.
GM_ONLY = WRAPPERS | {"seed"}


class Verdict(NamedTuple):
    """What the GM's process does with a player's line."""

    kind: Literal["apply", "request", "refuse"]
    #: The line to execute (``apply``: ``by alice spend 'Sofia Ramos' walk``; ``request``:
    #: ``request alice 'Sofia Ramos' damage 'Guild Thug' 2``); empty for ``refuse``.
    line: str = ""
    #: For ``refuse``: one line saying why; empty otherwise.
    reason: str = ""


def refuse(reason: str) -> Verdict:
    return Verdict("refuse", "", reason)


def seats_of(session: Session) -> dict[str, tuple[str, ...]]:
    """Each seated account's characters, as full combatant names (``[seats]`` of the encounter over the party's)."""
    return session.setup.seated(session.rules.combatant_names())


def _clean(line: str) -> str:
    """Why `line` cannot be one player's command (a newline or other control character, C0 or C1, could
    smuggle a second command past the judgement or drive the GM's terminal), or "" when it can."""
    if any(unicodedata.category(ch) == "Cc" for ch in line):
        return "a command is one line of text (no newlines or control characters)"
    return ""


def judge(session: Session, account: str, as_name: str | None, line: str) -> Verdict:
    """What to do with `line` sent by the OS `account`, optionally as its seated character `as_name`."""
    mine = seats_of(session).get(account)
    if not mine:
        return refuse(f"{account} has no seat in this encounter")
    problem = _clean(line)
    if problem:
        return refuse(problem)
    # Format characters (bidi marks and overrides, zero-width ones) and line or paragraph separators are
    # dropped: invisible in what the player typed, they would reorder or forge what the GM's log draws.
    line = plain(line)
    try:
        cmd = _seen_names(session, session.parse(line))
        acting = names.resolve(as_name, mine, f"character seated for {account}") if as_name else None
        return _verdict(session, account, mine, acting, cmd)
    except Refusal as exc:
        return refuse(str(exc))


def _verdict(session: Session, account: str, mine: tuple[str, ...], acting: str | None, cmd: Command) -> Verdict:
    rules = session.rules
    words = shlex.join(shlex.split(cmd.line))
    if cmd.verb in GM_ONLY:
        return refuse(f"'{cmd.verb}' is the GM's: ask at the table")
    trusted = rules.seats_enter_results()
    result = rules.RESULT_VERBS.get(cmd.verb)
    how = rules.SEAT_VERBS.get(cmd.verb) or (result if trusted else None)
    if how is not None:
        who = _actor(session, cmd, how)
        if who not in mine and how == "active":
            return refuse(f"it is not {account}'s turn ({_shown_name(session, who)} acts)")
        if who not in mine:
            return refuse(f"{who} is not seated for {account} ({account} plays {', '.join(mine)})")
        if not rules.acting(who):
            now = _shown_name(session, rules.state.active)
            return refuse(f"it is not {who}'s turn" + (f" ({now} acts)" if now else " (no turn is open)"))
        if rules.state.prompt is not None and cmd.verb not in session.family.verbs.while_prompted():
            return refuse(_waiting(session, mine))
        problem = (
            _hidden_word(session, cmd) or _undoes_own(session, account, cmd) or rules.seat_action_problem(who, cmd)
        )
        if problem:
            return refuse(problem)
        return Verdict("apply", f"by {account} {words}")
    if result is not None:
        # A draw or a result no question asked for: the GM's to allow (docs/guide/seating.md), for the seat's own only.
        who = _actor(session, cmd, result)
        if who not in mine:
            return refuse(f"{who} is not seated for {account} ({account} plays {', '.join(mine)})")
        return Verdict("request", f"request {account} {shlex.quote(who)} {words}")
    if cmd.verb in rules.ANSWER_VERBS:
        prompt = rules.state.prompt
        if prompt is None:
            return refuse("no question waits")
        subject = rules.prompt_subject()
        if subject is None or subject not in mine:
            return refuse(_waiting(session, mine))
        problem = _hidden_word(session, cmd) or rules.seat_answer_problem(subject, cmd)
        if problem:
            return refuse(problem)
        if rules.typed_result(cmd) and not trusted:
            # A result made at the table (``pass 5``, a card, the faces rolled): the GM approves it.
            return Verdict("request", f"request {account} {shlex.quote(subject)} {words}")
        return Verdict("apply", f"by {account} {words}")
    problem = _hidden_word(session, cmd)
    if problem:
        return refuse(problem)
    asking = acting or mine[0]
    return Verdict("request", f"request {account} {shlex.quote(asking)} {words}")


#: Verbs that only undo each other: a seat's engage then disengage of the same pair changes nothing but the
#: GM's history (a flood of them filled the file and slowed every undo).
_OPPOSITES = {"engage": "disengage", "disengage": "engage"}


def _undoes_own(session: Session, account: str, cmd: Command) -> str:
    """Why `cmd` only undoes the seat's own previous command (an ``engage`` of the pair its last command
    disengaged, or the reverse), or "": the player asks the GM to undo it instead."""
    opposite = _OPPOSITES.get(cmd.verb)
    if opposite is None:
        return ""
    mine = f"by {account} "
    last = next((line for line in reversed(session.history.commands) if line.startswith(mine)), None)
    if last is None:
        return ""
    try:
        before = session.parse(last[len(mine) :])
        pair = {names.resolve(a, session.rules.combatant_names()) for a in cmd.args}
        was = {names.resolve(a, session.rules.combatant_names()) for a in before.args}
    except Refusal:
        return ""
    if before.verb == opposite and pair == was:
        return f"that only undoes your last command ({before.line}); ask the GM to undo it"
    return ""


def _shown_name(session: Session, name: str | None) -> str | None:
    """`name` as the player view shows it: a GM-only combatant is "someone"."""
    if name is not None and name in session.rules.hidden_names():
        return "someone"
    return name


def _waiting(session: Session, mine: tuple[str, ...]) -> str:
    """Why a seat's command waits, in the words its own screen shows: the question itself when it is about
    one of the seat's characters (its screen shows it, GM-only names said as "someone"), else only whom it
    waits for. A question the player view does not show is never quoted (its shape alone tells who is in it)."""
    rules = session.rules
    prompt = rules.state.prompt
    assert prompt is not None
    subject = rules.prompt_subject()
    hidden = rules.hidden_names()
    if subject is not None and subject in mine:
        return f"waiting for an answer: {said_as_someone(prompt.question, hidden)}"
    if subject is None or subject in hidden:
        return "the question is the GM's to answer"
    return f"the question waits for {subject}"


#: Argument kinds besides ``name`` a combatant's name may be written in (a target after ``attack``, a spend's
#: argument, an answer naming a target).
_NAMED_IN = frozenset({"word", "action", "answer"})


def visible_names(session: Session) -> list[str]:
    """The combatants a seat may name: those in the fight the player view shows (no GM-only one)."""
    hidden = session.rules.hidden_names()
    return [n for n in session.rules.present_names() if n not in hidden]


def unknown_name(word: str, visible: list[str]) -> str:
    """The one refusal for a name no combatant the seat can see has, a stranger's or a GM-only one alike."""
    try:
        names.resolve(word, visible)
    except Refusal as exc:
        return str(exc)
    return f"no combatant named '{word}'"


def _seen_names(session: Session, cmd: Command) -> Command:
    """`cmd` with its names read as the seat sees the fight: a name in a name's place must be one of the
    combatants the player view shows (refused as a stranger's otherwise, GM-only or not: a seat cannot find a
    GM-only combatant by guessing); a word that could also be a GM-only one's, yet names exactly one the seat
    sees, is written out in full (so the rules never say it is ambiguous, which would tell who else is there);
    and a word elsewhere that names only GM-only combatants is refused the same way."""
    hidden = session.rules.hidden_names()
    spec = session.family.verbs.get(cmd.verb)
    if spec is None or not spec.args:
        return cmd
    visible = visible_names(session)
    args = list(cmd.args)
    changed = False
    for n, word in enumerate(cmd.args):
        kind = spec.args[min(n, len(spec.args) - 1)]
        if kind != "name" and kind not in _NAMED_IN:
            continue
        seen = names.matching(word, visible)
        unseen = names.matching(word, hidden) if hidden else []
        if kind == "name":
            if len(seen) != 1:
                raise Refusal(unknown_name(word, visible))
        elif not unseen or len(seen) != 1 or names.matching(word, _own_words(session, kind)):
            continue  # a GM-only name alone here is refused where a stranger's would be (`_hidden_word`)
        if unseen and seen[0].casefold() != word.casefold():
            args[n] = seen[0]
            changed = True
    if not changed:
        return cmd
    return session.parse(_with_args(cmd, args))


#: The words an answer is, whatever the question (never read as a name).
_ANSWER_WORDS = ("flip", "roll", "pass", "fail", "yes", "no", "none", "hit", "miss", "keep")


def _own_words(session: Session, kind: ArgKind) -> list[str]:
    """The family's own words for an argument of `kind` (an action, an answer): a word that is one of them is
    never taken for a combatant's name."""
    return list(_ANSWER_WORDS) if kind == "answer" else session.rules.words(kind)


def _hidden_word(session: Session, cmd: Command) -> str:
    """The refusal for a word of `cmd`, outside a name's place, that names only GM-only combatants (a target
    typed after ``attack``, an answer naming one), worded as for a stranger's name; "" when there is none.
    Asked only once the command is the seat's to take, where the rules would meet a stranger's word too."""
    hidden = session.rules.hidden_names()
    spec = session.family.verbs.get(cmd.verb)
    if not hidden or spec is None or not spec.args:
        return ""
    visible = visible_names(session)
    words = cmd.args if cmd.verb not in session.rules.ANSWER_VERBS else (" ".join(cmd.args),)
    for n, word in enumerate(words):
        kind = spec.args[min(n, len(spec.args) - 1)]
        if kind in _NAMED_IN and names.matching(word, hidden) and not names.matching(word, visible):
            return unknown_name(word, visible)
    return ""


def said_to_seat(session: Session, text: str) -> str:
    """A refusal as a seat is sent it: in the words the player view would use. A name no combatant the seat
    sees has is refused the one way a stranger's is (`unknown_name`, whether the rules refused it or a GM-only
    one matched), and every GM-only name left is "someone"."""
    hidden = session.rules.hidden_names()
    visible = visible_names(session)
    unknown = _UNKNOWN.fullmatch(text)
    if unknown is not None:
        return unknown_name(unknown["word"], visible)
    ambiguous = _AMBIGUOUS.fullmatch(text)
    if ambiguous is not None and hidden and names.matching(ambiguous["word"], hidden):
        return unknown_name(ambiguous["word"], visible)
    return said_as_someone(text, hidden)


#: The rules' refusals of a name (`tracker.engine.names.resolve`).
_UNKNOWN = re.compile(r"no combatant named '(?P<word>.*)'(?: \(known: .*\))?")
_AMBIGUOUS = re.compile(r"'(?P<word>.*)' is ambiguous: .*")


def _with_args(cmd: Command, args: list[str]) -> str:
    """`cmd`'s line with its positional words replaced by `args` (its options and flags as typed)."""
    words = shlex.split(cmd.line)
    out, k = [words[0]], 0
    for word in words[1:]:
        if k < len(cmd.args) and word == cmd.args[k]:
            out.append(args[k])
            k += 1
        else:
            out.append(word)
    return shlex.join(out)


def _actor(session: Session, cmd: Command, how: str) -> str:
    """The character a seat's own command acts for: the one it names first, or whoever acts now."""
    if how == "first":
        return _named(session, cmd.args[0])
    active = session.rules.state.active
    if active is None:
        raise Refusal("no turn is open")
    return active


def _named(session: Session, text: str) -> str:
    """A typed name resolved as commands resolve it (case-insensitive, a unique prefix, not one who has left)."""
    present = session.rules.present_names()
    return names.resolve(text, present)


def underlying(session: Session, cmd: Command) -> Command:
    """The command that does the work when `cmd` runs now: the one a ``by`` carries, or the request an
    ``approve`` runs (asked before it runs), else `cmd` itself; the story tells a player's strike as a strike."""
    try:
        if cmd.verb == "by":
            return session.parse(shlex.join(cmd.args[1:]))
        if cmd.verb == "approve":
            waiting = session.state.requests
            wanted = cmd.args[0] if cmd.args else None
            found = next((r for r in waiting if wanted is None or str(r.id) == wanted), None)
            if found is not None:
                return session.parse(found.command)
    except Refusal:
        pass
    return cmd
