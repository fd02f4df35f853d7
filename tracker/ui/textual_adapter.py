"""Every use of a private Textual or textual-serve name in the tracker, kept here so a release that changes
one breaks this module alone (tests/ui and tests/web cover each).

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
- `toast_rack`: the GM screen keeps its toasts above the prompt bar, the command line and the footer
  (`tracker.ui.screens.main.TrackerScreen._keep_toasts_clear`) by giving the widget that holds them a
  bottom margin as tall as those lines. Textual docks that widget (its private `ToastRack`, from
  `textual.widgets._toast`) at the bottom of every screen, over everything, and offers no public handle on
  it nor a setting for where toasts stand; it finds it by the id it gives it, ``textual-toastrack``. The
  margin follows the prompt bar's height, which changes with the question, so a stylesheet rule (fixed)
  cannot do it.

textual-serve (`tracker.web.server`, which is why pyproject pins it below 2):

- `serve_app`: `Server.serve` binds its own host and port; `tracker serve` hands aiohttp a socket it bound
  and checked first, so it runs the application textual-serve builds (`Server._make_app`) itself.
- `relay_messages`: a tab's websocket handler that keeps its session to end it on shutdown has to relay
  the browser's messages as textual-serve's own handler does (`Server._process_messages`).
- `tab_process`: a tab's process that does not quit within the grace period is killed, which needs the
  process textual-serve started (`AppService._process`); it offers no public kill.
  No upstream issue asks for these yet; the code they reach into is
  https://github.com/Textualize/textual-serve/blob/main/src/textual_serve/server.py and
  https://github.com/Textualize/textual-serve/blob/main/src/textual_serve/app_service.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.css.query import NoMatches

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Coroutine

    from aiohttp import web
    from textual.geometry import Size
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import Input
    from textual_serve.app_service import AppService
    from textual_serve.server import Server


def update_scrollbars(widget: Widget, virtual_size: Size) -> None:
    """What Textual's layout does for a scrollable widget whose virtual size changed: show or hide its
    scrollbars, size their thumbs, and keep its scroll offsets within the new size."""
    widget._scroll_update(virtual_size)


def toast_rack(screen: Screen[Any]) -> Widget | None:
    """The widget Textual shows `screen`'s toasts in (None: the app shows none, so it made none)."""
    try:
        return screen.get_child_by_id("textual-toastrack")
    except NoMatches:
        return None


def shown_suggestion(line: Input) -> str:
    """The completion the input shows after its value ("" for none)."""
    return line._suggestion


def serve_app(server: Server) -> Coroutine[Any, Any, web.Application]:
    """The aiohttp application textual-serve's server answers with (its routes, templates and handlers),
    to be awaited by `aiohttp.web.run_app`."""
    return server._make_app()


async def relay_messages(server: Server, websocket: web.WebSocketResponse, session: AppService) -> None:
    """Relay a tab's websocket messages to its process until the tab closes, as textual-serve does."""
    await server._process_messages(websocket, session)


def tab_process(session: AppService) -> asyncio.subprocess.Process | None:
    """The process textual-serve started for a tab (None before it starts)."""
    return session._process
