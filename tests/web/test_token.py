"""`tracker serve` answers only whoever has the URL it printed (docs/guide/shared-box.md).

127.0.0.1 is reachable by every account on a shared box, so every route (the page, its static files, the
websocket, any other path) refuses a request without the token with a plain 403, and the token never
shows on the server's console, not even with `--verbose`. The token travels in addresses only (the printed
`?token=`, the page's own `/s/TOKEN/…`), never in a cookie: a browser sends a host's cookies to every port
of it, so another account's server on 127.0.0.1 would receive one. The servers here are real ones
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
    a wrong one in the query or the path, and with a cookie holding the right one (no cookie opens
    anything), on the players' server and on the GM's writing one."""
    path = tmp_path / "duel.toml"
    shutil.copy(EXAMPLE, path)

    async def drive(server: Served) -> None:
        wrong = "x" * 43
        async with aiohttp.ClientSession() as http:
            for where in ("/", SCRIPT, "/static/css/xterm.css", "/static/", "/nope", "/download/key"):
                await refused(http, server.url + where)
                await refused(http, f"{server.url}{where}?token={wrong}")
                await refused(http, f"{server.url}{where}?token={server.token[:-1]}")
                await refused(http, f"{server.url}/s/{wrong}{where}")
                await refused(http, f"{server.url}/s/{server.token[:-1]}{where}")
                await refused(http, f"{server.url}/x/{server.token}{where}")
            await refused(http, f"{server.url}/s/{server.token}")  # the token, but not as a folder
            await websocket_refused(http, websocket(server))
            await websocket_refused(http, websocket(server, f"&token={wrong}"))
        # The cookie earlier versions set, with the right token in it: it opens nothing now.
        port = server.url.rsplit(":", 1)[1]
        async with aiohttp.ClientSession(cookies={f"tracker-token-{port}": server.token}) as http:
            await refused(http, server.url + "/")
            await refused(http, server.url + SCRIPT)
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
def test_the_printed_url_opens_the_page_and_its_tokened_path_the_rest(mode: str, wanted: str, tmp_path: Path) -> None:
    """The printed URL answers 200 and sets no cookie; the page's own addresses are under `/s/TOKEN/` (its
    base), where a client that keeps no cookies at all gets the page, the static files and the websocket,
    which draws the view. The token in the query opens them too (programs)."""
    path = tmp_path / "duel.toml"
    shutil.copy(EXAMPLE, path)

    async def drive(server: Served) -> None:
        tokened = f"{server.url}/s/{server.token}"
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
            async with http.get(server.page_url, allow_redirects=False) as response:
                page = await response.text()
            assert response.status == 200
            assert "<title>tracker: duel.toml</title>" in page
            assert f'<base href="s/{server.token}/" />' in page
            assert "set-cookie" not in response.headers
            assert response.headers["Referrer-Policy"] == "no-referrer"

            for where in ("/", SCRIPT, "/static/css/xterm.css"):  # the token in the path alone
                async with http.get(tokened + where) as response:
                    assert response.status == 200, where
                    assert "set-cookie" not in response.headers
            async with http.get(tokened + "/") as response:
                assert "<base" not in await response.text()  # opened there: its addresses are relative to it
            tab = await http.ws_connect("ws" + tokened.removeprefix("http") + "/ws?width=120&height=30")
            await shown(tab, wanted)
            await tab.close()

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
    requests carry (the page's URL, token and all), and a tokened path as `/s/<token>/…`; a malformed
    request that holds the token is one line with the token blanked, no traceback."""
    path = tmp_path / "duel.toml"
    shutil.copy(EXAMPLE, path)

    async def drive(server: Served) -> None:
        async with aiohttp.ClientSession(headers={"Referer": server.page_url}) as http:
            async with http.get(server.page_url) as response:
                assert response.status == 200
            async with http.get(f"{server.url}{SCRIPT}?token={server.token}") as response:
                assert response.status == 200
            async with http.get(f"{server.url}/s/{server.token}{SCRIPT}") as response:
                assert response.status == 200
            tab = await http.ws_connect("ws" + server.url.removeprefix("http") + f"/s/{server.token}/ws")
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
    assert f'"GET /s/<token>{SCRIPT} HTTP/1.1" 200' in out and '"GET /s/<token>/ws HTTP/1.1" 101' in out
    assert '"GET / HTTP/1.1" 403' in out
    assert "<token>" in out and "Traceback" not in console


@pytest.mark.anyio
async def test_any_method_and_any_token_text_is_refused_plainly() -> None:
    """Other methods, and a token that is not ASCII (which `hmac.compare_digest` would refuse as a str),
    are a 403 like any other, never a 500; no tab's process starts for a refused websocket."""

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


def test_each_server_has_its_own_token_and_tokened_path() -> None:
    """A new token at every start, and the page's own addresses under a path that holds it."""
    servers = []
    for _ in range(2):
        sock = web.listening_socket("127.0.0.1", 0)
        try:
            servers.append(web.TableServer("exec true", sock, url=web.public_url("127.0.0.1", sock), title="t"))
        finally:
            sock.close()
    first, second = servers
    assert first.token != second.token and TOKEN.fullmatch(first.token)
    assert first.prefix == f"/s/{first.token}" != second.prefix
    assert first.page_url == f"{first.public_url}/?token={first.token}"
    assert web.path_token(f"/s/{first.token}/static/x") == first.token
    assert web.path_token(f"/s/{first.token}") is None and web.path_token("/static/s/x/") is None
    assert web.tokenless(f"/s/{first.token}/ws") == "/s/<token>/ws"


def test_the_page_asks_its_own_address_for_everything() -> None:
    """Behind a TLS reverse proxy the page is opened at the proxy's address: its static files are relative
    and its websocket is built from the page's base (the address in the browser, its tokened path), so
    nothing points at 127.0.0.1:PORT."""
    page = (Path(web.TEMPLATES) / "app_index.html").read_text(encoding="utf-8")
    assert 'src="static/js/textual.js"' in page and "config.static.url" not in page
    assert 'new URL("ws", document.baseURI)' in page and "wss:" in page
    assert '<base href="{{ base }}" />' in page
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


@pytest.mark.anyio
async def test_a_page_of_another_origin_cannot_open_the_websocket() -> None:
    """A browser counts a page another account serves on 127.0.0.1:OTHER as the same site. Even with the
    token (which it has no way to learn), its websocket handshake names its Origin and is refused; the
    server's own page's Origin is let through."""

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


def _handshake(origin: str, url: str) -> aioweb.Request:
    from aiohttp.test_utils import make_mocked_request

    host = url.split("//", 1)[1].rstrip("/")
    headers = {"Origin": origin, "Upgrade": "websocket", "Connection": "Upgrade", "Host": host}
    return make_mocked_request("GET", "/ws", headers=headers)


@pytest.mark.anyio
async def test_a_page_on_another_port_receives_nothing_of_the_token() -> None:
    """The finding: the cookie was `Path=/` on 127.0.0.1, and browsers send a host's cookies to every port,
    so a page another account served on 127.0.0.1:OTHER received the GM's `--write` token. Now a client
    that keeps cookies as a browser does (per host, not per port) opens the printed URL, the page's files
    and its websocket, then visits another server on another port of the same host, even at the tokened
    path: nothing was ever set, and nothing reaches it."""

    server, runner = await table_server(guarded=True, command="exec sleep 30")
    seen: list[dict[str, str]] = []

    async def other(request: aioweb.Request) -> aioweb.Response:
        seen.append(dict(request.headers))
        return aioweb.Response(text="another account's page")

    other_app = aioweb.Application()
    other_app.router.add_get("/{tail:.*}", other)
    other_runner = aioweb.AppRunner(other_app)
    await other_runner.setup()
    other_site = aioweb.TCPSite(other_runner, "127.0.0.1", 0)
    await other_site.start()
    other_url = f"http://127.0.0.1:{other_runner.addresses[0][1]}"
    try:
        tokened = f"{server.public_url}/s/{server.token}"
        async with aiohttp.ClientSession(cookie_jar=cookie_jar()) as http:
            for url in (server.page_url, f"{tokened}/", f"{tokened}{SCRIPT}"):
                async with http.get(url) as response:
                    assert response.status == 200, url
                    assert "set-cookie" not in response.headers, url
            tab = await http.ws_connect("ws" + tokened.removeprefix("http") + "/ws")
            await tab.close()
            assert len(http.cookie_jar) == 0
            for where in ("/", "/ws", f"/s/{server.token}/", f"/s/{server.token}/ws"):
                async with http.get(other_url + where) as response:
                    assert response.status == 200
        assert len(seen) == 4
        assert all("Cookie" not in headers for headers in seen), seen
        assert all(server.token not in str(headers) for headers in seen[:2]), seen
    finally:
        await other_runner.cleanup()
        await runner.cleanup()
