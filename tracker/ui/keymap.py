"""Keys remapped from the settings file's ``[keymap]`` table through Textual's keymap (`App.set_keymap`,
by binding id): docs/guide/keys.md.

Every screen's actions have ids (`tracker.ui.actions`); an entry names one and gives it other keys, which
then replace its own, in the footer and ``?`` help too. A bad entry is one warning line and is left out.
"""

from __future__ import annotations

from tracker.ui.config import load_keymap


def binding_ids() -> set[str]:
    """The id of every key of every screen, the ones a keymap entry may name. The screens are imported only
    here, for a settings file that has a keymap (the GM's start never loads a player's screen)."""
    from textual.binding import Binding

    from tracker.ui.screens import modals
    from tracker.ui.screens.bindings import GM_ACTIONS
    from tracker.ui.screens.play import PLAY_ACTIONS
    from tracker.ui.screens.player import PLAYER_ACTIONS
    from tracker.ui.screens.story import StoryScreen

    ids = GM_ACTIONS.ids() | PLAY_ACTIONS.ids() | PLAYER_ACTIONS.ids()
    screens = (StoryScreen, modals.HelpScreen, modals.RuleScreen, modals.ActionPicker, modals.HeldScreen)
    for screen in screens:
        ids |= {b.id for b in screen.BINDINGS if isinstance(b, Binding) and b.id}
    return ids


def remapped_keys() -> tuple[dict[str, str], list[str]]:
    """The settings file's keymap, its good entries, and a line for each bad one."""
    return load_keymap(binding_ids)
