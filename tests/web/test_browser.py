"""`tracker serve` in a real browser: Debian's chromium, driven by playwright.

The websocket tests (tests/cli/test_serve_live.py) read the bytes a tab's process sends; these read what
the page itself shows after xterm.js has drawn them, press keys in the page as a GM would, and watch the
encounter file change on disk. Each tab opens the URL the server printed, its token included (without
it the server answers 403: tests/web/test_token.py). They need a chromium binary: `$TRACKER_CHROMIUM` if
set, else `chromium` on PATH (`.ci/run` installs Debian's when it can); without one they skip, saying
which was looked for.
playwright only drives it (`executable_path`): no `playwright install`, no browser download.

How the page is read: textual-serve's script keeps its xterm.js Terminal in a local object, so an init
script catches that object as the page builds it (the first assignment of its `websocket_url`) and reads
the terminal's buffer, the text the renderer draws. Every line any frame showed is also kept, so "never
shown" means never, not merely "not on the last frame".
"""

from __future__ import annotations

import asyncio
import os
import queue
import shutil
import signal
import threading
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web as aioweb

from tests.cli.test_serve_live import EXAMPLE, ROOT, Served, serve
from tests.conftest import pinned
from tests.ui.test_viewer import advance
from tracker.store.lock import WriterLock

try:
    from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - the test extra installs it
    pytest.skip("playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

pytestmark = pytest.mark.browser

BRAWL = ROOT / "examples" / "brawl.toml"
#: The brawl's combatant with `gm_only = true`: on the GM's page, never on the players'.
SECRET = "Rotten Belle"

#: Names the chromium binary to use instead of the one on PATH.
CHROMIUM_ENV = "TRACKER_CHROMIUM"
#: Headless, and quiet on a closed network: without the background-networking flags chromium stalls
#: on start-up trying to reach Google's services. The sandbox needs user namespaces CI may not have.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Wide enough that no name or number is cut: the order table and the side panel side by side.
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
#: Generous bound for a tab's process to start and draw, or a key to reach the file, on a slow machine.
SECONDS = 20.0

#: Runs in the page before its scripts: catches textual-serve's terminal object and keeps every line drawn.
HOOK = """
(() => {
  const drawn = new Set();
  const screen = (terminal) => {
    const buffer = terminal.buffer.active, lines = [];
    for (let row = 0; row < terminal.rows; row++) {
      const line = buffer.getLine(buffer.viewportY + row);
      lines.push(line ? line.translateToString(true) : "");
    }
    return lines;
  };
  window.__tracker = { screen: () => null, drawn: () => [...drawn] };
  Object.defineProperty(Object.prototype, "websocket_url", {
    configurable: true,
    set(value) {
      // textual-serve's page object (the only one with this property): keep it, and its terminal.
      Object.defineProperty(this, "websocket_url", { value, writable: true, configurable: true, enumerable: true });
      let terminal = null;
      Object.defineProperty(this, "terminal", {
        configurable: true,
        enumerable: true,
        get: () => terminal,
        set: (made) => {
          terminal = made;
          made.onWriteParsed(() => screen(made).forEach((line) => drawn.add(line)));
          window.__tracker.screen = () => screen(made).join("\\n");
        },
      });
    },
  });
})();
"""

#: True once the page's terminal shows every string of the argument.
SHOWS = """(wanted) => {
  const text = window.__tracker.screen();
  return text !== null && wanted.every((w) => text.includes(w));
}"""


def chromium() -> str:
    """The chromium binary to drive; skips the test, saying what was looked for, when there is none."""
    given = os.environ.get(CHROMIUM_ENV)
    if given:
        if Path(given).is_file() and os.access(given, os.X_OK):
            return given
        pytest.skip(f"no browser: {CHROMIUM_ENV}={given} is not an executable file")
    found = shutil.which("chromium")
    if found is None:
        pytest.skip(f"no browser: no chromium on PATH (Debian: apt-get install chromium; or set {CHROMIUM_ENV})")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless chromium for the module (a launch takes about a second). playwright's `launch`
    gives it a fresh temporary profile, removed when it closes."""
    executable = chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_FLAGS, timeout=SECONDS * 1000
        )
        yield launched
        launched.close()


@pytest.fixture
def open_tab(browser: Browser) -> Iterator[Callable[[str], Tab]]:
    """Open a URL (a server's printed one, with its token) in a tab of a fresh browser context (closed,
    websockets and all, after)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(HOOK)

    def open_page(url: str) -> Tab:
        tab = Tab(context.new_page())
        tab.page.on("request", lambda request: tab.requests.append(request.url))
        tab.page.on("websocket", lambda websocket: tab.websockets.append(websocket.url))
        tab.page.goto(url)
        return tab

    yield open_page
    context.close()


@dataclass
class Tab:
    """A browser tab on a `tracker serve` page."""

    page: Page
    #: Every address the page asked for (its websocket aside).
    requests: list[str] = field(default_factory=list)
    #: The addresses of the websockets the page opened.
    websockets: list[str] = field(default_factory=list)

    def screen(self) -> str:
        """The text the page's terminal shows now."""
        return str(self.page.evaluate("() => window.__tracker.screen() ?? ''"))

    def drawn(self) -> str:
        """Every line any frame of the page has shown, one a line."""
        return "\n".join(self.page.evaluate("() => window.__tracker.drawn()"))

    def shows(self, *wanted: str) -> str:
        """Wait until the page shows everything `wanted`; what it shows then."""
        try:
            self.page.wait_for_function(SHOWS, arg=list(wanted), polling=50, timeout=SECONDS * 1000)
        except PlaywrightTimeout:
            raise AssertionError(f"never shown: {wanted}; the page shows:\n{self.screen()}") from None
        return self.screen()

    def press(self, key: str) -> None:
        """A key pressed in the page's terminal, as the GM would (it takes the focus first)."""
        self.page.focus(".xterm-helper-textarea")
        self.page.keyboard.press(key)


def commands(path: Path) -> list[str]:
    """The commands the file on disk holds in its [history] (saves are atomic: it is always whole)."""
    history = tomllib.loads(path.read_text(encoding="utf-8")).get("history", {})
    return list(history.get("commands", []))


def stopped(server: Served) -> None:
    """SIGTERM, as a GM's Ctrl+C: the server and its tabs' processes end cleanly."""
    server.process.send_signal(signal.SIGTERM)
    _, err = server.process.communicate(timeout=10)
    assert server.process.returncode == 0, err
    assert "Traceback" not in err, err


def test_gm_page_keys_write_the_file(tmp_path: Path, open_tab: Callable[[str], Tab]) -> None:
    """The GM's page (`tracker serve --write`): a key pressed in the browser is a command, and it is in
    the file on disk by the time the page shows its result (durable before shown)."""
    path = tmp_path / "brawl.toml"
    path.write_text(pinned(BRAWL.read_text(encoding="utf-8")), encoding="utf-8")
    with serve(path, "--write", config=tmp_path / "config") as server:
        gm = open_tab(server.page_url)
        gm.shows("Ambush at the Docks", "press n to start", SECRET)
        assert commands(path) == []

        gm.press("n")  # start the fight: two Peons tie at 5, and the table is asked who acts first
        gm.shows("Round 1", "who acts first this round?", "1  Dockside Cutthroat", f"2  {SECRET}")
        assert commands(path) == ["start"]

        gm.press("2")  # the prompt's second option: Belle acts first of the two; Marguerite (17) begins
        gm.shows("Marguerite Bell's turn", "No question pending")
        assert commands(path) == ["start", f"answer '{SECRET}'"]

        gm.press("n")  # Marguerite's turn ends; the Resurrectionist's starts
        gm.shows("Resurrectionist's turn")
        assert commands(path) == ["start", f"answer '{SECRET}'", "next"]
        stopped(server)
    with WriterLock(path):  # the tab's `tracker run` let go of the file with the server
        pass


def test_player_page_hides_what_the_gm_page_shows(tmp_path: Path, open_tab: Callable[[str], Tab]) -> None:
    """The players' page (`tracker serve --player`) never shows a `gm_only` combatant, not even on its
    turn, nor the Fatemaster's wounds as numbers (`player_view` "descriptor"), while the GM's page on
    the same file shows both; both follow the file as the GM plays."""
    path = tmp_path / "brawl.toml"
    path.write_text(pinned(BRAWL.read_text(encoding="utf-8")), encoding="utf-8")
    advance(path, "start", f"answer {SECRET}", "damage Thug 3")
    config = tmp_path / "config"
    with serve(path, config=config) as gm_server, serve(path, "--player", config=config) as player_server:
        assert gm_server.line.startswith("serving the read-only GM view"), gm_server.line
        assert player_server.line.startswith("serving the player view"), player_server.line
        gm = open_tab(gm_server.page_url)
        players = open_tab(player_server.page_url)
        gm.shows(SECRET, "10/10", "3/6", "Marguerite Bell's turn")
        turn = "Round 1 · Marguerite Bell's turn"
        screen = players.shows(turn, "Sofia Ramos", "8/8 Wounds", "Guild Thug", "bloodied")
        assert "10/10" not in screen and "3/6" not in screen, screen  # the Fatemaster's, as words only

        # The GM plays on until it is the hidden Peon's turn: the players' page follows, and says only
        # that the table waits.
        for _ in range(20):
            if (session := advance(path, "next")).rules.state.active == SECRET:
                break
        gm.shows(f"{SECRET}'s turn")
        players.shows("Round 1 · waiting")
        advance(path, "next")
        gm.shows("Dockside Cutthroat's turn")
        players.shows("Dockside Cutthroat's turn")

        assert SECRET in gm.drawn()
        drawn = players.drawn()
        assert "Belle" not in drawn, drawn
        assert session.rules.state.round == 1
        stopped(gm_server)
        stopped(player_server)


def test_the_page_asks_nothing_of_another_host(tmp_path: Path, open_tab: Callable[[str], Tab]) -> None:
    """The page asks the server itself for everything (script, styles, the font it draws with) and for
    nothing elsewhere, and draws the read-only view."""
    with serve(EXAMPLE, config=tmp_path / "config") as server:
        tab = open_tab(server.page_url)
        tab.shows("Duel on the Burning Pier")
        assert any(url.endswith(".ttf") for url in tab.requests), tab.requests
        assert all(url.startswith(server.url + "/") for url in tab.requests), tab.requests
        assert all(url.startswith(f"{server.url}/s/{server.token}/") for url in tab.requests[1:]), tab.requests
        assert not tab.page.context.cookies()  # no cookie, for this port or any other
        stopped(server)


@contextmanager
def proxied(target: str) -> Iterator[str]:
    """A reverse proxy to `target` on another port, as Caddy or nginx would stand in front of the server
    (docs/guide/serve.md): the path, query and cookies passed as they come, the websocket relayed. Its
    address, until the block ends."""
    ready: queue.Queue[str] = queue.Queue()
    loop = asyncio.new_event_loop()

    async def forward(request: aioweb.Request) -> aioweb.StreamResponse:
        headers = {k: v for k, v in request.headers.items() if k.lower() in ("cookie", "user-agent", "accept")}
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
            if request.headers.get("Upgrade", "").lower() == "websocket":
                url = "ws" + target.removeprefix("http") + request.path_qs
                async with http.ws_connect(url, headers=headers) as upstream:
                    browser = aioweb.WebSocketResponse()
                    await browser.prepare(request)

                    async def down() -> None:
                        async for message in upstream:
                            if message.type == aiohttp.WSMsgType.BINARY:
                                await browser.send_bytes(message.data)
                            elif message.type == aiohttp.WSMsgType.TEXT:
                                await browser.send_str(message.data)
                        await browser.close()

                    relay = asyncio.ensure_future(down())
                    async for message in browser:
                        if message.type == aiohttp.WSMsgType.TEXT:
                            await upstream.send_str(message.data)
                    relay.cancel()
                    return browser
            async with http.get(target + request.path_qs, headers=headers, allow_redirects=False) as response:
                body = await response.read()
                kept = {k: v for k, v in response.headers.items() if k.lower() in ("content-type", "set-cookie")}
                return aioweb.Response(status=response.status, body=body, headers=kept)

    async def start() -> aioweb.AppRunner:
        app = aioweb.Application()
        app.router.add_route("GET", "/{tail:.*}", forward)
        runner = aioweb.AppRunner(app)
        await runner.setup()
        site = aioweb.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        ready.put(f"http://127.0.0.1:{port}")
        return runner

    runner: list[aioweb.AppRunner] = []

    def run() -> None:
        runner.append(loop.run_until_complete(start()))
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield ready.get(timeout=SECONDS)
    finally:
        asyncio.run_coroutine_threadsafe(runner[0].cleanup(), loop).result(timeout=SECONDS)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=SECONDS)
        loop.close()


def test_the_page_works_behind_a_reverse_proxy(tmp_path: Path, open_tab: Callable[[str], Tab]) -> None:
    """Opened at a proxy's address with the printed URL's token, the page asks that address for its
    script, styles, font and websocket, under the tokened path (never 127.0.0.1:PORT of the server
    itself), and draws the view."""
    with serve(EXAMPLE, "--player", config=tmp_path / "config") as server, proxied(server.url) as proxy:
        assert proxy != server.url
        tab = open_tab(f"{proxy}/?token={server.token}")
        tab.shows("Duel on the Burning Pier")
        assert all(url.startswith(proxy + "/") for url in tab.requests), tab.requests
        websocket = f"ws{proxy.removeprefix('http')}/s/{server.token}/ws?"
        assert tab.websockets and all(url.startswith(websocket) for url in tab.websockets)
        stopped(server)


def test_a_page_on_another_port_gets_nothing_from_the_gms_browser(
    tmp_path: Path, open_tab: Callable[[str], Tab]
) -> None:
    """The finding, in a real browser: a cookie for 127.0.0.1 went to every port of it, so a page another
    account served on 127.0.0.1:OTHER, opened in the GM's browser, received the `--write` token. Now the
    GM's page works with no cookie at all, and the other page's server sees no Cookie header and no token,
    even at the tokened path."""
    import http.server

    seen: list[str] = []

    class Other(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(f"{self.path} {self.headers.get('Cookie')}")
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<html><body>another account's page</body></html>")

        def log_message(self, format: str, *args: object) -> None:
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Other)
    thread = threading.Thread(target=other.serve_forever, daemon=True)
    thread.start()
    try:
        with serve(EXAMPLE, "--write", config=tmp_path / "config") as server:
            gm = open_tab(server.page_url)
            gm.shows("press n to start")
            assert not gm.page.context.cookies()
            elsewhere = gm.page.context.new_page()
            for where in ("/", f"/s/{server.token}/"):
                elsewhere.goto(f"http://127.0.0.1:{other.server_address[1]}{where}")
            stopped(server)
    finally:
        other.shutdown()
        other.server_close()
    assert [line.split(" ", 1)[1] for line in seen if not line.startswith("/favicon")] == ["None", "None"], seen
