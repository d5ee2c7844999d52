"""Start-up checks of the state database: each fault told apart before SQLite may touch a file."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

DB_MAGIC = b"SQLite format 3\x00"
WAL_MAGICS = (0x377F0682, 0x377F0683)
WAL_VERSION = 3007000
MIN_FREE = 512 * 1024  # bytes the disk must have free for the table to save commands
TABLES = {"records", "meta"}

# Each fault kind, with the exit status `companion` ends with (documented in docs/reliability.md).
DAMAGED, FOREIGN, UNREADABLE, FULL, READ_ONLY = "damaged", "foreign", "unreadable", "full disk", "read-only"
EXIT_STATUS = {DAMAGED: 3, FOREIGN: 4, UNREADABLE: 5, FULL: 6, READ_ONLY: 7}


class StoreError(Exception):
    """The state database cannot be used; the message names the file, what is wrong and the fix.

    `kind` is one of the fault kinds above (None: a failure while running, such as a refused write).
    """

    def __init__(self, message: str, kind: str | None = None):
        super().__init__(message)
        self.kind = kind

    @property
    def exit_status(self) -> int:
        return EXIT_STATUS.get(self.kind, 1) if self.kind is not None else 1


def companions(path: Path) -> list[Path]:
    """The files that make up one database: the main file, its WAL, its shared-memory index, its id."""
    return [path, wal_of(path), path.with_name(path.name + "-shm"), id_file_of(path)]


def wal_of(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def id_file_of(path: Path) -> Path:
    """The small file beside the database that names the table it belongs to (companion.table-id)."""
    return path.with_suffix(".table-id")


def fault(kind: str, path: Path, what: str) -> StoreError:
    """The error for a fault of `kind` in the database at `path`: what is wrong and the one fix."""
    folder = path.parent
    fresh = f"companion store fresh --state-dir {folder}"
    if kind == FULL:
        return StoreError(f"{folder}: the disk is full ({what}); the table could not save a single command. "
                          "Your files are fine and were not changed: free some space on this disk, then "
                          "start again.", kind)
    if kind == READ_ONLY:
        return StoreError(f"{folder}: the state directory is read-only ({what}); the table could not save "
                          "a single command. Your files are fine and were not changed: make the directory "
                          "writable by the companion's user (or remount the disk read-write), then start "
                          "again.", kind)
    kept = "Nothing was changed: the files were kept as they are."
    if kind == DAMAGED:
        return StoreError(f"{path}: the state database is damaged: {what}. {kept} To save what can be "
                          f"saved, from the files and the newest backup in {folder / 'backups'}: companion "
                          f"store repair --state-dir {folder}. To start a fresh table "
                          f"instead (the files are moved aside, never deleted): {fresh}", kind)
    if kind == FOREIGN:
        return StoreError(f"{path}: these files belong to another table: {what}. {kept} If they were "
                          "copied here by mistake, put them back where they came from. To start a fresh "
                          f"table (the files are moved aside, never deleted): {fresh}", kind)
    return StoreError(f"{path}: cannot be read as this table's state database: {what}. {kept} To start a "
                      f"fresh table (the files are moved aside, never deleted): {fresh}", kind)


def classify(exc: BaseException, path: Path) -> StoreError:
    """A failure of SQLite or the OS while opening, as the fault it is."""
    code = getattr(exc, "errno", None)
    text = str(exc)
    if code == errno.ENOSPC or "disk is full" in text or (
            "disk I/O error" in text and _free(path.parent) < MIN_FREE):
        return fault(FULL, path, f"{_free(path.parent)} bytes free")
    if code in (errno.EROFS, errno.EACCES, errno.EPERM) and not _writable(path.parent) or "readonly" in text \
            or ("unable to open" in text and not _writable(path.parent)):
        return fault(READ_ONLY, path, text)
    if isinstance(exc, UnicodeDecodeError):
        return fault(UNREADABLE, path, "its table definitions hold bytes that are not text")
    if "malformed" in text or "corrupt" in text:
        return fault(DAMAGED, path, text)
    return fault(UNREADABLE, path, text)


def _free(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 0


def _writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK | os.X_OK)


@dataclass(frozen=True)
class Found:
    """What the checks found: whether the database exists, and its table id (None: a store made before
    table ids, or a new one)."""

    exists: bool
    table_id: str | None
    id_file: str | None


def inspect(path: Path) -> Found:
    """Check the files of the database at `path` before it is opened for writing; raise the fault found.

    SQLite itself would delete or replay a WAL that does not match: a WAL beside an empty file, a WAL
    from another table. So the bytes are read first, and the database is opened read-only, where
    SQLite never checkpoints, resets or deletes anything.
    """
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise fault(UNREADABLE, path, f"{_first_file(folder)} is a file, not a directory") from None
    except OSError as exc:
        raise classify(exc, path) from None
    if not folder.is_dir():
        raise fault(UNREADABLE, path, f"{folder} is not a directory")
    if not _writable(folder):
        raise fault(READ_ONLY, path, "the companion's user may not write there")
    id_file = _read_id_file(path)
    wal = wal_of(path)
    wal_size = wal.stat().st_size if wal.exists() else 0
    if not path.exists() and not path.is_symlink():
        if wal_size:
            raise fault(DAMAGED, path, f"the file is missing, but its WAL {wal} ({wal_size} bytes) is there")
        if id_file is not None:
            raise fault(DAMAGED, path, f"the file is missing, but {id_file_of(path)} says table {id_file} "
                        "lived here")
        _check_space(path)
        return Found(False, None, None)
    if not path.is_file():
        raise fault(UNREADABLE, path, "it is not a regular file")
    size = path.stat().st_size
    if size == 0:
        beside = f", and its WAL {wal} holds {wal_size} bytes" if wal_size else ""
        raise fault(DAMAGED, path, f"the file is empty{beside}")
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as exc:
        raise fault(UNREADABLE, path, exc.strerror or str(exc)) from None
    if len(header) < 100 or not header.startswith(DB_MAGIC):
        raise fault(UNREADABLE, path, f"it is not an SQLite database (it starts with {header[:16]!r})")
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    if wal_size:
        _check_wal(path, wal, wal_size, page)
    _check_space(path)
    return _check_contents(path, id_file, wal_size)


def _first_file(folder: Path) -> Path:
    """The nearest of `folder` and its parents that exists (the file in the way)."""
    for candidate in (folder, *folder.parents):
        if candidate.exists():
            return candidate
    return folder


def _read_id_file(db: Path) -> str | None:
    """The table id in the file beside the database `db` (None: no such file)."""
    path = id_file_of(db)
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()[:100] or None
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise fault(UNREADABLE, db, f"{path} cannot be read ({exc.strerror or exc})") from None


def _check_wal(path: Path, wal: Path, size: int, page: int) -> None:
    with wal.open("rb") as f:
        header = f.read(32)
    if len(header) < 32 or int.from_bytes(header[:4], "big") not in WAL_MAGICS \
            or int.from_bytes(header[4:8], "big") != WAL_VERSION:
        raise fault(DAMAGED, path, f"its WAL {wal} ({size} bytes) is not a write-ahead log")
    wal_page = int.from_bytes(header[8:12], "big")
    if wal_page != page:
        raise fault(FOREIGN, path, f"its WAL {wal} was written for a database with {wal_page}-byte pages, "
                    f"this one has {page}-byte pages")


def _check_space(path: Path) -> None:
    free = _free(path.parent)
    if free < MIN_FREE:
        raise fault(FULL, path, f"{free} bytes free")


def _read_only(path: Path, immutable: bool = False) -> sqlite3.Connection:
    """A connection that cannot write: SQLite neither checkpoints nor deletes the WAL through it."""
    flags = "mode=ro&immutable=1" if immutable else "mode=ro"
    return sqlite3.connect(f"file:{quote(str(path))}?{flags}", uri=True, isolation_level=None)


def _check_contents(path: Path, id_file: str | None, wal_size: int) -> Found:
    """The tables, `PRAGMA quick_check` and the table id, read through a read-only connection."""
    try:
        # With no WAL to read, immutable: SQLite then makes no WAL or index file of its own either.
        db = _read_only(path, immutable=not wal_size)
        try:
            db.text_factory = bytes  # a damaged row must not fail to decode before quick_check says so
            names = {row[0].decode("utf-8") for row in db.execute("SELECT name FROM sqlite_master")}
            checked = [row[0].decode("utf-8", "replace") for row in db.execute("PRAGMA quick_check")]
            if checked != ["ok"]:
                raise fault(DAMAGED, path, f"SQLite's check found: {'; '.join(checked[:3])}")
            if not TABLES <= names:
                raise fault(FOREIGN, path, "it is an SQLite database, but not a table companion's state")
            row = db.execute("SELECT value FROM meta WHERE key = 'table_id'").fetchone()
            table_id = row[0].decode("utf-8", "replace") if row else None
        finally:
            db.close()
    except StoreError:
        raise
    except (sqlite3.Error, UnicodeDecodeError, OSError) as exc:
        raise classify(exc, path) from None
    if id_file is not None and table_id != id_file:
        raise fault(FOREIGN, path, _foreign(path, id_file, table_id, wal_size))
    return Found(True, table_id, id_file)


def sound_copy(path: Path, table_id: str | None) -> sqlite3.Connection | None:
    """A read-only connection to a copy of the database with no WAL (a backup) that passes SQLite's
    check and holds table `table_id` (any table when None); None if it does not."""
    try:
        _check_contents(path, table_id, 0)
        return _read_only(path, immutable=True)
    except (StoreError, sqlite3.Error):
        return None


def _foreign(path: Path, id_file: str, table_id: str | None, wal_size: int) -> str:
    """Which file came from elsewhere: the WAL (the main file alone is this table's) or the database."""
    if wal_size:
        try:
            db = _read_only(path, immutable=True)
            try:
                row = db.execute("SELECT value FROM meta WHERE key = 'table_id'").fetchone()
            finally:
                db.close()
            if row and row[0] == id_file:
                return (f"its WAL {wal_of(path)} holds table {table_id or '(none)'}, while the database and "
                        f"{id_file_of(path)} are table {id_file}")
        except sqlite3.Error:
            pass
    return f"it holds table {table_id or '(no id)'}, while {id_file_of(path)} says table {id_file}"
