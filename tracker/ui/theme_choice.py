"""Which theme the app opens with, set the way Textual's own theme watcher would, but before the stylesheet
is first parsed; and ``t``, the next theme, remembered in the settings file (docs/guide/keys.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App

from tracker.ui.config import load_config, save_setting
from tracker.ui.themes import DEFAULT_THEME, load_themes

if TYPE_CHECKING:
    from textual.theme import Theme


class ThemeChosen(App[None]):
    """An app whose theme is chosen in its `__init__` (`choose_theme`) and cycled by ``t``."""

    #: The tracker's themes, in the order ``t`` goes through them.
    _theme_names: list[str]

    def choose_theme(self, wanted: str | None) -> list[str]:
        """Register the themes and pick one before the stylesheet is first parsed; the problems to show.

        Choosing it here rather than in `on_mount` matters for start-up: a theme set once the app runs
        makes Textual parse every stylesheet a second time (a sixth of the first frame's work), and so
        does setting `theme` here the usual way (its watcher queues the same re-parse for the first frame).
        So this does by hand what that watcher does, when it can: the copy must follow Textual's
        `App._watch_theme` (the theme's classes, the stylesheet's variables), and tests/ui/test_first_frame.py
        checks the result is the one Textual's watcher gives.
        """
        themes, problems = load_themes()
        for theme in themes:
            self.register_theme(theme)
        self._theme_names = [t.name for t in themes]
        wanted = wanted or load_config().get("theme") or DEFAULT_THEME
        if wanted not in self.available_themes:
            problems.append(f"unknown theme '{wanted}'; using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        if self._ansi_filter(self.get_theme(wanted)) == self._ansi_filter(self.current_theme):
            # The ANSI colour filter App.__init__ made for Textual's default theme is this theme's too (a dark
            # theme, not ANSI: every theme here but the light one). Set without Textual's watcher, which
            # queues a second parse and styling of everything for the first frame (about 30 M instructions);
            # before the app runs, what else it does is done here: the theme's classes (nobody listens for
            # the theme's signal yet).
            self.set_reactive(App.theme, wanted)
            dark = self.current_theme.dark
            self.update_classes({f"-theme-{wanted}": True, "-dark-mode": dark, "-light-mode": not dark}, update=False)
        else:
            self.theme = wanted  # another filter, which only Textual's watcher makes: it runs, second parse and all
        # The stylesheet was made in App.__init__ with the default theme's variables: give it these
        # before anything is parsed with them.
        self.stylesheet.set_variables(self.get_css_variables())
        return problems

    def _ansi_filter(self, theme: Theme | None) -> tuple[bool, bool]:
        """What Textual's ANSI colour filter depends on for a theme: light or dark, and ANSI colours or not."""
        assert theme is not None  # a registered theme
        return theme.dark, theme.ansi if self.ansi_color is None else self.ansi_color

    def cycle_theme(self) -> None:
        """Switch to the next theme (and remember it)."""
        names = self._theme_names or [self.theme]
        current = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(current + 1) % len(names)]
        save_setting("theme", self.theme)
        self.notify(f"Theme: {self.theme}", timeout=2, markup=False)
