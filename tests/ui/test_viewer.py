"""Viewers follow the file live and never crash on a missing or half-written file; the player view
shows nothing GM-only."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.conftest import pinned
from tests.ui.conftest import EXAMPLES
from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text, load_session
from tracker.ui.app import TrackerApp
from tracker.ui.screens.player import PlayerScreen
from tracker.ui.screens.waiting import WaitingScreen


def advance(path: Path, *lines: str) -> Session:
    """What a GM process does: apply commands and write the file atomically. A fight not yet saved is dealt
    the cards of the example's `demo_seed` (the examples keep no seed of their own: the tests pin one)."""
    setup = files.load(path)
    session = Session(setup, seed=setup.encounter.demo_seed if setup.state is None else None)
    for line in lines:
        session.execute(line)
    files.write_text(path, encounter_text(session))
    return session


async def until(condition: object, pilot: object, seconds: float = 5.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if callable(condition) and condition():
            return True
        await pilot.pause(0.05)  # type: ignore[attr-defined]
    return bool(callable(condition) and condition())


@pytest.mark.anyio
async def test_viewer_follows_the_file(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = TrackerApp.viewer(path)

    async with app.run_test(size=(100, 30)) as pilot:
        assert app.session.state.round == 0
        advance(path, "start")
        assert await until(lambda: app.session.state.round == 1, pilot)
        advance(path, "next", "next")
        assert await until(lambda: app.session.state.round == 2, pilot)
        assert app.submit("next") == "this is a read-only view"


@pytest.mark.anyio
async def test_viewer_keeps_the_last_good_state_on_a_broken_or_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = TrackerApp.viewer(path)

    async with app.run_test(size=(100, 30)) as pilot:
        advance(path, "start")
        assert await until(lambda: app.session.state.round == 1, pilot)
        path.write_text("[encounter\nbroken")
        assert await until(lambda: any("last good state" in n.message for n in app._notifications), pilot)
        assert app.session.state.round == 1
        path.unlink()
        assert await until(lambda: any("is gone" in n.message for n in app._notifications), pilot)
        assert app.session.state.round == 1


@pytest.mark.anyio
async def test_viewer_waits_for_a_file_that_does_not_exist_yet(tmp_path: Path) -> None:
    path = tmp_path / "later.toml"
    app = TrackerApp.viewer(path)

    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, WaitingScreen)
        path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
        assert await until(lambda: not isinstance(app.screen, WaitingScreen), pilot)
        assert app.session.setup.encounter.name == "Duel on the Burning Pier"


def screen_text(app: TrackerApp) -> str:
    svg = app.export_screenshot()
    text = html.unescape(re.sub(r"<[^>]+>", " ", svg)).replace("\xa0", " ")
    return re.sub(r"\s+", " ", text)


@pytest.mark.anyio
async def test_player_view_shows_nothing_gm_only_ttb(tmp_path: Path) -> None:
    """gm_only combatants never appear; Fatemaster wounds show as words, not numbers (player_view)."""
    path = tmp_path / "brawl.toml"
    path.write_text(pinned((EXAMPLES / "brawl.toml").read_text(encoding="utf-8")), encoding="utf-8")
    advance(
        path,
        "initiative Sofia 10",
        "initiative Ash 8",
        "initiative Marguerite 5",
        "start",
        "answer Belle",
        "damage Thug 3",
        "spend Sofia strike",
    )
    app = TrackerApp.viewer(path, player=True)

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PlayerScreen)
        text = screen_text(app)
        assert "Sofia Ramos" in text and "Guild Thug" in text
        assert "Rotten Belle" not in text and "Belle" not in text
        assert "3/6" not in text and "10/10" not in text  # Fatemaster wounds stay hidden
        assert "8/8 Wounds" in text  # a Fated character's own wounds are the players' to see
        assert "Fate Deck" not in text and "Log" not in text


@pytest.mark.anyio
async def test_player_view_shows_nothing_gm_only_2d20(tmp_path: Path) -> None:
    path = tmp_path / "skirmish.toml"
    path.write_text(pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8")), encoding="utf-8")
    advance(path, "start", "pick Ada", "damage Enforcer 4")
    app = TrackerApp.viewer(path, player=True)

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Ada Vance" in text
        assert "Cult Priest" not in text and "Threat" not in text
        assert "3/9" not in text  # the Enforcer's stress is a word, not a number


def waiting_text(app: TrackerApp) -> str:
    """What the waiting screen shows (its one Static), as plain text."""
    return str(app.screen.query_one("#waiting", Static).content)


@pytest.mark.anyio
async def test_viewer_on_an_invalid_file_says_so_and_waits_for_a_valid_version(tmp_path: Path) -> None:
    """Issue 9: a viewer started on an invalid file names its first problem and waits for a valid
    version; it never says the file is about to "appear", nor claims a last good state it never had."""
    path = tmp_path / "duel.toml"
    good = pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8"))
    broken = good.replace("[encounter]", "[encounter]\nmood = 'grim'", 1)
    path.write_text(broken, encoding="utf-8")
    line = broken.splitlines().index("mood = 'grim'") + 1
    app = TrackerApp.viewer(path)

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        text = waiting_text(app)
        assert text.startswith(f"{path} is invalid:\n{path}:{line}:1: unknown key 'mood'")
        assert "Waiting for a valid version" in text and "appear" not in text
        # Still invalid, with another problem: the screen shows the new one, and no notice
        # speaks of a last good state.
        path.write_text("[encounter\nbroken", encoding="utf-8")
        assert await until(lambda: "TOML syntax" in waiting_text(app), pilot)
        assert not any("last good state" in n.message for n in app._notifications)
        path.write_text(good, encoding="utf-8")
        assert await until(lambda: not isinstance(app.screen, WaitingScreen), pilot)
        assert app.session.setup.encounter.name == "Duel on the Burning Pier"


@pytest.mark.anyio
async def test_player_view_notices_say_only_that_the_file_is_invalid(tmp_path: Path) -> None:
    """Issue 12: the notice quoted the error ("two combatants are named 'Cult Priest'", a gm_only
    combatant) to the players. A player view says only that the file is invalid."""
    path = tmp_path / "skirmish.toml"
    path.write_text(pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = TrackerApp.viewer(path, player=True)

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = path.read_text(encoding="utf-8").replace('name = "Cultist"', 'name = "Cult Priest"')
        path.write_text(text, encoding="utf-8")
        assert await until(lambda: any("last good state" in n.message for n in app._notifications), pilot)
        said = [n.message for n in app._notifications]
        assert said == [f"{path} is invalid — showing the last good state"]
        assert not any("Cult Priest" in m for m in said)


@pytest.mark.anyio
async def test_player_view_waiting_on_an_invalid_file_quotes_no_problem(tmp_path: Path) -> None:
    path = tmp_path / "skirmish.toml"
    text = pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8"))
    path.write_text(text.replace('name = "Cultist"', 'name = "Cult Priest"'), encoding="utf-8")
    app = TrackerApp.viewer(path, player=True)

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        assert waiting_text(app) == f"{path} is invalid.\nWaiting for a valid version… (q quits)"


@pytest.mark.anyio
async def test_viewer_keeps_going_when_the_file_turns_to_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    """A read that is not UTF-8 was a UnicodeDecodeError in the watching worker; now it is an invalid file."""
    path = tmp_path / "duel.toml"
    path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = TrackerApp.viewer(path)

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        path.write_bytes(b'[encounter]\nname = "\xff"\n')
        assert await until(lambda: any("not UTF-8" in n.message for n in app._notifications), pilot)
        assert app.session.setup.encounter.name == "Duel on the Burning Pier"


@pytest.mark.anyio
async def test_a_viewer_reads_only_the_live_part_while_the_fight_plays(tmp_path: Path) -> None:
    """Issue 12 ("Five live viewers"): each save of the fight is read through its live part, the setup
    validated once; when the GM edits the setup, the viewer loads the file in full and shows the edit."""
    path = tmp_path / "duel.toml"
    path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = TrackerApp.viewer(path)
    gm = load_session(path)  # the GM's process: it keeps the setup text, as `tracker run` does

    def play(line: str) -> None:
        gm.execute(line)
        files.write_text(path, encounter_text(gm))

    async with app.run_test(size=(100, 30)) as pilot:
        assert app._follower is not None
        for line, round_ in (("initiative Sofia 9", 0), ("start", 1), ("next", 1), ("next", 2)):
            play(line)
            done = len(gm.history.commands)
            assert await until(lambda r=round_, n=done: seen(app, r, n), pilot)
            assert app._follower.last == "live"
        edited = path.read_text(encoding="utf-8").replace("Duel on the Burning Pier", "Duel at Dawn", 1)
        path.write_text(edited, encoding="utf-8")
        assert await until(lambda: app.session.setup.encounter.name == "Duel at Dawn", pilot)
        assert app._follower.last == "full"
        assert app.session.state.round == 2


def seen(app: TrackerApp, round_: int, commands: int) -> bool:
    return app.session.state.round == round_ and len(app.session.history.commands) == commands


@pytest.mark.anyio
async def test_a_player_view_says_only_invalid_of_a_bad_live_part(tmp_path: Path) -> None:
    """A live part that names a combatant the setup lacks: the full load's problem, which quotes the name;
    a player view's notice still says only that the file is invalid."""
    path = tmp_path / "skirmish.toml"
    path.write_text(pinned((EXAMPLES / "skirmish_srd.toml").read_text(encoding="utf-8")), encoding="utf-8")
    gm = load_session(path)
    gm.execute("start")
    files.write_text(path, encounter_text(gm))
    app = TrackerApp.viewer(path, player=True)

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = path.read_text(encoding="utf-8")
        first = text.index("[state.fighters.")
        stranger = "[state.fighters.'Cult Priest']\nwounds = 1\n\n"
        path.write_text(text[:first] + stranger + text[first:], encoding="utf-8")
        assert await until(lambda: any("last good state" in n.message for n in app._notifications), pilot)
        said = [n.message for n in app._notifications]
        assert said == [f"{path} is invalid — showing the last good state"]
        with pytest.raises(files.FileInvalid, match="Cult Priest"):
            files.load(path)  # the problem a GM's view would quote


@pytest.mark.anyio
async def test_a_viewer_waits_for_a_folder_that_is_not_there_yet(tmp_path: Path) -> None:
    """`tracker view` on a file whose folder is not made yet waited with a traceback (watchfiles refused to
    watch a missing folder); it waits for the folder, then for the file, like for a missing file."""
    path = tmp_path / "tonight" / "duel.toml"
    app = TrackerApp.viewer(path)

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        assert waiting_text(app) == f"Waiting for {path} to appear… (q quits)"
        path.parent.mkdir()
        path.write_text(pinned((EXAMPLES / "duel.toml").read_text(encoding="utf-8")), encoding="utf-8")
        assert await until(lambda: not isinstance(app.screen, WaitingScreen), pilot)
        assert app.session.setup.encounter.name == "Duel on the Burning Pier"
