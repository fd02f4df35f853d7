"""`tracker report FILE`: the story of the fight as Markdown or HTML, told headless."""

from __future__ import annotations

import sys
from pathlib import Path


def cmd_report(path: str, as_html: bool, player: bool, output: str | None) -> int:
    """The story of the fight in FILE: its history replayed from its setup (headless: no textual)."""
    from tracker.report.html import html
    from tracker.report.markdown import markdown
    from tracker.report.telling import Teller
    from tracker.store import files

    story = Teller.of_file(files.load(path)).story(player=player)
    text = html(story) if as_html else markdown(story)
    if output is None:
        sys.stdout.write(text)
        return 0
    files.write_text(Path(output), text)
    print(f"wrote {output}")
    return 0
