"""How a file's text travels from `tracker exec FILE` to a session: the modules of the store and the records
it passes through, in order, as `sys.setprofile` sees the calls.

A visit is a call from another module into one of those modules; a return to a module already left is a call
that comes back into a module the text had gone on from (A → B → A). Run it on a file new to the tracker
(the memo off: parsed, expanded, validated) and on one read before (recalled from the memo).

Run: python -m bench.trace_open [FILE] [--remember]
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The modules the text passes through on its way to a session.
WATCHED = (
    "tracker.store.files",
    "tracker.store.reading",
    "tracker.store.tomlpos",
    "tracker.store.opening",
    "tracker.store.campaign.blocks",
    "tracker.engine.records.record",
    "tracker.families.encounter",
)


def trace(path: str) -> list[str]:
    """The watched modules in the order the calls entered them, each entry from another module."""
    from tracker.store.opening import load_session

    entered: list[str] = []
    stack: list[str] = []

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            module = frame.f_globals.get("__name__", "")
            caller = stack[-1] if stack else ""
            stack.append(module)
            # Calls from the tracker's own code only: not a class being made (dataclasses' generated
            # functions), nor pydantic asking a record for its schema.
            if module in WATCHED and module != caller and caller.startswith("tracker.") and _own(frame):
                entered.append(module)
        elif event == "return" and stack:
            stack.pop()

    sys.setprofile(profile)
    try:
        load_session(path)
    finally:
        sys.setprofile(None)
    return entered


def _own(frame: FrameType) -> bool:
    """A call on the text's way, not one made while a module is imported (a class being made, its decorator)."""
    caller = frame.f_back
    made = caller is not None and caller.f_code.co_name == "<module>"
    return not made and frame.f_code.co_name not in ("<module>", "__create_fn__")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.trace_open")
    parser.add_argument("file", nargs="?", default=str(ROOT / "examples" / "campaign" / "1_ambush.toml"))
    parser.add_argument("--remember", action="store_true", help="with the memo: the file read before")
    args = parser.parse_args(argv)
    from tracker.engine.records import record
    from tracker.store.validated import remember_validations

    if args.remember:
        remember_validations()
        from tracker.store.opening import load_session

        load_session(args.file)  # read once, so the traced load is a file read before
    else:
        os.environ["TRACKER_NO_CACHE"] = "1"
        record.use_memo(None)
    import tracker

    print(f"tracker from {Path(tracker.__file__).parent.parent}")
    entered = trace(args.file)
    visits = Counter(entered)
    left: set[str] = set()
    back = 0
    for before, now in itertools.pairwise(entered):
        left.add(before)
        back += now in left
    print(" → ".join(m.removeprefix("tracker.") for m in entered))
    for module, count in visits.most_common():
        print(f"  {count:3} visits  {module}")
    print(f"  {back} returns to a module already left")


if __name__ == "__main__":
    main()
