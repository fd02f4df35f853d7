"""Who may do what from a player's own terminal (CONTRACT.md §6): a pure judgement over the session.

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
Nor ``seed``: a seed a player chose is a future that player knows (CONTRACT.md §5, §6), so it is not even
put to the GM as a request.
"""

from __future__ import annotations

import shlex
from typing import Literal, NamedTuple

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import WRAPPERS, Command
from tracker.families.session import Session

__all__ = ["Verdict", "judge", "seats_of", "underlying"]

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
    """Why `line` cannot be one player's command (a newline or other control character could smuggle a
    second command past the judgement), or "" when it can."""
    if any(ch < " " or ch == "\x7f" for ch in line):
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
    try:
        cmd = session.parse(line)
        acting = names.resolve(as_name, mine, f"character seated for {account}") if as_name else None
        return _verdict(session, account, mine, acting, cmd)
    except Refusal as exc:
        return refuse(str(exc))


def _verdict(session: Session, account: str, mine: tuple[str, ...], acting: str | None, cmd: Command) -> Verdict:
    rules = session.rules
    unseen = _unseen(session, cmd)
    if unseen is not None:
        # As for a name no one has: a seat cannot find a GM-only combatant by guessing (nor learn its figures
        # from the duel an attack on it would ask).
        return refuse(f"no combatant named '{unseen}'")
    words = shlex.join(shlex.split(cmd.line))
    if cmd.verb in GM_ONLY:
        return refuse(f"'{cmd.verb}' is the GM's: ask at the table")
    how = rules.SEAT_VERBS.get(cmd.verb)
    if how is not None:
        who = _actor(session, cmd, how)
        if who not in mine:
            return refuse(f"{who} is not seated for {account} ({account} plays {', '.join(mine)})")
        if not rules.acting(who):
            now = rules.state.active
            return refuse(f"it is not {who}'s turn" + (f" ({now} acts)" if now else " (no turn is open)"))
        prompt = rules.state.prompt
        if prompt is not None and cmd.verb not in session.family.verbs.while_prompted():
            return refuse(f"waiting for an answer: {prompt.question}")
        return Verdict("apply", f"by {account} {words}")
    if cmd.verb in rules.ANSWER_VERBS:
        prompt = rules.state.prompt
        if prompt is None:
            return refuse("no question waits")
        subject = rules.prompt_subject()
        if subject is None:
            return refuse(f"the question is the GM's to answer: {prompt.question}")
        if subject not in mine:
            return refuse(f"the question waits for {subject}, not {account}: {prompt.question}")
        problem = rules.seat_answer_problem(subject, cmd)
        if problem:
            return refuse(problem)
        return Verdict("apply", f"by {account} {words}")
    asking = acting or mine[0]
    return Verdict("request", f"request {account} {shlex.quote(asking)} {words}")


def _unseen(session: Session, cmd: Command) -> str | None:
    """The first of `cmd`'s name words that names only GM-only combatants (the players' table has no one of
    that name), or None."""
    hidden = session.rules.hidden_names()
    spec = session.family.verbs.get(cmd.verb)
    if not hidden or spec is None or not spec.args:
        return None
    seen = [n for n in session.rules.present_names() if n not in hidden]
    for n, word in enumerate(cmd.args):
        kind = spec.args[min(n, len(spec.args) - 1)]
        if kind in ("name", "word") and names.matching(word, hidden) and not names.matching(word, seen):
            return word
    return None


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
