"""A table's outbox: the public messages its commands leave for the venue, in the table's own store."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS venue_outbox (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    version INTEGER NOT NULL,
    body    TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Message:
    """One message to send: `seq` orders a table's messages for good (the dashboard drops a seq twice)."""

    seq: int
    version: int
    body: str


def writer(public: Callable[[object], dict]) -> Callable[[sqlite3.Connection, object], None]:
    """What the table calls inside a command's transaction: the update's public view becomes a row.

    `public(update)` must be the scoreboard's own view (companion.webapp.events.public_payload): nothing
    the scoreboard would not show is ever written here, so nothing else can leave the table."""

    def write(db: sqlite3.Connection, update) -> None:
        body = json.dumps(public(update), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        db.execute("INSERT INTO venue_outbox (version, body) VALUES (?, ?)", (update.version, body))

    return write


class Outbox:
    """The sender's side: read what is unsent in order, forget what the dashboard acknowledged."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def after(self, seq: int, limit: int) -> list[Message]:
        """Up to `limit` unsent messages after `seq`, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT seq, version, body FROM venue_outbox WHERE seq > ? ORDER BY seq "
                                    "LIMIT ?", (seq, limit)).fetchall()
        return [Message(*row) for row in rows]

    def acknowledged(self, seq: int) -> None:
        """The dashboard has every message up to `seq`: they leave the outbox."""
        with self._lock:
            self._db.execute("DELETE FROM venue_outbox WHERE seq <= ?", (seq,))

    def waiting(self) -> int:
        """How many messages wait for the dashboard's acknowledgement."""
        with self._lock:
            return self._db.execute("SELECT count(*) FROM venue_outbox").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
