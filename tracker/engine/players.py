"""The verbs of players at their own terminals (docs/guide/seating.md), the same in every rule family.

The GM's process turns what a seated player sends into one of these lines (`tracker.families.seating`
decides which), so a player's command is an ordinary line of the history: saved before any screen shows it,
undone and redone like the GM's own, and replayed exactly, since requests are numbered from a counter in
the state and never from a clock or a connection.

* ``request SEAT NAME COMMAND …``: the command waits in the state's `requests` for the GM;
* ``approve [ID]`` runs the oldest (or that) request as the GM's own command, ``deny [ID]`` drops it;
* ``by SEAT COMMAND …`` applies a command the seat may take itself, logged with who sent it.
"""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING, Any

from tracker.engine import names
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import WRAPPERS, Command, signed_int
from tracker.engine.records.model import Request

if TYPE_CHECKING:
    from tracker.engine.kernel import Engine

#: A POSIX portable user name (IEEE Std 1003.1 §3.437, as ``useradd`` accepts it by default): what ``[seats]``
#: keys and the seat of a request must be, so a seat is always an account the OS can report.
ACCOUNT = re.compile(r"[a-z_][a-z0-9_-]{0,30}\$?")


def valid_account(name: str) -> bool:
    """Whether `name` can be an OS account's name (`ACCOUNT`)."""
    return ACCOUNT.fullmatch(name) is not None


def inner_line(words: tuple[str, ...]) -> str:
    """The command `words` spell, quoted again as typed (``damage 'Guild Thug' 2``): parsing it gives them back."""
    return shlex.join(words)


def wrapped(eng: Engine[Any, Any, Any, Any], words: tuple[str, ...], what: str) -> Command:
    """The command inside a ``request`` or ``by`` (or a request's, for ``approve``), parsed by the family's
    table; a command that acts on other commands is never wrapped (undo inside a request would step back the
    request itself)."""
    inner = eng.verbs.parse(inner_line(words))
    if inner.verb in WRAPPERS:
        raise Refusal(f"{what} cannot hold '{inner.verb}': it acts on other commands")
    return inner


def _seat(text: str) -> str:
    if not valid_account(text):
        raise Refusal(f"'{text}' is not an account name (lower-case letters, digits, '_' and '-')")
    return text


def _attributed(eng: Engine[Any, Any, Any, Any], text: str, inner: Command) -> None:
    """Log `text`, then apply `inner` as the GM's own; when it is refused, the log is as it was."""
    st = eng.st
    kept, logged = list(st.log), st.logged
    eng.log(text)
    try:
        eng.dispatch(inner)
    except Refusal:
        st.log[:] = kept
        st.logged = logged
        raise


def _waiting(eng: Engine[Any, Any, Any, Any], cmd: Command) -> Request:
    """The request ``approve``/``deny`` names (the oldest without an id)."""
    waiting: list[Request] = eng.st.requests
    if not waiting:
        raise Refusal("no requests wait")
    if not cmd.args:
        return waiting[0]
    wanted = signed_int(cmd.args[0], "the request's id")
    found = next((r for r in waiting if r.id == wanted), None)
    if found is None:
        ids = ", ".join(str(r.id) for r in waiting)
        raise Refusal(f"no request {wanted} waits (waiting: {ids})")
    return found


def request(eng: Engine[Any, Any, Any, Any], cmd: Command) -> None:
    """``request SEAT NAME COMMAND …``: the command waits for the GM; it is parsed now, so what waits is runnable."""
    seat = _seat(cmd.args[0])
    who = names.resolve(cmd.args[1], eng.sheets.keys())
    inner = wrapped(eng, cmd.args[2:], "a request")
    st = eng.st
    st.request_count += 1
    st.requests.append(Request(id=st.request_count, seat=seat, as_=who, command=inner.line))
    eng.log(f"{seat} asks: {inner.line}")


def approve(eng: Engine[Any, Any, Any, Any], cmd: Command) -> None:
    """``approve [ID]``: the request runs as the GM's own; refused, it stays, and the refusal is the approve's."""
    found = _waiting(eng, cmd)
    inner = wrapped(eng, tuple(shlex.split(found.command)), "a request")
    _attributed(eng, f"approved {found.seat}'s request: {found.command}", inner)
    eng.st.requests.remove(found)


def deny(eng: Engine[Any, Any, Any, Any], cmd: Command) -> None:
    """``deny [ID]``: the request is dropped, and the log says so (the player's screen reads it)."""
    found = _waiting(eng, cmd)
    eng.st.requests.remove(found)
    eng.log(f"denied {found.seat}'s request: {found.command}")


def by(eng: Engine[Any, Any, Any, Any], cmd: Command) -> None:
    """``by SEAT COMMAND …``: a seated player's own command, applied exactly as the GM's and logged as theirs."""
    seat = _seat(cmd.args[0])
    inner = wrapped(eng, cmd.args[1:], "by")
    _attributed(eng, f"{seat}: {inner.line}", inner)


#: The verbs every family handles alike (`tracker.engine.kernel.Engine.HANDLERS`).
HANDLERS = {"request": request, "approve": approve, "deny": deny, "by": by}
