"""The wheel ships every package and every data file: setuptools finds the packages under tracker/ (so a new
family's folder needs no line in pyproject.toml), and the package-data globs cover every file that is not
Python (the starters, the themes, the styles, the web page)."""

from __future__ import annotations

import fnmatch
import importlib
import os
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def package_folders() -> set[str]:
    return {
        os.path.relpath(folder, ROOT).replace(os.sep, ".")
        for folder, _, names in os.walk(ROOT / "tracker")
        if "__init__.py" in names
    }


def test_the_discovery_finds_every_package_folder_and_nothing_else() -> None:
    assert set(SETUPTOOLS["packages"]) == {"find"} and "package-dir" not in SETUPTOOLS
    # setuptools' own discovery, as the build runs it (imported by name: it ships no type hints everywhere).
    find_packages = importlib.import_module("setuptools").find_packages
    found = set(find_packages(str(ROOT), **SETUPTOOLS["packages"]["find"]))
    assert found == package_folders()
    assert {"tracker.families.ttb", "tracker.families.twod20", "tracker.themes"} <= found


def test_every_data_file_is_shipped() -> None:
    globs: dict[str, list[str]] = SETUPTOOLS["package-data"]
    data = [
        path
        for path in (ROOT / "tracker").rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    ]
    assert any(p.suffix == ".tcss" for p in data) and any(p.parent.name == "themes" for p in data)
    unshipped = []
    for path in data:
        shipped = False
        for package, patterns in globs.items():
            folder = ROOT.joinpath(*package.split("."))
            if folder in path.parents:
                inside = path.relative_to(folder).as_posix()
                shipped = shipped or any(fnmatch.fnmatch(inside, pattern) for pattern in patterns)
        if not shipped:
            unshipped.append(str(path.relative_to(ROOT)))
    assert unshipped == []
