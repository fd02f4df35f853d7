"""Python's garbage collector tuned for a long-running screen: paused until the first frame is out, then
everything built so far settled out of its way (`gc.freeze`). Python's own `gc` API, not Textual's."""

from __future__ import annotations

import gc
from typing import Any

from textual.app import App


class CollectorPaused(App[None]):
    """An app that runs with the collector paused until its first frame is out (`resume_collector`)."""

    #: The collector is paused by `run_async` until the first frame is out.
    _gc_paused = False

    async def run_async(self, **options: Any) -> None:
        """Run the app with the garbage collector paused until the first frame is out.

        Nothing the first frame builds is garbage for long, but its allocations set off collections that
        walk everything built so far (the modules, pydantic's validators for a file read for the first time,
        the widgets): on a pty, 1.03× a bare Textual app's first frame with the pause and 1.13–1.25× without,
        1.29× and 1.52× on a file new to the tracker. The collector is on once the GM sees the fight, and in
        any case when the app ends, also when the caller had paused it (`tracker run` does from the start:
        `tracker.cli.common.collector_paused`).
        """
        self._gc_paused = True
        gc.disable()
        try:
            return await super().run_async(**options)
        finally:
            self.resume_collector()

    def resume_collector(self) -> None:
        if self._gc_paused:
            self._gc_paused = False
            gc.enable()


def settle() -> None:
    """Keep the garbage collector's full passes short for the rest of a long-running screen (a viewer, or
    the GM's screen, where a pass landed on a keypress).

    Everything built so far (modules, pydantic validators, the screen's widgets) lives as long as the
    process; left to the collector, each full pass walks all of it again: about 100 ms, every few
    repaints of a viewer, on a shared table's several viewers at once. Collected once here and then
    frozen (`gc.freeze`), it is skipped by every later pass, which walks only what came after."""
    gc.collect()
    gc.freeze()
