"""`tracker serve` answers only whoever has the URL it printed (CONTRACT.md §5).

127.0.0.1 is reachable by every account on a shared box, so every route (the page, its static files, the
websocket, any other path) refuses a request without the token with a plain 403, and the token never
shows on the server's console, not even with `--verbose`. The servers here are real ones
(`tests.cli.test_serve_live.serve`); what needs no tracker process runs in this test's event loop.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
import signal
import socket
import sys
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web as aioweb

from tests.cli.test_serve_live import EXAMPLE, Served, serve, shown, table_server
from tracker.web import server as web

#: A static file the page loads (textual-serve's script).
SCRIPT = "/static/js/textual.js"
#: `secrets.token_urlsafe(32)`: 43 characters of the URL-safe base64 alphabet.
TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")


def cookie_jar() -> aiohttp.CookieJar:
    """A jar that, like a browser, keeps cookies from an IP address host (aiohttp's default refuses them)."""
    return aiohttp.CookieJar(unsafe=True)


def websocket(server: Served, query: str = "") -> str:
    return "ws" + server.url.removeprefix("http") + "/ws?width=120&height=30" + query


async def refused(http: aiohttp.ClientSession, url: str) -> None:
    """`url` answers 403 with the one plain sentence, and no tab's process is started for it."""
    async with http.get(url, allow_redirects=False) as response:
        body = await response.text()
    assert response.status == 403, (url, response.status)
    assert body == web.REFUSED
    assert response.content_type == "text/plain"
    assert "set-cookie" not in response.headers


async def websocket_refused(http: aiohttp.ClientSession, url: str) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
        await http.ws_connect(url)
    assert refusal.value.status == 403


@pytest.mark.parametrize("mode", ["--player", "--write"])
def test_without_the_token_every_route_is_403(mode: str, tmp_path: Path) -> None:
    """The page, a static file, the websocket and a path that does not exist: 403 without the token, with
    a wrong one, and with a wrong cookie, on the players' server and on the GM's writing one."""
    path = tmp_path / "duel.toml"
    shutil.copy(EXAMPLE, path)

    async def drive(server: Served) -> None:
        wrong = "x" * 43
        async with aiohttp.ClientSession() as http:
            for where in ("/", SCRIPT, "/static/css/xterm.css", "/static/", "/nope", "/download/key"):
                await refused(http, server.url + where)
                await refused(http, f"{server.url}{where}?token={wrong}")
                await refused(http, f"{server.url}{where}?token={server.token[:-1]}")
            await websocket_refused(http, websocket(server))
            await websocket_refused(http, websocket(server, f"&token={wrong}"))
        port = server.url.rsplit(":", 1)[1]
        async with aiohttp.ClientSession(cookies={f"tracker-token-{port}": wrong}) as http:
            await refused(http, server.url + "/")
            await websocket_refused(http, websocket(server))

    with serve(path, mode, config=tmp_path / "config") as server:
        asyncio.run(drive(server))
        server.process.send_signal(signal.SIGTERM)
        out, err = server.process.communicate(timeout=10)
    assert server.process.returncode == 0
    assert "Traceback" not in out + err
    assert server.token not in "".join((out + err).split())


@pytest.mark.parametrize(
    ("mode", "wanted"), [("--player", "Duel on the Burning Pier"), ("--write", "press n to start")]
)
def test_the_printed_url_opens_the_page_and_its_cookie_the_rest(mode: str, wanted: str, tmp_path: Path) -> None:
    """The printed URL answers 200 and sets an HttpOnly, SameSite=Strict cookie for the whole site; with
    that cookie alone (as the page's own script asks) the static files and the websocket answer, and the
    websocket draws the view. The token in the query opens them too."""
    path = tmp_path / "duel.toml"
    shutil.copy(EXAMPLE, path)

    async def drive(server: Served) -> None:
        async with aiohttp.ClientSession(cookie_jar=cookie_jar()) as http:
            async with http.get(server.page_url, allow_redirects=False) as response:
                page = await response.text()
            assert response.status == 200
            assert "<title>tracker: duel.toml</title>" in page
            (cookie,) = response.cookies.values()
            assert cookie.key.startswith("tracker-token-") and cookie.value == server.token
            assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/"
            assert response.headers["Referrer-Policy"] == "no-referrer"

            for where in ("/", SCRIPT):  # the cookie, no token in the address
                async with http.get(server.url + where) as response:
                    assert response.status == 200, where
            tab = await http.ws_connect(websocket(server))
            await shown(tab, wanted)
            await tab.close()

        async with aiohttp.ClientSession() as http:  # no cookie: the token in the query
            async with http.get(f"{server.url}{SCRIPT}?token={server.token}") as response:
                assert response.status == 200
            tab = await http.ws_connect(websocket(server, f"&token={server.token}"))
            await shown(tab, wanted)
            await tab.close()

    with serve(path, mode, config=tmp_path / "config") as server:
        asyncio.run(drive(server))


def test_the_printed_url_carries_a_new_token_at_each_start(tmp_path: Path) -> None:
    """The one serving line names the page with its token; a second start prints another token, and the
    first one opens nothing on it."""

    async def status(url: str) -> int:
        async with aiohttp.ClientSession() as http, http.get(url) as response:
            return response.status

    config = tmp_path / "config"
    with serve(EXAMPLE, config=config) as first, serve(EXAMPLE, config=config) as second:
        for server in (first, second):
            assert TOKEN.fullmatch(server.token), server.line
            assert f" on {server.url}/?token={server.token} (Ctrl+C stops)" in server.line
        assert first.token != second.token
        assert asyncio.run(status(second.page_url)) == 200
        assert asyncio.run(status(f"{second.url}/?token={first.token}")) == 403


def test_verbose_never_logs_the_token(tmp_path: Path) -> None:
    """`--verbose` logs a line per request with its path but not its query, nor the Referer the page's own
    requests carry (the page's URL, token and all); a malformed request that holds the token is one line
    with the token blanked, no traceback."""
    path = tmp_path / "duel.toml"
    shutil.copy(EXAMPLE, path)

    async def drive(server: Served) -> None:
        async with aiohttp.ClientSession(headers={"Referer": server.page_url}) as http:
            async with http.get(server.page_url) as response:
                assert response.status == 200
            async with http.get(f"{server.url}{SCRIPT}?token={server.token}") as response:
                assert response.status == 200
            tab = await http.ws_connect(websocket(server, f"&token={server.token}"))
            await shown(tab, "press n to start")
            await tab.close()
            await refused(http, f"{server.url}/?token=not-it")

    def malformed(server: Served) -> bytes:
        host, port = server.url.removeprefix("http://").rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            raw.sendall(f"GET /?token={server.token}&x=".encode() + "é HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            return raw.recv(4096)

    with serve(path, "--write", "--verbose", config=tmp_path / "config") as server:
        asyncio.run(drive(server))
        assert b" 400 Bad Request" in malformed(server).split(b"\r\n")[0]
        server.process.send_signal(signal.SIGTERM)
        out, err = server.process.communicate(timeout=10)
    console = out + err  # all the server wrote after its serving line (which `serve` read)
    assert server.token not in "".join(console.split())  # not even wrapped over two lines
    assert '"GET / HTTP/1.1" 200' in out and f'"GET {SCRIPT} HTTP/1.1" 200' in out
    assert '"GET /ws HTTP/1.1" 101' in out and '"GET / HTTP/1.1" 403' in out
    assert "<token>" in out and "Traceback" not in console


def test_any_method_and_any_token_text_is_refused_plainly() -> None:
    """Other methods, and a token that is not ASCII (which `hmac.compare_digest` would refuse as a str),
    are a 403 like any other, never a 500; no tab's process starts for a refused websocket."""

    async def drive() -> None:
        server, runner = await table_server(guarded=True, command="exec sleep 30")
        try:
            async with aiohttp.ClientSession() as http:
                for method in ("HEAD", "POST", "PUT", "DELETE", "OPTIONS"):
                    async with http.request(method, server.public_url + "/") as response:
                        assert response.status == 403, method
                for token in ("%C3%A9t%C3%A9", "%FF", "", server.token.upper()):
                    await refused(http, f"{server.public_url}/?token={token}")
                await websocket_refused(http, server.public_url.replace("http", "ws") + "/ws")
                assert not server.sessions
                async with http.get(server.page_url) as response:
                    assert response.status == 200
        finally:
            await runner.cleanup()

    asyncio.run(drive())


def test_each_server_has_its_own_token_and_cookie() -> None:
    """A new token at every start, and a cookie named for the port: a browser keeps cookies per host, not
    per port, so the GM's and the players' servers on one machine would otherwise overwrite each other's."""
    servers = []
    for _ in range(2):
        sock = web.listening_socket("127.0.0.1", 0)
        try:
            servers.append(web.TableServer("exec true", sock, url=web.public_url("127.0.0.1", sock), title="t"))
        finally:
            sock.close()
    first, second = servers
    assert first.token != second.token and TOKEN.fullmatch(first.token)
    assert first.guard.cookie == f"tracker-token-{first.port}" != second.guard.cookie
    assert first.page_url == f"{first.public_url}/?token={first.token}"


def test_the_page_asks_its_own_address_for_everything() -> None:
    """Behind a TLS reverse proxy the page is opened at the proxy's address: its static files are relative
    and its websocket is built from the address in the browser, so nothing points at 127.0.0.1:PORT."""
    page = (Path(web.TEMPLATES) / "app_index.html").read_text(encoding="utf-8")
    assert 'src="static/js/textual.js"' in page and "config.static.url" not in page
    assert "window.location.href" in page and "wss:" in page
    assert '<meta name="referrer" content="no-referrer" />' in page


def test_a_log_record_is_one_line_without_the_token() -> None:
    """What aiohttp logs of a malformed request (its raw request line, a traceback) reaches the console as
    one line, the token blanked and the exception reduced to its type and message."""
    token = "T" * 43
    try:
        raise ValueError(f"Invalid char in url query:\n\n  b'GET /?token={token}&x=\\xc3'\n   ^")
    except ValueError:
        record = logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1, "Error %s", ("handling",), None)
        record.exc_info = sys.exc_info()
    assert web.Redacted(token).filter(record)
    line = logging.Formatter("%(message)s").format(record)
    assert "\n" not in line and token not in line and "Traceback" not in line
    assert line.startswith("Error handling: ValueError: Invalid char in url query: b'GET /?token=<token>&x=")


def test_a_page_of_another_origin_cannot_open_the_websocket_with_the_cookie() -> None:
    """SameSite does not tell ports apart: a page another account serves on 127.0.0.1:OTHER counts as the
    same site, so the GM's browser would send it the cookie. Its websocket handshake names its Origin, and
    is refused; the server's own page's Origin is let through."""

    async def drive() -> None:
        server, runner = await table_server(guarded=True, command="exec sleep 30")
        try:
            ws = server.public_url.replace("http", "ws") + f"/ws?token={server.token}"
            async with aiohttp.ClientSession() as http:
                with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
                    await http.ws_connect(ws, headers={"Origin": "http://127.0.0.1:8888"})
                assert refusal.value.status == 403
                assert not server.sessions
                assert web.same_origin(_handshake(server.public_url, server.public_url))
                assert not web.same_origin(_handshake("http://evil.example", server.public_url))
        finally:
            await runner.cleanup()

    asyncio.run(drive())


def _handshake(origin: str, url: str) -> aioweb.Request:
    from aiohttp.test_utils import make_mocked_request

    host = url.split("//", 1)[1].rstrip("/")
    headers = {"Origin": origin, "Upgrade": "websocket", "Connection": "Upgrade", "Host": host}
    return make_mocked_request("GET", "/ws", headers=headers)
