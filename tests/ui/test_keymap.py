"""Keys remapped from the settings file's ``[keymap]`` table (docs/guide/keys.md), and the one list of actions
the screens' keys, palette and help read (`tracker.ui.actions`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding

from tests.ui.conftest import make_app
from tracker.ui.app import TrackerApp
from tracker.ui.config import is_key, load_settings
from tracker.ui.keymap import binding_ids
from tracker.ui.screens.acting import ActingScreen
from tracker.ui.screens.bindings import GM_ACTIONS
from tracker.ui.screens.main import TrackerScreen
from tracker.ui.screens.modals import HelpScreen
from tracker.ui.screens.play import PlayScreen
from tracker.ui.screens.player import PlayerScreen


def settings(folder: Path, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(text, encoding="utf-8")


def warnings(app: TrackerApp) -> list[str]:
    return [n.message for n in app._notifications if n.severity == "warning"]


@pytest.mark.anyio
async def test_a_remapped_key_runs_the_action_and_the_old_key_no_longer_does(
    tmp_path: Path, private_config: Path
) -> None:
    """`next = "x"`: x starts the fight; n, the key it had, does nothing any more; help names x."""
    settings(private_config, '[keymap]\nnext = "x"\n')
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert app.session.rules.state.phase == "setup"
        await pilot.press("x")
        await pilot.pause()
        assert app.session.rules.state.phase != "setup"
        assert warnings(app) == []
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert ("x", "Next") in app.screen._rows
        assert all(keys != "n" for keys, _ in app.screen._rows)


@pytest.mark.anyio
async def test_bad_keymap_entries_are_one_line_each_and_the_good_ones_apply(
    tmp_path: Path, private_config: Path
) -> None:
    """An id no screen has, keys that are not a string, a key that does not exist: one warning line each,
    no traceback; the good entry is remapped all the same."""
    settings(private_config, '[keymap]\nnxt = "x"\nundo = 3\nredo = "ctrl+nope"\nnext = "x"\n')
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        said = warnings(app)
        assert len(said) == 3 and all("\n" not in line for line in said)
        assert any("nxt: no action has this id" in line for line in said)
        assert any('undo: give the keys as a string, such as "ctrl+n"' in line for line in said)
        assert any("redo: 'ctrl+nope' is not a key" in line for line in said)
        assert app.remapped == {"next": "x"}
        await pilot.press("x")
        await pilot.pause()
        assert app.session.rules.state.phase != "setup"


@pytest.mark.anyio
async def test_a_keymap_that_is_not_a_table_is_one_line(tmp_path: Path, private_config: Path) -> None:
    settings(private_config, 'keymap = "n=x"\n')
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert [line for line in warnings(app) if "[keymap] must be a table" in line]
        await pilot.press("n")  # the keys are left as they were
        await pilot.pause()
        assert app.session.rules.state.phase != "setup"


@pytest.mark.anyio
async def test_cycling_the_theme_keeps_the_keymap(tmp_path: Path, private_config: Path) -> None:
    """`t` writes the theme into the settings file: the keymap table stays in it."""
    settings(private_config, '[keymap]\nnext = "x"\n')
    app = make_app(tmp_path, "duel.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")
        await pilot.pause()

    kept = load_settings()
    assert kept["keymap"] == {"next": "x"} and kept["theme"] == app.theme


@pytest.mark.parametrize("screen", [TrackerScreen, PlayScreen, PlayerScreen])
def test_every_default_key_is_a_key_and_every_id_can_be_remapped(screen: type[ActingScreen]) -> None:
    """The keymap's check accepts every key the screens bind by default, and knows every id they have."""
    ids = binding_ids()
    for binding in screen.BINDINGS:
        assert isinstance(binding, Binding)
        assert binding.id in ids
        for key in binding.key.split(","):
            assert is_key(key), key


def test_the_player_screens_run_the_gm_screens_action_code() -> None:
    """One action model: answering, spending's picker, the tabs, the story and the theme are written once."""
    for name in ("action_answer", "action_answer_first", "action_tab", "action_story", "action_cycle_theme", "pick"):
        shared = getattr(ActingScreen, name)
        assert getattr(TrackerScreen, name) is shared and getattr(PlayScreen, name) is shared, name
    assert PlayerScreen.action_story is ActingScreen.action_story
    # The same action under each screen's own id: a keymap entry remaps one screen's key, not the other's.
    assert GM_ACTIONS["next"].name == PlayScreen.ACTIONS["play.next"].name == "next_turn"


def test_keys_help_and_palette_come_from_the_one_list() -> None:
    """The bindings are the list's; the palette's order names only actions of the list."""
    assert [b.id for b in TrackerScreen.BINDINGS if isinstance(b, Binding)] == [
        a.id for a in GM_ACTIONS.actions if a.keys
    ]
    assert set(GM_ACTIONS.palette) <= GM_ACTIONS.ids()


@pytest.mark.anyio
async def test_the_palette_keeps_its_order_mid_turn(tmp_path: Path) -> None:
    """The palette lists the turn's entries first, the verbs, the pools, the fight's end, leave, undo and the
    general ones last: the order the palette had before its entries came from the list of actions."""
    from tracker.ui.offers import offers

    app = make_app(tmp_path, "skirmish_srd.toml")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n", "1")
        await pilot.pause()
        assert isinstance(app.screen, TrackerScreen)
        assert [title for title, _, _ in offers(app.screen)] == [
            "End the turn",
            "Spend…",
            "Damage…",
            "Heal…",
            "Add a condition…",
            "Remove a condition…",
            "Move to a zone…",
            "Momentum +1",
            "Threat +1",
            "End the scene",
            "Leave the fight…",
            "Undo",
            "Help",
            "Cycle theme",
        ]


@pytest.mark.anyio
async def test_the_idle_bar_names_the_keys_as_bound_and_only_the_familys_verbs(
    tmp_path: Path, private_config: Path
) -> None:
    """The idle prompt bar's keys come from the screen's actions: a `[keymap]` entry shows its own key, and a
    prefilling key is named only where the family has the verb (the coin family has no `damage`: its GM-screen
    snapshot, tests/families/coin, shows the bar without it)."""
    from tracker.ui.screens.main import TrackerScreen

    settings(private_config, '[keymap]\nnext = "x"\n')
    app = make_app(tmp_path, "duel.toml")
    async with app.run_test(size=(120, 40)):
        screen = app.screen
        assert isinstance(screen, TrackerScreen)
        assert screen.idle_keys() == " · x next · s spend · d damage · : command · ? help"
