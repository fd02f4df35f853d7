"""What `tracker exec --save` writes for each example after a few commands is the very text kept in
``tests/store/saved`` (first written by the tracker before records became dataclasses; written again only
where the log's words changed on purpose, as when card answers took the suit symbols): saves write the same
TOML, byte for byte, whether the file was validated by pydantic or recalled from the memo."""

from __future__ import annotations

import io
import shutil
import sys
import tomllib
from pathlib import Path

import pytest

from tracker.cli.main import main
from tracker.engine.records import record

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SAVED = Path(__file__).resolve().parent / "saved"
ENCOUNTERS = sorted(p for p in EXAMPLES.rglob("*.toml") if "\n[encounter]" in "\n" + p.read_text(encoding="utf-8"))


def play(folder: Path, path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    """The file's text after its first demo steps (or ``start``, ``next``, ``next``), in three runs of
    ``tracker exec --save``, the last an undo and a redo."""
    shutil.copytree(EXAMPLES, folder / "examples", ignore=shutil.ignore_patterns(".*"))
    target = folder / "examples" / path.relative_to(EXAMPLES)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    demo = [step["do"] for step in data.get("demo", [])]
    lines = (demo or ["start", "next", "next"])[:8]
    seed = ["--seed", str(data["encounter"]["demo_seed"])]  # the demo's cards: the file keeps no seed of its own
    for chunk in (lines[:4], lines[4:], ["undo", "redo"] if lines[4:] else []):
        if chunk:
            monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in chunk)))
            assert main(["exec", str(target), "--save", *seed]) == 0, capsys.readouterr().err
            seed = []
    capsys.readouterr()
    return target.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: p.name)
@pytest.mark.parametrize("remember", [False, True], ids=["validated", "recalled"])
def test_saves_write_the_same_text_as_before(
    path: Path, remember: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TRACKER_CACHE_DIR", str(tmp_path / "cache"))
    if remember:
        monkeypatch.delenv("TRACKER_NO_CACHE", raising=False)
        play(tmp_path / "first", path, monkeypatch, capsys)  # fills the memo: the next play recalls it all
    else:
        monkeypatch.setenv("TRACKER_NO_CACHE", "1")
    try:
        text = play(tmp_path / "again", path, monkeypatch, capsys)
    finally:
        record.use_memo(None)
    expected = (SAVED / str(path.relative_to(EXAMPLES)).replace("/", "__")).read_text(encoding="utf-8")
    assert text == expected
