"""Serve the app with waitress, with a worker thread for every open live page plus some for requests."""

from __future__ import annotations

import logging
import re
import socket
import threading

from flask import Flask
from waitress import wasyncore

from companion.serving.connections import HEADER_TIMEOUT, PER_CLIENT, GuardedServer, create_servers
from companion.serving.quiet import pace_waitress_logs

REQUEST_THREADS = 6  # beyond the streams: enough for page loads, commands and frame fetches at once
HEAD_LIMIT = 16 * 1024  # a request line and headers: a phone's browser sends under 2 KB
OUTPUT_HELD = 256 * 1024  # answer bytes held for a client that reads slowly before its worker waits
CONNECTIONS = 100  # connections the server holds in all, at least (more with more threads)
NEVER = 2**62  # waitress spools what exceeds its overflow sizes to temporary files: never, here
# Paths that carry a capability: a seat's link, the join code, a host link's query, the venue director's
# link (its page, and /api/director/ under it).
SEAT_PATH = re.compile(r"(/seat/|/j/|/director/|[?&]host=)[^/\s?#&]+")


def threads_for(app: Flask) -> int:
    """Each SSE stream holds a waitress thread for as long as the page is open, so the pool may grow to
    one for each of them (it grows as they open and shrinks as they close: see WebServer)."""
    hub = app.extensions.get("companion.hub")
    return (hub.slots if hub else 0) + REQUEST_THREADS


class RedactSeatLinks(logging.Filter):
    """waitress logs the path of a request a phone hung up on, and a seat's path is its secret link."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = SEAT_PATH.sub(r"\1…", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(SEAT_PATH.sub(r"\1…", a) if isinstance(a, str) else a for a in record.args)
        return True


def redact_waitress_logs() -> None:
    """Install the filter once on waitress's logger (its channels log through that very logger)."""
    logger = logging.getLogger("waitress")
    if not any(isinstance(f, RedactSeatLinks) for f in logger.filters):
        logger.addFilter(RedactSeatLinks())


class WebServer:
    """A running waitress server on its own thread; `port` is the bound port (useful with port 0).

    With the table's live pages (a hub), the workers are REQUEST_THREADS plus one per page open, up to
    `threads`: an idle table keeps a few threads, not one for every page that might open (a Pi Zero's
    memory). Without, `threads` workers from the start."""

    def __init__(self, app: Flask, host: str, port: int, threads: int, channel_timeout: int,
                 header_timeout: float = HEADER_TIMEOUT, per_client: int = PER_CLIENT,
                 passed: tuple[tuple[Flask, socket.socket], ...] = (),
                 listening: socket.socket | None = None):
        self.app = app
        redact_waitress_logs()
        # A client dropping connections in a loop, or a burst of requests, logs one line a minute of each
        # kind (docs/reliability.md), not hundreds.
        self.log_pace = pace_waitress_logs()
        # clear_untrusted_proxy_headers etc. stay at waitress's defaults; ident hides the version.
        hub = app.extensions.get("companion.hub")
        self._sizing = threading.Lock()
        self._closing = False
        self._map, self._servers, self._dispatcher = create_servers(
            app, host, port, listening=listening,
            threads=min(threads, REQUEST_THREADS) if hub is not None else threads,
            channel_timeout=channel_timeout, ident="companion",
            connection_limit=max(CONNECTIONS, threads * 2), asyncore_use_poll=True,
            # Keep reading while a stream runs, so a phone that hangs up is noticed at once.
            channel_request_lookahead=4, header_timeout=header_timeout, per_client=per_client,
            # Nothing a client sends or leaves unread is written to disk (docs/security.md): a body
            # over the app's limit is refused on its Content-Length, or (chunked) as soon as it gets
            # there, before any of it is kept; every body allowed fits in memory, and so does what a
            # slow reader is owed, which is bounded instead.
            max_request_body_size=app.config["MAX_CONTENT_LENGTH"] + 1,  # waitress refuses >= this
            max_request_header_size=HEAD_LIMIT + 1, inbuf_overflow=NEVER, outbuf_overflow=NEVER,
            outbuf_high_watermark=OUTPUT_HELD)
        # Sockets systemd bound for us (port 80): served by the same loop and threads, never bound here,
        # under the same limits.
        adj = self._servers[0].adj
        self._servers += [
            GuardedServer(passed_app, self._map, _sock=sock, dispatcher=self._dispatcher, adj=adj,
                          bind_socket=False, header_timeout=header_timeout, per_client=per_client,
                          sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()))
            for passed_app, sock in passed]
        self.host = host
        self.port = int(self._servers[0].effective_port)
        self.threads = threads
        self._loop_timeout = self._servers[0].adj.asyncore_loop_timeout
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        if hub is not None:
            hub.on_count = lambda: self._follow_pages(hub)

    def _follow_pages(self, hub) -> None:
        """A worker for each live page open (each holds one while it is open), and REQUEST_THREADS more
        for page loads and commands. Read under the lock, so the last change made counts what is open."""
        with self._sizing:
            if not self._closing:
                self._dispatcher.set_thread_count(min(self.threads, REQUEST_THREADS + hub.open_streams))

    @property
    def url(self) -> str:
        host = self.host if self.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
        return f"http://{host}:{self.port}/"

    def start(self) -> WebServer:
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            wasyncore.loop(timeout=self._loop_timeout, map=self._map, use_poll=True)
        except (OSError, ValueError):
            pass  # close() pulled the sockets from under the loop: that is how it stops

    def close(self, timeout: float = 5.0) -> None:
        """End every live stream, stop accepting, and wait for the serving thread."""
        hub = self.app.extensions.get("companion.hub")
        if hub is not None:
            hub.end_streams()
        with self._sizing:
            self._closing = True  # a page ending from now on starts or stops no worker
        # Let the workers finish first (the streams just ended), so none writes to a closed socket.
        self._dispatcher.shutdown(timeout=timeout)
        # Closing every socket, the listener and its wake-up pipe included, ends waitress's loop.
        wasyncore.close_all(self._map)
        self._thread.join(timeout)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080, *, threads: int | None = None,
          channel_timeout: int = 60, header_timeout: float = HEADER_TIMEOUT,
          per_client: int = PER_CLIENT, passed: tuple[tuple[Flask, socket.socket], ...] = (),
          listening: socket.socket | None = None) -> WebServer:
    """Start serving `app` in the background and return the server; prints nothing (the daemon does).

    `per_client` caps the connections one address holds (tests that play many phones from one
    machine raise it). `passed` are (app, socket) pairs for listening sockets systemd handed over;
    `listening`, the socket bound on (host, port) already (serving.early), is served instead of binding."""
    return WebServer(app, host, port, threads or threads_for(app), channel_timeout, header_timeout,
                     per_client, passed, listening).start()
