"""Theme files: data checked by a record (pydantic through `tracker.engine.records.record`), a broken
user theme a one-line problem while the good themes still load."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker.ui.themes import load_themes


def test_a_broken_user_theme_is_a_problem_and_the_good_themes_still_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRACKER_CONFIG_DIR", str(tmp_path))
    (tmp_path / "themes").mkdir()
    (tmp_path / "themes" / "odd.toml").write_text('name = "odd"\nprimary = "#fff"\nglow = "#000"\n')
    (tmp_path / "themes" / "bad.toml").write_text('name = "bad"\nprimary = "not-a-colour"\n')
    (tmp_path / "themes" / "mine.toml").write_text('name = "mine"\ndark = false\nprimary = "#C9A227"\n')
    themes, problems = load_themes()
    names = {t.name for t in themes}
    assert {"breach-dark", "mine"} <= names and not {"odd", "bad"} & names
    assert [p.split(": ", 1)[1] for p in problems] == [
        "primary: 'not-a-colour' is not a colour",
        "glow: Extra inputs are not permitted",
    ]


def test_themes_and_settings_read_before_are_recalled_unparsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12 (first frame): a theme file or the settings file read before is recalled by its text from the
    memo of validated files, so a start whose files were all read before never loads `tomllib` for them; a
    broken theme is never remembered, and says what is wrong every time."""
    import tomllib

    from tracker.engine.records import record
    from tracker.store.validated import FolderMemo
    from tracker.ui.config import load_config, save_setting

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("tomllib parsed a file the memo holds")

    monkeypatch.setenv("TRACKER_CONFIG_DIR", str(tmp_path))
    (tmp_path / "themes").mkdir()
    (tmp_path / "themes" / "mine.toml").write_text('name = "mine"\ndark = false\nprimary = "#C9A227"\n')
    (tmp_path / "themes" / "bad.toml").write_text('name = "bad"\nprimary = "not-a-colour"\n')
    save_setting("theme", "mine")
    record.use_memo(FolderMemo(tmp_path / "cache"))
    try:
        themes, problems = load_themes()
        assert len(problems) == 1 and "bad.toml" in problems[0]
        assert load_config() == {"theme": "mine"}
        monkeypatch.setattr(tomllib, "loads", refuse)
        with pytest.raises(AssertionError, match="tomllib parsed"):  # the broken theme is read afresh each time
            load_themes()
        (tmp_path / "themes" / "bad.toml").unlink()
        again, problems = load_themes()
        assert problems == []
        assert [(t.name, t.primary, t.dark) for t in again] == [(t.name, t.primary, t.dark) for t in themes]
        assert load_config() == {"theme": "mine"}
    finally:
        record.use_memo(None)
