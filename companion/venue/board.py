"""The dashboard's own store: each table's messages kept once, by (table, seq), in order."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple

from companion.i18n import N_
from companion.venue import intake, topics
from companion.venue.silence import Silence

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name     TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL,
    online   INTEGER NOT NULL DEFAULT 0,
    seen_at  TEXT NOT NULL,
    store    TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS streams (
    name     TEXT NOT NULL,
    store    TEXT NOT NULL,
    last_seq INTEGER NOT NULL,
    PRIMARY KEY (name, store)
);
CREATE TABLE IF NOT EXISTS updates (
    name    TEXT NOT NULL,
    store   TEXT NOT NULL DEFAULT '',
    seq     INTEGER NOT NULL,
    version INTEGER NOT NULL,
    body    TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (name, store, seq)
);
CREATE TABLE IF NOT EXISTS results (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL,
    store   TEXT NOT NULL DEFAULT '',
    seq     INTEGER NOT NULL,
    game    TEXT NOT NULL,
    players TEXT NOT NULL,
    scores  TEXT,
    places  TEXT NOT NULL,
    at      TEXT NOT NULL,
    UNIQUE (name, store, seq)
);
CREATE TABLE IF NOT EXISTS corrections (
    id      INTEGER PRIMARY KEY,
    result  INTEGER NOT NULL REFERENCES results (id),
    player  INTEGER NOT NULL,
    field   TEXT NOT NULL,
    before  INTEGER,
    after   INTEGER NOT NULL,
    who     TEXT NOT NULL,
    why     TEXT NOT NULL,
    at      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS voids (
    result  INTEGER PRIMARY KEY REFERENCES results (id),
    who     TEXT NOT NULL,
    why     TEXT NOT NULL,
    at      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS set_aside (
    name    TEXT NOT NULL,
    store   TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    why     TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (name, store, seq)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
# A board of the first version kept one stream per table and one result per seq of the whole venue: its
# rows move to the tables above as they are (store ''), in one transaction, before anything else runs.
MIGRATE = """
CREATE TABLE updates_v2 (
    name TEXT NOT NULL, store TEXT NOT NULL DEFAULT '', seq INTEGER NOT NULL, version INTEGER NOT NULL,
    body TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (name, store, seq));
INSERT INTO updates_v2 (name, store, seq, version, body, at)
    SELECT name, '', seq, version, body, at FROM updates;
DROP TABLE updates;
ALTER TABLE updates_v2 RENAME TO updates;
CREATE TABLE results_v2 (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, store TEXT NOT NULL DEFAULT '', seq INTEGER NOT NULL,
    game TEXT NOT NULL, players TEXT NOT NULL, scores TEXT, places TEXT NOT NULL, at TEXT NOT NULL,
    UNIQUE (name, store, seq));
INSERT INTO results_v2 (id, name, store, seq, game, players, scores, places, at)
    SELECT id, name, '', seq, game, players, scores, places, at FROM results;
DROP TABLE results;
ALTER TABLE results_v2 RENAME TO results;
ALTER TABLE tables ADD COLUMN store TEXT NOT NULL DEFAULT '';
CREATE TABLE streams (name TEXT NOT NULL, store TEXT NOT NULL, last_seq INTEGER NOT NULL,
    PRIMARY KEY (name, store));
INSERT INTO streams (name, store, last_seq) SELECT name, '', last_seq FROM tables WHERE last_seq > 0;
"""
FIELDS = ("score", "place")  # what the director may correct in a result


class CorrectionError(ValueError):
    """A correction that cannot be made: `msgid` and `params` say what was wrong and how to fix it."""

    def __init__(self, msgid: str, **params):
        super().__init__(msgid.format(**params))
        self.msgid, self.params = msgid, params


RESULTS_PER_HOUR = 60  # results one table may add in an hour: a game a minute, beyond any real evening


class Arrived(NamedTuple):
    """One message of table `name` as the door read it: `update` None and `refused` saying why for one it
    refused (it is set aside at its place in the stream, and acknowledged)."""

    name: str
    seq: int
    version: int
    update: dict | None
    store: str = ""
    first: int | None = None
    refused: str | None = None


def places_of(result: dict, players: int) -> list[int]:
    """Each player's place (1 first) in a finished game: its ranks, else by score (ties share), else the
    winners first and everyone else next."""
    ranks = result.get("ranks")
    if ranks and all(type(r) is int for r in ranks):
        return list(ranks)
    scores = result.get("scores")
    if scores and len(scores) == players and all(type(s) is int for s in scores):
        return [1 + sum(other > mine for other in scores) for mine in scores]
    winners = set(result.get("winners") or ())
    return [1 if seat in winners else 2 for seat in range(players)]


class Board:
    """What the dashboard knows: a message is kept in the transaction that moves its stream's `last_seq`.

    A stream is a table's store (`store`, its identity): a table on a new store starts a new stream, and
    a board on a new store starts each stream where the table still holds messages."""

    def __init__(self, path: Path | str, silent_after: float = topics.SILENT_AFTER):
        self.path = Path(path)
        self.silence = Silence(silent_after)  # which online tables have sent nothing for a bound
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._migrate()
        self._db.executescript(SCHEMA)
        self.quiet = intake.Quiet(log)
        # Each table's newest update as the pages get it, read and checked once (one per table).
        self._shown: dict[str, tuple[str, int, dict | None]] = {}

    def _migrate(self) -> None:
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(updates)")}
        if not columns or "store" in columns:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATE.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def take(self, name: str, seq: int, version: int, update: dict, store: str = "",
             first: int | None = None) -> int:
        """Keep message `seq` of table `name` if it is the next one; return the seq to acknowledge (the
        last one kept: a duplicate is dropped, a message after a gap waits for the table to resend)."""
        return self.take_all([Arrived(name, seq, version, update, store, first)])[(name, store)]

    def take_all(self, messages: list[Arrived]) -> dict[tuple[str, str], int]:
        """`take` for many messages in one transaction (one fsync for a burst); returns, per stream
        (table, store), the seq to acknowledge. Each message is kept or set aside on its own: one that
        cannot be stored costs no other message anything."""
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        acks: dict[tuple[str, str], int] = {}
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for arrived in messages:
                    acks[(arrived.name, arrived.store)] = self._take(arrived, at)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        return acks

    def _take(self, arrived: Arrived, at: str) -> int:
        name, seq, store = arrived.name, arrived.seq, arrived.store
        row = self._db.execute("SELECT last_seq FROM streams WHERE name = ? AND store = ?",
                               (name, store)).fetchone()
        if row is not None:
            last = row[0]
        elif arrived.first is not None and arrived.first <= seq:
            last = arrived.first - 1  # a stream first seen starts at the oldest message its table holds
        else:
            last = seq - 1  # a table of an older version says not: it starts where it stands
        if seq != last + 1:
            return last
        self._db.execute("SAVEPOINT message")
        try:
            if arrived.refused is not None:
                raise intake.Refused(arrived.refused)
            update = intake.checked(arrived.update)
            self._db.execute("INSERT INTO updates (name, store, seq, version, body, at) VALUES "
                             "(?, ?, ?, ?, ?, ?)",
                             (name, store, seq, arrived.version, json.dumps(update, ensure_ascii=False), at))
            self._db.execute("INSERT INTO tables (name, store, last_seq, seen_at) VALUES (?, ?, ?, ?) "
                             "ON CONFLICT (name) DO UPDATE SET store = excluded.store, "
                             "last_seq = excluded.last_seq, seen_at = excluded.seen_at",
                             (name, store, seq, at))
            self._keep_result(name, store, seq, update, at)
        except Exception as exc:  # this message only: it is set aside, and the stream goes on
            self._db.execute("ROLLBACK TO message")
            why = str(exc) or type(exc).__name__
            self._db.execute("INSERT OR REPLACE INTO set_aside (name, store, seq, why, at) VALUES "
                             "(?, ?, ?, ?, ?)",
                             (name, store, seq, why[:300], at))
            self.quiet.set_aside(name, f"message {seq}", why)
        self._db.execute("RELEASE message")
        self._db.execute("INSERT INTO streams (name, store, last_seq) VALUES (?, ?, ?) "
                         "ON CONFLICT (name, store) DO UPDATE SET last_seq = excluded.last_seq",
                         (name, store, seq))
        return seq

    def _keep_result(self, name: str, store: str, seq: int, update: dict, at: str) -> None:
        """A game that has just ended at `seq` leaves its result (the message before it was not over)."""
        result = update.get("result")
        if not update.get("over") or not isinstance(result, dict):
            return
        before = self._db.execute("SELECT body FROM updates WHERE name = ? AND store = ? AND seq = ?",
                                  (name, store, seq - 1)).fetchone()
        if before is not None and json.loads(before[0]).get("over"):
            return
        hour_ago = (datetime.fromisoformat(at) - timedelta(hours=1)).isoformat(timespec="milliseconds")
        (recent,) = self._db.execute("SELECT count(*) FROM results WHERE name = ? AND at > ?",
                                     (name, hour_ago)).fetchone()
        if recent >= RESULTS_PER_HOUR:
            self.quiet.set_aside(name, f"the result of message {seq}",
                                 f"over the {RESULTS_PER_HOUR} results a table may add in an hour")
            return
        players = [seat.get("name") or seat.get("label") or "" for seat in update.get("seats", ())
                   if isinstance(seat, dict) and seat.get("in_game", True)]
        scores = result.get("scores")
        self._db.execute("INSERT INTO results (name, store, seq, game, players, scores, places, at) VALUES "
                         "(?, ?, ?, ?, ?, ?, ?, ?)",
                         (name, store, seq, str(update.get("game")), json.dumps(players, ensure_ascii=False),
                          json.dumps(scores) if scores else None,
                          json.dumps(places_of(result, len(players))), at))

    def results(self) -> list[dict]:
        """Every finished game, newest first, with the director's corrections applied and listed, and
        its void if voided. Read defensively: a row an older version kept may hold any JSON."""
        with self._lock:
            rows = self._db.execute("SELECT id, name, seq, game, players, scores, places, at FROM results "
                                    "ORDER BY id DESC").fetchall()
            fixes = self._db.execute("SELECT result, player, field, before, after, who, why, at FROM "
                                     "corrections ORDER BY id").fetchall()
            voids = {row[0]: {"who": row[1], "why": row[2], "at": row[3]}
                     for row in self._db.execute("SELECT result, who, why, at FROM voids")}
        out = []
        for rid, name, seq, game, players, scores, places, at in rows:
            named = [p if isinstance(p, str) else json.dumps(p, ensure_ascii=False) for p in _list(players)]
            result = {"id": rid, "table": name, "seq": seq, "game": game, "players": named,
                      "scores": _list(scores) if scores else None, "places": _list(places),
                      "at": at, "corrections": [], "voided": voids.get(rid)}
            for of, player, field, before, after, who, why, when in fixes:
                if of == rid:
                    figures = result["scores" if field == "score" else "places"]
                    if figures is not None and 0 <= player < len(figures):
                        figures[player] = after
                    result["corrections"].append({"player": player, "field": field, "before": before,
                                                  "after": after, "who": who, "why": why, "at": when})
            out.append(result)
        return out

    def correct(self, result: int, player: int, field: str, value: int, who: str, why: str) -> dict:
        """The director's correction of one figure of one result, kept with who and why; nothing else
        changes, and a wrong one changes nothing."""
        if field not in FIELDS:
            raise CorrectionError(N_("What to correct: a score or a place."))
        if type(value) is not int or not -10**6 <= value <= 10**6 or (field == "place" and value < 1):
            raise CorrectionError(N_("New value: give a whole number (a place is 1 or more)."))
        who, why = _signed(who, why)
        found = self._result(result)
        if type(player) is not int or not 0 <= player < len(found["players"]):
            raise CorrectionError(N_("This result has no such player: pick one of its players."))
        if field == "score" and found["scores"] is None:
            raise CorrectionError(N_("This game keeps no score: correct the place instead."))
        figures = found["scores" if field == "score" else "places"]
        before = figures[player] if player < len(figures) else None
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            self._db.execute("INSERT INTO corrections (result, player, field, before, after, who, why, at) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (result, player, field, before, value, who, why, at))
        return self._result(result)

    def void(self, result: int, who: str, why: str) -> dict:
        """The director's void of a result, kept with who and why: it stays listed, the standings skip
        it, and nothing is deleted; a wrong one changes nothing."""
        who, why = _signed(who, why)
        if self._result(result)["voided"] is not None:
            raise CorrectionError(N_("This result is already voided: nothing more to do."))
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO voids (result, who, why, at) VALUES (?, ?, ?, ?)",
                             (result, who, why, at))
        return self._result(result)

    def _result(self, result: int) -> dict:
        found = {r["id"]: r for r in self.results()}.get(result) if type(result) is int else None
        if found is None:
            raise CorrectionError(N_("There is no such result: pick one from the results list."))
        return found

    def standings(self, by: str = "places", game: str | None = None) -> list[dict]:
        """Each player's total across the session's results (corrections applied, voided ones left
        out): the sum of places (lowest first) or of points (highest first), for one game or all. A
        figure that is not a whole number (kept by an older version) counts for nothing."""
        totals: dict[str, dict] = {}
        for result in self.results():
            if result["voided"] is not None or (game is not None and result["game"] != game):
                continue
            figures = result["places"] if by == "places" else (result["scores"] or [])
            for player, figure in zip(result["players"], figures, strict=False):
                if type(figure) is not int:
                    continue
                row = totals.setdefault(player, {"player": player, "total": 0, "games": 0})
                row["total"] += figure
                row["games"] += 1
        return sorted(totals.values(),
                      key=lambda row: (row["total"] if by == "places" else -row["total"], row["player"]))

    def secret(self, key: str, make) -> str:
        """A value kept in the board once made (the director's link), read from the store each time: a
        new one (`renew`, from another process too) counts at once."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            if row is not None:
                return row[0]
            self._db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (key, make()))
            return self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0]

    def renew(self, key: str, value: str) -> None:
        """Replace a kept value (a new director's link): the old one stops counting at once."""
        with self._lock:
            self._db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET "
                             "value = excluded.value", (key, value))

    def mark(self, name: str, online: bool) -> bool:
        """A table's retained status: online, or offline (its Last Will, or its goodbye); True if that
        changed it (a heartbeat repeats the same)."""
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            before = self._db.execute("SELECT online FROM tables WHERE name = ?", (name,)).fetchone()
            self._db.execute("INSERT INTO tables (name, last_seq, online, seen_at) VALUES (?, 0, ?, ?) "
                             "ON CONFLICT (name) DO UPDATE SET online = excluded.online",
                             (name, int(online), at))
        return before is None or bool(before[0]) != online

    def versions(self, name: str) -> list[int]:
        """The versions kept for table `name`, in the order they were kept."""
        with self._lock:
            return [v for (v,) in self._db.execute(
                "SELECT version FROM updates WHERE name = ? ORDER BY rowid", (name,))]

    def tables(self) -> list[dict]:
        """Every table seen, with its newest update."""
        with self._lock:
            rows = self._db.execute(
                "SELECT t.name, t.store, t.online, t.seen_at, t.last_seq, u.body FROM tables t LEFT JOIN "
                "updates u ON u.name = t.name AND u.store = t.store AND u.seq = t.last_seq ORDER BY t.name"
            ).fetchall()
            out = []
            for name, store, online, seen, seq, body in rows:
                shown = self._shown.get(name)
                if shown is None or shown[:2] != (store, seq):
                    shown = self._shown[name] = (store, seq, _update(body))
                out.append({"name": name, "online": bool(online), "seen_at": seen, "seq": seq,
                            "update": shown[2], "silent_since": self.silence.since(name) if online else None})
        return out

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _signed(who, why) -> tuple[str, str]:
    """Who acts and why, as the director gave them; CorrectionError unless both are words within bounds."""
    if not isinstance(who, str) or not isinstance(why, str):
        raise CorrectionError(N_("Say who corrects and why in words: who (up to 80 characters) and why "
                                 "(up to 500)."))
    who, why = who.strip(), why.strip()
    if not who or not why or len(who) > 80 or len(why) > 500:
        raise CorrectionError(N_("Say who corrects (up to 80 characters) and why (up to 500)."))
    return who, why


def _list(text: str) -> list:
    """A list a result row keeps, or [] for anything else an older version may have kept."""
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        return []
    return found if isinstance(found, list) else []


def _update(body: str | None) -> dict | None:
    """A kept update for the pages, or None for one an older version kept past today's bounds."""
    if body is None:
        return None
    try:
        return intake.checked(json.loads(body))
    except (ValueError, RecursionError):  # Refused is a ValueError
        return None
