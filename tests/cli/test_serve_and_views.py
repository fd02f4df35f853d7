"""`tracker serve` and the viewer commands' wiring (issue 5), without opening a socket or a terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tracker import cli

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "duel.toml"


class FakeServer:
    made: list[dict[str, Any]] = []

    def __init__(self, command: str, host: str, port: int, title: str | None = None) -> None:
        FakeServer.made.append({"command": command, "host": host, "port": port})

    def serve(self) -> None:
        pass


@pytest.fixture
def fake_server(monkeypatch: pytest.MonkeyPatch) -> type[FakeServer]:
    import textual_serve.server

    FakeServer.made = []
    monkeypatch.setattr(textual_serve.server, "Server", FakeServer)
    return FakeServer


def test_serve_binds_loopback_by_default(fake_server: type[FakeServer], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", str(EXAMPLE), "--player"]) == 0
    made = fake_server.made[0]
    assert made["host"] == "127.0.0.1" and made["port"] == 8000
    assert " view " in made["command"] and made["command"].endswith("--player")
    assert "warning" not in capsys.readouterr().err


def test_serve_elsewhere_warns_about_no_authentication(
    fake_server: type[FakeServer], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["serve", str(EXAMPLE), "--host", "0.0.0.0", "--port", "9000"]) == 0
    assert "no authentication" in capsys.readouterr().err
    assert fake_server.made[0]["host"] == "0.0.0.0"


def test_serve_write_mode_runs_the_gm_view(fake_server: type[FakeServer]) -> None:
    assert cli.main(["serve", str(EXAMPLE), "--write"]) == 0
    assert " run " in fake_server.made[0]["command"]


def test_stale_temp_files_are_removed(tmp_path: Path) -> None:
    from tracker.store.files import remove_stale_temp_files

    target = tmp_path / "fight.toml"
    target.write_text("x")
    (tmp_path / ".fight.toml.abc.tmp").write_text("half")
    (tmp_path / ".other.toml.abc.tmp").write_text("not ours")
    assert remove_stale_temp_files(target) == 1
    assert target.exists() and (tmp_path / ".other.toml.abc.tmp").exists()
