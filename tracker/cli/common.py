"""What the command line's modules share: the parser that fails in one line, the files shipped in the package,
and the collector paused while a screen loads."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

#: Files shipped inside the package: the built-in demo and the starter encounter.
DATA = Path(__file__).resolve().parent.parent / "data"


class Parser(argparse.ArgumentParser):
    """A parser whose error is one line on stderr, saying where to find help (exit status 2)."""

    #: Where the one-line error sends the user for help.
    see = "tracker --help"

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"tracker: {message} (see '{self.see}')\n")

    def _get_formatter(self) -> argparse.HelpFormatter:
        """argparse's formatter, told the terminal's width: every ``add_argument`` makes one (to check the
        argument's metavar), and one left to find the width itself imports `shutil`, which brings the bz2 and
        lzma compressors with it: some 5 % of a `tracker exec`."""
        make: Any = self.formatter_class  # every argparse formatter takes `width`; typeshed's protocol omits it
        return make(prog=self.prog, width=terminal_columns() - 2)  # type: ignore[no-any-return]


def terminal_columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it (``$COLUMNS``, else standard output's
    terminal, else 80), without importing `shutil`."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


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
