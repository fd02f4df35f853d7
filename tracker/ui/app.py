"""The Textual application: one session, one file, and the one path by which state changes.

`submit` is that path: parse and apply the command (a refusal changes nothing), write the file
durably, and only then bump the screen's `revision` so the panels show it (docs/guide/shared-box.md: on disk
before on screen). If the write fails, the session goes back to the last durable state.

The app's other concerns each have a module of their own, mixed in here: the theme chosen before the
stylesheet is parsed (`tracker.ui.theme_choice`), the collector paused until the first frame
(`tracker.ui.collector`), a viewer following its file (`tracker.ui.viewing`), the table players reach
(`tracker.ui.table_host`), the terminal's hang-up (`tracker.ui.hangup`) and the keys remapped from the
settings file (`tracker.ui.keymap`).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.screen import Screen

from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.store import files
from tracker.ui.collector import CollectorPaused, settle
from tracker.ui.hangup import quit_on_hang_up
from tracker.ui.screens.main import TrackerScreen
from tracker.ui.table_host import HostsTable
from tracker.ui.theme_choice import ThemeChosen
from tracker.ui.viewing import FollowsFile, reason

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from tracker.present.view import PlayerView
    from tracker.store.follow import Follower


@runtime_checkable
class ShowsRevisions(Protocol):
    """A screen that shows the session (the GM's, the player's): told of each new revision."""

    def rebuild(self, revision: int) -> None: ...


@runtime_checkable
class FollowsRevisions(Protocol):
    """A screen that follows the file by its `revision` (the players' screens, the full-screen story);
    a protocol, so this module need not import the player screens before they are shown."""

    revision: int


class TrackerApp(FollowsFile, HostsTable, ThemeChosen, CollectorPaused):
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
        #: The app is ending (unmounted): nothing more is run or saved.
        self._ending = False
        #: None only for a viewer waiting for its file to appear.
        self.session: Session = session  # type: ignore[assignment]
        self.path = path
        self.read_only = read_only or player or follow
        self.player = player
        self.follow = follow
        #: The file's text as last saved, to go back to when a save fails (`submit`); worked out just after
        #: the first frame or before the first command, whichever comes first (`_durable_text`).
        self._durable: str | None = None
        #: Counts accepted commands (and file changes a viewer saw); the screens' views carry it.
        self.revision = 0
        self._last_text = ""
        self._invalid: str | None = None
        #: Why this viewer is not the GM view it was asked for (the file is run elsewhere); asked first.
        self._held: str | None = None
        self._follower: Follower | None = None
        self._problems = self.choose_theme(theme)
        #: The settings file's `[keymap]`: binding id → keys (help shows them); its bad entries are problems.
        self.remapped: dict[str, str] = {}
        self._remap()
        #: Runs the durable writes (`submit`), made with the first one.
        self._save_thread: ThreadPoolExecutor | None = None

    def _remap(self) -> None:
        """Give the actions the keys the settings file's `[keymap]` names (`tracker.ui.keymap`)."""
        from tracker.ui.config import load_settings

        if "keymap" not in load_settings():  # the usual start: no screen module is imported to check ids
            return
        from tracker.ui.keymap import remapped_keys

        self.remapped, problems = remapped_keys()
        self._problems += problems
        if self.remapped:
            self.set_keymap(self.remapped)

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
                invalid = reason(exc, player)
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
        for problem in self._problems:
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
            self.call_after_refresh(self.open_table)

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
        self.resume_collector()
        if not self.is_headless:
            quit_on_hang_up(self)
        if not self.read_only and self.session is not None:
            self._durable_text()  # now, not in the GM's first keypress
            if not self.is_headless:  # a headless app lives in another program (a test): its heap is not ours
                # The GM screen too: at 500 combatants a full pass over the fight's records and the screen's
                # widgets took ~60 ms, landing on a keypress every few dozen.
                settle()

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
        self.publish()
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
        self.close_table()
        if self._save_thread is not None:
            self._save_thread.shutdown(wait=True)
