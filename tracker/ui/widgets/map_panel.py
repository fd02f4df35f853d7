"""The field tab with its map: the zones (2d20) or the melee engagements (TTB) drawn above the family's text.

The family builds the map (`FamilyPresenter.field_map`, a `MapView`) only while the tab shows; this panel
draws it for its own width and height with `tracker.present.map.draw` (imported at the first draw, so the
first frame never loads it) and colours the drawing's tones from the theme: each side its colour (its
marker tells it too), each range band a shade of the accent. The odds, when the family shows them on this
tab, and the family's text follow under the map; the panel scrolls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.reactive import var
from textual.widgets import Static

from tracker.ui.widgets.text_panel import TextPanel

if TYPE_CHECKING:
    from tracker.present.map.graph import InkLine, MapDrawing, MapView

#: The drawing's tones and bands, each a component class of the panel (themes reach them through CSS).
TONES = (
    "frame",
    "focus",
    "title",
    "badge",
    "edge",
    "down",
    "selected",
    "side0",
    "side1",
    "side2",
    "side3",
    "side4",
    "side5",
)
BANDS = ("close", "medium", "long", "extreme")
PLAIN = {"": Style(), "bold": Style(bold=True), "dim": Style(dim=True), "italic": Style(italic=True)}


class MapPanel(TextPanel):
    """A `TextPanel` with the family's map drawn above its text."""

    DEFAULT_CSS = """
    MapPanel { scrollbar-gutter: stable; scrollbar-size-vertical: 1; }
    MapPanel > .map-body { width: 1fr; margin-bottom: 1; }
    MapPanel > .map--frame { color: $foreground 70%; }
    MapPanel > .map--focus { color: $accent; text-style: bold; }
    MapPanel > .map--title { text-style: bold; }
    MapPanel > .map--badge { color: $warning; text-style: italic; }
    MapPanel > .map--edge { color: $foreground 60%; }
    MapPanel > .map--down { color: $text-muted; text-style: dim; }
    MapPanel > .map--selected { text-style: bold reverse; }
    MapPanel > .map--side0 { color: $success; text-style: bold; }
    MapPanel > .map--side1 { color: $error; text-style: bold; }
    MapPanel > .map--side2 { color: $warning; text-style: bold; }
    MapPanel > .map--side3 { color: $secondary; text-style: bold; }
    MapPanel > .map--side4 { color: $primary; text-style: bold; }
    MapPanel > .map--side5 { color: $foreground; text-style: bold; }
    MapPanel > .map--close { background: $accent 45%; }
    MapPanel > .map--medium { background: $accent 28%; }
    MapPanel > .map--long { background: $accent 14%; }
    MapPanel > .map--extreme { background: $accent 5%; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {f"map--{name}" for name in (*TONES, *BANDS)}

    #: The map the family built for the selection (bound to the screen's `field_map`; None: no map yet).
    field_map: var[MapView | None] = var(None)
    #: What the map was last drawn for (the map, the width, the height), and that drawing.
    _drawn_key: object = None
    _drawn: MapDrawing | None = None

    def compose(self) -> ComposeResult:
        yield Static(classes="map-body", markup=False)
        yield from super().compose()

    def on_mount(self) -> None:
        # The map's colours are baked into its text: a new theme (`t`) draws it again, once the theme's
        # styles are in place.
        self.watch(self.app, "theme", self._recolour, init=False)

    def _recolour(self) -> None:
        self.call_after_refresh(self.redraw)

    def watch_field_map(self) -> None:
        self.redraw()

    def on_resize(self) -> None:
        if self.field_map is not None or self.odds is not None:
            self.redraw()  # the map's form and the table's layout follow the size

    def drawing(self) -> MapDrawing | None:
        """The map drawn for the panel's size, drawn again only when the map or the size changed."""
        if self.field_map is None:
            return None
        height = max(1, self.scrollable_content_region.height or self.size.height)
        key = (self.field_map, self.body_width(), height)
        if self._drawn_key != key:
            from tracker.present.map.draw import draw_map

            self._drawn_key = key
            self._drawn = draw_map(self.field_map, self.body_width(), height)
        return self._drawn

    def ink_styles(self) -> dict[str, Style]:
        """A Rich style per tone and band from the component classes, their colours blended over the
        panel's background (a colour given with a % keeps its transparency only when blended here)."""
        background = self.background_colors[1]
        out = dict(PLAIN)
        for name in TONES:
            styles = self.get_component_styles(f"map--{name}")
            color = (background + styles.color).rich_color if styles.has_rule("color") else None
            out[name] = styles.text_style + Style(color=color)
        for name in BANDS:
            styles = self.get_component_styles(f"map--{name}")
            out[name] = Style(bgcolor=(background + styles.background).rich_color)
        return out

    def ink_text(self, lines: tuple[InkLine, ...]) -> Text:
        """The drawing as Rich text, each tone and band styled from the panel's component classes."""
        styles = self.ink_styles()
        out = Text(no_wrap=True, overflow="crop")
        for n, line in enumerate(lines):
            if n:
                out.append("\n")
            for ink in line:
                style = styles[ink.tone]
                if ink.band is not None:
                    style = style + styles[ink.band]
                out.append(ink.text, style=style)
        return out

    def draw(self) -> None:
        drawn = self.drawing()
        shown = self.query_one(".map-body", Static)
        shown.display = drawn is not None
        if drawn is not None:
            self.put(shown, self.ink_text(drawn.lines))
        super().draw()
