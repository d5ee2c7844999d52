"""The durable record of every table: one SQLite log in WAL mode, committed before any output."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    version INTEGER PRIMARY KEY,
    kind    TEXT NOT NULL,
    seat    INTEGER,
    args    TEXT NOT NULL,
    draws   TEXT NOT NULL,
    at      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class StoreError(Exception):
    """The state database cannot be used; the message names the file and the fix."""


@dataclass(frozen=True)
class Record:
    """One accepted command with the randomness it drew. `version` orders the whole table."""

    version: int
    kind: str
    seat: int | None
    args: dict[str, Any]
    draws: list[int]
    at: str = ""

    def to_json(self) -> dict:
        return {"version": self.version, "kind": self.kind, "seat": self.seat,
                "args": self.args, "draws": self.draws, "at": self.at}


class Store:
    """Append-only log of records. Every append is committed (fsync'd) before it returns."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL: a power cut after the commit returns must not lose the command.
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except (sqlite3.DatabaseError, OSError) as exc:
            raise StoreError(
                f"{self.path}: cannot open the state database ({exc}). "
                "Move the file aside to start afresh, or restore it from a backup."
            ) from exc

    def append(self, kind: str, seat: int | None, args: dict, draws: list[int]) -> Record:
        """Commit one record and return it with its version."""
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._using("save a record"):
            cur = self._db.execute(
                "INSERT INTO records (kind, seat, args, draws, at) VALUES (?, ?, ?, ?, ?)",
                (kind, seat, json.dumps(args, sort_keys=True), json.dumps(draws), at),
            )
            return Record(cur.lastrowid, kind, seat, args, draws, at)

    def records_since_last(self, kind: str) -> list[Record]:
        """The records from the newest one of `kind` (included) to the end."""
        with self._using("read the records"):
            row = self._db.execute(
                "SELECT max(version) FROM records WHERE kind = ?", (kind,)).fetchone()
            start = row[0] if row and row[0] is not None else 0
            rows = self._db.execute(
                "SELECT version, kind, seat, args, draws, at FROM records WHERE version >= ? "
                "ORDER BY version", (start,)).fetchall()
        return [self._record(r) for r in rows]

    def last_version(self) -> int:
        with self._using("read the records"):
            return self._db.execute("SELECT coalesce(max(version), 0) FROM records").fetchone()[0]

    def get_meta(self, key: str) -> str | None:
        with self._using("read the settings"):
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._using("save the settings"):
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def meta_default(self, key: str, value: str) -> str:
        """The value of `key`, set to `value` first if it has none; one winner even across processes."""
        with self._using("save the settings"):
            self._db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (key, value))
            return self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _using(self, action: str) -> Iterator[None]:
        """Hold the lock; a failing or damaged database becomes a StoreError naming the file and the fix.

        A file with a sound header but damaged pages opens fine and only fails when read.
        """
        with self._lock:
            try:
                yield
            except sqlite3.Error as exc:
                raise StoreError(
                    f"{self.path}: cannot {action} ({exc}). Check that the disk has space and the file is "
                    "writable; if the file is damaged, move it aside to start afresh, or restore it from a "
                    "backup."
                ) from exc

    def _record(self, row) -> Record:
        version, kind, seat, args, draws, at = row
        try:
            return Record(version, kind, seat, json.loads(args), json.loads(draws), at)
        except json.JSONDecodeError as exc:
            raise StoreError(f"{self.path}: record {version} is corrupt ({exc}); restore a backup.") from exc
