"""What the command line's modules share: the parser that fails in one line, the files shipped in the package,
and the collector paused while a screen loads."""

from __future__ import annotations

import argparse
import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

#: Files shipped inside the package: the built-in demo and the starter encounter.
DATA = Path(__file__).resolve().parent.parent / "data"


class Parser(argparse.ArgumentParser):
    """A parser whose error is one line on stderr, saying where to find help (exit status 2)."""

    #: Where the one-line error sends the user for help.
    see = "tracker --help"

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"tracker: {message} (see '{self.see}')\n")


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection while a screen loads its modules and its file: nothing made then is garbage
    for long, and each collection would walk it all again (pydantic's validators too, for a file read for
    the first time). The app turns the collector back on once its first frame is out
    (`TrackerApp.run_async`); it is on again here in any case."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def builtin_demo_text() -> str:
    """The built-in demo encounter (`tracker` alone, `tracker demo` without a file)."""
    return (DATA / "demo.toml").read_text(encoding="utf-8")
