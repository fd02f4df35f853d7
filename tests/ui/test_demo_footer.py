"""`tracker demo` at 100 columns: the footer shows every key whole, the demo's own "space Pause"
included (it was cut as "space Pause/")."""

from __future__ import annotations

from importlib import resources
from itertools import pairwise
from pathlib import Path

import pytest
from textual.widgets import Footer

from tracker.store import files
from tracker.ui.demo import DemoApp


@pytest.mark.anyio
async def test_demo_footer_fits_in_100_columns(tmp_path: Path) -> None:
    text = resources.files("tracker").joinpath("data/demo.toml").read_text(encoding="utf-8")
    app = DemoApp(tmp_path / "demo.toml", files.parse_text(text, "demo"), delay=60, seed=1, theme=None, loop=True)

    async with app.run_test(size=(100, 30)) as pilot:
        # Wait for the demo's footer to be laid out (a loaded machine takes its time), then check it.
        for _ in range(100):
            await pilot.pause(0.1)
            footer = app.screen.query(Footer).first() if app.screen.query(Footer) else None
            shown = list(footer.query("FooterKey")) if footer is not None else []
            if any(str(getattr(k, "description", "")) == "Pause" for k in shown) and all(k.region.width for k in shown):
                break
        keys = sorted((k.region for k in shown), key=lambda r: r.x)
        descriptions = [str(getattr(k, "description", "")) for k in shown]
        assert "Pause" in descriptions
        for left, right in pairwise(keys):
            assert left.right <= right.x, (left, right)  # no key drawn over the next one
        assert keys[-1].right <= 100
