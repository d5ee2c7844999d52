"""Data files kept once in the state database: a new game's record names each file by its SHA-256.

A new game records the text of every data file it was set up with (so it replays the same after an
upgrade). Kept in each record, a host starting games in a loop with one 16 KB file would write 16 KB
per game, and every backup would copy them all again; kept here, the same text is written once. Records
written before this table keep their text inline, and read as they are.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

# Only a new game's args hold data files, and the table builds them (session.Setup.new_game): a client
# cannot shape them to look like a reference.
NEW_GAME = "new_game"
# Made with the first file kept, so a store that never held one keeps the layout it always had.
SCHEMA = "CREATE TABLE IF NOT EXISTS data_files (sha256 TEXT PRIMARY KEY, text TEXT NOT NULL)"


def stored(db: sqlite3.Connection, kind: str, args: dict) -> dict:
    """The args as the record's row holds them: each data file's text put in `data_files` (once per
    content) and named by its hash. Runs inside the record's own transaction."""
    files = _files(kind, args)
    if not files:
        return args
    db.execute(SCHEMA)
    named = {}
    for key, file in files.items():
        digest = hashlib.sha256(file["text"].encode("utf-8")).hexdigest()
        db.execute("INSERT OR IGNORE INTO data_files (sha256, text) VALUES (?, ?)", (digest, file["text"]))
        named[key] = {"name": file["name"], "sha256": digest}
    return {**args, "data": named}


def restored(db: sqlite3.Connection, kind: str, args: dict) -> dict:
    """The args as they were recorded: each data file named by its hash gets its text back. KeyError
    names a hash the table does not hold (a damaged store)."""
    data = args.get("data") if kind == NEW_GAME else None
    if not isinstance(data, dict) or not any(_named(file) for file in data.values()):
        return args
    texts = {}
    for key, file in data.items():
        if _named(file):
            row = db.execute("SELECT text FROM data_files WHERE sha256 = ?", (file["sha256"],)).fetchone()
            if row is None:
                raise KeyError(file["sha256"])
            file = {"name": file["name"], "text": row[0]}
        texts[key] = file
    return {**args, "data": texts}


def restored_row(db: sqlite3.Connection, row: tuple) -> tuple:
    """A raw records row (version, kind, seat, args, draws, at) with its data files' texts put back,
    for a repair that copies rows into a new database; a row that cannot be is kept as it is."""
    try:
        args = json.loads(row[3])
        full = restored(db, row[1], args) if isinstance(args, dict) else args
    except (ValueError, TypeError, KeyError, sqlite3.Error):
        return row
    return row if full is args else (*row[:3], json.dumps(full, sort_keys=True), *row[4:])


def _files(kind: str, args: dict) -> dict:
    data = args.get("data") if kind == NEW_GAME else None
    if not isinstance(data, dict) or not all(isinstance(f, dict) and isinstance(f.get("text"), str)
                                             for f in data.values()):
        return {}
    return data


def _named(file: object) -> bool:
    return isinstance(file, dict) and isinstance(file.get("sha256"), str) and "text" not in file
