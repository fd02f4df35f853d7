"""The browser mirror: textual-serve's Server and AppService, configured and subclassed for the table.

textual-serve starts one `tracker run`/`tracker view` process per browser tab and relays its screen
over a websocket. What this module changes, and why:

- The socket is bound before anything is printed, so a bad address or a port in use is one line and
  `--port 0` can print the port it got; the printed address (textual-serve's `public_url`) is never a
  wildcard like 0.0.0.0, IPv6 in brackets.
- The page (templates/app_index.html) asks no third party for anything: the font is the copy of
  Roboto Mono textual-serve ships. It asks the address it was opened at for its files and websocket,
  not `public_url`, so it also works behind a TLS reverse proxy (players at home).
- Every request needs the token the server made at its start (`TokenGuard`): 127.0.0.1 is reachable by
  every account on a shared box, and a `--write` page drives the GM's screen. The printed URL carries it
  in its query (`?token=`, as Jupyter does); the page it answers has every address of its own (script,
  styles, font, websocket) under `/s/TOKEN/`, a path that holds the token, so no cookie is ever set. A
  cookie would be ambient: browsers send a host's cookies to every port of it, so a page another
  account serves on 127.0.0.1:OTHER would receive it (docs/architecture/decisions.md).
- At most `--max-tabs` tabs at once, `--max-tabs-per-client` of them a client's (`tracker.web.tabs`):
  every tab is a process on the GM's machine; the tab past a cap gets a page that says so.
- Logging is quiet (warnings and errors) unless `--verbose`: an access line per request buried them. That
  line names the path only, its token blanked (`TokenlessAccessLog`): the query and the Referer would
  carry the token.
  Every console line is one line with the token blanked (`Redacted`): aiohttp logs a malformed request
  with its raw request line and a traceback.
- Each tab's process is told it is served (`tracker.web.SERVED_ENV`, set by the command the server
  runs), so it shows its problems in the tab; its websocket closes when it ends, even if it never
  started, so no page waits forever.
- Ctrl+C/SIGTERM end every tab's process at once (asked to quit, killed after QUIT_GRACE), so the
  server is gone within a second and a `--write` tab's writer lock is released with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import logging
import secrets
import socket
from pathlib import Path

import aiohttp_jinja2
from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.typedefs import Handler
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from tracker.ui.textual_adapter import relay_messages, serve_app, tab_process
from tracker.web import SERVED_ENV
from tracker.web.tabs import TabLimits, client_of

TEMPLATES = Path(__file__).parent / "templates"

#: Seconds a tab's process has to quit when asked before it is killed. The app itself is done within
#: ~10 ms of the request (a `tracker run` has released its lock by then); the rest is the interpreter
#: tearing down (0.2-0.6 s measured, more with several tabs), which a kill cuts short harmlessly:
#: saves are atomic (a stray temp file is removed at the next `tracker run`).
QUIT_GRACE = 0.3
#: Seconds aiohttp then gives request handlers still running before cancelling them.
SHUTDOWN_GRACE = 0.5
#: Seconds a closing websocket waits for the browser's closing answer.
CLOSE_WAIT = 0.5
#: Random bytes in a server's token (`secrets.token_urlsafe` makes 43 URL-safe characters of 32).
TOKEN_BYTES = 32
#: The body of every refused request: plain text, what to do, nothing about the server.
REFUSED = "403: this page needs the token in the URL tracker serve printed"


class ServeError(Exception):
    """The server cannot start (bad address, port in use); the message is the one line to print."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port` and listening, before anything is printed.

    Binding here rather than in aiohttp is what lets a port in use fail as one line, and `--port 0`
    report the port the system chose. A name with several addresses binds the first, IPv4 first.
    """
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise ServeError(f"cannot serve on {host}: {getattr(exc, 'strerror', None) or exc}") from None
    family, kind, proto, _, address = min(infos, key=lambda info: info[0] != socket.AF_INET)
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot serve on {_netloc(host, port)}: {exc.strerror or exc}") from None
    return sock


def public_url(host: str, sock: socket.socket) -> str:
    """The address to print and to put in the page: the host as given, with the port actually bound.

    A wildcard (0.0.0.0, ::) is where the server listens, not an address a browser can use; the
    machine's address on its network stands in for it.
    """
    port = sock.getsockname()[1]
    if _unspecified(host):
        host = lan_address()
    return f"http://{_netloc(host, port)}"


def lan_address() -> str:
    """This machine's address on the network its default route leads to (the system picks it for a
    UDP socket "connected" to a documentation address; nothing is sent), else its host name."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()


def is_loopback(host: str) -> bool:
    """Only this machine can reach the server (no warning about the missing authentication)."""
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _unspecified(host: str) -> bool:
    if not host:
        return True
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def _netloc(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def same_secret(given: str | None, token: str) -> bool:
    """`given` is the token, compared in constant time (bytes: `hmac.compare_digest` refuses a str
    with a character outside ASCII, which a request may well carry)."""
    return given is not None and hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode())


class TokenGuard:
    """The aiohttp middleware in front of every route (the page, static files, the websocket, downloads,
    unknown paths): a request without the server's token is answered 403, whatever its address.

    The token comes in the query (`?token=`: the printed URL, and programs) or as the first part of the
    path after `/s/` (`PREFIX`): the page's own requests, which carry it in their address. Nothing else
    opens anything: no cookie is set or read, so nothing the browser sends on its own (to this port or
    to another account's server on another port of the same host) holds the token.
    """

    #: What `aiohttp.web.middleware` marks on a function: called as (request, handler), not as the
    #: deprecated factory (app, handler).
    __middleware_version__ = 1

    def __init__(self, token: str) -> None:
        self.token = token

    def allows(self, request: web.Request) -> bool:
        """The request carries the token, in its query or its path."""
        return same_secret(request.query.get("token"), self.token) or same_secret(path_token(request.path), self.token)

    async def __call__(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.allows(request) or not same_origin(request):
            # The Origin: a page another account serves on 127.0.0.1:OTHER is "the same site" to a browser;
            # with no cookie it has nothing to borrow, but a websocket of this server is for its own page.
            return web.Response(status=403, text=REFUSED, headers={"Referrer-Policy": "no-referrer"})
        response = await handler(request)
        if not response.prepared:  # a websocket has answered already; the page and files have not
            response.headers["Referrer-Policy"] = "no-referrer"
        return response


#: The first part of a tokened path: `/s/TOKEN/…`.
PREFIX = "/s/"


def path_token(path: str) -> str | None:
    """The token a path carries (`/s/TOKEN/…` gives TOKEN), None for any other path."""
    if not path.startswith(PREFIX):
        return None
    token, slash, _ = path[len(PREFIX) :].partition("/")
    return token if slash else None


def same_origin(request: web.Request) -> bool:
    """Whether a websocket's handshake comes from a page of this very server (or from no page: a program,
    which a browser's page cannot pass for). Behind a proxy the page's origin is the proxy's, which it forwards as
    the Host (or ``X-Forwarded-Host``) it was asked for."""
    origin = request.headers.get("Origin")
    if origin is None or request.headers.get("Upgrade", "").lower() != "websocket":
        return True
    from urllib.parse import urlsplit

    asked = request.headers.get("X-Forwarded-Host") or request.host
    return urlsplit(origin).netloc.lower() == asked.lower()


class TokenlessAccessLog(AbstractAccessLogger):
    """aiohttp's access line (`--verbose`) without what could carry the token: the request's path only
    (no query string), its token blanked (`/s/<token>/…`), and no Referer (the page's own requests name
    the page's tokened URL in it)."""

    @property
    def enabled(self) -> bool:
        return self.logger.isEnabledFor(logging.INFO)

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        major, minor = request.version
        self.logger.info(
            '%s "%s %s HTTP/%d.%d" %d %.3fs',
            request.remote,
            request.method,
            tokenless(request.path),
            major,
            minor,
            response.status,
            time,
        )


def tokenless(path: str) -> str:
    """`path` with the token it carries (`/s/TOKEN/…`) blanked."""
    token = path_token(path)
    return path if token is None else f"{PREFIX}<token>{path[len(PREFIX) + len(token) :]}"


class Redacted(logging.Filter):
    """Every log record of the server as one line without the token: aiohttp logs a malformed
    request with its raw request line (the query, the token in it) and a traceback with its locals
    (textual-serve's handler shows them), which is neither for the GM's console nor for anyone reading
    over a shoulder. An exception becomes its type and message on the same line."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text += f": {type(error).__name__}: {' '.join(str(error).split())}"
        record.msg = " ".join(text.splitlines()).replace(self.token, "<token>")
        record.args = ()
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


class BrowserSession(AppService):
    """One browser tab's tracker process (textual-serve's AppService, three changes: see the module)."""

    _stopping: asyncio.Future[None] | None = None

    async def run(self) -> None:
        """Relay the process until it ends, then close the tab's websocket: textual-serve closes it
        only when the app says goodbye, and a process that failed before starting never does."""
        try:
            await super().run()
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
            # Not ours: textual-serve's relay cancels its stderr reader at the end and awaits it; a
            # process that ended before that reader first ran makes the await raise CancelledError.
        await self.remote_close()

    async def stop(self) -> None:
        """Ask the process to quit, kill it if it has not within QUIT_GRACE, and wait for the end.

        Once per session: the server's shutdown and the tab's handler may both ask at once."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        # asyncio.wait, not wait_for: a timeout must not cancel textual-serve's stop (it would cancel
        # the relay too, which swallows the cancellation and leaves the process running).
        stopping = asyncio.ensure_future(super().stop())
        await asyncio.wait([stopping], timeout=QUIT_GRACE)
        process = tab_process(self)
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        await stopping
        if process is not None:
            await process.wait()


class TableServer(Server):
    """textual-serve's Server on an already bound socket, with the changes the module lists."""

    def __init__(
        self,
        command: str,
        sock: socket.socket,
        *,
        url: str,
        title: str,
        verbose: bool = False,
        limits: TabLimits | None = None,
    ) -> None:
        host, port = sock.getsockname()[:2]
        # textual-serve runs the command with the shell: an assignment before it puts the variable in the
        # environment of that one process (the shell exports it to the program it runs, `exec` too).
        served = f"{SERVED_ENV}=1 {command}"
        super().__init__(served, host=host, port=port, title=title, public_url=url, templates_path=TEMPLATES)
        self.sock = sock
        self.verbose = verbose
        #: This start's secret: new at every start, so a URL from an earlier game opens nothing.
        self.token = secrets.token_urlsafe(TOKEN_BYTES)
        self.guard = TokenGuard(self.token)
        #: The tabs connected now, each with its process.
        self.sessions: set[BrowserSession] = set()
        #: How many tabs are open, whose, and how many may be.
        self.limits = limits or TabLimits()

    @property
    def page_url(self) -> str:
        """The URL to print, the only place the token is shown: whoever has it can open the page."""
        return f"{self.public_url}/?token={self.token}"

    @property
    def prefix(self) -> str:
        """The path under which the page's own addresses carry the token: `/s/TOKEN`."""
        return f"{PREFIX}{self.token}"

    async def application(self) -> web.Application:
        """textual-serve's application with the token guard in front of all its routes, and the page, its
        websocket and its static files again under the tokened path, where the page asks for them."""
        app = await serve_app(self)
        app.router.add_get(f"{self.prefix}/", self.handle_index)
        app.router.add_get(f"{self.prefix}/ws", self.handle_websocket)
        app.router.add_static(f"{self.prefix}/static", self.statics_path)
        app.middlewares.append(self.guard)
        return app

    def initialize_logging(self) -> None:
        super().initialize_logging()
        root = logging.getLogger()
        root.setLevel(logging.INFO if self.verbose else logging.WARNING)
        for handler in root.handlers:
            handler.addFilter(Redacted(self.token))

    async def on_startup(self, app: web.Application) -> None:
        """textual-serve prints its logo and a banner here; `tracker serve` has printed its one line."""

    async def on_shutdown(self, app: web.Application) -> None:
        """End every tab's process now (aiohttp would otherwise wait on the open websockets)."""
        await asyncio.gather(*(session.stop() for session in list(self.sessions)))

    def serve(self, debug: bool = False) -> None:
        """Run until Ctrl+C or SIGTERM (aiohttp turns both into a graceful exit)."""
        self.debug = debug
        self.initialize_logging()
        web.run_app(
            self.application(),
            sock=self.sock,
            access_log_class=TokenlessAccessLog,
            shutdown_timeout=SHUTDOWN_GRACE,
            handle_signals=True,
            print=None,
        )

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page (templates/app_index.html), or (raised) the page saying no more tab may open now.

        Its own addresses are relative to `base`: the tokened path, whichever address it was opened at
        (the printed `/?token=` one, `/s/TOKEN/`, or either behind a proxy's path)."""
        self.limits.check(client_of(request))
        under_prefix = request.path.startswith(f"{self.prefix}/")
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "base": "" if under_prefix else f"{self.prefix.lstrip('/')}/",
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Cache-Control"] = "no-store"
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's websocket handler, with a BrowserSession that the server keeps track of
        (to end it on shutdown), a short closing wait, and the caps on open tabs: the slot is taken
        before the handshake and given back once the tab's process has ended."""
        client = client_of(request)
        self.limits.check(client)
        self.limits.take(client)
        try:
            return await self._relay(request)
        finally:
            self.limits.give_back(client)

    async def _relay(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15, timeout=CLOSE_WAIT)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        await websocket.prepare(request)

        async def close() -> None:
            await websocket.close()

        session = BrowserSession(
            self.command,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        await session.start(width, height)
        self.sessions.add(session)
        try:
            await relay_messages(self, websocket, session)
        finally:
            self.sessions.discard(session)
            await session.stop()
        return websocket
