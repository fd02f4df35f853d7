"""Themes are data: a TOML file → a checked theme → a Textual `Theme` (ARCHITECTURE.md practice 6).

A broken theme file becomes a notification, never a crash; the built-in themes ship in the package
``tracker.themes``, and a user may add more in the config folder's ``themes/``.
"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path
from typing import Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

from tracker.ui.config import config_dir

DEFAULT_THEME = "breach-dark"

#: A theme file's colour keys (Textual's colour system); `name` and `dark` are its other keys.
COLOURS = (
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
)
KEYS = frozenset({"name", "dark", *COLOURS})


def _plain_theme(data: dict[str, Any]) -> Theme | None:
    """The theme a plainly valid file describes (a name, `dark` true or false, `primary` and only known
    keys, every colour one Textual reads); None for anything else, which `theme_file` then words.

    Start-up reads the themes this way: pydantic's model of the file (`tracker.ui.theme_file`) costs more
    to build than every theme does to read. It accepts no file the model would refuse or read otherwise.
    """
    name, dark = data.get("name"), data.get("dark", True)
    if not (isinstance(name, str) and name and isinstance(dark, bool) and "primary" in data and data.keys() <= KEYS):
        return None
    colours = {key: value for key, value in data.items() if key in COLOURS}
    for value in colours.values():
        if not isinstance(value, str):
            return None
        try:
            Color.parse(value)
        except ColorParseError:
            return None
    return Theme(name=name, dark=dark, **colours)


def _read(text: str, label: str) -> Theme:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{label}: {exc}") from None
    theme = _plain_theme(data)
    if theme is None:
        from tracker.ui.theme_file import checked_theme

        theme = checked_theme(data, label)
    return theme


def load_themes() -> tuple[list[Theme], list[str]]:
    """Every theme that loads, and one message per file that does not."""
    themes: list[Theme] = []
    problems: list[str] = []
    sources: list[tuple[str, str]] = []
    # The package's folder, read directly (importlib.resources would load its readers at every start).
    shipped = Path(importlib.import_module("tracker.themes").__file__ or ".").parent
    for entry in sorted(shipped.glob("*.toml")):
        sources.append((entry.name, entry.read_text(encoding="utf-8")))
    user = config_dir() / "themes"
    if user.is_dir():
        for path in sorted(Path(user).glob("*.toml")):
            try:
                sources.append((str(path), path.read_text(encoding="utf-8")))
            except OSError as exc:
                problems.append(f"theme {path}: {exc}")
    for label, text in sources:
        try:
            themes.append(_read(text, label))
        except ValueError as exc:
            problems.append(f"theme {exc}")
    return themes, problems
