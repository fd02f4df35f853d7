"""The user's settings (the chosen theme, keys remapped), kept in the platform's config folder (platformdirs).

The file is ``config.toml``: ``theme = "NAME"`` (what ``t`` last chose) and a ``[keymap]`` table giving
actions other keys, by the binding id each action has (docs/guide/keys.md lists them):

    [keymap]
    next = "ctrl+n"          # the GM's `n`
    "play.next" = "space"    # a player's `n`

A bad entry is said in one line and left out; the rest apply (`load_keymap`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from platformdirs import user_config_dir

#: The modifiers a key may be written with (``ctrl+shift+up``).
MODIFIERS = {"ctrl", "shift", "alt", "meta", "super", "hyper"}


def config_dir() -> Path:
    """``TRACKER_CONFIG_DIR`` wins (tests, shared boxes); else the platform's config folder."""
    override = os.environ.get("TRACKER_CONFIG_DIR")
    return Path(override) if override else Path(user_config_dir("tracker"))


def load_settings() -> dict[str, Any]:
    """Everything the settings file holds ({} when there is none or it does not parse).

    Recalled by its text when read before (`tracker.engine.records.record.text_key`): parsing TOML means importing
    `tomllib` (≈ 17 M instructions), which a start whose files were all read before skips."""
    from tracker.engine.records import record

    try:
        text = (config_dir() / "config.toml").read_text(encoding="utf-8")
    except (OSError, ValueError):
        return {}
    key = record.text_key("settings", text)
    found = record.recall(key)
    if isinstance(found, dict):
        return found
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}
    record.keep(key, data)
    return data


def load_config() -> dict[str, str]:
    """The settings file's text values (the theme)."""
    return {k: v for k, v in load_settings().items() if isinstance(v, str)}


def load_keymap(known: Callable[[], Collection[str]]) -> tuple[dict[str, str], list[str]]:
    """The ``[keymap]`` table (binding id → keys, as Textual's `App.set_keymap` takes it) and, one line each,
    the entries left out: an id no screen has (`known()`, asked only when there is a table), keys that are
    not a string or name no key."""
    table = load_settings().get("keymap")
    if table is None:
        return {}, []
    ids = known()
    where = f"{config_dir() / 'config.toml'}: [keymap]"
    if not isinstance(table, dict):
        return {}, [f'{where} must be a table of action = "keys" lines; keys left as they are']
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for action, keys in table.items():
        if action not in ids:
            problems.append(f"{where} {action}: no action has this id (docs/guide/keys.md lists them); left out")
        elif not isinstance(keys, str) or not keys.strip():
            problems.append(f'{where} {action}: give the keys as a string, such as "ctrl+n"; left out')
        elif bad := [k for k in keys.split(",") if not is_key(k.strip())]:
            problems.append(f"{where} {action}: '{bad[0].strip()}' is not a key; left out")
        else:
            keymap[action] = keys
    return keymap, problems


def is_key(key: str) -> bool:
    """Whether Textual knows `key` as written in a binding: modifiers and a character or a key's name
    (``ctrl+n``, ``?``, ``question_mark``, ``pagedown``, ``f5``)."""
    from textual.keys import REPLACED_KEYS, Keys, key_to_character

    *modifiers, name = key.split("+")
    if not name or any(m not in MODIFIERS for m in modifiers):
        return False
    if len(name) == 1:
        return name.isprintable()
    named = {k.value.rpartition("+")[2] for k in Keys}
    return name in named or name in REPLACED_KEYS or key_to_character(name) is not None


def save_setting(name: str, value: str) -> None:
    """Keep one setting, and the rest of the file as it was (its keymap). Best effort: a read-only home must
    not stop the tracker."""
    import tomli_w  # here: only a theme change writes the settings, and start-up need not load the writer

    try:
        folder = config_dir()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.toml").write_text(tomli_w.dumps({**load_settings(), name: value}), encoding="utf-8")
    except (OSError, TypeError, ValueError):
        pass
