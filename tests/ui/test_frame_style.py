"""The log strip and the order table work out their style once per frame (`StyledOncePerFrame`),
and the style they paint with is still the one the theme gives them: a new theme recolours them."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.dom import DOMNode

from tests.ui.conftest import make_app
from tracker.ui.widgets.log import LogView
from tracker.ui.widgets.order_table import OrderTable


@pytest.mark.anyio
async def test_the_style_is_asked_once_per_frame_and_follows_the_theme(tmp_path: Path) -> None:
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        for widget in (app.screen.query_one("#log-bottom").query_one(LogView), app.screen.query_one(OrderTable)):
            styled = DOMNode.rich_style.fget(widget)  # type: ignore[attr-defined]  # what Textual works out
            assert widget.rich_style == styled  # outside a frame: Textual's own
            asked = 0
            real = DOMNode.rich_style.fget  # type: ignore[attr-defined]

            def counting(node: DOMNode, real: object = real, widget: object = widget) -> object:
                nonlocal asked
                asked += node is widget
                return real(node)  # type: ignore[operator]

            DOMNode.rich_style = property(counting)  # type: ignore[assignment,method-assign]
            try:
                strips = widget.render_lines(widget.size.region)
            finally:
                DOMNode.rich_style = property(real)  # type: ignore[assignment,method-assign]
            assert len(strips) == widget.size.height >= 3
            assert asked == 1  # once for the frame, not once per line
        log = app.screen.query_one("#log-bottom").query_one(LogView)
        before = log.rich_style
        app.theme = "parchment-light"
        await pilot.pause()
        assert log.rich_style != before  # not kept past its frame
