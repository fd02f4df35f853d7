"""What the command line's modules share: the parser that fails in one line, the files shipped in the package,
and the collector paused while a screen loads."""

from __future__ import annotations

import argparse
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


def builtin_demo_text() -> str:
    """The built-in demo encounter (`tracker` alone, `tracker demo` without a file)."""
    return (DATA / "demo.toml").read_text(encoding="utf-8")
