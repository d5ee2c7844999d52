"""The durable record of every table: one SQLite log in WAL mode, committed before any output."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.storage import files as storefiles
from companion.storage import limit as storelimit
from companion.storage.check import DAMAGED, StoreError, classify, id_file_of, inspect

__all__ = ["Record", "SnapshotRow", "Store", "StoreError"]

# SQLite's page cache, in kB: the table appends and reads back one game at most, which 512 kB hold, where
# the 2 MB default fills with old pages over the device's life; a backup's copy needs next to none.
NEW_GAME = "new_game"  # the record that begins a game: a repair keeps each game from its own
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
CREATE TABLE IF NOT EXISTS snapshots (
    version INTEGER PRIMARY KEY,
    since   INTEGER NOT NULL,
    count   INTEGER NOT NULL,
    format  INTEGER NOT NULL,
    code    TEXT NOT NULL,
    body    BLOB NOT NULL,
    digest  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS snapshots_by_game ON snapshots (since, count);
"""
READ_BATCH = 500  # records read at a time by a replay: its memory does not grow with the log


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


@dataclass(frozen=True)
class SnapshotRow:
    """The running game's session after record `version`, encoded (companion/core/snapshots.py reads it).

    `since` is the version of the record that began its game (a new_game or end_game), `count` the
    session's number in that game, `code` the fingerprint of the code that wrote it, `digest` a hash
    of the whole row. `since=None` on append: the record being appended begins the game.
    """

    version: int | None
    since: int | None
    count: int
    format: int
    code: str
    body: bytes
    digest: str


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

    def append(self, kind: str, seat: int | None, args: dict, draws: list[int],
               snapshot: Callable[[int], SnapshotRow] | None = None,
               within: Callable[[sqlite3.Connection, int], None] | None = None) -> Record:
        """Commit one record and return it with its version; with `snapshot(version)`, the session it
        makes is kept in the same transaction (a start then replays only what came after); `within(db,
        version)` writes more rows in that transaction too (a venue's outbox, outputs/venue/outbox.py)."""
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._using("save a record"):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row_args = storefiles.stored(self._db, kind, args)
                cur = self._db.execute(
                    "INSERT INTO records (kind, seat, args, draws, at) VALUES (?, ?, ?, ?, ?)",
                    (kind, seat, json.dumps(row_args, sort_keys=True), json.dumps(draws), at),
                )
                version = cur.lastrowid
                assert version is not None  # set by every INSERT
                # The settings page, table id included, changes with every commit, so any WAL this
                # table writes holds its id: a WAL from another table is told apart at start-up.
                self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('last_version', ?)",
                                 (str(version),))
                if snapshot is not None:
                    self._put_snapshot(snapshot(version))
                if within is not None:
                    within(self._db, version)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            return Record(version, kind, seat, args, draws, at)

    def records_since_last(self, kind: str) -> list[Record]:
        """The records from the newest one of `kind` (included) to the end."""
        return list(self.records_from(self.last_of(kind)))

    def last_of(self, kind: str, upto: int | None = None) -> int:
        """The version of the newest record of `kind`, at or before `upto` if given (0: none)."""
        with self._using("read the records"):
            return self._db.execute("SELECT coalesce(max(version), 0) FROM records WHERE kind = ? AND "
                                    "version <= ?", (kind, (1 << 62) if upto is None else upto)).fetchone()[0]

    def records_from(self, version: int, upto: int | None = None) -> Iterator[Record]:
        """The records from `version` (included) to `upto` (included; None: the end), oldest first, read
        a batch at a time: a long game is never held whole in memory."""
        last = (1 << 62) if upto is None else upto
        while True:
            with self._using("read the records"):
                rows = self._db.execute(
                    "SELECT version, kind, seat, args, draws, at FROM records WHERE version >= ? AND "
                    "version <= ? ORDER BY version LIMIT ?", (version, last, READ_BATCH)).fetchall()
                records = [self._record(row) for row in rows]  # under the lock: a new game's files are read
            yield from records
            if len(rows) < READ_BATCH:
                return
            version = rows[-1][0] + 1

    def snapshots(self, since_at_least: int, since: int | None = None, count_at_most: int | None = None,
                  upto: int | None = None) -> Iterator[SnapshotRow]:
        """Kept snapshots, newest first, one at a time: those of games begun at `since_at_least` or
        later (of the game begun at `since`, numbered up to `count_at_most`, when given), at or before
        version `upto`."""
        where, params = ["since >= ?"], [since_at_least]
        for clause, value in (("since = ?", since), ("count <= ?", count_at_most), ("version <= ?", upto)):
            if value is not None:
                where.append(clause)
                params.append(value)
        below = 1 << 62
        while True:
            with self._using("read the snapshots"):
                row = self._db.execute(
                    "SELECT version, since, count, format, code, body, digest FROM snapshots WHERE "
                    f"{' AND '.join(where)} AND version < ? ORDER BY version DESC LIMIT 1",
                    (*params, below)).fetchone()
            if row is None:
                return
            yield SnapshotRow(*row)
            below = row[0]

    def keep_snapshot(self, row: SnapshotRow) -> None:
        """Keep a snapshot made while replaying (at a start, or an undo): not an acknowledged command,
        so its commit waits for the next fsync instead of making one (a power cut just loses it)."""
        with self._using("save a snapshot"):
            self._db.execute("PRAGMA synchronous=NORMAL")
            try:
                self._put_snapshot(row)
            finally:
                self._db.execute("PRAGMA synchronous=FULL")

    def _put_snapshot(self, row: SnapshotRow) -> None:
        self._db.execute("INSERT OR REPLACE INTO snapshots (version, since, count, format, code, body, "
                         "digest) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (row.version, row.since, row.count, row.format, row.code, row.body, row.digest))

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

    def count(self, since: int = 0) -> int:
        """How many records the store holds (from version `since` on)."""
        with self._using("read the records"):
            return self._db.execute("SELECT count(*) FROM records WHERE version >= ?", (since,)).fetchone()[0]

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


def create(path: Path, table_id: str, rows: Sequence[tuple[Any, ...]] = (),
           meta: dict[str, str] | None = None) -> None:
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


def write_durably(path: Path, text: str, mode: int | None = None, once: bool = False) -> None:
    """Write a small file whole or not at all: temp file, fsync, rename, fsync the directory. `mode`: its
    permissions from the start (a file holding a password is never readable by others, even briefly).
    `once`: a file that is never overwritten (FileExistsError if it is there, and it is left as it is)."""
    temp = path.with_name(path.name + ".part")
    if mode is None:
        temp.write_text(text, encoding="utf-8")
    else:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        os.fchmod(fd, mode)  # the umask may have taken bits away, and a left-over .part kept its own
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    fsync(temp)
    if once:
        try:
            os.link(temp, path)  # unlike a rename, a link never replaces a file that is there
        finally:
            temp.unlink()
    else:
        os.replace(temp, path)
    fsync(path.parent)


def fsync(path: Path) -> None:
    """Flush a file, or a folder's entries (after a rename into it), to the storage."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
