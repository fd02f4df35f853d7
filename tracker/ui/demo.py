"""`tracker demo`: the GM screen plays an encounter's `[[demo]]` steps by itself, with captions.

It runs on a temporary copy (never the original file), at the pace of `--delay`, loops back to the
start after the last step, and pauses or resumes with the space bar.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual import work
from textual.binding import Binding

from tracker.engine.records.record import copied
from tracker.families.file import EncounterFile
from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text, keep_setup
from tracker.ui.app import TrackerApp
from tracker.ui.screens.main import TrackerScreen


class DemoApp(TrackerApp):
    """A TrackerApp whose commands come from the script, not from the keyboard."""

    #: "Pause" (the same key resumes): short enough that the footer fits in 100 columns beside the GM keys.
    BINDINGS = [Binding("space", "toggle_pause", "Pause", id="demo.pause")]

    def __init__(
        self,
        copy: Path,
        setup: EncounterFile,
        *,
        delay: float,
        seed: int | None,
        theme: str | None,
        loop: bool,
        text: str | None = None,
    ) -> None:
        """`text` is the file `setup` was read from: the copy keeps its setup text (and comments) as written."""
        self._setup = copied(setup, state=None, history=None)
        self._seed = seed
        self._text = text
        self._label = str(copy)
        session = self._fresh_session()
        files.write_text(copy, encounter_text(session))
        super().__init__(session, copy, theme=theme)
        self.delay = delay
        self.loop = loop
        self.paused = False
        self.steps_played = 0

    def _fresh_session(self) -> Session:
        """The script's starting point: the setup with no live state, saved with the file's setup text."""
        session = Session(self._setup, seed=self._seed)
        if self._text is not None:
            keep_setup(session, self._text, self._label)
        return session

    async def on_mount(self) -> None:
        await super().on_mount()
        self.play()

    def action_toggle_pause(self) -> None:
        self.paused = not self.paused
        self.notify("Paused: space resumes" if self.paused else "Playing", timeout=2, markup=False)

    def _caption(self, text: str | None) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, TrackerScreen):
                screen.show_caption(text)

    async def _wait(self, seconds: float) -> None:
        waited = 0.0
        while waited < seconds or self.paused:
            await asyncio.sleep(0.05)
            if not self.paused:
                waited += 0.05

    @work(exclusive=True, group="demo")
    async def play(self) -> None:
        while True:
            for step in self._setup.demo:
                await self._wait(self.delay if self.steps_played else 0.5)
                self._caption(step.say or f"> {step.do}")
                error = self.submit(step.do)
                self.steps_played += 1
                if error:
                    self.notify(f"demo step '{step.do}' refused: {error}", severity="error", markup=False)
            if not self.loop:
                await self._wait(self.delay)
                self.exit()
                return
            await self._wait(self.delay * 2)
            self.session = self._fresh_session()
            files.write_text(self.path, encounter_text(self.session))
            self._caption("The demo starts again…")
            self.bump()
