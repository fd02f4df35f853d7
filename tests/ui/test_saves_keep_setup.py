"""The GM screen's save after each command keeps the GM's setup text (docs/reference/file-format.md),
including the recovery after a failed write (the session rebuilt from the last durable text)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from tests.store.test_keep_setup import RICH, assert_kept, crlf, in_memory
from tracker.engine.records.record import dump
from tracker.store import files
from tracker.store.save import load_session
from tracker.ui.app import TrackerApp


def test_the_gm_screen_keeps_the_setup_text_through_a_failed_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = crlf(RICH)
    path = tmp_path / "rich.toml"
    path.write_bytes(setup.encode("utf-8"))
    app = TrackerApp(load_session(path), path)
    assert app.submit("start") is None
    assert_kept(path, setup)
    durable = path.read_bytes()

    def full(target: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(files, "write_text", full)
        assert "not saved" in (app.submit("next") or "")
    assert path.read_bytes() == durable
    for line in ("next", "add thug dazed", "undo", "redo"):
        assert app.submit(line) is None
        assert_kept(path, setup)
    expected = in_memory(RICH, ["start", "next", "add thug dazed", "undo", "redo"])
    assert dump(load_session(path).state) == dump(expected.state)
