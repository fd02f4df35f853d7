"""The Textual application: one session, one file, and the one path by which state changes.

`submit` is that path: parse and apply the command (a refusal changes nothing), write the file
durably, and only then bump the screen's `revision` so the panels show it (CONTRACT.md §5: on disk
before on screen). If the write fails, the session goes back to the last durable state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

from tracker.rules.errors import Refusal
from tracker.rules.session import Session
from tracker.rules.snapshot import state_json
from tracker.store import files
from tracker.ui.config import load_config, save_config
from tracker.ui.screens.main import TrackerScreen
from tracker.ui.themes import DEFAULT_THEME, load_themes


class TrackerApp(App[None]):
    """The GM view (or, with `read_only`, a viewer) of one encounter file."""

    CSS_PATH = "app.tcss"
    TITLE = "tracker"
    ENABLE_COMMAND_PALETTE = True

    def __init__(self, session: Session, path: Path, *, theme: str | None = None, read_only: bool = False) -> None:
        super().__init__()
        self.session = session
        self.path = path
        self.read_only = read_only
        self._theme_choice = theme
        self._durable = session.to_toml()
        self._snapshot: tuple[int, dict[str, Any]] | None = None
        self._revision = 0

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
        self.push_screen(TrackerScreen(read_only=self.read_only))

    # --- the state panels read -----------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The JSON state of the current revision, computed once however many panels ask."""
        if self._snapshot is None or self._snapshot[0] != self._revision:
            self._snapshot = (self._revision, state_json(self.session))
        return self._snapshot[1]

    def bump(self) -> None:
        self._revision += 1
        screen = self.screen
        if isinstance(screen, TrackerScreen):
            screen.revision = self._revision
        else:
            for s in self.screen_stack:
                if isinstance(s, TrackerScreen):
                    s.revision = self._revision

    # --- the one way state changes ----------------------------------------------------------
    def submit(self, line: str) -> str | None:
        """Run one command; None when accepted and saved, else the one-line reason."""
        if self.read_only:
            return "this is a read-only view"
        try:
            self.session.execute(line)
        except Refusal as exc:
            return str(exc)
        text = self.session.to_toml()
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
