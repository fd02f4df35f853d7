"""The fight's odds on the GM's screen (docs/reference/cli.md "The odds of the whole fight"): worked out by a worker
process after a command, shown in the title without holding up a key; a stale result is dropped."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.ui.conftest import make_app
from tests.ui.test_screen import main_screen
from tracker.families.session import Session
from tracker.playouts.runs import Start, start_of
from tracker.playouts.tally import Tally, screen_line
from tracker.store.files import parse_text
from tracker.ui import fight_odds


async def _first_line(pilot: Pilot[None], screen: object) -> None:
    """Until the screen's worker has sent its first odds line (a minute at most: it starts a process)."""
    until = time.monotonic() + 60
    while not fight_odds.parts_of(screen) and time.monotonic() < until:
        await pilot.pause(0.2)


@pytest.mark.anyio
async def test_the_title_shows_the_rating_before_start_then_the_odds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TRACKER_NO_FIGHT_ODDS", raising=False)
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(160, 40)) as pilot:
        screen = main_screen(app)
        await _first_line(pilot, screen)
        before = screen.title_line.render()
        assert "the party wins" in str(before) and ":" in fight_odds.parts_of(screen)[0][0]
        started = time.monotonic()
        await pilot.press("colon")
        for key in "start":
            await pilot.press(key)
        await pilot.press("enter")
        assert time.monotonic() - started < 5  # the keys never waited for the runs
        until = time.monotonic() + 60
        while time.monotonic() < until:
            await pilot.pause(0.2)
            part = fight_odds.parts_of(screen)
            if part and not part[0][0].startswith(("easy", "fair", "hard", "deadly")):
                break
        assert fight_odds.parts_of(screen)[0][0].startswith("the party wins")


def started_duel() -> Start:
    """Sofia Ramos against a Guild Thug, started: the start the screen's line is worked out from."""
    text = (
        '[encounter]\nname = "T"\nsystem = "ttb"\nseed = 1\n'
        '[[combatants]]\nname = "Sofia Ramos"\nkind = "fated"\nwounds = 8\n'
        '[[combatants]]\nname = "Guild Thug"\nrank_value = 5\nwounds = 6\n'
    )
    s = Session(parse_text(text, "<t>"))
    s.execute("start")
    return start_of(s.family, s.rules, 12, 1)


def test_the_line_names_the_likeliest_to_fall_and_the_rounds() -> None:
    start = started_duel()
    summed = Tally(
        100,
        {"players": 0.71, "fatemaster": 0.27, "undecided": 0.02},
        0.09,
        {"Sofia Ramos": (0.25, 0.04), "Guild Thug": (0.9, 0.1)},
        4,
        7,
        "",
    )
    assert screen_line(start, summed) == "the party wins 71 % · Sofia falls in 1 of 4 · about 4 rounds"


def test_a_fight_no_run_ends_says_undecided_and_why_not_a_percentage() -> None:
    """When every run is still undecided at the round cap (docs/guide/odds.md), the line gives no win chance
    (a "0 %" would read as a verdict) but the reason."""
    start = started_duel()
    summed = Tally(
        100, {"players": 0.0, "fatemaster": 0.0, "undecided": 1.0}, 0.0, {}, 12, 12, "nobody can hurt anybody"
    )
    assert screen_line(start, summed) == "fight odds undecided: nobody can hurt anybody"


@pytest.mark.parametrize("example", ["infinity_infowar.toml", "srd_bomb_clock.toml", "duel.toml"])
def test_the_screens_worker_process_plays_a_started_fight_of_either_family(example: str) -> None:
    """The GM screen's worker is a spawned process that never opened a file: it plays from the `Start` alone,
    so a family's policy must load what its engine needs (a 2d20 worker once refused every verb but the
    kernel's: "fight odds undecided: no command the policy tried was accepted ('pick Sable' …)")."""
    import multiprocessing

    from tests.conftest import run
    from tests.ui.conftest import EXAMPLES
    from tracker.playouts.report import screen_line as worker_line

    text = (EXAMPLES / example).read_text(encoding="utf-8")
    session = run(Session(parse_text(text, example)), "start")
    start = start_of(session.family, session.rules, 12, 1)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        line = pool.apply(worker_line, (start, 0.2, 20))
    assert "wins" in line and "undecided" not in line, line


@pytest.mark.anyio
async def test_with_the_setting_on_the_gm_screen_works_out_the_players_line_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`fight_odds_for_players = true`: beside the GM's own line, the screen's worker plays the fight from what
    the players know (no GM-only combatant, no hand of cards) and hands that line to the table, which sends it
    with the players' view; Rotten Belle, GM-only in the brawl, is in the GM's fight only."""
    from tests.ui.conftest import EXAMPLES
    from tracker.store.save import load_session
    from tracker.ui.app import TrackerApp

    monkeypatch.delenv("TRACKER_NO_FIGHT_ODDS", raising=False)
    target = tmp_path / "brawl.toml"
    text = (EXAMPLES / "brawl.toml").read_text(encoding="utf-8")
    target.write_text(text.replace("[settings]\n", "[settings]\nfight_odds_for_players = true\n", 1), encoding="utf-8")
    app = TrackerApp(load_session(target, seed=1), target)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.submit("start") is None
        for _ in range(400):
            await pilot.pause(0.1)
            if app.players_fight_odds:
                break
        assert app.players_fight_odds, "no players' line came"
        assert "Rotten Belle" not in app.players_fight_odds


@pytest.mark.anyio
async def test_the_players_screen_on_the_gms_box_works_out_the_players_line_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tracker view --player` by the file's owner has no table to bring the line: with the setting on it plays
    the players' line itself (from what they know); with it off it shows none."""
    from textual.widgets import Static

    from tests.ui.conftest import EXAMPLES
    from tracker.store.save import load_session
    from tracker.ui.app import TrackerApp

    monkeypatch.delenv("TRACKER_NO_FIGHT_ODDS", raising=False)
    for shown in (True, False):
        target = tmp_path / f"duel-{shown}.toml"
        text = (EXAMPLES / "duel.toml").read_text(encoding="utf-8")
        target.write_text(text + f"\n[settings]\nfight_odds_for_players = {str(shown).lower()}\n", encoding="utf-8")
        app = TrackerApp(load_session(target, seed=1), target, player=True)
        async with app.run_test(size=(120, 30)) as pilot:
            line = ""
            for _ in range(150 if shown else 20):
                await pilot.pause(0.1)
                line = str(app.screen.query_one("#active-name", Static).render())
                if "wins" in line:
                    break
            assert ("the party wins" in line) is shown, line


class _Job:
    """A worker job the test ends when it likes."""

    def __init__(self) -> None:
        self.done = False

    def ready(self) -> bool:
        return self.done

    def get(self) -> tuple[tuple[str, int], ...]:
        return (("before", 50), ("now", 60))


class _Worker:
    def __init__(self) -> None:
        self.jobs: list[tuple[_Job, int]] = []

    def apply_async(self, _fn: object, args: tuple[list[tuple[str, Start]]]) -> _Job:
        job = _Job()
        self.jobs.append((job, len(args[0])))
        return job


class _Host:
    def set_timer(self, delay: float, callback: object) -> object:
        return None

    def set_interval(self, interval: float, callback: object) -> object:
        return None


def test_the_story_line_plays_only_the_newest_ask_while_one_is_being_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Commands given while the Story tab's line is being played leave one replay for the newest state, not a
    queue of stale ones behind the GM's line (docs/guide/odds.md "The fight's story")."""
    monkeypatch.delenv("TRACKER_NO_FIGHT_ODDS", raising=False)
    text = (
        '[encounter]\nname = "T"\nsystem = "ttb"\nseed = 1\n'
        '[[combatants]]\nname = "Sofia Ramos"\nkind = "fated"\nwounds = 8\n'
        '[[combatants]]\nname = "Guild Thug"\nrank_value = 5\nwounds = 6\n'
    )
    session = Session(parse_text(text, "<t>"))
    session.execute("start")
    line = fight_odds.FightOddsLine(_Host(), lambda: None)
    worker = _Worker()
    monkeypatch.setattr(line, "_worker", lambda: worker)
    told: list[object] = []
    line.ask_timeline(session, told.append)
    assert len(worker.jobs) == 1
    for command in ("end", "answer none", "start", "end"):
        session.execute(command)
        line.ask_timeline(session, told.append)
    assert len(worker.jobs) == 1  # still the first being played: nothing queued behind it
    worker.jobs[0][0].done = True
    line._poll()
    assert told == [(("before", 50), ("now", 60))]
    assert len(worker.jobs) == 2  # the newest ask, once
    line._poll()
    assert len(worker.jobs) == 2


@pytest.mark.parametrize(
    ("chance", "said"),
    [
        (0.25, "Sofia falls in 1 of 4"),
        (0.7, "Sofia falls in 7 of 10"),
        (0.98, "Sofia falls nearly always"),
        (1.0, "Sofia falls"),
    ],
)
def test_how_often_one_falls_reads_right_above_an_even_chance(chance: float, said: str) -> None:
    """A 98 % fall is not "1 of 1" (which reads as certain): above an even chance it is tenths, then "nearly
    always"; only a fall in every run reads as a plain "falls"."""
    start = started_duel()
    summed = Tally(100, {"players": 0.5, "fatemaster": 0.5}, 0.1, {"Sofia Ramos": (chance, 0.0)}, 4, 7, "")
    assert screen_line(start, summed).split(" · ")[1] == said


@pytest.mark.anyio
async def test_the_odds_tab_shows_the_whole_fight_line_the_narrow_title_drops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/reference/cli.md "The odds of the whole fight": the family's odds tab (the Fate Deck) starts with
    the whole line, which the title drops figures of on a narrow screen (80 columns here)."""
    from textual.widgets import TabbedContent

    from tracker.ui.widgets.text_panel import TextPanel

    monkeypatch.delenv("TRACKER_NO_FIGHT_ODDS", raising=False)
    app = make_app(tmp_path, "duel.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = main_screen(app)
        await _first_line(pilot, screen)
        line = fight_odds.found_on(screen)
        assert line is not None and line.text
        screen.query_one("#side", TabbedContent).active = "tab-resources"
        await pilot.pause()
        panel = screen.query_one("#resources", TextPanel)
        assert panel.block_text().plain.startswith(f"The fight: {line.text}\n")
