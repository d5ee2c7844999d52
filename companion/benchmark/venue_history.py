"""The venue bench's simulated hours: a day's history written into a stopped dashboard's board, back-dated.

Run as a script (`python venue_history.py SPEC.json`, the dashboard stopped) so that it runs on whichever
dashboard code is first on PYTHONPATH: it imports nothing of the project but the board's own
`Board.take_all` and `Arrived`, and keeps every message through them, a simulated minute of every table in
one call, as the dashboard's keeper does; SQL then back-dates what that call kept (`at`) to its minute.

Each table sends `updates_per_hour` updates at random moments of each hour, on a stream of its own
(store "history", beside the stream its live table uses), and ends 3 or 4 games an hour (a result each,
3 or 4 players drawn from a pool of four per table); the rows kept before the history (the first hour's
live window) are moved to the hour before it. Prints one JSON line: what was kept and how long it took.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.venue.board import Arrived, Board

STORE = "history"


def fill(spec: dict) -> dict:
    """Hours 2..`hours` of the day of `spec` (see the module's docstring) into the board at spec["board"]."""
    started = time.monotonic()
    rng = random.Random(spec["seed"])
    tables, hours, per_hour = spec["tables"], spec["hours"], spec["updates_per_hour"]
    games, template = spec["games"], spec["template"]
    pool = [f"Player {n:04d}" for n in range(4 * len(tables))]
    now = datetime.now(UTC)
    day = [now - timedelta(hours=hours - k) for k in range(1, hours)]  # each history hour's start
    board = Board(spec["board"])
    dates = sqlite3.connect(spec["board"], isolation_level=None, timeout=60)
    try:
        _move_before(dates, day[0] if day else now)
        state = {name: _Game(rng, games, pool, template) for name in tables}
        seqs = {name: 0 for name in tables}
        updates = results = 0
        for start in day:
            minutes: list[list[tuple[float, str, bool]]] = [[] for _ in range(60)]
            for name in tables:
                moments = sorted(rng.uniform(0, 3600) for _ in range(per_hour))
                ends = _ends(rng, per_hour, rng.choice((3, 4)))
                for i, moment in enumerate(moments):
                    minutes[int(moment // 60)].append((moment, name, i in ends))
            for minute, sent in enumerate(minutes):
                batch = []
                for _, name, over in sorted(sent):
                    seqs[name] += 1
                    update = state[name].next(over)
                    batch.append(Arrived(name, seqs[name], update["version"], update, STORE, 1))
                results += sum(1 for arrived in batch if arrived.update and arrived.update["over"])
                updates += len(batch)
                (row,) = dates.execute("SELECT coalesce(max(rowid), 0) FROM updates").fetchone()
                (rid,) = dates.execute("SELECT coalesce(max(id), 0) FROM results").fetchone()
                acks = board.take_all(batch)
                kept = {(a.name, a.store): a.seq for a in batch}
                if acks != kept:
                    raise RuntimeError(f"the board did not keep every message of minute {minute}")
                at = (start + timedelta(minutes=minute, seconds=30)).isoformat(timespec="milliseconds")
                dates.execute("BEGIN IMMEDIATE")
                dates.execute("UPDATE updates SET at = ? WHERE rowid > ?", (at, row))
                dates.execute("UPDATE results SET at = ? WHERE id > ?", (at, rid))
                dates.execute("UPDATE tables SET seen_at = ? WHERE store = ?", (at, STORE))
                dates.execute("COMMIT")
    finally:
        board.close()
        dates.close()
    return {"updates": updates, "results": results, "seconds": round(time.monotonic() - started, 1)}


def _move_before(db: sqlite3.Connection, start: datetime) -> None:
    """What the board kept before the history (the live first hour) moved to just before `start`."""
    (newest,) = db.execute("SELECT max(at) FROM updates").fetchone()
    if newest is None:
        return
    shift = datetime.fromisoformat(newest) - (start - timedelta(minutes=1))
    db.execute("BEGIN IMMEDIATE")
    dated = (("updates", "rowid", "at"), ("results", "id", "at"), ("tables", "name", "seen_at"))
    for table, key, column in dated:
        rows = db.execute(f"SELECT {key}, {column} FROM {table}").fetchall()
        db.executemany(f"UPDATE {table} SET {column} = ? WHERE {key} = ?",
                       [((datetime.fromisoformat(at) - shift).isoformat(timespec="milliseconds"), k)
                        for k, at in rows])
    db.execute("COMMIT")


def _ends(rng: random.Random, updates: int, games: int) -> set[int]:
    """Which of an hour's `updates` end a game: one in each of `games` equal parts, never two in a row."""
    part = updates // games
    return {g * part + rng.randrange(max(1, part - 1)) for g in range(games)} if part >= 2 else set()


class _Game:
    """One table's running game in the history: its version, its game and players, its result at the end."""

    def __init__(self, rng: random.Random, games: list[str], pool: list[str], template: dict):
        self.rng, self.games, self.pool, self.template = rng, games, pool, template
        self.version = 0
        self._new()

    def _new(self) -> None:
        players = self.rng.sample(self.pool, self.rng.choice((3, 4)))
        self.game = self.rng.choice(self.games)
        self.seats = [{**seat, "name": players[i] if i < len(players) else "", "in_game": i < len(players),
                       "playing": i < len(players)} for i, seat in enumerate(self.template["seats"])]
        self.players = len(players)

    def next(self, over: bool) -> dict:
        """The table's next update; `over`: the one that ends its game (the next one starts another)."""
        self.version += 1
        update = {**self.template, "version": self.version, "game": self.game, "seats": self.seats,
                  "over": over, "result": None}
        if over:
            update["result"] = {"scores": [self.rng.randint(0, 120) for _ in range(self.players)],
                                "winners": []}
            self._new()
        return update


if __name__ == "__main__":
    print(json.dumps(fill(json.loads(Path(sys.argv[1]).read_text()))), flush=True)
