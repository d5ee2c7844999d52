"""The durable record of every table: one SQLite log in WAL mode, committed before any output."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import storefiles, storelimit
from companion.storecheck import DAMAGED, StoreError, classify, id_file_of, inspect

__all__ = ["Record", "Store", "StoreError"]

# SQLite's page cache, in kB: the table appends and reads back one game at most, which 512 kB hold, where
# the 2 MB default fills with old pages over the device's life; a backup's copy needs next to none.
CACHE_KB = 512
BACKUP_CACHE_KB = 64

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
CREATE INDEX IF NOT EXISTS records_by_kind ON records (kind, version);
"""


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

    def __init__(self, path: Path | str, limit_mb: int = storelimit.DEFAULT_MB):
        self.path = Path(path)
        self.limit_mb = limit_mb  # the database, its WAL and its backups together (storelimit)
        self._lock = threading.Lock()
        found = inspect(self.path)  # raises the fault it finds, before SQLite may touch a file
        if not found.exists:
            create(self.path, new_table_id())
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL: a power cut after the commit returns must not lose the command.
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(f"PRAGMA cache_size=-{CACHE_KB}")
            self._db.executescript(SCHEMA)
            # A store made before table ids gets one now, in the database and beside it.
            self.table_id = self.meta_default("table_id", found.table_id or new_table_id())
        except (sqlite3.Error, OSError, StoreError) as exc:
            raise classify(exc.__cause__ or exc, self.path) from exc
        if found.id_file is None:
            write_durably(id_file_of(self.path), self.table_id + "\n")

    def append(self, kind: str, seat: int | None, args: dict, draws: list[int]) -> Record:
        """Commit one record and return it with its version."""
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._using("save a record"):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row_args = storefiles.stored(self._db, kind, args)
                cur = self._db.execute(
                    "INSERT INTO records (kind, seat, args, draws, at) VALUES (?, ?, ?, ?, ?)",
                    (kind, seat, json.dumps(row_args, sort_keys=True), json.dumps(draws), at),
                )
                # The settings page, table id included, changes with every commit, so any WAL this
                # table writes holds its id: a WAL from another table is told apart at start-up.
                self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('last_version', ?)",
                                 (str(cur.lastrowid),))
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
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
            return [self._record(r) for r in rows]  # under the lock: a new game's files are read back

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

    def room(self) -> storelimit.Room:
        """What the store takes on disk, backups included, and what the disk has left."""
        return storelimit.room(self.path, self.limit_mb)

    def count(self) -> int:
        """How many records the store holds."""
        with self._using("read the records"):
            return self._db.execute("SELECT count(*) FROM records").fetchone()[0]

    def backup(self, target: Path) -> Path:
        """An online copy of the whole database at `target`, via SQLite's backup API; a power cut while
        it is written leaves whatever was at `target` before intact (temp file, fsync, rename)."""
        temp = target.with_name(target.name + ".part")
        temp.unlink(missing_ok=True)  # a leftover of our own interrupted backup
        copy = sqlite3.connect(temp)
        copy.execute(f"PRAGMA cache_size=-{BACKUP_CACHE_KB}")
        try:
            with self._using("back up the records"):
                self._db.backup(copy)
        finally:
            copy.close()
        fsync(temp)
        os.replace(temp, target)
        fsync(target.parent)
        return target

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
                    f"{self.path}: cannot {action} ({exc}). If the disk is full, free some space; to learn "
                    f"what else is wrong: companion store check --state-dir {self.path.parent}") from exc

    def _record(self, row) -> Record:
        version, kind, seat, args, draws, at = row
        try:
            return Record(version, kind, seat, storefiles.restored(self._db, kind, json.loads(args)),
                          json.loads(draws), at)
        except KeyError as exc:
            raise StoreError(f"{self.path}: record {version} names a data file the store does not hold "
                             f"({exc}); to save the rest: companion store repair --state-dir "
                             f"{self.path.parent}",
                             DAMAGED) from exc
        except json.JSONDecodeError as exc:
            raise StoreError(f"{self.path}: record {version} is corrupt ({exc}); to save the rest: "
                             f"companion store repair --state-dir {self.path.parent}", DAMAGED) from exc


def new_table_id() -> str:
    return secrets.token_hex(8)


def create(path: Path, table_id: str, rows: list[tuple] = (), meta: dict[str, str] | None = None) -> None:
    """A new database at `path` holding `table_id` (and `rows`, `meta`): built under a temporary name
    and renamed into place, so the file either does not exist or is whole, never empty."""
    temp = path.with_name(path.name + ".creating")
    for leftover in (temp, temp.with_name(temp.name + "-journal")):
        leftover.unlink(missing_ok=True)  # ours, from a creation cut short
    db = sqlite3.connect(temp, isolation_level=None)
    try:
        db.executescript(SCHEMA)
        db.execute("BEGIN")
        db.executemany("INSERT INTO records (version, kind, seat, args, draws, at) VALUES (?, ?, ?, ?, ?, ?)",
                       rows)
        db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                       [*(meta or {}).items(), ("table_id", table_id)])
        db.execute("COMMIT")
    finally:
        db.close()
    fsync(temp)
    os.replace(temp, path)
    fsync(path.parent)
    write_durably(id_file_of(path), table_id + "\n")


def write_durably(path: Path, text: str) -> None:
    """Write a small file whole or not at all: temp file, fsync, rename, fsync the directory."""
    temp = path.with_name(path.name + ".part")
    temp.write_text(text, encoding="utf-8")
    fsync(temp)
    os.replace(temp, path)
    fsync(path.parent)


def fsync(path: Path) -> None:
    """Flush a file, or a folder's entries (after a rename into it), to the storage."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
