"""The Textual application: one session, one file, and the one path by which state changes.

`submit` is that path: parse and apply the command (a refusal changes nothing), write the file
durably, and only then bump the screen's `revision` so the panels show it (CONTRACT.md §5: on disk
before on screen). If the write fails, the session goes back to the last durable state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import work
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from tracker.rules.errors import Refusal
from tracker.rules.session import Session
from tracker.rules.snapshot import state_json
from tracker.store import files
from tracker.store.save import encounter_text
from tracker.ui.config import load_config, save_config
from tracker.ui.screens.main import TrackerScreen
from tracker.ui.screens.player import PlayerScreen
from tracker.ui.themes import DEFAULT_THEME, load_themes


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
    ) -> None:
        super().__init__()
        #: None only for a viewer waiting for its file to appear.
        self.session: Session = session  # type: ignore[assignment]
        self.path = path
        self.read_only = read_only or player or follow
        self.player = player
        self.follow = follow
        self._theme_choice = theme
        self._durable = encounter_text(session) if session is not None else ""
        self._snapshot: tuple[int, dict[str, Any]] | None = None
        self._revision = 0
        self._last_text = self._durable

    @classmethod
    def viewer(cls, path: Path, *, theme: str | None = None, player: bool = False) -> TrackerApp:
        """A read-only view that follows `path` live (`tracker view`)."""
        try:
            text = path.read_text(encoding="utf-8")
            session: Session | None = Session(files.parse_text(text, str(path)))
        except (OSError, files.FileInvalid):
            session = None
        return cls(session, path, theme=theme, player=player, follow=True)

    def on_mount(self) -> None:
        themes, problems = load_themes()
        for theme in themes:
            self.register_theme(theme)
        self._theme_names = [t.name for t in themes]
        wanted = self._theme_choice or load_config().get("theme") or DEFAULT_THEME
        if wanted not in self.available_themes:
            problems.append(f"unknown theme '{wanted}'; using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        self.theme = wanted
        for problem in problems:
            self.notify(problem, severity="warning", timeout=8)
        if self.session is None:
            self.push_screen(WaitingScreen(self.path))
        else:
            self.push_screen(self._main_screen())
        if self.follow:
            self.watch_file()

    def _main_screen(self) -> Screen[None]:
        if self.player:
            return PlayerScreen()
        return TrackerScreen(read_only=self.read_only)

    # --- following the file (viewers) ---------------------------------------------------
    @work(exclusive=True, group="watch")
    async def watch_file(self) -> None:
        """Follow the file with watchfiles: the folder is watched so atomic replaces are seen."""
        from watchfiles import awatch

        folder = self.path.resolve().parent
        name = self.path.name
        self.reload_file()
        async for changes in awatch(
            folder, debounce=20, step=20, recursive=False, watch_filter=lambda _change, p: Path(p).name == name
        ):
            if changes:
                self.reload_file()

    def reload_file(self) -> None:
        """Show the file's new state; a missing or invalid file keeps the last good state, with a notice."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            if self.session is not None:
                self.notify(f"{self.path} is gone; showing the last state seen", severity="warning")
            return
        except OSError as exc:
            self.notify(f"cannot read {self.path}: {exc}", severity="warning")
            return
        if text == self._last_text:
            return
        try:
            session = Session(files.parse_text(text, str(self.path)))
        except files.FileInvalid as exc:
            self.notify(f"{exc.lines()[0]} — showing the last good state", severity="warning")
            return
        self._last_text = text
        first = self.session is None
        self.session = session
        if first:
            self.switch_screen(self._main_screen())
        else:
            self.bump()

    # --- the state panels read -----------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The JSON state of the current revision, computed once however many panels ask."""
        if self._snapshot is None or self._snapshot[0] != self._revision:
            self._snapshot = (self._revision, state_json(self.session))
        return self._snapshot[1]

    def bump(self) -> None:
        """A new revision: every panel redraws from the session."""
        self._revision += 1
        for screen in self.screen_stack:
            if isinstance(screen, TrackerScreen | PlayerScreen):
                screen.revision = self._revision

    # --- the one way state changes ----------------------------------------------------------
    def submit(self, line: str) -> str | None:
        """Run one command; None when accepted and saved, else the one-line reason."""
        if self.read_only:
            return "this is a read-only view"
        try:
            self.session.execute(line)
        except Refusal as exc:
            return str(exc)
        text = encounter_text(self.session)
        try:
            files.write_text(self.path, text)
        except OSError as exc:
            self.session = Session(files.parse_text(self._durable, str(self.path)))
            self.bump()
            return f"not saved, so not done: {exc.strerror or exc}"
        self._durable = text
        self.bump()
        return None

    def cycle_theme(self) -> None:
        names = self._theme_names or [self.theme]
        current = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(current + 1) % len(names)]
        save_config({**load_config(), "theme": self.theme})
        self.notify(f"Theme: {self.theme}", timeout=2)


class WaitingScreen(Screen[None]):
    """A viewer started before its file exists: it waits, watching the folder."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self._path = path

    def compose(self) -> ComposeResult:
        yield Static(f"Waiting for {self._path} to appear… (q quits)", id="waiting")

    BINDINGS = [("q", "app.quit", "Quit")]
