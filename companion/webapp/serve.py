"""Serve the app with waitress, with a worker thread for every open live page plus some for requests."""

from __future__ import annotations

import logging
import re
import threading

from flask import Flask
from waitress import create_server, wasyncore

REQUEST_THREADS = 6  # beyond the streams: enough for page loads, commands and frame fetches at once
# Paths that carry a capability: a seat's link, the join code, a host link's query.
SEAT_PATH = re.compile(r"(/seat/|/j/|[?&]host=)[^/\s?#&]+")


def threads_for(app: Flask) -> int:
    """Each SSE stream holds a waitress thread for as long as the page is open, so size for all of them."""
    hub = app.extensions.get("companion.hub")
    return (hub.max_streams if hub else 0) + REQUEST_THREADS


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
    """A running waitress server on its own thread; `port` is the bound port (useful with port 0)."""

    def __init__(self, app: Flask, host: str, port: int, threads: int, channel_timeout: int):
        self.app = app
        redact_waitress_logs()
        # clear_untrusted_proxy_headers etc. stay at waitress's defaults; ident hides the version.
        self._server = create_server(app, host=host, port=port, threads=threads,
                                     channel_timeout=channel_timeout, ident="companion",
                                     connection_limit=max(100, threads * 2), asyncore_use_poll=True,
                                     # Keep reading while a stream runs, so a phone that hangs up is
                                     # noticed (and its stream slot freed) without waiting for a write.
                                     channel_request_lookahead=4)
        self.host = host
        # One socket gives a TcpWSGIServer; a name resolving to several gives a MultiSocketServer.
        listen = getattr(self._server, "effective_listen", None)
        self.port = int(getattr(self._server, "effective_port", 0) or listen[0][1])
        self.threads = threads
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)

    @property
    def url(self) -> str:
        host = self.host if self.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
        return f"http://{host}:{self.port}/"

    def start(self) -> WebServer:
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self._server.run()
        except (OSError, ValueError):
            pass  # close() pulled the sockets from under the loop: that is how it stops

    def close(self, timeout: float = 5.0) -> None:
        """End every live stream, stop accepting, and wait for the serving thread."""
        hub = self.app.extensions.get("companion.hub")
        if hub is not None:
            hub.end_streams()
        server = self._server
        # Let the workers finish first (the streams just ended), so none writes to a closed socket.
        server.task_dispatcher.shutdown(timeout=timeout)
        # Closing every socket, the listener and its wake-up pipe included, ends waitress's loop.
        socket_map = getattr(server, "map", None)
        wasyncore.close_all(server._map if socket_map is None else socket_map)
        self._thread.join(timeout)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080, *, threads: int | None = None,
          channel_timeout: int = 60) -> WebServer:
    """Start serving `app` in the background and return the server; prints nothing (the daemon does)."""
    return WebServer(app, host, port, threads or threads_for(app), channel_timeout).start()
