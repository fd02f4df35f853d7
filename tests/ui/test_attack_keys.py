"""An attack played by keys alone (UX.md journey 1): the spend picker starts the attack flow, and each
question after it is a number key — Pilot tests at the smallest screens the families are played on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from tests.conftest import ttb_state
from tests.ui.conftest import EXAMPLES
from tests.ui.test_viewer import advance, screen_text
from tracker.store.save import load_session
from tracker.ui.app import TrackerApp
from tracker.ui.screens.modals import ActionPicker


def _app(tmp_path: Path, example: str, *lines: str) -> TrackerApp:
    path = tmp_path / example
    shutil.copy(EXAMPLES / example, path)
    advance(path, *lines)
    return TrackerApp(load_session(path), path)


async def _pick(pilot: Pilot[None], app: TrackerApp, key: str) -> None:
    """`s`, then ↓ to the action `key`, then Enter."""
    await pilot.press("s")
    await pilot.pause()
    assert isinstance(app.screen, ActionPicker)
    options = app.screen.query_one(OptionList)
    while options.highlighted is None or options.get_option_at_index(options.highlighted).id != key:
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause()


def _kind(app: TrackerApp) -> str | None:
    prompt = app.session.state.prompt
    return prompt.kind if prompt else None


async def _press(pilot: Pilot[None], app: TrackerApp, *keys: str) -> str | None:
    """The keys, a refresh, and the kind of question that waits then (None: none)."""
    await pilot.press(*keys)
    await pilot.pause()
    return _kind(app)


@pytest.mark.anyio
async def test_ttb_strike_by_keys_at_80x24(tmp_path: Path) -> None:
    """`s`, Strike, Enter; 1 the target (the engaged Enforcer first); 1 the tracker flips (5♣: a miss);
    1 cheats with the 10♦ the offer shows as a pass; 1 the damage flip: the Enforcer is hurt."""
    # One card flipped off the top first, so the duel's card misses and the hand can save it.
    app = _app(tmp_path, "duel.toml", "initiative Sofia 9", "start", "engage Sofia Guild", "flip 1")

    async with app.run_test(size=(80, 24)) as pilot:
        await _pick(pilot, app, "strike")
        assert _kind(app) == "attack_target"
        assert "Guild Enforcer · engaged" in screen_text(app)
        assert await _press(pilot, app, "1") == "attack"
        assert await _press(pilot, app, "1") == "cheat"  # flip
        text = screen_text(app)
        assert "Sofia Ramos flipped 5♣: cheat with a card from the hand?" in text
        assert "10♦ → 13 vs TN 11: pass" in text and "no: keep the 5♣" in text
        assert "10M" not in text  # one card notation on the screen; JSON keeps the codes
        assert app.session.state.prompt is not None and app.session.state.prompt.options[0] == "10M"
        assert await _press(pilot, app, "1") == "damage_flip"
        assert await _press(pilot, app, "1") is None

    st = ttb_state(app.session)
    assert st.fighters["Guild Enforcer"].wounds < 9
    assert "Sofia Ramos cheats Fate: plays 10♦ (10 of Masks) from the Control Hand" in " ".join(e.text for e in st.log)


@pytest.mark.anyio
async def test_twod20_attack_by_keys_at_100x30(tmp_path: Path) -> None:
    """`s`, Attack, Enter; 1 the target (the Cultist: the best chance); 4 the tracker rolls five d20s (three
    bought); the hit's damage: 1 rolls the pistol's dice. Each step a key."""
    app = _app(tmp_path, "skirmish_srd.toml", "start", "pick Ada")

    async with app.run_test(size=(100, 30)) as pilot:
        await _pick(pilot, app, "attack")
        assert _kind(app) == "attack_target"
        assert "Cultist · Medium, D3" in screen_text(app)
        assert await _press(pilot, app, "1") == "attack_roll"
        assert "Coordination 10 + Fight 2 = TN 12, focus 2 (Pistols), Difficulty 3" in screen_text(app)
        # 5d20: three bought for 1 + 2 + 3 (Momentum, then Threat)
        assert await _press(pilot, app, "4") == "attack_damage"
        assert await _press(pilot, app, "1") is None  # the Service pistol's 4[CD], no Bonus Damage

    log = [e.text for e in app.session.state.log]
    assert any(t.startswith("Ada Vance tests: d20: ") and "pass" in t for t in log)
    assert any(t.startswith("Cultist takes ") for t in log)


@pytest.mark.anyio
async def test_the_spend_list_narrows_as_you_type_and_enter_picks(tmp_path: Path) -> None:
    """UX.md journey 1: `s`, then `str`: only Strike is left and Enter starts it; `pro` finds drop-prone by
    its second word; Backspace widens the list again; a word nothing starts with says so and runs nothing."""
    app = _app(tmp_path, "duel.toml", "initiative Sofia 9", "start", "engage Sofia Guild")

    def listed() -> list[str]:
        options = app.screen.query_one(OptionList)
        return [str(options.get_option_at_index(i).id) for i in range(options.option_count)]

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, ActionPicker)
        everything = listed()
        await pilot.press("p", "r", "o")
        await pilot.pause()
        assert listed() == ["drop_prone"]
        await pilot.press("backspace", "backspace", "backspace")
        await pilot.pause()
        assert listed() == everything
        await pilot.press("z", "z")
        await pilot.pause()
        assert listed() == ["None"]  # the one line that says nothing matches
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ActionPicker) and app.session.history.commands[-1] == "engage Sofia Guild"
        await pilot.press("backspace", "backspace", "s", "t", "r")
        await pilot.pause()
        assert listed() == ["strike"]
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ActionPicker)
        assert _kind(app) == "attack_target"


@pytest.mark.anyio
async def test_enter_takes_the_default_answer_unless_a_line_is_typed(tmp_path: Path) -> None:
    """UX.md journey 1, "Enter-Enter-1-1": while a question waits, Enter answers its option 1 (the best
    target first); with the command line open, Enter runs the typed line instead."""
    app = _app(tmp_path, "duel.toml", "initiative Sofia 9", "start", "engage Sofia Guild")

    async with app.run_test(size=(80, 24)) as pilot:
        assert await _press(pilot, app, "s", "s", "t", "r", "enter") == "attack_target"
        await pilot.press("colon", *"undo", "enter")
        await pilot.pause()
        assert app.session.history.commands[-1] == "engage Sofia Guild"  # the typed undo ran, not an answer
        assert _kind(app) is None
        assert await _press(pilot, app, "escape", "s", "s", "t", "r", "enter") == "attack_target"
        assert await _press(pilot, app, "enter") == "attack"  # Enter chose the Guild Enforcer, option 1
        assert app.session.history.commands[-1] == "answer 'Guild Enforcer'"


@pytest.mark.anyio
async def test_twod20_overcome_by_keys_asks_which_task_then_its_test_at_80x24(tmp_path: Path) -> None:
    """[004:L1470]: `s`, Overcome, Enter; 1 the bomb (the only open task with a test, its chance shown); 1 the
    tracker rolls the task's test. Each step a key, as the one-key attack."""
    bomb = "task 'Defuse the bomb' stress=8 breakthroughs=2 resistance=1 clock=3 test=reason+tech difficulty=2"
    app = _app(tmp_path, "srd_bomb_clock.toml", bomb, "start", "pick Ada")

    async with app.run_test(size=(80, 24)) as pilot:
        await _pick(pilot, app, "overcome")
        assert _kind(app) == "overcome_task"
        assert "Defuse the bomb · " in screen_text(app) and "% a success" in screen_text(app)
        assert await _press(pilot, app, "1") == "overcome_roll"
        assert "Ada Vance works on Defuse the bomb" in screen_text(app)
        assert await _press(pilot, app, "1") is None

    log = [e.text for e in app.session.state.log]
    assert any(t.startswith("Ada Vance tests: d20: ") for t in log)
