"""`companion venue`: the dashboard's process: its board, its MQTT collector and its web pages."""

from __future__ import annotations

import secrets
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from companion.venue.board import Board
from companion.venue.collector import Collector
from companion.venue.link import Broker

if TYPE_CHECKING:
    from companion.serving.serve import WebServer


class Changes:
    """A counter the live pages wait on: bumped whenever the board changes (no polling)."""

    def __init__(self):
        self.version = 0
        self._changed = threading.Condition()
        self.closed = False

    def bump(self, *_why) -> None:
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """The version once it is past `seen`, or after `timeout` seconds (a keepalive is due)."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > seen or self.closed, timeout)
            return self.version

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()


class Dashboard:
    """The running dashboard: `director` is the capability link's token, kept in its own store."""

    def __init__(self, state_dir: Path, broker: Broker, venue: str, language: str = "fr"):
        state_dir.mkdir(parents=True, exist_ok=True)
        self.venue, self.language = venue, language
        self.board = Board(state_dir / "venue.db")
        self.director = self.board.secret("director", lambda: secrets.token_urlsafe(18))
        self.changes = Changes()
        self.collector = Collector(self.board, broker, venue, on_change=self.changes.bump)
        self.server: WebServer | None = None

    def start(self, host: str, port: int) -> Dashboard:
        from companion.serving.serve import REQUEST_THREADS, serve
        from companion.venue.web import create_app

        self.collector.start()
        self.server = serve(create_app(self), host, port, threads=MAX_PAGES + REQUEST_THREADS)
        return self

    def stop(self) -> None:
        self.changes.close()
        if self.server is not None:
            self.server.close()
        self.collector.stop()
        self.board.close()


MAX_PAGES = 40  # live dashboard pages at once: the projector, the director, the players' phones
