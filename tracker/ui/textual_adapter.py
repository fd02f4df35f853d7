"""Every use of a private Textual name in the tracker, kept here so a Textual release that changes one
breaks this module alone (tests/ui cover each).

- `update_scrollbars`: a scrollable widget whose virtual size changed without a layout of the screen (the
  log, `tracker.ui.widgets.log.LogView`) must have its scrollbars brought up to date. Textual does that
  only in its private `Widget._scroll_update` (and `_refresh_scrollbars`), which its layout calls; no
  public method does it, short of asking for that layout (`refresh(layout=True)`), the cost the log
  avoids. Upstream, https://github.com/Textualize/textual/issues/1616 shows those private methods as the
  only place the scrollbars are refreshed.
- `shown_suggestion`: the completion an `Input` shows in grey, which Tab accepts in the command line
  (`tracker.ui.widgets.command.CommandLine`) as → does. Textual keeps it in the private reactive
  `Input._suggestion`; only its → action (`action_cursor_right`) accepts it, and that action also moves
  the cursor or drops a selection when there is none. The suggestions came with
  https://github.com/Textualize/textual/issues/2330, → as the one key that accepts them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.geometry import Size
    from textual.widget import Widget
    from textual.widgets import Input


def update_scrollbars(widget: Widget, virtual_size: Size) -> None:
    """What Textual's layout does for a scrollable widget whose virtual size changed: show or hide its
    scrollbars, size their thumbs, and keep its scroll offsets within the new size."""
    widget._scroll_update(virtual_size)


def shown_suggestion(line: Input) -> str:
    """The completion the input shows after its value ("" for none)."""
    return line._suggestion
