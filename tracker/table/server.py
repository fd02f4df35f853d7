"""The table in the GM's process: a Unix socket beside the encounter that players' programs connect to.

It runs on the GM screen's own event loop, so a player's command is applied between two of the GM's
keypresses, through the very path the GM's own commands take (`TableHost.submit`: applied, saved, then
shown), and nothing is ever applied twice or half-way. Every connection is told apart by the account the
kernel vouches for (`address.peer_account`), never by anything it sends; what that account may do is the
seat rules' (`Seating.judge`), asked against the live state when the command arrives.

Each connection is sent its projection after every accepted command (`publish`): after a GM's keypress
once the GM's own frame is out, after a player's command at once. Players see a command after it is on
disk, as the GM does. A connection that does not read what it is sent (more than `MAX_BACKLOG` waiting) is
cut (it would not read a goodbye either); one that sends a line longer than `wire.MAX_LINE` is told why and
closed. The limits are an account's, whatever number of connections it opens: more than `MAX_RATE` commands
a second, `MAX_PER_TURN` applied in one turn, `MAX_PER_ACCOUNT` screens at once or `MAX_ARRIVALS` connections
in a few seconds are refused; the GM's screen never waits on one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from tracker.table import wire
from tracker.table.address import peer_account, table_path
from tracker.table.projection import encode, encode_view, project

if TYPE_CHECKING:
    from tracker.families.seating import Verdict
    from tracker.families.session import Session
    from tracker.present.story.events import Story
    from tracker.present.view import PlayerView

#: Bytes a connection may leave unread before it is dropped (a projection is tens of kB).
MAX_BACKLOG = 8 * 1024 * 1024
#: Commands a second one account may send, all its connections together (a second connection is no second
#: allowance: a flood from eight of them lagged the GM's keys by a second).
MAX_RATE = 20
#: Commands of one account applied (or queued as requests) in one turn: far above a player's own turn, low
#: enough that junk cannot fill the GM's file and history (each one is saved and replayed by every undo).
MAX_PER_TURN = 60
#: Screens one account may have at the table at once (a player's play and view, a second terminal …).
MAX_PER_ACCOUNT = 8
#: Connections one account may open in `ARRIVAL_WINDOW` seconds: each is greeted with a projection and
#: changes the GM's title, so a storm of reconnects would slow the GM's screen.
MAX_ARRIVALS = 16
ARRIVAL_WINDOW = 10.0
#: Screens at the table at once, all accounts together.
MAX_CONNECTIONS = 64
#: Seconds a new connection has to say hello before it is closed (it counts against its account meanwhile).
HELLO_WAIT = 5.0
#: Requests one account may have waiting for the GM at once.
MAX_WAITING_REQUESTS = 5
#: Revisions whose situation is kept to judge a command sent on an older one (`_moved_on`).
KEPT_SITUATIONS = 256


class Seating(Protocol):
    """The seat rules (`tracker.families.seating`): who sits where, and what a seat may do now."""

    def seats_of(self, session: Session) -> dict[str, tuple[str, ...]]: ...

    def judge(self, session: Session, account: str, as_name: str | None, line: str) -> Verdict: ...

    def question_for(self, session: Session, characters: tuple[str, ...]) -> str | None: ...


class TableHost(Protocol):
    """The GM's app as the table sees it."""

    session: Session
    revision: int

    def submit(self, line: str) -> str | None: ...

    def table_changed(self) -> None:
        """Who is connected changed (the GM's screen says who is there)."""
        ...


@dataclass(eq=False)
class Seat:
    """One connection: the account the kernel names, what it asked to be, and its writer."""

    account: str
    writer: asyncio.StreamWriter
    mode: str = "view"
    as_name: str | None = None
    story: bool = False
    #: The revision its last applied command made: a command sent on an earlier one was sent before that
    #: took effect (a resend after a slow answer), and is not applied a second time.
    applied: int = -1

    @property
    def label(self) -> str:
        return f"{self.account} ({self.as_name})" if self.as_name else self.account


class Situation(NamedTuple):
    """What a command sent on a revision counted on: whose turn, and which question waited."""

    active: str | None
    prompt: tuple[str, str | None, tuple[str, ...]] | None


def situation(session: Session) -> Situation:
    st = session.state
    prompt = st.prompt
    return Situation(st.active, (prompt.question, prompt.who, tuple(prompt.options)) if prompt else None)


class TableServer:
    """Listens beside `encounter` while the GM's screen runs; `publish` after each accepted command."""

    def __init__(self, encounter: Path, host: TableHost, seating: Seating, clock: Callable[[], float] = time.monotonic):
        self.path = table_path(encounter)
        self.host = host
        self.seating = seating
        self.seats: list[Seat] = []
        self._server: asyncio.AbstractServer | None = None
        self._situations: dict[int, Situation] = {}
        self._clock = clock
        self._teller: Any = None
        #: This run's name: a command sent on a projection of an earlier run (before the GM restarted) is stale.
        self.run_id = os.urandom(8).hex()
        #: The revision every connection was last sent (a player's command is sent at once: `_command`).
        self._published: int | None = None
        #: Connections open now per account, said hello or not (the limits count from the accept).
        self._open: dict[str, int] = {}
        #: The GM's app is ending (`close_now`): nothing more is run for anyone.
        self.closing = False
        #: Per account: when its last messages came (`MAX_RATE`), when its last connections came
        #: (`MAX_ARRIVALS`), and the turn its applied commands are counted in with their count (`MAX_PER_TURN`).
        self._recent: dict[str, list[float]] = {}
        self._arrivals: dict[str, list[float]] = {}
        self._turn_count: dict[str, tuple[tuple[int, str | None], int]] = {}

    # --- opening and closing ------------------------------------------------------------------
    async def open(self) -> str | None:
        """Start listening; None when it does, else the one line saying why players cannot connect.

        The GM holds the encounter's writer lock, so a socket left at the path is a killed GM's: it is
        removed (never followed: `unlink` removes a link itself). The socket is 0666 (who may connect is
        the folder's business; who connected is the kernel's), made so on a path no one else can swap."""
        self._remember()
        from tracker.store.private_folder import UnsafeFolder, private_folder

        try:  # the folder and the path to it are the GM's alone: no one else can swap the socket or its folder
            private_folder(self.path.parent)
        except UnsafeFolder as exc:
            from tracker.store.writers import fix

            return f"table closed to players: {self.path.parent}: {exc}; to open it: {fix(exc.folder)}"
        except OSError as exc:
            return f"table closed to players: {self.path.parent}: {exc.strerror or exc}"
        with contextlib.suppress(FileNotFoundError):
            kind = os.lstat(self.path).st_mode
            if not (stat.S_ISSOCK(kind) or stat.S_ISLNK(kind)):
                return f"table closed to players: {self.path} is in the way (not a socket)"
            os.unlink(self.path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            # Made 0666 by the bind itself (never a chmod by name afterwards, which would follow a link put
            # there meanwhile). The umask is the process's: nothing else creates a file in that instant but
            # a save, whose temporary sets its own mode (0600).
            before = os.umask(0o111)
            try:
                sock.bind(str(self.path))
            finally:
                os.umask(before)
            sock.listen(16)
            self._server = await asyncio.start_unix_server(self._connected, sock=sock, limit=wire.MAX_LINE)
        except OSError as exc:
            sock.close()
            return f"table closed to players: {exc.strerror or exc}: {self.path}"
        return None

    async def close(self) -> None:
        """Say goodbye to every connection, stop listening, and remove the socket."""
        for seat in list(self.seats):
            self._drop(seat, "the GM closed the fight")
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 0.5)
            self._server = None
            with contextlib.suppress(OSError):
                os.unlink(self.path)

    def close_now(self) -> None:
        """Remove the socket without the loop (the app is ending): every connection is cut, and a command
        that still arrives is answered without being run (the GM's app is going; nothing may reach it)."""
        self.closing = True
        for seat in list(self.seats):
            with contextlib.suppress(Exception):
                seat.writer.transport.abort()
        self.seats.clear()
        if self._server is not None:
            self._server.close()
            self._server = None
            with contextlib.suppress(OSError):
                os.unlink(self.path)

    # --- who is here --------------------------------------------------------------------------
    def connected(self) -> list[str]:
        """Who is connected, as the GM's screen lists them ("alice (Sofia Ramos)", "bob")."""
        return sorted({seat.label for seat in self.seats})

    def waiting_on(self) -> str | None:
        """The account whose answer the pending question waits for, when it is about a seated character."""
        session = self.host.session
        if session.state.prompt is None:
            return None
        for account, characters in self.seating.seats_of(session).items():
            if self.seating.question_for(session, characters) is not None:
                return account
        return None

    # --- sending ---------------------------------------------------------------------------------
    def republish(self) -> None:
        """Send every connection its projection again, on the same revision (the players' odds line came in)."""
        self._published = -1
        self.publish()

    def publish(self) -> None:
        """Send every connection its projection of the state now (after each accepted command).

        The player view is the same for every seat, so it is made and written once; each seat's projection
        around it is its own. The players' seats are sent theirs first: a player's screen waits on it,
        while a viewer only watches."""
        if self._published == self.host.revision:
            return
        self._published = self.host.revision
        made: dict[tuple[str, str, str | None, bool], bytes] = {}
        story: Story | None = None
        view = self._player_view()
        shared = encode_view(view)
        # Keyed by all a projection depends on: an account's `tracker play` and its `tracker view --player`
        # are sent different ones (only the play seat sees its characters' sheets).
        for seat in sorted(self.seats, key=lambda seat: seat.mode != "play"):
            key = (seat.account, seat.mode, seat.as_name, seat.story)
            line = made.get(key)
            if line is None:
                if seat.story and story is None:
                    story = self._story()
                line = made[key] = encode(self._projection(seat, story if seat.story else None, view), shared)
            self._send(seat, line)

    def _player_view(self) -> PlayerView:
        """The player view every seat shares, with the fight's odds from what the players know when the GM
        lets them see it (a host that works out none: none)."""
        view = self.host.session.presenter.player_view()
        odds = getattr(self.host, "players_fight_odds", "")
        if odds and self.host.session.rules.fight_odds_for_players():
            view = view._replace(fight_odds=odds)
        return view

    def _projection(self, seat: Seat, story: Story | None, view: PlayerView | None = None) -> Any:
        self._remember()  # what a command sent on this revision counts on
        session = self.host.session
        if view is None:
            view = self._player_view()
        mine = self.seating.seats_of(session).get(seat.account, ()) if seat.mode == "play" else ()
        if seat.as_name is not None:
            mine = tuple(n for n in mine if n == seat.as_name) or mine
        question = self.seating.question_for(session, mine)
        return project(session, seat.account, mine, self.host.revision, question, story, self.run_id, view)

    def _story(self) -> Story | None:
        """The players' story of the fight so far (told on, command by command, as the Story tab is)."""
        from tracker.engine.errors import Refusal
        from tracker.report.telling import follow

        session = self.host.session
        try:
            self._teller = follow(self._teller, session.setup, session.history, session.history.commands)
            story: Story = self._teller.story(player=True)
        except Refusal:
            self._teller = None
            return None
        return story

    def _send(self, seat: Seat, line: bytes) -> None:
        transport = seat.writer.transport
        if transport.is_closing():
            self._forget(seat)
            return
        if transport.get_write_buffer_size() > MAX_BACKLOG:
            # Cut, not closed: a goodbye would wait behind a backlog it never reads, and a close waits for
            # that backlog to be flushed, keeping its memory and the connection for as long as it stays.
            transport.abort()
            self._forget(seat)
            return
        seat.writer.write(line)

    def _drop(self, seat: Seat, why: str) -> None:
        with contextlib.suppress(Exception):
            seat.writer.write(wire.message("bye", why))
            seat.writer.close()
        self._forget(seat)

    def _forget(self, seat: Seat) -> None:
        if seat in self.seats:
            self.seats.remove(seat)
            self.host.table_changed()

    # --- receiving -------------------------------------------------------------------------------
    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        try:
            account = peer_account(sock)
        except OSError:
            writer.close()
            return
        seat = Seat(account, writer)
        full = self._room_for(seat) or self._arriving(account)
        if full is not None:
            self._drop(seat, full)
            return
        self._open[account] = self._open.get(account, 0) + 1
        try:
            await self._serve(seat, reader)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except (ValueError, asyncio.LimitOverrunError):  # a line longer than the limit
            self._drop(seat, f"a line longer than {wire.MAX_LINE} bytes")
        except TimeoutError:
            self._drop(seat, f"no hello within {HELLO_WAIT:g} seconds")
        except Exception:
            # Whatever else goes wrong with one connection (the GM's app ending under a command that was on
            # its way) costs that connection only: asyncio would print it over the GM's screen.
            with contextlib.suppress(Exception):
                writer.transport.abort()
        finally:
            self._open[account] -= 1
            self._forget(seat)
            with contextlib.suppress(Exception):
                writer.close()

    async def _serve(self, seat: Seat, reader: asyncio.StreamReader) -> None:
        first = await asyncio.wait_for(reader.readline(), HELLO_WAIT)
        if not first:
            return
        refused = self._hello(seat, first)
        if refused is not None:
            self._drop(seat, refused)
            return
        self.seats.append(seat)
        self.host.table_changed()
        self._send(seat, encode(self._projection(seat, self._story() if seat.story else None)))
        while True:
            line = await reader.readline()
            if not line:
                return
            if not line.endswith(b"\n"):
                return  # the connection ended mid-line: nothing of it is applied
            try:
                kind, body = wire.read(line)
            except wire.WireError as exc:
                self._drop(seat, str(exc))
                return
            if kind == "command" and isinstance(body, dict):
                self._send(seat, wire.message("reply", self._command(seat, body)))
            elif kind == "story":
                wanted = body is True
                if wanted and not seat.story and not self._too_fast(seat):
                    seat.story = True
                    self._send(seat, encode(self._projection(seat, self._story())))
                seat.story = wanted
            else:
                self._drop(seat, f"unknown message '{kind}'")
                return
            await asyncio.sleep(0)  # lines already read wait their turn behind the GM's keys

    def _room_for(self, seat: Seat) -> str | None:
        """Why there is no room for one more connection, or None, counted from the accept (a connection that
        has not said hello yet counts). Every account on the box can connect: one that opened connection
        after connection would have the GM's process hold, and write to, each of them."""
        if self._open.get(seat.account, 0) >= MAX_PER_ACCOUNT:
            return f"{seat.account} has {MAX_PER_ACCOUNT} screens at this table already"
        if sum(self._open.values()) >= MAX_CONNECTIONS:
            return f"the table is full ({MAX_CONNECTIONS} screens)"
        return None

    def _arriving(self, account: str) -> str | None:
        """Why one more connection from `account` is refused now (more than `MAX_ARRIVALS` in the last
        `ARRIVAL_WINDOW` seconds, this one counted), or None. Refused before its hello costs anything."""
        now = self._clock()
        came = [t for t in self._arrivals.get(account, ()) if now - t < ARRIVAL_WINDOW] + [now]
        self._arrivals[account] = came
        if len(came) > MAX_ARRIVALS:
            return f"{account} connected {len(came) - 1} times in {ARRIVAL_WINDOW:g} seconds; wait a moment"
        return None

    def _too_fast(self, seat: Seat) -> bool:
        """Whether `seat`'s account sent more than `MAX_RATE` messages in the last second, on all its
        connections together (this one counted)."""
        now = self._clock()
        recent = [t for t in self._recent.get(seat.account, ()) if now - t < 1.0] + [now]
        self._recent[seat.account] = recent[-(MAX_RATE + 1) :]
        return len(recent) > MAX_RATE

    def _turn_spent(self, account: str) -> int:
        """How many of `account`'s commands were applied in the turn under way."""
        st = self.host.session.state
        turn = (st.round, st.active)
        counted, spent = self._turn_count.get(account, (turn, 0))
        return spent if counted == turn else 0

    def _count_turn(self, account: str) -> None:
        st = self.host.session.state
        self._turn_count[account] = ((st.round, st.active), self._turn_spent(account) + 1)

    def _hello(self, seat: Seat, line: bytes) -> str | None:
        """Why a connection is refused at its first line, or None."""
        try:
            kind, body = wire.read(line)
        except wire.WireError as exc:
            return str(exc)
        if kind != "hello" or not isinstance(body, dict):
            return "the first message is a hello"
        seat.mode = "play" if body.get("mode") == "play" else "view"
        seat.story = body.get("story") is True
        as_name = body.get("as")
        if seat.mode == "view":
            return None
        mine = self.seating.seats_of(self.host.session).get(seat.account, ())
        if not mine:
            return f"{seat.account} has no seat at this table (the GM seats players in [seats])"
        if as_name is not None:
            if not isinstance(as_name, str):
                return "--as takes a character's name"
            from tracker.engine.names import matching

            found = matching(as_name, list(mine))
            if len(found) != 1:
                seated = ", ".join(mine)
                return f"'{as_name}' is not seated for {seat.account} (its characters: {seated})"
            seat.as_name = found[0]
        return None

    def _command(self, seat: Seat, body: dict[str, Any]) -> dict[str, Any]:
        """Judge and run one command; the reply says how it went. What it says never names a GM-only
        combatant, nor tells one from a stranger: a refusal quotes the rules' own words, which may ("engaged
        with Rotten Belle"), so it is said as the player view would (`said_to_seat`)."""
        reply = self._judged(seat, body)
        refused = reply.get("refused")
        if isinstance(refused, str):
            from tracker.families.seating import said_to_seat

            reply["refused"] = said_to_seat(self.host.session, refused)
        return reply

    def _judged(self, seat: Seat, body: dict[str, Any]) -> dict[str, Any]:
        ident = body.get("id")
        line, seen = body.get("line"), body.get("seen")
        reply: dict[str, Any] = {"id": ident if isinstance(ident, int) else None}
        if self.closing:
            return reply | {"refused": "the GM is closing the fight"}
        if seat.mode != "play":
            return reply | {"refused": "this is a view: tracker play FILE acts for your characters"}
        if self._too_fast(seat):
            return reply | {"refused": "too many commands at once; wait a moment"}
        if not isinstance(line, str) or not isinstance(seen, int):
            return reply | {"refused": "a command is a line of text and the revision it was sent on"}
        if body.get("table") != self.run_id:
            return reply | {"refused": "the GM's tracker restarted since you sent that; look again and resend it"}
        if seen < seat.applied:
            return reply | {"refused": "you sent that before your last command took effect; look again"}
        moved = self._moved_on(seen)
        if moved is not None:
            return reply | {"refused": moved}
        session = self.host.session
        if self._turn_spent(seat.account) >= MAX_PER_TURN:
            return reply | {"refused": f"{MAX_PER_TURN} of your commands this turn already; ask at the table"}
        verdict = self.seating.judge(session, seat.account, seat.as_name, line)
        if verdict.kind == "refuse":
            return reply | {"refused": verdict.reason}
        if verdict.kind == "request":
            waiting = sum(1 for r in session.state.requests if r.seat == seat.account)
            if waiting >= MAX_WAITING_REQUESTS:
                return reply | {"refused": f"{waiting} of your requests wait for the GM already; wait for an answer"}
        problem = self.host.submit(verdict.line)
        if problem is not None:
            return reply | {"refused": problem}
        self._count_turn(seat.account)
        seat.applied = self.host.revision
        # Now, not after the GM's next frame: no keypress of the GM's waits on this one, and the players'
        # screens are drawn while the GM's is (the GM's own publish of this revision then sends nothing).
        self.publish()
        if verdict.kind == "request":
            return reply | {"requested": "sent to the GM, who approves or denies it"}
        return reply | {"ok": True}

    def _moved_on(self, seen: int) -> str | None:
        """Why a command sent on revision `seen` no longer fits the fight, or None when it still does: the
        turn and the question it was sent on are the ones now (a GM's unrelated change in between is fine)."""
        then = self._situations.get(seen)
        now = situation(self.host.session)
        if seen > self.host.revision:
            return "that command names a state the GM's process has not had"
        if then is None:
            return "that command was sent on a state too old to check; look again and resend"
        if then.prompt != now.prompt:
            return "the question it answered has been answered, or another waits now"
        if then.active != now.active:
            return "the turn it was sent on has ended"
        return None

    def _remember(self) -> None:
        self._situations[self.host.revision] = situation(self.host.session)
        while len(self._situations) > KEPT_SITUATIONS:
            del self._situations[min(self._situations)]
