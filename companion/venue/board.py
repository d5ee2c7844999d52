"""The dashboard's own store: each table's messages kept once, by (table, seq), in order."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name     TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL,
    online   INTEGER NOT NULL DEFAULT 0,
    seen_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS updates (
    name    TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    version INTEGER NOT NULL,
    body    TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (name, seq)
);
"""


class Board:
    """What the dashboard knows: a message is kept in the transaction that moves its table's `last_seq`."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def take(self, name: str, seq: int, version: int, update: dict) -> int:
        """Keep message `seq` of table `name` if it is the next one; return the seq to acknowledge (the
        last one kept: a duplicate is dropped, a message after a gap waits for the table to resend)."""
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute("SELECT last_seq FROM tables WHERE name = ?", (name,)).fetchone()
                # A table first seen starts where it stands: what it sent an earlier dashboard is gone.
                last = seq - 1 if row is None else row[0]
                if seq == last + 1:
                    self._db.execute(
                        "INSERT INTO updates (name, seq, version, body, at) VALUES (?, ?, ?, ?, ?)",
                        (name, seq, version, json.dumps(update, ensure_ascii=False), at))
                    self._db.execute(
                        "INSERT INTO tables (name, last_seq, seen_at) VALUES (?, ?, ?) ON CONFLICT (name) "
                        "DO UPDATE SET last_seq = excluded.last_seq, seen_at = excluded.seen_at",
                        (name, seq, at))
                    last = seq
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        return last

    def mark(self, name: str, online: bool) -> None:
        """A table's retained status: online, or offline (its Last Will, or its goodbye)."""
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            self._db.execute("INSERT INTO tables (name, last_seq, online, seen_at) VALUES (?, 0, ?, ?) "
                             "ON CONFLICT (name) DO UPDATE SET online = excluded.online",
                             (name, int(online), at))

    def versions(self, name: str) -> list[int]:
        """The versions kept for table `name`, in the order they were kept."""
        with self._lock:
            return [v for (v,) in self._db.execute("SELECT version FROM updates WHERE name = ? ORDER BY seq",
                                                    (name,))]

    def tables(self) -> list[dict]:
        """Every table seen, with its newest update."""
        with self._lock:
            rows = self._db.execute(
                "SELECT t.name, t.online, t.seen_at, t.last_seq, u.body FROM tables t LEFT JOIN updates u "
                "ON u.name = t.name AND u.seq = t.last_seq ORDER BY t.name").fetchall()
        return [{"name": name, "online": bool(online), "seen_at": seen, "seq": seq,
                 "update": json.loads(body) if body else None} for name, online, seen, seq, body in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
