"""A table's outbox: the public messages its commands leave for the venue, in the table's own store."""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.gamekit.contract import IllegalMove
from companion.i18n import N_

if TYPE_CHECKING:
    from companion.core.moment import Moment

SCHEMA = """
CREATE TABLE IF NOT EXISTS venue_outbox (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    version INTEGER NOT NULL,
    body    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS venue_stream (id TEXT NOT NULL);
"""


@dataclass(frozen=True)
class Message:
    """One message to send: `seq` orders a table's messages for good (the dashboard drops a seq twice)."""

    seq: int
    version: int
    body: str


DEFAULT_LIMIT = 20_000  # messages waiting for the venue: many hours of play at a table's pace
OUTBOX_FULL = N_("The venue has not been reached for too long: {n} moves wait to be sent to it, the most "
                 "this table keeps. Reconnect the table to the venue's Wi-Fi, or ask the organiser to check "
                 "the venue's broker. Nothing was changed.")
# A table in a league keeps a message until its league's dashboard has it too: the league may be what is away.
OUTBOX_FULL_LEAGUE = N_("The venue or its league has not been reached for too long: {n} moves wait to be "
                        "sent, the most this table keeps. Reconnect the table to the venue's Wi-Fi, or ask "
                        "the organiser to check the venue's broker and its bridge to the league. Nothing was "
                        "changed.")


def writer(public: Callable[[Moment], dict[str, Any]], limit: int = DEFAULT_LIMIT, league: bool = False
           ) -> Callable[[sqlite3.Connection, Moment], None]:
    """What the table calls inside a command's transaction: the Moment's public view becomes a row.

    `public(moment)` must be the scoreboard's own view (outputs.public.public_payload): nothing
    the scoreboard would not show is ever written here, so nothing else can leave the table. Past `limit`
    waiting messages the command is refused (its transaction rolls back): the outbox is bounded, and
    nothing the dashboard should get is ever dropped. `league`: the table is in a league, whose dashboard
    must acknowledge too, and the refusal says so."""
    full = OUTBOX_FULL_LEAGUE if league else OUTBOX_FULL

    def write(db: sqlite3.Connection, moment: Moment) -> None:
        # Acknowledged rows leave from the oldest on, so the rows left are exactly min..max: two index
        # look-ups in every command's transaction, where count(*) would read every waiting row.
        first, last = db.execute("SELECT min(seq), max(seq) FROM venue_outbox").fetchone()
        waiting = 0 if first is None else last - first + 1
        if waiting >= limit:
            raise IllegalMove(full, n=waiting)
        body = json.dumps(public(moment), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        db.execute("INSERT INTO venue_outbox (version, body) VALUES (?, ?)", (moment.version, body))

    return write


class Outbox:
    """The sender's side: read what is unsent in order, forget what the dashboard acknowledged.

    `stream` names this outbox's sequence: made once, with the outbox, in the table's store, and sent
    beside each seq, so a table on a new store (a new SD card, `companion store fresh`, a repair) is a new
    stream to the dashboard, never a replay of the old one, and an acknowledgement of the old store's
    messages deletes nothing of the new one's."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        self._db.execute("BEGIN IMMEDIATE")
        try:
            if self._db.execute("SELECT id FROM venue_stream").fetchone() is None:
                self._db.execute("INSERT INTO venue_stream (id) VALUES (?)", (secrets.token_hex(8),))
            self.stream: str = self._db.execute("SELECT id FROM venue_stream").fetchone()[0]
        finally:
            self._db.execute("COMMIT")

    def first(self) -> int | None:
        """The oldest seq waiting (None: none waits): a dashboard that never saw this stream starts there."""
        with self._lock:
            return self._db.execute("SELECT min(seq) FROM venue_outbox").fetchone()[0]

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
