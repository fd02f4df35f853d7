"""How many browser tabs a `tracker serve` keeps open at once, and whose they are.

Every tab is a `tracker run`/`tracker view` process of its own (about 45 MB), started for whoever opens
the page: without a cap one account holding the URL could open thirty tabs and take 1.4 GB of the GM's
memory. So a server keeps at most `per_server` tabs, and any one client at most `per_client` of them; the
tab past either is refused with a small page that says which cap it met and what to do, and a slot comes
back when its tab's process has ended.

A client is a machine account when the tab comes over loopback (on a shared box every account connects
from 127.0.0.1, the GM included, so the address alone would make them all one client): the kernel's
socket table (`/proc/net/tcp`, `/proc/net/tcp6`) names the account owning the browser's end of the
connection, as identd does. Elsewhere, or when that table cannot say, a client is its address (behind a
reverse proxy that is the proxy's: every player through it is one client).
"""

from __future__ import annotations

import html
import ipaddress
import socket
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import web

#: The defaults of `tracker serve --max-tabs` and `--max-tabs-per-client`: a GM's tab and a few
#: players', or one screen per player on a shared box, within about 360 MB.
PER_SERVER = 8
PER_CLIENT = 4

#: The kernel's tables of TCP sockets, with each socket's owner (its uid, the 8th column).
SOCKET_TABLES = {socket.AF_INET: Path("/proc/net/tcp"), socket.AF_INET6: Path("/proc/net/tcp6")}

#: The refusal page: plain HTML, no script, nothing asked of anyone.
PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>tracker: {title}</title></head>
<body style="background:#0c181f;color:#eee;font-family:monospace;max-width:40em;margin:4em auto">
<h1>{title}</h1>
<p>{why}</p>
<p>Close one of the open tabs of this table, then reload this page.</p>
</body></html>
"""


@dataclass
class TabLimits:
    """The open tabs of one server, by client, and the two caps they stay within."""

    per_server: int = PER_SERVER
    per_client: int = PER_CLIENT
    open: Counter[str] = field(default_factory=Counter)

    def check(self, client: str) -> None:
        """Raise the page refusing one more tab for `client` if it may not have one: 503 when the server
        is full (nothing the client did), 429 when this client has its share already."""
        if self.open.total() >= self.per_server:
            why = (
                f"This table already has {tabs(self.per_server)} open, the most its server allows "
                "(tracker serve --max-tabs): each tab runs a tracker of its own on the GM's machine."
            )
            raise refused(web.HTTPServiceUnavailable, "the table is full", why)
        if self.open[client] >= self.per_client:
            why = (
                f"You already have {tabs(self.per_client)} open on this table, the most one client may have "
                "(tracker serve --max-tabs-per-client; a client is an account on this machine, or an address)."
            )
            raise refused(web.HTTPTooManyRequests, "too many tabs", why)

    def take(self, client: str) -> None:
        """One more tab for `client` (after `check` let it, with no await between)."""
        self.open[client] += 1

    def give_back(self, client: str) -> None:
        """A tab of `client` has ended (its process with it)."""
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]


def tabs(count: int) -> str:
    """`count` browser tabs, in words ("1 browser tab", "8 browser tabs")."""
    return f"{count} browser tab{'' if count == 1 else 's'}"


def refused(kind: type[web.HTTPException], title: str, why: str) -> web.HTTPException:
    """The small HTML page that says why no tab was opened."""
    body = PAGE.format(title=html.escape(title), why=html.escape(why))
    headers = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    return kind(text=body, content_type="text/html", headers=headers)


def client_of(request: web.BaseRequest) -> str:
    """Who a request comes from, for the per-client cap: `uid N` for a connection over loopback whose
    other end the kernel's socket table names, else its address."""
    transport = request.transport
    peer = transport.get_extra_info("peername") if transport is not None else None
    own = transport.get_extra_info("sockname") if transport is not None else None
    address = request.remote or "?"
    if not isinstance(peer, tuple) or not isinstance(own, tuple):
        return address
    if _loopback(peer[0]):
        uid = socket_owner((peer[0], peer[1]), (own[0], own[1]))
        if uid is not None:
            return f"uid {uid}"
    return address


def _loopback(host: str) -> bool:
    """`host` is this machine (127.0.0.0/8, ::1, or 127.x written as an IPv6 address)."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def socket_owner(local: tuple[str, int], remote: tuple[str, int]) -> int | None:
    """The uid owning the TCP socket at `local` connected to `remote` (the browser's end of a loopback
    connection, `local` being the browser's address), from the kernel's socket table; None when no table
    says (not Linux, /proc hidden, the connection gone)."""
    family = socket.AF_INET6 if ":" in local[0] else socket.AF_INET
    wanted = (_table_address(family, *local), _table_address(family, *remote))
    try:
        lines = SOCKET_TABLES[family].read_text(encoding="ascii").splitlines()[1:]
    except OSError:
        return None
    for line in lines:
        columns = line.split()
        if len(columns) > 7 and (columns[1], columns[2]) == wanted:
            return int(columns[7])
    return None


def _table_address(family: int, host: str, port: int) -> str:
    """An address as the kernel's table writes it: each 32-bit word of the address in the machine's byte
    order, in upper-case hex, then the port."""
    packed = socket.inet_pton(family, host.split("%", 1)[0])
    words = "".join(f"{int.from_bytes(packed[i : i + 4], sys.byteorder):08X}" for i in range(0, len(packed), 4))
    return f"{words}:{port:04X}"
