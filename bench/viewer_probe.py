"""A headless viewer that prints when each new state reached its screen (used by bench_viewer)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tracker.ui.app import TrackerApp


class ProbeViewer(TrackerApp):
    CSS_PATH = str(Path(__file__).resolve().parent.parent / "tracker" / "ui" / "app.tcss")

    def bump(self) -> None:
        super().bump()
        commands = len(self.session.history.commands)
        self.screen.call_after_refresh(lambda: print(f"{commands} {time.time():.6f}", flush=True))


def main() -> None:
    app = ProbeViewer(None, Path(sys.argv[1]), follow=True)
    ready = ProbeViewer.viewer(Path(sys.argv[1]))
    app.session = ready.session
    app._last_text = ready._last_text
    app.call_later(lambda: print("ready", flush=True))
    app.run(headless=True, size=(120, 40))


if __name__ == "__main__":
    main()
