"""Theme files (issue 4): data checked by a record (pydantic through `tracker.rules.record`, issue 12), a broken
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
