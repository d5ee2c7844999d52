"""The store's bound on disk: its database, WAL and backups together, checked before each record."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import N_

DEFAULT_MB = 256  # a long game is under 100 KB and a year of club evenings under 20 MB, backups included
FREE_KB = 1024  # kept free on the disk whatever the bound: a record's commit (at most 64 KB) and its WAL
BACKUP_FILES = "companion-*.db*"  # the numbered backups and a backup being written (.part)
STORE_FULL = N_("The table's storage is full ({used} MB used by its games and backups, {free} MB free on "
                "its disk; its limit is {limit} MB): it saves no more moves, and nothing was changed. "
                "Ask the device's owner to remove old backups or lower backup_keep, to raise store_limit_mb "
                "in its config, or to start a fresh table (companion store fresh).")


@dataclass(frozen=True)
class Room:
    """How much the store takes (`used`) and the disk has left (`free`), in bytes, against `limit`."""

    used: int
    free: int
    limit: int

    @property
    def full(self) -> bool:
        return self.used >= self.limit or self.free < FREE_KB * 1024

    def said(self) -> dict:
        """The message's figures in MB; the store's rounded up: just over the limit never reads "1 of 1"."""
        return {"used": -(-self.used // 2**20), "free": self.free // 2**20, "limit": self.limit // 2**20}


def room(db: Path, limit_mb: int, backups: str = "backups") -> Room:
    """The room left for the store at `db`: the database, its WAL and every backup of it count."""
    files = [db, db.with_name(db.name + "-wal"), *(db.parent / backups).glob(BACKUP_FILES)]
    used = sum(_size(f) for f in files)
    return Room(used, shutil.disk_usage(db.parent).free, limit_mb * 2**20)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
