"""A viewer follows its file (`tracker view`): the folder is watched, each new text loaded, and a missing or
invalid file keeps the last good state with a notice, or, for a viewer that never had one, a wait that
names the file's first problem (docs/guide/shared-box.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import App
from textual.screen import Screen

from tracker.families.session import Session
from tracker.store import files
from tracker.ui.collector import settle

if TYPE_CHECKING:
    from tracker.store.follow import Follower


class FollowsFile(App[None]):
    """The file-following half of the app: `watch_file` runs for a viewer from its mount on."""

    #: None only for a viewer waiting for its file to appear.
    session: Session
    path: Path
    player: bool
    #: The text a viewer's session was last loaded from (`reload_file` skips a file that did not change).
    _last_text: str
    #: Why a viewer without a session waits: the file's first problem, or None when it is missing.
    _invalid: str | None
    #: A viewer's loader: validates the setup once while its bytes stay the same (`_load`).
    _follower: Follower | None

    def bump(self) -> None:
        """A new revision for the screens (the app's)."""
        raise NotImplementedError

    def _main_screen(self) -> Screen[None]:
        """The screen that shows the session (the app's)."""
        raise NotImplementedError

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
        """The file turned invalid: wait on, or keep the last good state, saying so (`reason`)."""
        if self.session is None:
            self._still_waiting(reason(exc, self.player))
        else:
            said = reason(exc, self.player) or f"{self.path} is invalid"
            self.notify(f"{said} — showing the last good state", severity="warning", markup=False)

    def _still_waiting(self, invalid: str | None) -> None:
        """Tell the waiting screen why it still waits (None: the file is missing)."""
        self._invalid = invalid
        from tracker.ui.screens.waiting import WaitingScreen

        if isinstance(self.screen, WaitingScreen):
            self.screen.say(invalid)


def reason(exc: files.FileInvalid, player: bool) -> str:
    """What a viewer may say of an invalid file: its first problem in the GM's views; nothing in a player's
    (empty), since a problem may quote what players must not see ("two combatants are named 'Cult
    Priest'" for a gm_only combatant). The player view says only that the file is invalid."""
    return "" if player else exc.lines()[0]
