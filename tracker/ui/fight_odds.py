"""The fight's odds on the GM's screen (docs/reference/cli.md "The odds of the whole fight"): "the party wins
71 % · Sofia falls in 1 of 4 · about 4 rounds" in the title, worked out in a worker process after every command.

Never in a keypress's way: a command only notes the newest state (a cheap pickle of the live state, after a
short quiet spell, so a burst of keys makes one job); one worker process plays the runs; a job for a state that
has moved on by the time it ends is dropped, and the newest waiting state goes next. The worker is a spawned
process (not a fork of the screen's threads) made at the first job, so the screen's start is not slowed; it is
a daemon of a `multiprocessing` pool, ended when the screen's process exits, whatever it is playing then.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult, Pool

    from tracker.families.session import Session
    from tracker.playouts.runs import Start
    from tracker.ui.title import Part

#: Seconds without a command before the newest state is sent (a burst of keys makes one job).
QUIET = 0.4
#: Seconds between looks at the worker.
POLL = 0.25
#: How the line starts when no run ended (`tracker.playouts.tally.screen_line`): then it is a reason to read.
UNDECIDED = "fight odds undecided"
#: The party's chance (per cent) at each moment of the fight: ("before", 71), ("R1", 62), … ("now", 90).
Timeline = tuple[tuple[str, int], ...]
#: The title part's priority (`tracker.ui.title`): below the turn and the pools, above the family's name; who
#: falls stays after the family's name has gone, how long it lasts only until the encounter's name has.
PRIORITY = 25


class Host(Protocol):
    """What the line needs of the screen: its timers."""

    def set_timer(self, delay: float, callback: Callable[[], object]) -> object: ...

    def set_interval(self, interval: float, callback: Callable[[], object]) -> object: ...


class FightOddsLine:
    """The newest state's odds line, or "" while none is known; `changed` redraws where it shows."""

    def __init__(
        self, host: Host, changed: Callable[[], object], players: bool = False, shares: FightOddsLine | None = None
    ) -> None:
        self.host = host
        self.changed = changed
        #: The players' line: from what they know (`runs.start_of(players=True)`), for their screens.
        self.players = players
        #: The line whose worker process this one's jobs go to (one worker for the GM's and the players' lines).
        self._shares = shares
        self._polling = False
        self.text = ""
        self._pool: Pool | None = None
        self._job: AsyncResult[str] | None = None
        self._job_revision = -1
        self._waiting: tuple[int, Start] | None = None
        self._asked = -1
        self._timer: object | None = None
        self._session: Session | None = None
        #: The round-by-round line the Story tab draws: the job playing it, what it was for, the points found
        #: last, and whom to tell (the Story tab, the full-screen story).
        self._timeline: AsyncResult[Timeline] | None = None
        self._timeline_for: tuple[int, int] | None = None
        self._timeline_points: Timeline = ()
        self._timeline_told: list[Callable[[Timeline], object]] = []
        #: A session asked for while a line was being played: only the newest is played next, when that is in.
        self._timeline_next: Session | None = None

    def ask(self, session: Session, revision: int) -> None:
        """A command was applied (or the file changed): the odds of `revision` are wanted, once it is quiet."""
        if revision == self._asked or os.environ.get("TRACKER_NO_FIGHT_ODDS"):
            return
        self._asked = revision
        self._session = session
        stop = getattr(self._timer, "stop", None)
        if stop is not None:
            stop()
        self._timer = self.host.set_timer(QUIET, self._send)

    def ask_timeline(self, session: Session, done: Callable[[Timeline], object]) -> None:
        """The party's chance before the fight, at each round's start and now, for the Story tab: the moments
        are taken here (one replay), the runs played in the worker; `done` is given the points when they are
        in. Asked again only when a command or a round has gone by since; while one is being played, only the
        newest ask waits for it (a burst of commands makes one replay, not a queue behind the GM's line)."""
        if os.environ.get("TRACKER_NO_FIGHT_ODDS"):
            return
        if done not in self._timeline_told:
            self._timeline_told.append(done)
        if self._timeline_points:
            done(self._timeline_points)  # the last line meanwhile: a newer one follows when it is in
        if self._timeline is not None:
            self._timeline_next = session
            return
        self._play_timeline(session)

    def _play_timeline(self, session: Session) -> None:
        key = (len(session.history.commands), session.state.round)
        if key == self._timeline_for:
            return
        self._timeline_for = key
        from tracker.engine.errors import Refusal
        from tracker.playouts.timeline import moments

        try:
            found = moments(session)
        except Refusal:
            return
        self._timeline = self._worker().apply_async(_timeline_points, (found,))

    def parts(self) -> list[Part]:
        """The line's figures as title parts (`odds_parts`)."""
        return odds_parts(self.text)

    def _send(self) -> None:
        session = self._session
        if session is None:
            return
        from tracker.engine.errors import Refusal
        from tracker.playouts.runs import start_of

        try:
            start = start_of(session.family, session.rules, 12, 1, players=self.players)
        except Refusal:
            return
        self._waiting = (self._asked, start)
        if self._job is None:
            self._next()

    def _next(self) -> None:
        if self._waiting is None:
            return
        revision, start = self._waiting
        self._waiting = None
        from tracker.playouts.report import screen_line

        self._job, self._job_revision = self._worker().apply_async(screen_line, (start,)), revision

    def close(self) -> None:
        """End the worker (the screen goes away): whatever it is playing is dropped, and nothing of it is left
        to complain at the interpreter's exit."""
        pool, self._pool = self._pool, None
        self._job = self._timeline = None
        if pool is not None:
            pool.terminate()
            pool.join()

    def _worker(self) -> Pool:
        """The one worker process, made at the first job."""
        if self._shares is not None:
            if not self._polling:
                self._polling = True
                self.host.set_interval(POLL, self._poll)
            return self._shares._worker()
        if self._pool is None:
            import multiprocessing
            import sys

            # The screen puts its own stderr in place, which has no file descriptor: the pool's resource
            # tracker, started with the pool, is given the process's own.
            with contextlib.redirect_stderr(sys.__stderr__ or sys.stderr):
                self._pool = multiprocessing.get_context("spawn").Pool(1, initializer=_yield_to_the_screen)
            self.host.set_interval(POLL, self._poll)
        return self._pool

    def _poll(self) -> None:
        if self._timeline is not None and self._timeline.ready():
            timeline, self._timeline = self._timeline, None
            try:
                found = timeline.get()
            except Exception:  # a run the policy could not play: no line rather than a broken screen
                found = ()
            if found:
                self._timeline_points = found
                for done in self._timeline_told:
                    done(found)
            waiting, self._timeline_next = self._timeline_next, None
            if waiting is not None:
                self._play_timeline(waiting)
        job = self._job
        if job is None or not job.ready():
            return
        self._job = None
        try:
            text = job.get()
        except Exception:  # a run the policy could not play: no line rather than a broken screen
            text = ""
        if self._job_revision == self._asked and self._waiting is None and text != self.text:
            self.text = text
            self.changed()
        self._next()


def odds_parts(text: str) -> list[Part]:
    """An odds line's figures as title parts, each dropped whole when the title is short, never cut: the
    party's chance stays longest, then who falls, then how long it lasts. An undecided line is a reason, not
    figures: it is cut to the room left, with an ellipsis."""
    if not text:
        return []
    if text.startswith(UNDECIDED):
        return [(text, PRIORITY, True)]
    first, *rest = text.split(" · ")
    found: list[Part] = [(first, PRIORITY, False)]
    found += [(piece, PRIORITY - 3 if i == 0 else PRIORITY - 10, False) for i, piece in enumerate(rest)]
    return found


def _timeline_points(found: list[tuple[str, Start]]) -> Timeline:
    """In the worker: each moment's chance for the first side, in per cent (`tracker.playouts.timeline`)."""
    from tracker.playouts.timeline import points

    return tuple((p.label, round(100 * p.chance)) for p in points(found, runs_each=100, workers=1))


def _yield_to_the_screen() -> None:
    """The worker runs at the lowest priority: on a two-core box the screen's keypresses come first."""
    with contextlib.suppress(OSError):
        os.nice(19)


def line_of(screen: Host, changed: Callable[[], object]) -> FightOddsLine:
    """The screen's line, made at its first use."""
    found = getattr(screen, "_fight_odds_line", None)
    if not isinstance(found, FightOddsLine):
        found = FightOddsLine(screen, changed)
        setattr(screen, "_fight_odds_line", found)  # noqa: B010 - the screen's class stays as it is
    return found


def players_line_of(screen: Host, changed: Callable[[], object], gm: FightOddsLine | None = None) -> FightOddsLine:
    """The screen's players' line (`fight_odds_for_players`), made at its first use, its jobs on the worker of
    the GM's line `gm` (or on one of its own: the players' screen on the GM's box)."""
    found = getattr(screen, "_fight_odds_players", None)
    if not isinstance(found, FightOddsLine):
        found = FightOddsLine(screen, changed, players=True, shares=gm)
        setattr(screen, "_fight_odds_players", found)  # noqa: B010 - the screen's class stays as it is
    return found


def found_on(screen: object) -> FightOddsLine | None:
    """The screen's line, if it has one (the full-screen story asks the GM's screen below it)."""
    found = getattr(screen, "_fight_odds_line", None)
    return found if isinstance(found, FightOddsLine) else None


def parts_of(screen: object) -> list[Part]:
    """The title's part for the line (`tracker.ui.title`), none while no line is known."""
    found = getattr(screen, "_fight_odds_line", None)
    return found.parts() if isinstance(found, FightOddsLine) else []
