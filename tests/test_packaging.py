"""The wheel ships every package: pyproject lists them by hand (the themes folder maps in from outside)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        os.path.relpath(folder, ROOT).replace(os.sep, ".")
        for folder, _, names in os.walk(ROOT / "tracker")
        if "__init__.py" in names
    }
    assert found | {"tracker.themes"} == listed
