"""Themes are data: a TOML file → a validated record (pydantic, through `tracker.engine.records.record`) → a Textual
`Theme` (docs/architecture/index.md). A theme file read before is not validated again (the memo), so the
first frame never waits for pydantic.

A broken theme file becomes a notification, never a crash; the built-in themes ship in the package
``tracker.themes``, and a user may add more in the config folder's ``themes/``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from textual.color import Color, ColorParseError
from textual.theme import Theme

from tracker.engine.errors import Invalid
from tracker.engine.records import record
from tracker.engine.records.record import Record
from tracker.ui.config import config_dir

if TYPE_CHECKING:  # pydantic's marker, read by pydantic only (`tracker.engine.records.validation`)
    from pydantic import Field

DEFAULT_THEME = "breach-dark"


@dataclass(kw_only=True)
class ThemeFile(Record):
    """One theme file's fields (unknown keys are errors); colours are checked by Textual's own parser."""

    name: Annotated[str, Field(min_length=1)]
    dark: bool = True
    primary: str
    secondary: str | None = None
    accent: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None

    def to_theme(self) -> Theme:
        colours = record.dump(self, exclude={"name", "dark"}, exclude_none=True)
        for key, value in colours.items():
            try:
                Color.parse(value)
            except ColorParseError:
                raise ValueError(f"{key}: '{value}' is not a colour") from None
        return Theme(name=self.name, dark=self.dark, **colours)


def _read(text: str, label: str) -> Theme:
    """The theme a file's `text` holds; one read before is recalled by its text (`record.text_key`), so
    neither `tomllib` nor pydantic is loaded for it."""
    key = record.text_key("theme", text)
    found = record.recall(key)
    if isinstance(found, dict):
        try:
            return record.rebuild(ThemeFile, found).to_theme()
        except (TypeError, ValueError):
            pass  # an entry of another shape: read the file
    import tomllib

    try:
        theme_file = record.validate(ThemeFile, tomllib.loads(text))
        theme = theme_file.to_theme()
    except Invalid as exc:
        first = exc.errors()[0]
        raise ValueError(f"{label}: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
    except ValueError as exc:  # a bad colour, or TOML that does not parse
        raise ValueError(f"{label}: {exc}") from None
    record.keep(key, record.dump(theme_file, mode="json"))
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
