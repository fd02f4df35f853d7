"""A theme file's full check, with pydantic's wording: loaded only for a file the plain reading of
`tracker.ui.themes` cannot accept as it is, so a start with valid themes never imports pydantic."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from textual.color import Color, ColorParseError
from textual.theme import Theme


class ThemeFile(BaseModel):
    """One theme file's fields; colours are checked by Textual's own parser."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
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
        colours = self.model_dump(exclude={"name", "dark"}, exclude_none=True)
        for key, value in colours.items():
            try:
                Color.parse(value)
            except ColorParseError:
                raise ValueError(f"{key}: '{value}' is not a colour") from None
        return Theme(name=self.name, dark=self.dark, **colours)


def checked_theme(data: dict[str, Any], label: str) -> Theme:
    """The theme `data` describes, as the model reads it; ValueError naming the first problem."""
    try:
        return ThemeFile.model_validate(data).to_theme()
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ValueError(f"{label}: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
    except ValueError as exc:  # a bad colour
        raise ValueError(f"{label}: {exc}") from None
