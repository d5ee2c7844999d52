"""`companion store check|repair|fresh|backup`: what an owner does with a state database; nothing deleted."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.storage.check import StoreError, companions, id_file_of, sound_copy, wal_of
from companion.storage.files import restored_row
from companion.storage.store import NEW_GAME, SCHEMA, Record, Store, create, fsync, new_table_id

DB_NAME = "companion.db"
BACKUPS = "backups"
BACKUP_NAME = re.compile(r"^companion-(\d{6})-\d{8}T\d{6}Z\.db$")  # only files of this name are ours


def db_path(state_dir: Path) -> Path:
    return Path(state_dir) / DB_NAME


def check(state_dir: Path) -> str:
    """A report on the store; raises the StoreError of its fault."""
    store = Store(db_path(state_dir))
    try:
        count, last = store.count(), store.last_version()
        # The running game's first record and its count, not the whole game: it may be long.
        first = next(store.records_from(store.last_of("new_game")), None)
        game = first.args.get("game") if first is not None and first.kind == "new_game" else None
        played = store.count(first.version) if first is not None and game else 0
    finally:
        store.close()
    return (f"{db_path(state_dir)}: OK: table {store.table_id}, {count} records up to version {last}"
            + (f", the running game is {game} ({played} records)" if game else "") + ".")


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


def _kept_folder(state_dir: Path, why: str) -> Path:
    """A new dated folder beside the store for files moved aside (never one that exists)."""
    base = Path(state_dir) / f"kept-{_stamp()}-{why}"
    folder, n = base, 1
    while folder.exists():
        n += 1
        folder = base.with_name(f"{base.name}-{n}")
    folder.mkdir(parents=True)
    return folder


def _move_aside(path: Path, why: str) -> tuple[Path, list[Path]]:
    """The database's files, moved together into a dated folder (a rename: not a byte changes)."""
    present = [f for f in companions(path) if f.exists() or f.is_symlink()]
    if not present:
        return Path(), []
    folder = _kept_folder(path.parent, why)
    for f in present:
        os.replace(f, folder / f.name)
    fsync(folder)
    fsync(path.parent)
    return folder, [folder / f.name for f in present]


def in_use(path: Path) -> bool:
    """Whether a process has the database open: SQLite holds a read lock on a byte of the WAL index
    (the "DMS" byte, offset 128 of the -shm file) for as long as a connection is open. Only for a
    process that has no connection of its own to it: closing the probe drops this process's locks."""
    import fcntl

    shm = path.with_name(path.name + "-shm")
    try:
        fd = os.open(shm, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 128)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing releases the probe's lock; the file is not written
    return False


def _not_running(path: Path, action: str) -> None:
    if in_use(path):
        raise StoreError(f"{path}: the table is running (a process has the database open): stop it "
                         f"first (sudo systemctl stop companion), then {action} again. Nothing was changed.")


def fresh(state_dir: Path) -> str:
    """Move the database, its WAL, SHM and table id aside together; the next start makes a new table."""
    _not_running(db_path(state_dir), "companion store fresh")
    folder, moved = _move_aside(db_path(state_dir), "fresh")
    if not moved:
        return f"{state_dir}: there is no state database here; the next start makes a new table."
    return (f"Moved {', '.join(f.name for f in moved)} into {folder}. The next start makes a new table; "
            "nothing was deleted.")


@dataclass(frozen=True)
class Recovered:
    rows: list[tuple]
    meta: dict[str, str]
    how: str


def repair(state_dir: Path, replays: Callable[[list[Record]], int]) -> str:
    """Keep the database's files in a dated folder, rebuild a database from whatever SQLite can still
    read of them, and say how many records were kept.

    `replays(records)` says how many of the last game's records still replay, in order (the core's
    `session.replayable`): the store's tools never run a game themselves."""
    path = db_path(state_dir)
    _not_running(path, "companion store repair")
    folder, moved = _move_aside(path, "repair")
    if not moved:
        return f"{state_dir}: there is no state database here to repair."
    with tempfile.TemporaryDirectory(dir=state_dir, prefix=".repair-") as scratch:
        # SQLite may write beside a file it reads (its index, a recovered WAL): only ever on copies.
        for f in moved:
            if f.is_file():
                shutil.copy2(f, Path(scratch) / f.name)
        _blank_beside_a_wal(Path(scratch) / path.name)
        recovered = _recover(Path(scratch) / path.name)
    table_id = recovered.meta.pop("table_id", None) or _id_from(folder / id_file_of(path).name)
    read = {row[0] for row in recovered.rows}
    backup = _newest_backup(state_dir, table_id)
    if backup is not None:
        table_id = table_id or backup.meta.get("table_id")
        # A backup's rows passed SQLite's check: they stand for the damaged files' wherever both have one.
        both = {row[0]: row for row in (*recovered.rows, *backup.rows)}
        meta = {key: value for key, value in {**backup.meta, **recovered.meta}.items() if key != "table_id"}
        recovered = Recovered(list(both.values()), meta, recovered.how)
    rows, dropped = _replayable(recovered.rows, replays)
    table_id = table_id or new_table_id()
    create(path, table_id, rows, recovered.meta)
    how = recovered.how
    if backup is not None:
        more = sum(1 for row in rows if row[0] not in read)
        how += f"; {more} more from the backup {backup.how}" if more else f"; none more in {backup.how}"
    note = (f" {dropped} records after the last one that replays were left out (they stay in the kept copy)."
            if dropped else "")
    return (f"Kept the damaged files in {folder}. Recovered {len(rows)} records ({how}) into a new "
            f"{path}, table {table_id}.{note}")


def _newest_backup(state_dir: Path, table_id: str | None) -> Recovered | None:
    """The records and settings of this table's newest backup that passes SQLite's check; its name in
    `how`. Backups are never written to: opened read-only, as they are."""
    folder = Path(state_dir) / BACKUPS
    if not folder.is_dir():
        return None
    for _, backup in reversed(_our_backups(folder)):
        db = sound_copy(backup, table_id)
        if db is None:
            continue
        try:
            rows = [restored_row(db, row) for row in
                    db.execute("SELECT version, kind, seat, args, draws, at FROM records").fetchall()]
            meta = dict(db.execute("SELECT key, value FROM meta"))
        except sqlite3.Error:
            continue
        finally:
            db.close()
        return Recovered(rows, meta, f"{BACKUPS}/{backup.name}")
    return None


def _blank_beside_a_wal(copy: Path) -> None:
    """In the scratch copy, an empty or missing main file beside a WAL becomes a blank database of the
    WAL's page size, so SQLite reads the WAL's pages: a WAL holds every page its commits changed, the
    header page and the schema among them whenever the file grew."""
    wal = wal_of(copy)
    if not wal.is_file() or wal.stat().st_size < 32 or (copy.is_file() and copy.stat().st_size > 0):
        return
    with wal.open("rb") as f:
        page = int.from_bytes(f.read(12)[8:12], "big")
    blank = copy.with_name("blank.db")
    db = sqlite3.connect(blank, isolation_level=None)
    try:
        db.execute(f"PRAGMA page_size = {int(page)}")
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(SCHEMA)
    finally:
        db.close()
    os.replace(blank, copy)
    copy.with_name(copy.name + "-shm").unlink(missing_ok=True)  # a scratch copy's index: rebuilt from the WAL


def _id_from(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip() or None
    except OSError:
        return None


def _recover(copy: Path) -> Recovered:
    """The records and settings of a damaged database: row by row, or else with sqlite3's `.recover`."""
    rows, meta = _row_by_row(copy)
    if rows:
        return Recovered(rows, meta, "read row by row")
    recovered = _cli_recover(copy)
    if recovered is not None:
        return recovered
    return Recovered(rows, meta, "nothing could be read")


def _row_by_row(copy: Path) -> tuple[list[tuple], dict[str, str]]:
    rows: list[tuple] = []
    meta: dict[str, str] = {}
    try:
        db = sqlite3.connect(copy, isolation_level=None)
    except sqlite3.Error:
        return rows, meta
    db.text_factory = lambda b: b.decode("utf-8", "replace")
    try:
        try:
            versions = sorted({v for (v,) in db.execute("SELECT version FROM records")})
        except sqlite3.Error:
            versions = _probe_versions(db)
        for version in versions:
            try:
                row = db.execute("SELECT version, kind, seat, args, draws, at FROM records WHERE version = ?",
                                 (version,)).fetchone()
            except sqlite3.Error:
                continue
            if row is not None and _sound(row):
                rows.append(restored_row(db, row))
        try:
            meta = dict(db.execute("SELECT key, value FROM meta"))
        except sqlite3.Error:
            meta = {}
    finally:
        db.close()
    return rows, meta


def _probe_versions(db: sqlite3.Connection) -> list[int]:
    """Versions one by one when the table cannot be walked whole: each lookup reads only its own pages."""
    found, misses, version = [], 0, 1
    while misses < 1000:
        try:
            hit = db.execute("SELECT 1 FROM records WHERE version = ?", (version,)).fetchone()
        except sqlite3.Error:
            hit = None
        found += [version] if hit else []
        misses = 0 if hit else misses + 1
        version += 1
    return found


def _sound(row: tuple) -> bool:
    """Whether a recovered row is a record (damage can leave rows with garbage in them)."""
    try:
        Record(int(row[0]), str(row[1]), row[2], json.loads(row[3]), json.loads(row[4]), str(row[5]))
        return isinstance(json.loads(row[3]), dict) and isinstance(json.loads(row[4]), list)
    except (ValueError, TypeError):
        return False


def _cli_recover(copy: Path) -> Recovered | None:
    """sqlite3's own `.recover`, where the sqlite3 program is installed (it often is not on a Pi)."""
    program = shutil.which("sqlite3")
    if program is None:
        return None
    try:
        sql = subprocess.run([program, str(copy), ".recover"], capture_output=True, text=True, timeout=300,
                             errors="replace").stdout
    except (OSError, subprocess.SubprocessError):
        return None
    db = sqlite3.connect(":memory:")
    try:
        for statement in sql.split(";\n"):
            try:
                db.execute(statement)
            except sqlite3.Error:
                continue
        rows, meta = [], {}
        try:
            rows = [restored_row(db, r) for r in db.execute("SELECT version, kind, seat, args, draws, at "
                                                            "FROM records ORDER BY version").fetchall()
                    if _sound(r)]
            meta = dict(db.execute("SELECT key, value FROM meta"))
        except sqlite3.Error:
            pass
    finally:
        db.close()
    return Recovered(rows, meta, "sqlite3 .recover") if rows else None


def _replayable(rows: list[tuple], replays: Callable[[list[Record]], int]) -> tuple[list[tuple], int]:
    """The rows, without those of the last game from the first one that no longer replays: the table
    must start from what is kept."""
    rows = sorted({row[0]: row for row in reversed(rows)}.values())  # one row per version
    start = max((i for i, r in enumerate(rows) if r[1] == NEW_GAME), default=0)
    records = []
    for version, kind, seat, args, draws, at in rows[start:]:
        try:
            records.append(Record(version, kind, seat, json.loads(args), json.loads(draws), at))
        except ValueError:
            break
    kept = start + replays(records)
    return rows[:kept], len(rows) - kept


def _our_backups(folder: Path) -> list[tuple[int, Path]]:
    """The backups in `folder` that we wrote (by their name), oldest first, with their numbers."""
    return sorted((int(m.group(1)), f) for f in folder.iterdir() if (m := BACKUP_NAME.match(f.name)))


def backup(store: Store, state_dir: Path, keep: int) -> Path:
    """An online backup of `store` into the backups folder; only the newest `keep` of ours are kept."""
    folder = Path(state_dir) / BACKUPS
    folder.mkdir(exist_ok=True)
    ours = _our_backups(folder)
    number = ours[-1][0] + 1 if ours else 1
    # Numbered, not dated only: a clock set back must not make the newest backup look the oldest.
    target = store.backup(folder / f"companion-{number:06d}-{_stamp()}.db")
    for _, old in ours[:max(0, len(ours) + 1 - keep)]:
        old.unlink(missing_ok=True)
    return target


def backup_now(state_dir: Path, keep: int) -> str:
    store = Store(db_path(state_dir))
    try:
        target = backup(store, state_dir, keep)
        count = store.count()
    finally:
        store.close()
    return f"Backed up {count} records to {target}."


__all__ = ["StoreError", "backup", "backup_now", "check", "fresh", "repair"]
