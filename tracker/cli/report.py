"""`tracker report FILE`: the story of the fight as Markdown or HTML, told headless."""

from __future__ import annotations

import sys
from pathlib import Path


def cmd_report(path: str, as_html: bool, player: bool, output: str | None, odds: bool = False) -> int:
    """The story of the fight in FILE: its history replayed from its setup (headless: no textual); with `odds`,
    the party's chance to win round by round (`tracker.playouts.timeline`), from what the table has seen."""
    from tracker.engine.errors import Refusal
    from tracker.report.html import html
    from tracker.report.markdown import markdown
    from tracker.report.telling import Teller
    from tracker.store import files

    if odds and player:
        raise Refusal("--odds is the GM's: the runs read what the players' story does not show (drop --player)")
    setup = files.load(path)
    story = Teller.of_file(setup).story(player=player)
    if odds:
        import dataclasses

        from tracker.families.session import Session
        from tracker.playouts.timeline import by_round

        points = by_round(Session(setup))
        story = dataclasses.replace(story, odds=tuple((p.label, round(100 * p.chance)) for p in points))
    text = html(story) if as_html else markdown(story)
    if output is None:
        sys.stdout.write(text)
        return 0
    files.write_text(Path(output), text)
    print(f"wrote {output}")
    return 0
