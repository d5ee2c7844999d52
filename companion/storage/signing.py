"""The table's own key for its snapshots: a 0600 file beside the database, made once, never copied."""

from __future__ import annotations

import logging
import secrets
from pathlib import Path

from companion.storage.store import write_durably

log = logging.getLogger(__name__)

KEY_BYTES = 32


def key_file_of(db: Path) -> Path:
    """The key's file beside the database (companion.snapshot-key): never in the database, nor a backup."""
    return db.with_suffix(".snapshot-key")


def snapshot_key(db: Path) -> bytes | None:
    """The key that signs the snapshots of the database at `db`, made the first time. None (and a log
    line) when it cannot be had: snapshots are then neither kept nor read, and a start replays the game."""
    path = key_file_of(db)
    if not path.exists():
        try:
            write_durably(path, secrets.token_hex(KEY_BYTES) + "\n", mode=0o600, once=True)
        except FileExistsError:
            pass  # another process made it meanwhile: theirs is the key
        except OSError as exc:
            log.warning("could not make the snapshot key %s (%s): every start replays the running game "
                        "whole", path, exc.strerror or exc)
            return None
    try:
        key = bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        key, why = b"", str(exc)
    else:
        why = f"{len(key)} bytes, not {KEY_BYTES}"
    if len(key) != KEY_BYTES:
        # Never overwritten: a file we cannot read may be someone's, and the table runs without it.
        log.warning("the snapshot key %s is not one this table made (%s); it is left as it is, and every "
                    "start replays the running game whole. To have snapshots again, move it aside.",
                    path, why)
        return None
    return key


__all__ = ["key_file_of", "snapshot_key"]
