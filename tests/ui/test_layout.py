"""The screen loses nothing: the title keeps what matters, the order table fits its width
without clipping silently, the log keeps its words, and the family says things the table's way."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import d20, d20_view, example_session, session_from, ttb_view
from tests.ui.conftest import make_app
from tracker.present.view import ConditionTag, HeaderView
from tracker.present.words import condition_tags
from tracker.ui.title import fit_title, title_parts
from tracker.ui.widgets.order_table import OrderTable, fit_conditions

HEADER = HeaderView("Firefight at Maglev Station Kappa", "2d20 infinity", "Round 2", "Momentum 2 · Heat 6", "Vel")


def test_title_keeps_round_active_and_pools_before_the_encounter_name() -> None:
    full = fit_title(title_parts(HEADER, False), 200)
    assert full == "Firefight at Maglev Station Kappa · 2d20 infinity · Round 2 · Momentum 2 · Heat 6 · Vel's turn"
    for width in (78, 60, 48):
        text = fit_title(title_parts(HEADER, False), width)
        assert len(text) <= width
        assert "Round 2" in text and "Vel's turn" in text and "Heat 6" in text
    assert "Firefight" not in fit_title(title_parts(HEADER, False), 48)
    assert fit_title(title_parts(HEADER, True), 78).startswith("VIEW ONLY · ")


def test_a_closed_table_never_hides_the_pools_or_the_turn() -> None:
    """The pools and whose turn it is stay on an 80-column title when the table is closed to players: the notice
    gives way first (the log's first line keeps the reason and the fix)."""
    full = fit_title(title_parts(HEADER, False, table_closed=True), 200)
    assert "TABLE CLOSED to players" in full
    narrow = fit_title(title_parts(HEADER, False, table_closed=True), 78)
    assert "Momentum 2 · Heat 6" in narrow and "Vel's turn" in narrow and "Round 2" in narrow


def test_the_fight_odds_figures_are_dropped_whole_never_cut() -> None:
    """At 80 columns the odds line gives way figure by figure (how long, then who falls), never mid-word: a
    cut "Ash falls in 1 o…" would read as a different figure."""
    from tracker.ui.fight_odds import FightOddsLine

    line = FightOddsLine(host=None, changed=lambda: None)  # type: ignore[arg-type]
    line.text = "the party wins 100 % · Ash falls in 1 of 3 · about 4 rounds"
    parts = [*title_parts(HEADER, False), *line.parts()]
    assert fit_title(parts, 200).endswith("Vel's turn · the party wins 100 % · Ash falls in 1 of 3 · about 4 rounds")
    for width in (60, 70, 78, 98):
        text = fit_title(parts, width)
        assert len(text) <= width and "Vel's turn" in text and "Momentum 2 · Heat 6" in text, text
        assert width < 65 or "the party wins 100 %" in text, text
        pieces = text.split(" · ")
        assert all(p in line.text.split(" · ") for p in pieces if "falls" in p or "rounds" in p), text
    assert "about 4 rounds" not in fit_title(parts, 98) and "Ash falls in 1 of 3" in fit_title(parts, 98)
    line.text = "fight odds undecided: no side won in 12 rounds in any run; never fell: Clockwork Sentry (fatemaster)"
    parts = [*title_parts(HEADER, False), *line.parts()]
    narrow = fit_title(parts, 78)  # the reason is cut, not dropped, and the turn and pools stay
    assert "fight odds undecided: no side" in narrow and narrow.endswith("…") and "Heat 6" in narrow, narrow


def tags() -> tuple[ConditionTag, ...]:
    return condition_tags(
        {"burning": 2, "poison": 3, "dazed": True, "prone": True, "bleeding_out": 2},
        {"burning": "Brn", "poison": "Psn", "dazed": "Dzd", "prone": "Prn", "bleeding_out": "Bld"},
    )


def test_conditions_in_full_when_they_fit_else_short_forms_that_wrap_never_cut() -> None:
    lines, brief = fit_conditions(tags(), 80)
    assert lines == ["burning 2, poison 3, dazed, prone, bleeding out 2"] and brief == []
    lines, brief = fit_conditions(tags(), 24)
    assert lines == ["Brn2 Psn3 Dzd Prn Bld2"] and [t.stem for t in brief] == ["Brn", "Psn", "Dzd", "Prn", "Bld"]
    lines, _ = fit_conditions(tags(), 10)
    assert " ".join(lines) == "Brn2 Psn3 Dzd Prn Bld2" and all(len(line) <= 10 for line in lines)


@pytest.mark.anyio
async def test_order_table_fits_80_columns_with_ten_combatants_and_a_legend(tmp_path: Path) -> None:
    """All ten of the brawl fit at 80×24; five conditions wrap in short form, explained by the legend."""
    app = make_app(tmp_path, "brawl.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        for line in (
            "start",
            "answer Belle",
            "add Sofia burning 2",
            "add Sofia poison 3",
            "add Sofia dazed",
            "add Sofia prone",
            "add Sofia bleeding_out 2",
        ):
            assert app.submit(line) is None, line
        await pilot.pause()
        table = app.screen.query_one(OrderTable)
        assert table.virtual_size.width <= table.size.width  # no horizontal scrolling
        assert len(table.keys) == 10 and table.size.height >= len(table.lines) + 1  # every row shows
        sofia = [" ".join(line) for line in table.rows["Sofia Ramos"]]
        assert "Brn2" in "".join(sofia) and "Bld2" in "".join(sofia)
        assert "Brn=burning" in table.legend and "Bld=bleeding out" in table.legend


def test_stress_is_what_is_left_and_labelled_per_track(tmp_path: Path) -> None:
    """docs/rules/2d20-harm.md#s3-10-1: the table counts stress left, as the log does ("Vigour 9/12 left")."""

    s = example_session(Path(__file__).resolve().parents[2] / "examples" / "firefight_infinity.toml")
    s.execute("start")
    s.execute("pick Vanguard")  # initiative scores: the initiator acts first (docs/reference/language.md)
    s.execute("damage Vel 3")
    row = next(r for r in d20_view(s).order().rows if r.name == "Hacker Vel")
    left = d20(s).tracks("Hacker Vel")["vigour"] - d20(s).st.fighters["Hacker Vel"].stress["vigour"]
    assert row.cells[5].startswith(f"V{left}/")
    assert "V Vigour" in d20_view(s).order().legend


def test_persistent_shows_its_rating_and_ticks() -> None:
    """docs/rules/2d20-combat.md#s3-8 Persistent X: the rating and the ticks left, not only the ticks."""
    s = session_from(
        '[encounter]\nname = "T"\nsystem = "2d20"\nseed = 1\n'
        '[[zones]]\nname = "A"\n[[combatants]]\nname = "Kit"\nstress = 10\nzone = "A"\n'
    )
    s.execute("add Kit persistent 3")
    row = d20_view(s).order().rows[0]
    assert row.conditions[0].full == "persistent 3 (1 tick left)"
    assert d20_view(s).conditions_of("Kit")[0].label == "Persistent 3 (1 tick left)"


def test_fated_initiative_before_the_flip_is_marked_as_aspect_plus_card() -> None:
    """docs/rules/ttb.md#s2-2: a Fated's total is its Initiative plus a flipped card, not a number yet."""
    s = session_from('[[combatants]]\nname = "Sofia"\nkind = "fated"\ninitiative = 3\nwounds = 6\n')
    assert ttb_view(s).order().rows[0].cells[2] == "3+card"


def test_player_view_words_the_question_without_command_syntax(tmp_path: Path) -> None:

    s = example_session(Path(__file__).resolve().parents[2] / "examples" / "skirmish_srd.toml")
    assert s.presenter.player_view().where == "not started"
    s.execute("start")
    view = s.presenter.player_view()
    assert view.prompt == "Who acts first?" and "NAME" not in (view.prompt or "")
    assert view.pools.startswith("Momentum ") and "Threat" not in view.pools
    assert any(row.zone for row in view.rows)


@pytest.mark.anyio
async def test_log_keeps_every_word_at_80_columns(tmp_path: Path) -> None:
    """A long log line wraps with its words intact (RichLog's 78-column minimum cut them before)."""
    from textual.widgets import RichLog

    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(80, 24)) as pilot:
        assert app.submit("start") is None
        assert app.submit("damage Sofia 2/3/4 margin=0") is None
        await pilot.press("full_stop", "full_stop", "full_stop", "full_stop")  # to the Log tab
        await pilot.pause()
        log = app.screen.query_one("#tab-log RichLog", RichLog)
        text = " ".join(strip.text.strip() for strip in log.lines)
        entry = app.session.state.log[-2].text
        assert all(word in text for word in entry.split()), (entry, text)


@pytest.mark.anyio
async def test_an_empty_conditions_column_gives_its_room_to_the_zones(tmp_path: Path) -> None:
    """Infinity at 80×24 (three stress tracks): while nobody has a condition, the Conditions column gives up
    its title's room before a zone's name is cut (untitled: "Con…" would be a clipped word); with a
    condition, the Harms column nobody writes in gives its room (title and all) before the zones do."""
    app = make_app(tmp_path, "firefight_infinity.toml")

    def lines(table: OrderTable) -> list[str]:
        return [table.render_line(y).text for y in range(1 + len(table.keys))]

    async with app.run_test(size=(80, 24)) as pilot:
        for line in ("start", "pick Lt"):
            assert app.submit(line) is None
        await pilot.pause()
        table = app.screen.query_one(OrderTable)
        assert sum(table.widths) + len(table.widths) <= table.size.width
        shown = lines(table)
        for place in ("Platform", "Control Room", "Concourse", "Tunnel"):
            assert any(f" {place} " in line for line in shown[1:]), (place, shown)
        assert "Con" not in shown[0] and "…" not in shown[0], shown[0]
        assert app.submit("add Hacker burning 2") is None
        await pilot.pause()
        shown = lines(table)
        vel = next(line for line in shown if "Hacker Vel" in line)
        assert vel.rstrip().endswith("burning 2"), vel
        assert " Control Room " in vel, vel
        assert "Harms" not in shown[0] and "Har" not in shown[0], shown[0]
        assert shown[0].split()[-1] == "Conditio…", shown[0]
        assert sum(table.widths) + len(table.widths) <= table.size.width
        assert app.submit("add Hacker dazed") is None  # "burning 2, dazed": short forms
        await pilot.pause()
        shown = lines(table)
        vel = next(line for line in shown if "Hacker Vel" in line)
        assert vel.rstrip().endswith("Brn2 Dzd"), vel


@pytest.mark.anyio
async def test_the_conditions_column_keeps_no_room_while_it_is_empty(tmp_path: Path) -> None:
    """Infinity at 120×40 (a 74-column order beside the tabs): with no condition to show, every zone and name
    is whole; the Conditions column's title comes back with the first condition."""
    app = make_app(tmp_path, "firefight_infinity.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        for line in ("start", "pick Lt"):
            assert app.submit(line) is None
        await pilot.pause()
        table = app.screen.query_one(OrderTable)
        shown = [table.render_line(y).text for y in range(5)]
        assert "…" not in "".join(shown), shown
        assert "Con" not in shown[0], shown[0]
        assert app.submit("add Hacker prone") is None
        await pilot.pause()
        header = table.render_line(0).text.split()
        assert header[-1] in ("Conditions", "Cond…"), header


@pytest.mark.anyio
async def test_names_with_brackets_are_text_not_markup(tmp_path: Path) -> None:
    """An encounter or combatant name like "[Docks]" or "Thug [2]" is shown as written, everywhere."""
    from textual.widgets import Static

    from tracker.families.session import Session
    from tracker.store import files
    from tracker.ui.app import TrackerApp

    target = tmp_path / "b.toml"
    target.write_text(
        '[encounter]\nname = "[Docks] Ambush"\nsystem = "ttb"\nseed = 3\n'
        '[[combatants]]\nname = "Thug [2]"\nrank_value = 5\nwounds = 6\ninitiative = 9\n'
        '[[combatants]]\nname = "Sofia [b]"\nkind = "fated"\nwounds = 6\n',
        encoding="utf-8",
    )
    for player in (False, True):
        app = TrackerApp(Session(files.load(target)), target, player=player)

        async with app.run_test(size=(100, 30)) as pilot:
            app.session.execute("start")
            app.bump()
            await pilot.pause()
            if not player:
                assert "[Docks] Ambush" in str(app.screen.query_one("#title", Static).render())
                assert str(app.screen.query_one("#order").border_title).startswith("Round 1")
