"""The dashboard's own store: each table's messages kept once, by (table, seq), in order."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

from companion.i18n import N_

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name     TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL,
    online   INTEGER NOT NULL DEFAULT 0,
    seen_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS updates (
    name    TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    version INTEGER NOT NULL,
    body    TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (name, seq)
);
CREATE TABLE IF NOT EXISTS results (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL,
    seq     INTEGER NOT NULL UNIQUE,
    game    TEXT NOT NULL,
    players TEXT NOT NULL,
    scores  TEXT,
    places  TEXT NOT NULL,
    at      TEXT NOT NULL
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
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
FIELDS = ("score", "place")  # what the director may correct in a result


class CorrectionError(ValueError):
    """A correction that cannot be made: `msgid` and `params` say what was wrong and how to fix it."""

    def __init__(self, msgid: str, **params):
        super().__init__(msgid.format(**params))
        self.msgid, self.params = msgid, params


def places_of(result: dict, players: int) -> list[int]:
    """Each player's place (1 first) in a finished game: its ranks, else by score (ties share), else the
    winners first and everyone else next."""
    ranks = result.get("ranks")
    if ranks and all(type(r) is int for r in ranks):
        return list(ranks)
    scores = result.get("scores")
    if scores and len(scores) == players:
        return [1 + sum(other > mine for other in scores) for mine in scores]
    winners = set(result.get("winners") or ())
    return [1 if seat in winners else 2 for seat in range(players)]


class Board:
    """What the dashboard knows: a message is kept in the transaction that moves its table's `last_seq`."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def take(self, name: str, seq: int, version: int, update: dict) -> int:
        """Keep message `seq` of table `name` if it is the next one; return the seq to acknowledge (the
        last one kept: a duplicate is dropped, a message after a gap waits for the table to resend)."""
        return self.take_all([(name, seq, version, update)])[name]

    def take_all(self, messages: list[tuple[str, int, int, dict]]) -> dict[str, int]:
        """`take` for many messages in one transaction (one fsync for a burst); returns, per table, the
        seq to acknowledge."""
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        acks: dict[str, int] = {}
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for name, seq, version, update in messages:
                    acks[name] = self._take(name, seq, version, update, at)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        return acks

    def _take(self, name: str, seq: int, version: int, update: dict, at: str) -> int:
        row = self._db.execute("SELECT last_seq FROM tables WHERE name = ?", (name,)).fetchone()
        # A table first seen starts where it stands: what it sent an earlier dashboard is gone.
        last = seq - 1 if row is None else row[0]
        if seq != last + 1:
            return last
        self._db.execute("INSERT INTO updates (name, seq, version, body, at) VALUES (?, ?, ?, ?, ?)",
                         (name, seq, version, json.dumps(update, ensure_ascii=False), at))
        self._db.execute("INSERT INTO tables (name, last_seq, seen_at) VALUES (?, ?, ?) ON CONFLICT (name) "
                         "DO UPDATE SET last_seq = excluded.last_seq, seen_at = excluded.seen_at",
                         (name, seq, at))
        self._keep_result(name, seq, update, at)
        return seq

    def _keep_result(self, name: str, seq: int, update: dict, at: str) -> None:
        """A game that has just ended at `seq` leaves its result (the message before it was not over)."""
        result = update.get("result")
        if not update.get("over") or not isinstance(result, dict):
            return
        before = self._db.execute("SELECT body FROM updates WHERE name = ? AND seq = ?",
                                  (name, seq - 1)).fetchone()
        if before is not None and json.loads(before[0]).get("over"):
            return
        players = [seat.get("name") or seat.get("label") or "" for seat in update.get("seats", ())
                   if isinstance(seat, dict) and seat.get("in_game", True)]
        scores = result.get("scores")
        self._db.execute("INSERT INTO results (name, seq, game, players, scores, places, at) VALUES "
                         "(?, ?, ?, ?, ?, ?, ?)",
                         (name, seq, str(update.get("game")), json.dumps(players, ensure_ascii=False),
                          json.dumps(scores) if scores else None,
                          json.dumps(places_of(result, len(players))), at))

    def results(self) -> list[dict]:
        """Every finished game, newest first, with the director's corrections applied and listed."""
        with self._lock:
            rows = self._db.execute("SELECT id, name, seq, game, players, scores, places, at FROM results "
                                    "ORDER BY id DESC").fetchall()
            fixes = self._db.execute("SELECT result, player, field, before, after, who, why, at FROM "
                                     "corrections ORDER BY id").fetchall()
            voids = {rid: {"who": who, "why": why, "at": at} for rid, who, why, at in
                     self._db.execute("SELECT result, who, why, at FROM voids")}
        out = []
        for rid, name, seq, game, players, scores, places, at in rows:
            result = {"id": rid, "table": name, "seq": seq, "game": game, "players": json.loads(players),
                      "scores": json.loads(scores) if scores else None, "places": json.loads(places),
                      "at": at, "corrections": [], "voided": voids.get(rid)}
            for of, player, field, before, after, who, why, when in fixes:
                if of == rid:
                    result["scores" if field == "score" else "places"][player] = after
                    result["corrections"].append({"player": player, "field": field, "before": before,
                                                  "after": after, "who": who, "why": why, "at": when})
            out.append(result)
        return out

    def correct(self, result: int, player: int, field: str, value: int, who: str, why: str) -> dict:
        """The director's correction of one figure of one result, kept with who and why; nothing else
        changes, and a wrong one changes nothing."""
        who, why = str(who).strip(), str(why).strip()
        if field not in FIELDS:
            raise CorrectionError(N_("What to correct: a score or a place."))
        if type(value) is not int or not -10**6 <= value <= 10**6 or (field == "place" and value < 1):
            raise CorrectionError(N_("New value: give a whole number (a place is 1 or more)."))
        if not who or not why or len(who) > 80 or len(why) > 500:
            raise CorrectionError(N_("Say who corrects (up to 80 characters) and why (up to 500)."))
        found = {r["id"]: r for r in self.results()}.get(result)
        if found is None:
            raise CorrectionError(N_("There is no such result: pick one from the results list."))
        if type(player) is not int or not 0 <= player < len(found["players"]):
            raise CorrectionError(N_("This result has no such player: pick one of its players."))
        if field == "score" and found["scores"] is None:
            raise CorrectionError(N_("This game keeps no score: correct the place instead."))
        before = found["scores" if field == "score" else "places"][player]
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            self._db.execute("INSERT INTO corrections (result, player, field, before, after, who, why, at) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (result, player, field, before, value, who, why, at))
        return {r["id"]: r for r in self.results()}[result]

    def void(self, result: int, who: str, why: str) -> dict:
        """The director's voiding of a result, kept with who and why: the standings skip it from now on."""
        who, why = str(who).strip(), str(why).strip()
        if not who or not why or len(who) > 80 or len(why) > 500:
            raise CorrectionError(N_("Say who corrects (up to 80 characters) and why (up to 500)."))
        found = {r["id"]: r for r in self.results()}.get(result) if type(result) is int else None
        if found is None:
            raise CorrectionError(N_("There is no such result: pick one from the results list."))
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO voids (result, who, why, at) VALUES (?, ?, ?, ?)",
                             (result, who, why, at))
        return {r["id"]: r for r in self.results()}[result]

    def standings(self, by: str = "places", game: str | None = None) -> list[dict]:
        """Each player's total across the session's results (corrections applied): the sum of places
        (lowest first) or of points (highest first), for one game or all."""
        totals: dict[str, dict] = {}
        for result in self.results():
            if (game is not None and result["game"] != game) or result["voided"]:
                continue
            figures = result["places"] if by == "places" else (result["scores"] or [])
            for player, figure in zip(result["players"], figures, strict=False):
                row = totals.setdefault(player, {"player": player, "total": 0, "games": 0})
                row["total"] += figure
                row["games"] += 1
        return sorted(totals.values(),
                      key=lambda row: (row["total"] if by == "places" else -row["total"], row["player"]))

    def secret(self, key: str, make) -> str:
        """A value kept in the board once made (the director's link)."""
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (key, make()))
            return self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0]

    def mark(self, name: str, online: bool) -> None:
        """A table's retained status: online, or offline (its Last Will, or its goodbye)."""
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            self._db.execute("INSERT INTO tables (name, last_seq, online, seen_at) VALUES (?, 0, ?, ?) "
                             "ON CONFLICT (name) DO UPDATE SET online = excluded.online",
                             (name, int(online), at))

    def versions(self, name: str) -> list[int]:
        """The versions kept for table `name`, in the order they were kept."""
        with self._lock:
            return [v for (v,) in self._db.execute("SELECT version FROM updates WHERE name = ? ORDER BY seq",
                                                    (name,))]

    def tables(self) -> list[dict]:
        """Every table seen, with its newest update."""
        with self._lock:
            rows = self._db.execute(
                "SELECT t.name, t.online, t.seen_at, t.last_seq, u.body FROM tables t LEFT JOIN updates u "
                "ON u.name = t.name AND u.seq = t.last_seq ORDER BY t.name").fetchall()
        return [{"name": name, "online": bool(online), "seen_at": seen, "seq": seq,
                 "update": json.loads(body) if body else None} for name, online, seen, seq, body in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
