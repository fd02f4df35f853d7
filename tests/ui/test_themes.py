"""Theme files (issue 4) read without pydantic at start-up (issue 12): the plain reading of `tracker.ui.themes`
must agree with the model of `tracker.ui.theme_file` on every file it accepts, and leave every other file
(and its wording) to the model."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.ui.theme_file import checked_theme
from tracker.ui.themes import _plain_theme, load_themes


def builtin_files() -> list[tuple[str, dict[str, Any]]]:
    entries = sorted(resources.files("tracker.themes").iterdir(), key=lambda e: e.name)
    return [(e.name, tomllib.loads(e.read_text(encoding="utf-8"))) for e in entries if e.name.endswith(".toml")]


@pytest.mark.parametrize(("label", "data"), builtin_files(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_builtin_theme_reads_the_plain_way_as_the_model_reads_it(label: str, data: dict[str, Any]) -> None:
    plain = _plain_theme(data)
    assert plain is not None, f"{label} needs the model at every start"
    assert plain == checked_theme(data, label)


COLOUR = st.sampled_from(["#C9A227", "red", "rgb(1,2,3)", "not-a-colour", "", 5, ["#fff"]])
VALUES: dict[str, st.SearchStrategy[object]] = {
    "name": st.sampled_from(["other", "", 3, True]),
    "dark": st.sampled_from([True, False, "true", "no", 1, 0, 2]),
    "primary": COLOUR,
    "secondary": COLOUR,
    "panel": COLOUR,
    "glow": COLOUR,
}
#: Theme files near a valid one: one to three keys changed to a value right or wrong the ways files are, or removed.
CHANGES = st.lists(
    st.sampled_from(sorted(VALUES)).flatmap(lambda key: st.tuples(st.just(key), st.none() | VALUES[key])),
    min_size=1,
    max_size=3,
)


def near_theme(changes: list[tuple[str, object]]) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "breach", "primary": "#C9A227"}
    for key, value in changes:
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


@settings(max_examples=400, deadline=None)
@given(CHANGES)
def test_the_plain_reading_never_accepts_what_the_model_refuses_or_reads_differently(
    changes: list[tuple[str, object]],
) -> None:
    data = near_theme(changes)
    plain = _plain_theme(data)
    if plain is None:
        return  # the model decides, and words any problem
    assert plain == checked_theme(data, "any.toml")


def test_a_file_the_plain_reading_leaves_gets_the_models_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken user theme is reported as the model words it; the good themes still load."""
    monkeypatch.setenv("TRACKER_CONFIG_DIR", str(tmp_path))
    (tmp_path / "themes").mkdir()
    (tmp_path / "themes" / "odd.toml").write_text('name = "odd"\nprimary = "#fff"\nglow = "#000"\n')
    (tmp_path / "themes" / "bad.toml").write_text('name = "bad"\nprimary = "not-a-colour"\n')
    themes, problems = load_themes()
    assert "breach-dark" in {t.name for t in themes}
    assert [p.split(": ", 1)[1] for p in problems] == [
        "primary: 'not-a-colour' is not a colour",
        "glow: Extra inputs are not permitted",
    ]
