"""The odds in the panels (README "The odds"): the Fate Deck tab's table laid out for its width, the Zones
tab's chances per target, and the odds modules loaded only once their tab is shown."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from textual.widgets import TabbedContent

from tests.conftest import pinned
from tests.ui.conftest import EXAMPLES, make_app
from tracker.ui.app import TrackerApp
from tracker.ui.widgets.panel_text import PanelText
from tracker.ui.widgets.text_panel import TextPanel


def panel_text(app: TrackerApp, tab: str) -> str:
    panel = app.screen.query_one(f"#{tab}", TextPanel)
    return str(panel.query_one(".panel-body", PanelText).render())


def table_lines(text: str) -> list[str]:
    """The odds table's lines: from its header row (``≥``) to the first line that is not a row."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("≥"))
    rows = lines[start + 1 :]
    end = next((n for n, line in enumerate(rows) if not line[:1].strip() or line.startswith("RJ,")), len(rows))
    return lines[start : start + 1 + end]


async def show(app: TrackerApp, pilot: object, tab: str) -> None:
    app.screen.query_one("#side", TabbedContent).active = f"tab-{tab}"
    await pilot.pause()  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_fate_deck_tab_at_80_columns_lays_the_thresholds_across(tmp_path: Path) -> None:
    """80×24: the thirteen thresholds and the Jokers across, one row per flip, each row whole."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        await show(app, pilot, "resources")
        lines = panel_text(app, "resources").splitlines()
        assert lines[0] == "Next flip, % at least · 54 cards left"
        header = next(n for n, line in enumerate(lines) if line.startswith("≥"))
        assert lines[header].split() == ["≥", *(str(v) for v in range(1, 14)), "RJ", "BJ"]
        assert lines[header + 1].split()[0] == "flip" and len(lines[header + 1].split()) == 16
        assert all(len(line) <= 78 for line in table_lines("\n".join(lines)))


@pytest.mark.anyio
async def test_fate_deck_tab_in_the_44_column_side_panel_turns_the_table_on_its_side(tmp_path: Path) -> None:
    """120×40 puts the tabs in a 44-column side panel: the thresholds go down, the flips across."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await show(app, pilot, "resources")
        lines = panel_text(app, "resources").splitlines()
        header = next(line for line in lines if line.startswith("≥"))
        assert header.split() == ["≥", "flip", "⊞", "⊞⊞", "⊟", "⊟⊟", "♥", "♠", "♣", "♦"]
        assert any(line.split()[:1] == ["13"] for line in lines)
        width = app.screen.query_one("#resources", TextPanel).scrollable_content_region.width
        table = table_lines("\n".join(lines))
        assert len(table) == 1 + 13 + 2  # the thresholds 1-13 and the two Jokers
        assert all(len(line) <= width for line in table)


@pytest.mark.anyio
async def test_the_duel_line_follows_the_flip_and_the_cheat_offer(tmp_path: Path) -> None:
    """A pending duel the tracker can flip shows its chances above the table; once flipped (the cheat offer
    waits: the demo's 5 of Tomes fails TN 11) the line is gone and the deck has one card fewer."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        for line in ("initiative Sofia 9", "start", "spend Sofia charge Enforcer", "answer pass 1"):
            assert app.submit(line) is None
        await show(app, pilot, "resources")
        before = panel_text(app, "resources")
        assert "Sofia Ramos, TN 11 with Melee 3:" in before
        assert app.submit("answer flip") is None
        await pilot.pause()
        assert app.session.state.prompt is not None and app.session.state.prompt.kind == "cheat"
        after = panel_text(app, "resources")
        assert "TN 11 with Melee" not in after
        assert "52 cards left" in after and "53 cards left" in before


@pytest.mark.anyio
async def test_zones_tab_shows_the_selected_combatants_chance_per_target(tmp_path: Path) -> None:
    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.selected = "Ada Vance"  # type: ignore[attr-defined]
        await show(app, pilot, "field")
        text = panel_text(app, "field")
        assert text.startswith("Chance to hit, % · Ada Vance (Service pistol)")
        assert "Cultist" in text and "TN 12 = Coordination 10 + Fight 2" in text


LAZY = textwrap.dedent(
    """\
    import asyncio, json, sys
    from pathlib import Path
    from textual.widgets import TabbedContent
    from tracker.families.session import Session
    from tracker.store import files
    from tracker.ui.app import TrackerApp

    path = Path(sys.argv[1])
    app = TrackerApp(Session(files.load(path)), path)
    seen = {}

    async def drive():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            seen["first"] = sorted(m for m in sys.modules if m.endswith(".odds") or m.endswith("odds_report"))
            app.screen.query_one("#side", TabbedContent).active = "tab-" + sys.argv[2]
            await pilot.pause()
            seen["shown"] = sorted(m for m in sys.modules if m.endswith(".odds") or m.endswith("odds_report"))

    asyncio.run(drive())
    print(json.dumps(seen))
    """
)


@pytest.mark.perf
def test_the_odds_modules_load_only_when_their_tab_is_shown(tmp_path: Path) -> None:
    """The first frame does not import the odds (start-up speed); the Fate Deck tab does."""
    path = tmp_path / "duel.toml"
    path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
    env_dir = tmp_path / "config"
    proc = subprocess.run(
        [sys.executable, "-c", LAZY, str(path), "resources"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"TRACKER_CONFIG_DIR": str(env_dir), "PATH": "", "HOME": str(tmp_path)},
    )
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["first"] == []
    assert seen["shown"] == ["tracker.families.ttb.fate.odds", "tracker.families.ttb.present.odds_report"]


@pytest.mark.anyio
async def test_fate_deck_tab_text_is_asked_for_when_shown_and_follows_commands(tmp_path: Path) -> None:
    """The Fate Deck tab's text (deck counts, Control Hands, Fate Points) is worked out only while the tab
    shows (at 500 combatants it is a 500-line block), and is current whenever it is shown."""
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert app.screen.resources == ()  # type: ignore[attr-defined]  # never shown: never asked
        await show(app, pilot, "resources")
        left = len(app.session.rules.state.deck)  # type: ignore[attr-defined]
        assert f"Fate Deck {left} left" in panel_text(app, "resources")
        assert app.submit("flip 2") is None
        await pilot.pause()
        now = len(app.session.rules.state.deck)  # type: ignore[attr-defined]
        assert now == left - 2
        assert f"Fate Deck {now} left" in panel_text(app, "resources")
