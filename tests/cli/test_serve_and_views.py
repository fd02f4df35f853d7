"""`tracker serve` and the viewer commands' wiring, without serving: everything
`tracker serve` checks before its one "serving" line, and what a served child does with a problem.
tests/cli/test_serve_live.py runs a real server."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import pytest

from tracker.cli import main as cli
from tracker.store.lock import WriterLock
from tracker.web import SERVED_ENV
from tracker.web import server as web

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "duel.toml"


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[web.TableServer]:
    """The servers `tracker serve` would have run (their socket bound, then closed unserved)."""
    made: list[web.TableServer] = []

    def serve(self: web.TableServer, debug: bool = False) -> None:
        made.append(self)
        self.sock.close()

    monkeypatch.setattr(web.TableServer, "serve", serve)
    return made


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    shutil.copy(EXAMPLE, path)
    return path


def test_serve_binds_loopback_by_default(served: list[web.TableServer], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", str(EXAMPLE), "--player"]) == 0
    server = served[0]
    assert (server.host, server.port) == ("127.0.0.1", 8000)
    assert server.command.startswith(f"{SERVED_ENV}=1 exec ") and " view " in server.command
    assert server.command.endswith("--player")
    out, err = capsys.readouterr()
    assert (
        out == f"serving the player view of {EXAMPLE} on http://127.0.0.1:8000/?token={server.token} (Ctrl+C stops)\n"
    )
    assert err == ""


def test_port_zero_prints_the_port_it_got(served: list[web.TableServer], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", str(EXAMPLE), "--port", "0"]) == 0
    port = served[0].port
    assert port != 0
    assert served[0].public_url == f"http://127.0.0.1:{port}"
    assert f"http://127.0.0.1:{port}/?token={served[0].token} " in capsys.readouterr().out


def test_serve_elsewhere_warns_and_never_prints_a_wildcard_address(
    served: list[web.TableServer], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """0.0.0.0 is where the server listens, not an address a browser can use: the machine's own
    address goes into the printed URL and the page's script and websocket addresses."""
    monkeypatch.setattr(web, "lan_address", lambda: "192.168.1.20")
    assert cli.main(["serve", str(EXAMPLE), "--host", "0.0.0.0", "--port", "0"]) == 0
    port = served[0].port
    assert served[0].public_url == f"http://192.168.1.20:{port}"
    out, err = capsys.readouterr()
    assert f"on http://192.168.1.20:{port}/?token=" in out and "0.0.0.0" not in out
    assert err.count("\n") == 1 and "plain HTTP" in err and "TLS" in err


def test_serve_write_mode_runs_the_gm_view(served: list[web.TableServer], duel: Path) -> None:
    assert cli.main(["serve", str(duel), "--write", "--port", "0"]) == 0
    assert " run " in served[0].command


def test_serve_refuses_write_with_player(served: list[web.TableServer], capsys: pytest.CaptureFixture[str]) -> None:
    """The player view is read-only: `--write --player` used to serve it silently."""
    with pytest.raises(SystemExit) as exc:
        cli.main(["serve", str(EXAMPLE), "--write", "--player"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--write and --player" in err
    assert served == []


@pytest.mark.parametrize("port", ["99999", "-5", "65536", "eighty"])
def test_serve_refuses_a_port_out_of_range_in_one_line(
    port: str, served: list[web.TableServer], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["serve", str(EXAMPLE), "--port", port])
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "0 to 65535" in err and "Traceback" not in err
    assert served == []


def test_serve_on_a_port_in_use_is_one_line_and_no_banner(
    served: list[web.TableServer], capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["serve", str(EXAMPLE), "--port", str(port)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"tracker: cannot serve on 127.0.0.1:{port}: Address already in use\n"
    assert served == []


def test_serve_on_an_unknown_host_is_one_line(
    served: list[web.TableServer], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["serve", str(EXAMPLE), "--host", "no-such-host.invalid"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("tracker: cannot serve on no-such-host.invalid: ")


#: An example with one problem: an unknown key on the line after [encounter].
GRIM = EXAMPLE.read_text(encoding="utf-8").replace("[encounter]", "[encounter]\nmood = 'grim'", 1)
GRIM_LINE = GRIM.splitlines().index("mood = 'grim'") + 1


@pytest.mark.parametrize(
    ("content", "write", "expected"),
    [
        (None, True, ":1:1: no such file"),
        (GRIM.encode(), True, f":{GRIM_LINE}:1: unknown key 'mood'"),
        (GRIM.encode(), False, f":{GRIM_LINE}:1: unknown key 'mood'"),
        (b"\xff\xfe[encounter]\n", False, ":1:1: not UTF-8 text (byte 0xff)"),
    ],
    ids=["write-missing", "write-invalid", "read-only-invalid", "read-only-not-text"],
)
def test_serve_checks_the_file_before_serving(
    content: bytes | None,
    write: bool,
    expected: str,
    tmp_path: Path,
    served: list[web.TableServer],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A --write server needs a valid file; a read-only one may wait for a missing file, but an
    existing one must be valid (its tab used to say it waited for the file to "appear")."""
    path = tmp_path / "fight.toml"
    if content is not None:
        path.write_bytes(content)
    assert cli.main(["serve", str(path), *(["--write"] if write else [])]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"{path}{expected}")
    assert served == []


def test_read_only_serve_waits_for_a_missing_file(
    tmp_path: Path, served: list[web.TableServer], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "later.toml"
    assert cli.main(["serve", str(path), "--port", "0"]) == 0
    assert f"waiting for {path} to appear" in capsys.readouterr().out
    assert " view " in served[0].command


def test_serve_write_refuses_a_file_run_elsewhere(
    duel: Path, served: list[web.TableServer], capsys: pytest.CaptureFixture[str]
) -> None:
    with WriterLock(duel):
        assert cli.main(["serve", str(duel), "--write"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"tracker: {duel} is being run by ") and f"tracker serve {duel}" in err
    assert served == []


class _Bound:
    def __init__(self, *address: object) -> None:
        self.address = address

    def getsockname(self) -> tuple[object, ...]:
        return self.address


def test_public_url_brackets_ipv6_and_replaces_wildcards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web, "lan_address", lambda: "192.168.1.20")
    ipv6 = _Bound("::1", 8123, 0, 0)
    assert web.public_url("::1", ipv6) == "http://[::1]:8123"  # type: ignore[arg-type]
    assert web.public_url("::", ipv6) == "http://192.168.1.20:8123"  # type: ignore[arg-type]
    assert web.public_url("localhost", _Bound("127.0.0.1", 80)) == "http://localhost:80"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.0.0.2", True), ("::1", True), ("LOCALHOST", True), ("0.0.0.0", False),
     ("::", False), ("192.168.1.2", False), ("table.local", False)],
)  # fmt: skip
def test_only_loopback_hosts_skip_the_warning(host: str, loopback: bool) -> None:
    assert web.is_loopback(host) is loopback


def test_served_run_shows_its_problem_in_the_tab(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A served `tracker run` whose file went missing after the server started: the tab shows the
    problem (its stderr reaches only the server's console); a terminal's `tracker run` does not."""
    from tracker.ui.problem import ProblemApp

    shown: list[list[str]] = []
    monkeypatch.setattr(ProblemApp, "run", lambda self, **_: shown.append(self.lines))
    path = tmp_path / "gone.toml"
    assert cli.main(["run", str(path)]) == 1
    assert shown == []
    monkeypatch.setenv(SERVED_ENV, "1")
    assert cli.main(["run", str(path)]) == 1
    assert shown == [[f"{path}:1:1: no such file"]]
    assert capsys.readouterr().err == f"{path}:1:1: no such file\n" * 2


def test_served_run_on_a_held_file_offers_the_read_only_view(
    duel: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second tab of a --write server: the GM view is taken by the first; it says so in the tab and
    offers to follow, as `tracker run` asks in a terminal."""
    from tracker.ui.app import TrackerApp

    opened: list[TrackerApp] = []
    monkeypatch.setattr(TrackerApp, "run", lambda self, **_: opened.append(self))
    monkeypatch.setenv(SERVED_ENV, "1")
    with WriterLock(duel):
        assert cli.main(["run", str(duel)]) == 0
    app = opened[0]
    assert app.read_only and app._held is not None and app._held.startswith(f"{duel} is being run by ")
    assert capsys.readouterr().err == ""


def test_stale_temp_files_are_removed(tmp_path: Path) -> None:
    from tracker.store.files import remove_stale_temp_files

    target = tmp_path / "fight.toml"
    target.write_text("x")
    (tmp_path / ".fight.toml.abc.tmp").write_text("half")
    (tmp_path / ".other.toml.abc.tmp").write_text("not ours")
    assert remove_stale_temp_files(target) == 1
    assert target.exists() and (tmp_path / ".other.toml.abc.tmp").exists()


@pytest.mark.parametrize("command", ["run", "view"])
def test_a_screen_loads_with_the_collector_paused_and_leaves_it_on(
    duel: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """`tracker run` and `tracker view` load the app and the file with the garbage collector paused (the
    app turns it on after its first frame); it is on again after the command, also when it fails."""
    import gc

    from tracker.ui.app import TrackerApp

    seen: list[bool] = []
    monkeypatch.setattr(TrackerApp, "run", lambda self, **_: seen.append(gc.isenabled()))
    assert cli.main([command, str(duel)]) == 0
    assert seen == [False] and gc.isenabled()
    assert cli.main([command, str(duel.with_name("gone.toml"))]) in (0, 1)
    assert gc.isenabled()


def test_an_encounter_run_through_a_link_is_run_where_it_is(tmp_path: Path) -> None:
    """Through a link, two names would take two locks on one file, and a save would replace the link by a
    new file: the fight split in two. The screens work on the file the link leads to."""
    import os

    from tracker.cli.run import the_file
    from tracker.store.lock import FileHeld, WriterLock

    target = tmp_path / "a.toml"
    target.write_text("x")
    link = tmp_path / "b.toml"
    link.symlink_to(target)
    assert the_file(str(link)) == os.path.realpath(target)
    assert the_file(str(target)) == str(target)
    first = WriterLock(Path(the_file(str(target))))
    first.acquire()
    try:
        with pytest.raises(FileHeld):
            WriterLock(Path(the_file(str(link)))).acquire()
    finally:
        first.release()
