"""The Textual application: one session, one file, and the one path by which state changes.

`submit` is that path: parse and apply the command (a refusal changes nothing), write the file
durably, and only then bump the screen's `revision` so the panels show it (docs/guide/shared-box.md: on disk
before on screen). If the write fails, the session goes back to the last durable state.
"""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual import work
from textual.app import App
from textual.screen import Screen

from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.store import files
from tracker.ui.config import load_config, save_config
from tracker.ui.screens.main import TrackerScreen
from tracker.ui.themes import DEFAULT_THEME, load_themes

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from textual.theme import Theme

    from tracker.present.view import PlayerView
    from tracker.store.follow import Follower
    from tracker.table.server import TableServer


@runtime_checkable
class ShowsRevisions(Protocol):
    """A screen that shows the session (the GM's, the player's): told of each new revision."""

    def rebuild(self, revision: int) -> None: ...


@runtime_checkable
class FollowsRevisions(Protocol):
    """A screen that follows the file by its `revision` (the players' screens, the full-screen story);
    a protocol, so this module need not import the player screens before they are shown."""

    revision: int


class TrackerApp(App[None]):
    """The GM view (or, with `read_only`, a viewer) of one encounter file."""

    CSS_PATH = "app.tcss"
    TITLE = "tracker"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        session: Session | None,
        path: Path,
        *,
        theme: str | None = None,
        read_only: bool = False,
        player: bool = False,
        follow: bool = False,
        table: bool = False,
    ) -> None:
        super().__init__()
        #: Open the table's socket for players and other accounts' viewers (`tracker run`: `tracker.table`).
        self._opens_table = table and not (read_only or player or follow)
        self._table: TableServer | None = None
        #: Why the table stayed closed to players (with the fix), or None: it opened, or the GM opens none.
        self.table_closed: str | None = None
        #: The app is ending (unmounted): nothing more is run or saved.
        self._ending = False
        #: None only for a viewer waiting for its file to appear.
        self.session: Session = session  # type: ignore[assignment]
        self.path = path
        self.read_only = read_only or player or follow
        self.player = player
        self.follow = follow
        #: The collector is paused by `run_async` until the first frame is out.
        self._gc_paused = False
        #: The file's text as last saved, to go back to when a save fails (`submit`); worked out just after
        #: the first frame or before the first command, whichever comes first (`_durable_text`).
        self._durable: str | None = None
        #: Counts accepted commands (and file changes a viewer saw); the screens' views carry it.
        self.revision = 0
        #: The text a viewer's session was last loaded from (`reload_file` skips a file that did not change).
        self._last_text = ""
        #: Why a viewer without a session waits: the file's first problem, or None when it is missing.
        self._invalid: str | None = None
        #: Why this viewer is not the GM view it was asked for (the file is run elsewhere); asked first.
        self._held: str | None = None
        #: A viewer's loader: validates the setup once while its bytes stay the same (`_load`).
        self._follower: Follower | None = None
        self._theme_problems = self._choose_theme(theme)
        #: Runs the durable writes (`submit`), made with the first one.
        self._save_thread: ThreadPoolExecutor | None = None

    def _choose_theme(self, wanted: str | None) -> list[str]:
        """Register the themes and pick one before the stylesheet is first parsed; the problems to show.

        Choosing it here rather than in `on_mount` matters for start-up: a theme set once the app runs
        makes Textual parse every stylesheet a second time (a sixth of the first frame's work), and so
        does setting `theme` here the usual way (its watcher queues the same re-parse for the first frame).
        """
        themes, problems = load_themes()
        for theme in themes:
            self.register_theme(theme)
        self._theme_names = [t.name for t in themes]
        wanted = wanted or load_config().get("theme") or DEFAULT_THEME
        if wanted not in self.available_themes:
            problems.append(f"unknown theme '{wanted}'; using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        if self._ansi_filter(self.get_theme(wanted)) == self._ansi_filter(self.current_theme):
            # The ANSI colour filter App.__init__ made for Textual's default theme is this theme's too (a dark
            # theme, not ANSI: every theme here but the light one). Set without Textual's watcher, which
            # queues a second parse and styling of everything for the first frame (about 30 M instructions);
            # before the app runs, what else it does is done here: the theme's classes (nobody listens for
            # the theme's signal yet).
            self.set_reactive(App.theme, wanted)
            dark = self.current_theme.dark
            self.update_classes({f"-theme-{wanted}": True, "-dark-mode": dark, "-light-mode": not dark}, update=False)
        else:
            self.theme = wanted  # another filter, which only Textual's watcher makes: it runs, second parse and all
        # The stylesheet was made in App.__init__ with the default theme's variables: give it these
        # before anything is parsed with them.
        self.stylesheet.set_variables(self.get_css_variables())
        return problems

    def _ansi_filter(self, theme: Theme | None) -> tuple[bool, bool]:
        """What Textual's ANSI colour filter depends on for a theme: light or dark, and ANSI colours or not."""
        assert theme is not None  # a registered theme
        return theme.dark, theme.ansi if self.ansi_color is None else self.ansi_color

    @classmethod
    def viewer(
        cls, path: Path, *, theme: str | None = None, player: bool = False, held: str | None = None
    ) -> TrackerApp:
        """A read-only view that follows `path` live (`tracker view`).

        On a missing or invalid file it waits, saying which (an invalid file, or one that exists but
        cannot be read, is not "about to appear"). `held` says why the GM view could not open: the
        viewer first shows it and asks whether to follow read-only (HeldScreen)."""
        from tracker.store.follow import Follower

        invalid: str | None = None
        session: Session | None = None
        follower = Follower(path)
        try:
            text = files.read_text(path)
            session = Session(follower.load(text))
        except files.FileInvalid as exc:
            # A missing file is one about to appear (the viewer waits); any other problem is said.
            if path.exists() or path.is_symlink():
                invalid = _reason(exc, player)
        app = cls(session, path, theme=theme, player=player, follow=True)
        app._last_text = text if session is not None else ""
        app._follower = follower
        app._invalid = invalid
        app._held = held
        return app

    async def on_mount(self) -> None:
        # The main screen is the default one (`get_default_screen`): wait until it is mounted, as a screen
        # pushed here would have been, so what runs next (a pilot, a test, the notices) finds its widgets.
        # Textual's own `AwaitMount` would also ask for a second layout of the whole screen (20 M), and a
        # callback queued on the screen would run only after the messages queued before it (its resume).
        # `is_mounted` comes true once the screen's Mount has run (or failed: the app then ends); until
        # then each turn of the event loop runs the screen's mounting along.
        screen = self.screen
        while not screen.is_mounted:
            await asyncio.sleep(0)
        for problem in self._theme_problems:
            self.notify(problem, severity="warning", timeout=8, markup=False)
        if self.session is None and self.follow:
            from tracker.ui.screens.waiting import WaitingScreen

            self.push_screen(WaitingScreen(self.path, self._invalid))
        if self._held is not None:
            from tracker.ui.screens.modals import HeldScreen

            self.push_screen(HeldScreen(self._held))
        if self.follow:
            self.watch_file()
        self.call_after_refresh(self._after_first_frame)
        if self._opens_table:
            self.call_after_refresh(self._open_table)

    # --- the table: players and other accounts' viewers (`tracker.table`) ----------------------
    @work(group="table")
    async def _open_table(self) -> None:
        from tracker.table.seats import RulesSeating
        from tracker.table.server import TableServer
        from tracker.ui.screens.main import TrackerScreen

        table = TableServer(self.path, self, RulesSeating())
        problem = await table.open()
        if problem is not None:
            # Said where it stays (the title line and the log's first line), not only in a passing toast: a
            # GM whose players cannot connect must see why, and the fix, for as long as it lasts.
            self.notify(problem, severity="warning", timeout=10, markup=False)
            self.table_closed = problem
            for screen in self.screen_stack:
                if isinstance(screen, TrackerScreen):
                    screen.table_closed = problem
            return
        self._table = table

    def table_changed(self) -> None:
        """Someone came to the table or left it: the GM's screen says who is there."""
        from tracker.ui.screens.main import TrackerScreen

        here = tuple(self._table.connected()) if self._table is not None else ()
        waits = self._table.waiting_on() if self._table is not None else None
        for screen in self.screen_stack:
            if isinstance(screen, TrackerScreen):
                screen.at_table = here
                screen.waiting_on = waits

    def _publish(self) -> None:
        """Send the players their projections, once the GM's own frame is out."""
        if self._table is not None:
            self.table_changed()
            if self._table.seats:
                self.call_after_refresh(self._table.publish)

    async def run_async(self, **options: Any) -> None:
        """Run the app with the garbage collector paused until the first frame is out (`_after_first_frame`).

        Nothing the first frame builds is garbage for long, but its allocations set off collections that
        walk everything built so far (the modules, pydantic's validators for a file read for the first time,
        the widgets): on a pty, 1.03× a bare Textual app's first frame with the pause and 1.13–1.25× without,
        1.29× and 1.52× on a file new to the tracker. Python's own `gc` API, not Textual's: the collector is
        on once the GM sees the fight, and in any case when the app ends, also when the caller had paused it
        (`tracker run` does from the start: `tracker.cli.common.collector_paused`).
        """
        self._gc_paused = True
        gc.disable()
        try:
            return await super().run_async(**options)
        finally:
            self._resume_gc()

    def _resume_gc(self) -> None:
        if self._gc_paused:
            self._gc_paused = False
            gc.enable()

    def get_default_screen(self) -> Screen[None]:
        """The first screen is the one the app shows, not an empty one under it: Textual then mounts,
        styles and lays out one screen for the first frame instead of two (about 40 M instructions)."""
        if self.session is None:
            return super().get_default_screen()  # a viewer waiting for its file: the waiting screen goes on top
        return self._main_screen()

    def _main_screen(self) -> Screen[None]:
        if self.player:
            # Imported here: the GM's screen (the usual start) never loads the player's.
            from tracker.ui.screens.player import PlayerScreen

            return PlayerScreen()
        return TrackerScreen(read_only=self.read_only, size=self.size)

    # --- following the file (viewers) ---------------------------------------------------
    @work(exclusive=True, group="watch")
    async def watch_file(self) -> None:
        """Follow the file: its folder is watched, so atomic replaces are seen (`tracker.store.watch`)."""
        from tracker.store.watch import changes

        self.reload_file()
        if not self.is_headless:  # a headless app lives in another program (a test), whose heap is not its own
            self.call_after_refresh(self._settle)  # once the first frame is out
        async for _ in changes(self.path):
            self.reload_file()

    def reload_file(self) -> None:
        """Show the file's new state; a missing or invalid file keeps the last good state, with a notice.

        A viewer that never had a good state says so: it waits, naming the file's first problem, and
        never claims to show a state it does not have.
        """
        try:
            text = files.read_text(self.path)
        except files.FileInvalid as exc:  # missing, unreadable, too large or not UTF-8
            if self.path.exists() or self.path.is_symlink():
                self._invalid_now(exc)
            elif self.session is not None:
                self.notify(f"{self.path} is gone; showing the last state seen", severity="warning", markup=False)
            else:
                self._still_waiting(None)
            return
        if text == self._last_text:
            return
        try:
            session = self._load(text)
        except files.FileInvalid as exc:
            self._last_text = text
            self._invalid_now(exc)
            return
        self._last_text = text
        first = self.session is None
        self.session = session
        if first:
            self.switch_screen(self._main_screen())
        else:
            self.bump()

    def _settle(self) -> None:
        """After a viewer's first frame: build the validators its changes will need (they come later with
        every file change: the live tables are validated each time), then `settle` the heap with them in it."""
        if self.session is not None:
            from tracker.engine.records import record
            from tracker.engine.records.model import History

            record.prepare(History, type(self.session.state))
        settle()

    def _load(self, text: str) -> Session:
        """The file's new text as a session: while a fight plays only its live part is read and checked
        (`tracker.store.follow`); FileInvalid as a full load words it."""
        if self._follower is None:
            from tracker.store.follow import Follower

            self._follower = Follower(self.path)
        return Session(self._follower.load(text))

    def _invalid_now(self, exc: files.FileInvalid) -> None:
        """The file turned invalid: wait on, or keep the last good state, saying so (`_reason`)."""
        if self.session is None:
            self._still_waiting(_reason(exc, self.player))
        else:
            said = _reason(exc, self.player) or f"{self.path} is invalid"
            self.notify(f"{said} — showing the last good state", severity="warning", markup=False)

    def _still_waiting(self, invalid: str | None) -> None:
        """Tell the waiting screen why it still waits (None: the file is missing)."""
        self._invalid = invalid
        from tracker.ui.screens.waiting import WaitingScreen

        if isinstance(self.screen, WaitingScreen):
            self.screen.say(invalid)

    # --- what the screens show -------------------------------------------------------------
    def bump(self) -> None:
        """A new revision: each screen asks the family for its new view once."""
        self.revision += 1
        for screen in self.screen_stack:
            if isinstance(screen, ShowsRevisions):
                screen.rebuild(self.revision)
            elif isinstance(screen, FollowsRevisions):
                screen.revision = self.revision

    def player_view(self) -> PlayerView:
        """What the players may see of the session (the player screen's one source)."""
        return self.session.presenter.player_view()

    # --- the one way state changes ----------------------------------------------------------
    def _durable_text(self) -> str:
        """The file's text as last saved, which `submit` goes back to when a save fails; worked out once,
        after the first frame (the save module and its TOML writer are 20 M instructions of start-up)."""
        if self._durable is None:
            from tracker.store.save import encounter_text

            self._durable = encounter_text(self.session)
        return self._durable

    def _after_first_frame(self) -> None:
        self._resume_gc()
        if not self.is_headless:
            self.set_interval(TERMINAL_CHECK, self._check_terminal)
        if not self.read_only and self.session is not None:
            self._durable_text()  # now, not in the GM's first keypress
            if not self.is_headless:  # a headless app lives in another program (a test): its heap is not ours
                # The GM screen too: at 500 combatants a full pass over the fight's records and the screen's
                # widgets took ~60 ms, landing on a keypress every few dozen.
                settle()

    def _check_terminal(self) -> None:
        """Quit when the terminal is gone (`hung_up`): a player's `tracker play` left behind by a closed
        session must not hold on, spinning (Textual's input thread reads an empty hung-up terminal in a tight
        loop) or, for a GM's `tracker run`, keep the file's lock."""
        if hung_up():
            self.exit()

    def submit(self, line: str) -> str | None:
        """Run one command; None when accepted and saved, else the one-line reason.

        The durable write (`files.write_text`: temp file, fsync, rename, fsync of the folder) runs on a
        thread while this one builds the new view and hands it to the panels: waiting on the disk and
        working out the screen overlap. Nothing reaches the terminal meanwhile: Textual paints
        a frame only once this handler has returned, and it returns only after the write has finished;
        if the write failed, the panels are given the last durable state again before that frame, so the
        screen never shows a command that is not on disk (docs/guide/shared-box.md).
        """
        if self.read_only:
            return "this is a read-only view"
        if self._ending:  # the GM quit: a player's command on its way is not run (nor saved on a closed saver)
            return "the GM is closing the fight"
        from tracker.store.save import encounter_text, session_from_text

        durable = self._durable_text()
        try:
            self.session.execute(line)
        except Refusal as exc:
            return str(exc)
        text = encounter_text(self.session)
        saving = self._saver().submit(files.write_text, self.path, text)
        try:
            self.bump()
        finally:
            failed = saving.exception()  # waits for the write
            if failed is None:
                self._durable = text
        if failed is not None:
            self.session = session_from_text(durable, str(self.path))
            self.bump()
            if not isinstance(failed, OSError):
                raise failed
            return f"not saved, so not done: {failed.strerror or failed}"
        self._publish()
        return None

    def _saver(self) -> ThreadPoolExecutor:
        """The one thread durable writes run on (started with the first; a write is handed over in
        microseconds, where starting a thread for each took a fraction of a millisecond, or several
        on a busy machine)."""
        if self._save_thread is None:
            from concurrent.futures import ThreadPoolExecutor  # here: the first save, not the first frame

            self._save_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tracker-save")
        return self._save_thread

    def on_unmount(self) -> None:
        self._ending = True
        if self._table is not None:
            self._table.close_now()
        if self._save_thread is not None:
            self._save_thread.shutdown(wait=True)

    def cycle_theme(self) -> None:
        names = self._theme_names or [self.theme]
        current = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(current + 1) % len(names)]
        save_config({**load_config(), "theme": self.theme})
        self.notify(f"Theme: {self.theme}", timeout=2, markup=False)


#: Seconds between two looks at whether the terminal is still there (`TrackerApp._check_terminal`).
TERMINAL_CHECK = 1.0


def hung_up(fd: int | None = None) -> bool:
    """Whether the terminal (or the pipe of a served tab) on standard input has hung up. A process started
    under another account (``runuser``, ``sudo -u``) is in a session of its own, so when its terminal closes
    it is sent no SIGHUP: this is how it finds out."""
    import select
    import sys

    if fd is None:
        stdin = sys.__stdin__
        if stdin is None:
            return False
        try:
            fd = stdin.fileno()
        except (OSError, ValueError):
            return False
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return any(events & (select.POLLHUP | select.POLLNVAL) for _, events in poller.poll(0))


def settle() -> None:
    """Keep the garbage collector's full passes short for the rest of a long-running screen (a viewer, or
    the GM's screen, where a pass landed on a keypress).

    Everything built so far (modules, pydantic validators, the screen's widgets) lives as long as the
    process; left to the collector, each full pass walks all of it again: about 100 ms, every few
    repaints of a viewer, on a shared table's several viewers at once. Collected once here and then
    frozen (`gc.freeze`), it is skipped by every later pass, which walks only what came after."""
    gc.collect()
    gc.freeze()


def _reason(exc: files.FileInvalid, player: bool) -> str:
    """What a viewer may say of an invalid file: its first problem in the GM's views; nothing in a player's
    (empty), since a problem may quote what players must not see ("two combatants are named 'Cult
    Priest'" for a gm_only combatant). The player view says only that the file is invalid."""
    return "" if player else exc.lines()[0]
