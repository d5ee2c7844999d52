"""`companion venue`: the dashboard's process: its board, its MQTT collector and its web pages."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.serving.slots import admit, end_on_hang_up
from companion.serving.sse import message, opening
from companion.venue import topics
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

    def wait(self, seen: int, timeout: float, ended=lambda: False) -> int:
        """The version once it is past `seen`, or after `timeout` seconds (a keepalive is due), or once
        `ended()` (after a wake())."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > seen or self.closed or ended(), timeout)
            return self.version

    def wake(self) -> None:
        """Have every waiting page look again whether it has ended."""
        with self._changed:
            self._changed.notify_all()

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()


Draw = Callable[[int | None], dict]  # the venue for a page: a snapshot (None), else what changed after


class LivePage:
    """One open live page: iterating yields its SSE bytes, a bounded snapshot first, then at each change
    what changed after the board's version the page last got (`draw`'s answer holds it); close() (called
    by the server) frees its slot, even if it never started."""

    def __init__(self, pages: LivePages, client: str, draw: Draw, keepalive: float):
        self.pages, self.client, self.draw, self.keepalive = pages, client, draw, keepalive
        self.ended = False
        self._seen: int | None = None
        self._shown: int | None = None  # the board's version the page has

    def __iter__(self) -> LivePage:
        return self

    def __next__(self) -> bytes:
        changes = self.pages.changes
        if self._seen is None:
            self._seen = changes.version
            return opening(self._drawn())
        now = changes.wait(self._seen, self.keepalive, lambda: self.ended)
        if self.ended or changes.closed:
            self.close()
            raise StopIteration
        if now == self._seen:
            return b": keepalive\n\n"
        self._seen = now
        return self._drawn()

    def _drawn(self) -> bytes:
        drawn = self.draw(self._shown)
        self._shown = drawn["version"]
        return message("venue", drawn, drawn["version"])

    def end(self) -> None:
        self.ended = True
        self.pages.changes.wake()

    def close(self) -> None:
        self.ended = True
        self.pages.remove(self)


class LivePages:
    """The dashboard's open live pages: at most MAX_PAGES, PER_ADDRESS of one address, a full set shared
    fairly (serving.slots, as the table's own pages), so page loads and the director keep a thread."""

    def __init__(self, changes: Changes):
        self.changes = changes
        self._pages: list[LivePage] = []
        self._lock = threading.Lock()

    def open(self, client: str, draw: Draw, keepalive: float, channel=None) -> LivePage:
        """A new live page for `client`; TooManyStreams when its address or the dashboard is full."""
        page = LivePage(self, client, draw, keepalive)
        with self._lock:
            evicted = admit(self._pages, self._pages, client, PER_ADDRESS, MAX_PAGES)
            self._pages = [p for p in self._pages if p is not evicted] + [page]
        if evicted is not None:
            evicted.end()
        end_on_hang_up(channel, page.end)
        return page

    def remove(self, page: LivePage) -> None:
        with self._lock:
            self._pages = [p for p in self._pages if p is not page]

    def __len__(self) -> int:
        return len(self._pages)


class Dashboard:
    """The running dashboard: `director` is the capability link's token, kept in its own store; a
    league's (`league`) shows every venue bridged to its broker, each table as "venue/table"."""

    def __init__(self, state_dir: Path, broker: Broker, venue: str, language: str = "fr",
                 silent_after: float = topics.SILENT_AFTER, league: bool = False):
        state_dir.mkdir(parents=True, exist_ok=True)
        self.venue, self.language = venue, language
        self.board = Board(state_dir / "venue.db", silent_after)
        self.board.secret(DIRECTOR, new_director_token)  # made at the first start, kept in the store
        self.changes = Changes()
        self.pages = LivePages(self.changes)
        self.collector = Collector(self.board, broker, venue, on_change=self.changes.bump, league=league)
        self.server: WebServer | None = None

    @property
    def director(self) -> str:
        """The director's link's token, read from the store at each use: `companion venue director-link`
        renews it in the store, and the old link stops working here at once, with no restart."""
        return self.board.secret(DIRECTOR, new_director_token)

    def start(self, host: str, port: int) -> Dashboard:
        from companion.serving.serve import REQUEST_THREADS, serve
        from companion.venue.web import create_app

        self.board.silence.expect(row["name"] for row in self.board.tables() if row["online"])
        self.board.silence.watch(self._fell_silent)  # a table falling silent sends nothing: a deadline
        self.collector.start()
        self.server = serve(create_app(self), host, port, threads=MAX_PAGES + REQUEST_THREADS)
        return self

    def _fell_silent(self, name: str) -> None:
        self.board.touch(name)
        self.changes.bump()

    def stop(self) -> None:
        self.changes.close()
        if self.server is not None:
            self.server.close()
        self.collector.stop()
        self.board.silence.stop()
        self.board.close()


def new_director_token() -> str:
    """A new director's link's token (a capability: unguessable)."""
    return secrets.token_urlsafe(18)


def renew_director(state_dir: Path) -> str:
    """A new director's link for the dashboard kept in `state_dir`, running or not; returns its token."""
    state_dir.mkdir(parents=True, exist_ok=True)
    board = Board(state_dir / "venue.db")
    try:
        token = new_director_token()
        board.renew(DIRECTOR, token)
        return token
    finally:
        board.close()


DIRECTOR = "director"  # the key of the director's link's token in the board's store
MAX_PAGES = 40  # live dashboard pages at once: the projector, the director, the players' phones
PER_ADDRESS = 6  # live pages one address may hold: a phone's page, a reload, a second tab
