"""The dashboard's own store: each table's messages kept once, by (table, seq), in order."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
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
    store    TEXT NOT NULL DEFAULT '',
    changed  INTEGER NOT NULL DEFAULT 0
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
    changed INTEGER NOT NULL DEFAULT 0,
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
CREATE TABLE IF NOT EXISTS standings (
    player  TEXT NOT NULL,
    scope   TEXT NOT NULL,
    places  INTEGER NOT NULL DEFAULT 0,
    placed  INTEGER NOT NULL DEFAULT 0,
    points  INTEGER NOT NULL DEFAULT 0,
    scored  INTEGER NOT NULL DEFAULT 0,
    changed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, player)
);
CREATE INDEX IF NOT EXISTS standings_by_places ON standings (scope, places, player);
CREATE INDEX IF NOT EXISTS standings_by_points ON standings (scope, points DESC, player);
CREATE INDEX IF NOT EXISTS standings_changed ON standings (scope, changed);
CREATE INDEX IF NOT EXISTS tables_changed ON tables (changed);
CREATE INDEX IF NOT EXISTS results_changed ON results (changed);
CREATE INDEX IF NOT EXISTS results_by_table ON results (name, at);
CREATE INDEX IF NOT EXISTS corrections_of ON corrections (result, id)
"""
# The standings are kept as results come, are corrected and voided, per player and scope (EVERY game,
# or one game: "game:" and its key), each total with the count of games it adds; `changed`, on the rows
# of tables, results and standings, is the board's change counter (meta "changed") when the row last
# changed, so a live page asks for what changed after the version it has, through an index.
EVERY = ""
WINDOW = 50  # results, and standings rows, a page gets at first and at each "older" or "more"
MOST = 200  # the most a program may ask for at once
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
        self._keep_standings()
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

    def _keep_standings(self) -> None:
        """The schema of today; a board made before the kept standings gets its change counters and its
        standings, built once from its results (corrections applied, voids left out), in one transaction."""
        with self._writing():
            for table in ("tables", "results"):
                columns = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                if columns and "changed" not in columns:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN changed INTEGER NOT NULL DEFAULT 0")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            if self._db.execute("SELECT 1 FROM meta WHERE key = 'standings'").fetchone() is None:
                stamp = self._next_stamp()
                for result in self._results("", ()):
                    self._tally(result, 1, stamp)
                self._db.execute("INSERT INTO meta (key, value) VALUES ('standings', 'kept')")

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One write transaction, under the board's lock: all of it kept, or none."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def _next_stamp(self) -> int:
        """The change counter moved on, for the rows this transaction changes."""
        self._db.execute("INSERT INTO meta (key, value) VALUES ('changed', 1) "
                         "ON CONFLICT (key) DO UPDATE SET value = value + 1")
        return self._version()

    def _version(self) -> int:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'changed'").fetchone()
        return int(row[0]) if row is not None else 0

    def version(self) -> int:
        """The board's change counter: a page that has every row as of it asks for what changed after."""
        with self._lock:
            return self._version()

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
        with self._writing():
            stamp = self._next_stamp()
            for arrived in messages:
                acks[(arrived.name, arrived.store)] = self._take(arrived, at, stamp)
        return acks

    def _take(self, arrived: Arrived, at: str, stamp: int) -> int:
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
            self._db.execute("INSERT INTO tables (name, store, last_seq, seen_at, changed) VALUES "
                             "(?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET store = excluded.store, "
                             "last_seq = excluded.last_seq, seen_at = excluded.seen_at, "
                             "changed = excluded.changed",
                             (name, store, seq, at, stamp))
            self._keep_result(name, store, seq, update, at, stamp)
            # Only the newest body of a stream is read again (the pages, the next message's `over`): the
            # one before gives its room back; its row (seq and version) stays, the record of exactly-once.
            self._db.execute("UPDATE updates SET body = '' WHERE name = ? AND store = ? AND seq = ?",
                             (name, store, seq - 1))
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

    def _keep_result(self, name: str, store: str, seq: int, update: dict, at: str, stamp: int) -> None:
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
        kept = self._db.execute(
            "INSERT INTO results (name, store, seq, game, players, scores, places, at, changed) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (name, store, seq, str(update.get("game")), json.dumps(players, ensure_ascii=False),
             json.dumps(scores) if scores else None, json.dumps(places_of(result, len(players))), at, stamp))
        (row,) = self._results("WHERE id = ?", (kept.lastrowid,))
        self._tally(row, 1, stamp)

    def results(self, limit: int | None = None, before: int | None = None) -> list[dict]:
        """Finished games, newest first (the `limit` newest, older than result `before` if given), with
        the director's corrections applied and listed, and its void if voided."""
        where, params = ("WHERE id < ?", (before,)) if before is not None else ("", ())
        if limit is not None:
            where, params = where + " ORDER BY id DESC LIMIT ?", (*params, limit)
        with self._lock:
            return self._results(where, params)

    def _results(self, where: str, params: tuple) -> list[dict]:
        """The results a clause picks, newest first, read with the lock held. Read defensively: a row an
        older version kept may hold any JSON."""
        rows = self._db.execute(f"SELECT * FROM (SELECT id, name, seq, game, players, scores, places, at "
                                f"FROM results {where}) ORDER BY id DESC", params).fetchall()
        ids = [row[0] for row in rows]
        fixes: dict[int, list] = {}
        voids: dict[int, dict] = {}
        for chunk in range(0, len(ids), 500):
            some = ids[chunk:chunk + 500]
            marks = ",".join("?" * len(some))
            for fix in self._db.execute(f"SELECT result, player, field, before, after, who, why, at FROM "
                                        f"corrections WHERE result IN ({marks}) ORDER BY id", some):
                fixes.setdefault(fix[0], []).append(fix[1:])
            for rid, who, why, at in self._db.execute(f"SELECT result, who, why, at FROM voids WHERE "
                                                      f"result IN ({marks})", some):
                voids[rid] = {"who": who, "why": why, "at": at}
        out = []
        for rid, name, seq, game, players, scores, places, at in rows:
            named = [p if isinstance(p, str) else json.dumps(p, ensure_ascii=False) for p in _list(players)]
            result = {"id": rid, "table": name, "seq": seq, "game": game, "players": named,
                      "scores": _list(scores) if scores else None, "places": _list(places),
                      "at": at, "corrections": [], "voided": voids.get(rid)}
            for player, field, before, after, who, why, when in fixes.get(rid, ()):
                figures = result["scores" if field == "score" else "places"]
                if figures is not None and 0 <= player < len(figures):
                    figures[player] = after
                result["corrections"].append({"player": player, "field": field, "before": before,
                                              "after": after, "who": who, "why": why, "at": when})
            out.append(result)
        return out

    def _tally(self, result: dict, sign: int, stamp: int) -> None:
        """Add (`sign` 1) or take out (-1) one result's figures in the kept standings: a voided result
        counts for nothing, and a figure that is not a whole number (kept by an older version) neither."""
        if result["voided"] is not None:
            return
        places, scores = result["places"], result["scores"] or []
        for seat, player in enumerate(result["players"]):
            place = places[seat] if seat < len(places) and type(places[seat]) is int else None
            score = scores[seat] if seat < len(scores) and type(scores[seat]) is int else None
            if place is None and score is None:
                continue
            figures = (sign * (place or 0), sign * (place is not None), sign * (score or 0),
                       sign * (score is not None), stamp)
            for scope in (EVERY, "game:" + result["game"]):
                self._db.execute(
                    "INSERT INTO standings (player, scope, places, placed, points, scored, changed) VALUES "
                    "(?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, player) DO UPDATE SET "
                    "places = places + excluded.places, placed = placed + excluded.placed, "
                    "points = points + excluded.points, scored = scored + excluded.scored, "
                    "changed = excluded.changed", (player, scope, *figures))

    def _change(self, result: int, change) -> dict:
        """One director's change to one result, with its standings moved, in one transaction: `change`
        gets the result as it stands and makes the change (CorrectionError: nothing changes)."""
        with self._writing():
            found = self._results("WHERE id = ?", (result,)) if type(result) is int else []
            if not found:
                raise CorrectionError(N_("There is no such result: pick one from the results list."))
            change(found[0])
            stamp = self._next_stamp()
            self._db.execute("UPDATE results SET changed = ? WHERE id = ?", (stamp, result))
            (now,) = self._results("WHERE id = ?", (result,))
            self._tally(found[0], -1, stamp)
            self._tally(now, 1, stamp)
        return now

    def correct(self, result: int, player: int, field: str, value: int, who: str, why: str) -> dict:
        """The director's correction of one figure of one result, kept with who and why; nothing else
        changes, and a wrong one changes nothing."""
        if field not in FIELDS:
            raise CorrectionError(N_("What to correct: a score or a place."))
        if type(value) is not int or not -10**6 <= value <= 10**6 or (field == "place" and value < 1):
            raise CorrectionError(N_("New value: give a whole number (a place is 1 or more)."))
        who, why = _signed(who, why)

        def corrected(found: dict) -> None:
            if type(player) is not int or not 0 <= player < len(found["players"]):
                raise CorrectionError(N_("This result has no such player: pick one of its players."))
            if field == "score" and found["scores"] is None:
                raise CorrectionError(N_("This game keeps no score: correct the place instead."))
            figures = found["scores" if field == "score" else "places"]
            before = figures[player] if player < len(figures) else None
            at = datetime.now(UTC).isoformat(timespec="milliseconds")
            self._db.execute("INSERT INTO corrections (result, player, field, before, after, who, why, at) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (result, player, field, before, value, who, why, at))

        return self._change(result, corrected)

    def void(self, result: int, who: str, why: str) -> dict:
        """The director's void of a result, kept with who and why: it stays listed, the standings skip
        it, and nothing is deleted; a wrong one changes nothing."""
        who, why = _signed(who, why)

        def voided(found: dict) -> None:
            if found["voided"] is not None:
                raise CorrectionError(N_("This result is already voided: nothing more to do."))
            at = datetime.now(UTC).isoformat(timespec="milliseconds")
            self._db.execute("INSERT INTO voids (result, who, why, at) VALUES (?, ?, ?, ?)",
                             (result, who, why, at))

        return self._change(result, voided)

    def standings(self, by: str = "places", game: str | None = None, limit: int | None = None,
                  offset: int = 0) -> list[dict]:
        """Each player's total across the session's results (corrections applied, voided ones left
        out), as kept: the sum of places (lowest first) or of points (highest first), for one game or
        all; the `limit` rows from `offset` if given."""
        with self._lock:
            return self._standings(by, game, limit, offset)

    def _standings(self, by: str, game: str | None, limit: int | None, offset: int) -> list[dict]:
        scope = EVERY if game is None else "game:" + game
        total, count, order = (("places", "placed", "places") if by == "places" else
                               ("points", "scored", "points DESC"))
        rows = self._db.execute(f"SELECT player, {total}, {count} FROM standings WHERE scope = ? AND "
                                f"{count} > 0 ORDER BY scope, {order}, player LIMIT ? OFFSET ?",
                                (scope, -1 if limit is None else limit, offset))
        return [{"player": player, "total": figure, "games": games} for player, figure, games in rows]

    def since(self, version: int | None, by: str = "places", game: str | None = None,
              window: int = WINDOW) -> dict:
        """What a page needs, read at one version (`version` in the answer): with `version` None, a
        bounded snapshot (every table, the newest `window` results, the top `window` standings rows);
        else what changed after `version`: the tables whose row changed, the results kept, corrected or
        voided, and the standings window again if any of its rows changed ("standings" absent if not).
        `older` and `more` say whether results and standings go on past what is given."""
        with self._lock:
            return self._since(version, by, game, window, self._version())

    def _since(self, version: int | None, by: str, game: str | None, window: int, now: int) -> dict:
        if version is None:
            results = self._results("ORDER BY id DESC LIMIT ?", (window + 1,))
            standings = self._standings(by, game, window + 1, 0)
            return {"version": now, "tables": self._tables("", ()), "results": results[:window],
                    "older": len(results) > window, "standings": standings[:window],
                    "more": len(standings) > window}
        results = self._results("WHERE changed > ? ORDER BY changed LIMIT ?", (version, window + 1))
        if len(results) > window:  # a page this far behind starts again from a snapshot
            return self._since(None, by, game, window, now)
        answer = {"version": now, "delta": True, "since": version,
                  "tables": self._tables("WHERE t.changed > ?", (version,)), "results": results}
        scope = EVERY if game is None else "game:" + game
        if self._db.execute("SELECT 1 FROM standings WHERE scope = ? AND changed > ? LIMIT 1",
                            (scope, version)).fetchone() is not None:
            standings = self._standings(by, game, window + 1, 0)
            answer.update(standings=standings[:window], more=len(standings) > window)
        return answer

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
        with self._writing():
            before = self._db.execute("SELECT online FROM tables WHERE name = ?", (name,)).fetchone()
            if before is not None and bool(before[0]) == online:
                return False
            self._db.execute("INSERT INTO tables (name, last_seq, online, seen_at, changed) VALUES "
                             "(?, 0, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET online = excluded.online, "
                             "changed = excluded.changed", (name, int(online), at, self._next_stamp()))
        return True

    def heard(self, name: str) -> bool:
        """Table `name` just spoke; True if it had been flagged silent (its row changed: pages are told)."""
        if not self.silence.heard(name):
            return False
        self.touch(name)
        return True

    def touch(self, name: str) -> None:
        """Table `name`'s row changed without a message (it fell silent, or spoke again): live pages get it
        in their next delta."""
        with self._writing():
            self._db.execute("UPDATE tables SET changed = ? WHERE name = ?", (self._next_stamp(), name))

    def versions(self, name: str) -> list[int]:
        """The versions kept for table `name`, in the order they were kept."""
        with self._lock:
            return [v for (v,) in self._db.execute(
                "SELECT version FROM updates WHERE name = ? ORDER BY rowid", (name,))]

    def tables(self) -> list[dict]:
        """Every table seen, with its newest update."""
        with self._lock:
            return self._tables("", ())

    def _tables(self, where: str, params: tuple) -> list[dict]:
        """The tables a clause picks, each with its newest update (read and checked once per message)."""
        rows = self._db.execute(
            "SELECT t.name, t.store, t.online, t.seen_at, t.last_seq, u.body FROM tables t LEFT JOIN "
            f"updates u ON u.name = t.name AND u.store = t.store AND u.seq = t.last_seq {where} "
            "ORDER BY t.name", params).fetchall()
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
