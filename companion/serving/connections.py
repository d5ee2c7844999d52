"""waitress's server and channel, guarded: slow and idle clients reaped on the monotonic clock, a cap
on connections per client address, a live stream told at once when its client hangs up, and a request
too big refused in words."""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
import time
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher
from waitress.utilities import RequestEntityTooLarge, RequestHeaderFieldsTooLarge

from companion.i18n import LANGUAGES, N_, pick_language, translator

log = logging.getLogger(__name__)

HEADER_TIMEOUT = 10.0  # seconds a client may take to send a whole request head and body
PER_CLIENT = 16  # connections one address may hold: a phone's browser opens about 6
CLEANUP_EVERY = 2.0  # seconds between two looks at the open connections
LOG_EVERY = 60.0  # seconds between two lines about refused connections


class TooBigTask(ErrorTask):
    """waitress's refusal of a request too big, in JSON and the reader's language like the app's own
    errors (waitress answers it from the head alone, before the body is read: see serve.py)."""

    def execute(self):
        error = self.request.error
        if isinstance(error, RequestEntityTooLarge):
            msgid, limit = N_("The request body is too big: send at most {limit} bytes."), \
                self.channel.adj.max_request_body_size - 1
        elif isinstance(error, RequestHeaderFieldsTooLarge):
            msgid, limit = N_("The request's headers are too big: send at most {limit} bytes of them."), \
                self.channel.adj.max_request_header_size - 1
        else:
            return super().execute()
        asked = parse_qs(self.request.query or "").get("lang", [""])[0]  # as the app reads it: ?lang= first
        lang = asked if asked in LANGUAGES else pick_language(self.request.headers.get("ACCEPT_LANGUAGE"))
        _ = translator(lang)
        body = json.dumps({"ok": False, "error": _(msgid, limit=limit)}, ensure_ascii=False).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class GuardedChannel(HTTPChannel):
    """A connection that knows, on the monotonic clock, when it was last active and since when its
    request has been coming in; `on_hang_up` is called once the client has closed it."""

    error_task_class = TooBigTask

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.client = ""  # the address this connection's limits count against (see client_of)
        self.active_at = time.monotonic()
        self.request_since: float | None = self.active_at  # a new connection owes its first request
        self.on_hang_up: Callable[[], None] | None = None
        super().__init__(*args, **kwargs)

    def received(self, data):
        if data and self.request is None:
            self.request_since = time.monotonic()  # the first bytes of a new request
        done = super().received(data)
        if self.request is None:
            self.request_since = None  # complete (or nothing pending)
        return done

    def handle_read(self):
        self.active_at = time.monotonic()
        super().handle_read()
        if not self.connected:
            self._hung_up()

    def handle_close(self):
        super().handle_close()
        self._hung_up()

    def _hung_up(self) -> None:
        notify, self.on_hang_up = self.on_hang_up, None
        if notify is not None:
            notify()


class GuardedServer(TcpWSGIServer):
    """waitress's TCP server with our connection rules (waitress times its clean-up on the wall
    clock, which jumps on a Pi when NTP sets it after boot, and resets idle time at every byte, which
    lets a client that sends one header line a minute hold a connection for ever)."""

    channel_class = GuardedChannel
    next_channel_cleanup = float("inf")  # waitress's own wall-clock clean-up never runs

    def __init__(self, *args, header_timeout: float = HEADER_TIMEOUT, per_client: int = PER_CLIENT,
                 **kw):
        self.header_timeout, self.per_client = header_timeout, per_client
        self._clean_at = time.monotonic()
        self._refused: Counter = Counter()  # connections refused per address since the last log line
        self._logged_at = -LOG_EVERY
        super().__init__(*args, **kw)

    def readable(self):
        now = time.monotonic()
        if now >= self._clean_at:
            self._clean_at = now + CLEANUP_EVERY
            self.reap(now)
        return super().readable()

    def reap(self, now: float) -> None:
        """Close connections whose request is too slow to come, or that sat idle too long."""
        for channel in list(self.active_channels.values()):
            slow = channel.request_since is not None and now - channel.request_since > self.header_timeout
            idle = not channel.requests and now - channel.active_at > self.adj.channel_timeout
            if slow or idle:
                channel.will_close = True
        if self._refused and now - self._logged_at >= LOG_EVERY:  # a flood of addresses: one line a minute
            (worst, most), = self._refused.most_common(1)
            log.warning("refused %d connections from %d addresses (%d from %s): each already held %d",
                        sum(self._refused.values()), len(self._refused), most, worst, self.per_client)
            self._refused.clear()
            self._logged_at = now

    def handle_accept(self):
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:
            return  # the client was gone before we got to it
        addr = self.fix_addr(addr)
        client = client_of(conn, addr[0])
        held = sum(1 for channel in self.active_channels.values() if channel.client == client)
        if held >= self.per_client:
            self._refused[client] += 1
            conn.close()
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map).client = client


def client_of(conn, peer: str) -> str:
    """Who a connection's limits (its connections here, its live pages in the Hub) count against: its
    peer's address; on loopback, its two ends. On Linux a browser's connection to 127.0.0.x comes from
    127.0.0.1, so the address it opened is what tells a whole table of browsers on one computer apart
    (README), as the address it comes from tells apart programs that pick their own."""
    try:
        if ipaddress.ip_address(peer).is_loopback:
            return f"{peer}->{conn.getsockname()[0]}"
    except (ValueError, OSError):
        pass  # no IP address (a Unix socket), or a socket its client already closed
    return peer


def create_servers(app, host: str, port: int, header_timeout: float = HEADER_TIMEOUT,
                   per_client: int = PER_CLIENT, listening: socket.socket | None = None,
                   **adjustments) -> tuple[dict, list[GuardedServer], ThreadedTaskDispatcher]:
    """A GuardedServer on each address `host` resolves to, or on `listening` (a socket bound to it
    already); returns (socket map, servers, dispatcher)."""
    adj = Adjustments(host=host, port=port, **adjustments)
    socket_map: dict = {}
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    if listening is not None:
        sockinfo = (listening.family, listening.type, listening.proto, listening.getsockname())
        return socket_map, [GuardedServer(app, socket_map, _sock=listening, bind_socket=False,
                                          dispatcher=dispatcher, adj=adj, sockinfo=sockinfo,
                                          header_timeout=header_timeout, per_client=per_client)], dispatcher
    servers = [GuardedServer(app, socket_map, dispatcher=dispatcher, adj=adj, sockinfo=sockinfo,
                             header_timeout=header_timeout, per_client=per_client) for sockinfo in adj.listen]
    return socket_map, servers, dispatcher
