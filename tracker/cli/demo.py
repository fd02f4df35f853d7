"""`tracker demo --text`: the [[demo]] script played headless, its captions and what the engine did printed."""

from __future__ import annotations

import sys
import time

from tracker.cli.common import builtin_demo_text
from tracker.engine.errors import Refusal
from tracker.engine.records.record import copied


def cmd_demo(path: str | None, delay: float, seed: int | None) -> int:
    """Play the [[demo]] steps headlessly, printing captions and what the engine did."""
    from tracker.families.session import Session
    from tracker.store import files

    setup = files.parse_text(builtin_demo_text(), "<built-in demo>") if path is None else files.load(path)
    if not setup.demo:
        print(f"tracker: {path} has no [[demo]] steps", file=sys.stderr)
        return 1
    seed = seed if seed is not None else setup.encounter.demo_seed
    session = Session(copied(setup, state=None, history=None), seed=seed)
    print(f"== {setup.encounter.name} ==")
    for n, demo_step in enumerate(setup.demo, 1):
        if demo_step.say:
            print(f"\n» {demo_step.say}")
        print(f"  > {demo_step.do}")
        before = session.state.logged
        try:
            session.execute(demo_step.do)
        except Refusal as exc:
            print(f"tracker: demo step {n} ('{demo_step.do}') refused: {exc}", file=sys.stderr)
            return 2
        # Count by `logged`: the kept log is capped, so its length stops growing in a long demo.
        new = session.state.logged - before
        for entry in session.state.log[-new:] if new else []:
            print("    " + entry.text)
        if delay:
            time.sleep(delay)
    return 0
