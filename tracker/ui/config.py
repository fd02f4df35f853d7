"""The user's settings (the chosen theme), kept in the platform's config folder (platformdirs)."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir


def config_dir() -> Path:
    """``TRACKER_CONFIG_DIR`` wins (tests, shared boxes); else the platform's config folder."""
    override = os.environ.get("TRACKER_CONFIG_DIR")
    return Path(override) if override else Path(user_config_dir("tracker"))


def load_config() -> dict[str, str]:
    """The settings file's text values ({} when there is none or it does not parse).

    Recalled by its text when read before (`tracker.engine.records.record.text_key`): parsing TOML means importing
    `tomllib` (≈ 17 M instructions), which a start whose files were all read before skips."""
    from tracker.engine.records import record

    try:
        text = (config_dir() / "config.toml").read_text(encoding="utf-8")
    except (OSError, ValueError):
        return {}
    key = record.text_key("config", text)
    found = record.recall(key)
    if isinstance(found, dict) and all(isinstance(v, str) for v in found.values()):
        return found
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}
    values = {k: v for k, v in data.items() if isinstance(v, str)}
    record.keep(key, values)
    return values


def save_config(values: dict[str, str]) -> None:
    """Best effort: a read-only home must not stop the tracker."""
    import tomli_w  # here: only a theme change writes the settings, and start-up need not load the writer

    try:
        folder = config_dir()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.toml").write_text(tomli_w.dumps(values), encoding="utf-8")
    except OSError:
        pass
