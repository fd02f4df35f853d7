"""`tracker new FILE`: a commented starter encounter, or one a campaign's party and stat blocks fill."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path


def cmd_new(
    path: str, system: str, party: str | None = None, bestiary: Sequence[str] = (), add: Sequence[str] = ()
) -> int:
    """A starter encounter; with a party, bestiaries or stat blocks, one ready to play that names them
    (README "Campaigns"). Nothing is written when the result would not be valid."""
    target = Path(path)
    if target.exists():
        print(f"tracker: {path} already exists; not overwriting it", file=sys.stderr)
        return 1
    from tracker.store.files import write_text

    if party is None and not bestiary and not add:
        from tracker.families.registry import family_named

        text = family_named(system).starter()
    else:
        from tracker.store.campaign.new import campaign_encounter

        text = campaign_encounter(target, system, party, list(bestiary), list(add))
    write_text(target, text)
    print(f"wrote {path}: edit it, then 'tracker check {path}'")
    return 0
