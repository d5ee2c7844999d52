"""kill -9 at seeded random moments while every game is played through HTTP: nothing acknowledged is lost.

One daemon life per kill: it resumes the game, plays on until the first acknowledgement, then a while
longer, and dies. After each death the store holds every acknowledged command, nothing it held before
is gone, and the restarted daemon shows exactly the state the records replay to.
"""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from daemon_process import DaemonProcess

from companion.core import registry
from companion.core.session import NEW_GAME, advance
from companion.gamekit.contract import Command
from companion.gamekit.draws import Draws
from companion.storage import files as storefiles
from companion.storage.store import Record

KILLS = 20  # per game
pytestmark = pytest.mark.slow  # a hundred daemons killed and restarted


def read_records(db: Path, after: int = 0) -> list[Record]:
    """The records after version `after`, read through a read-only connection (SQLite then never
    checkpoints or deletes the WAL of the daemon, dead or alive)."""
    con = sqlite3.connect(f"file:{quote(str(db))}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT version, kind, seat, args, draws, at FROM records WHERE version > ? "
                           "ORDER BY version", (after,)).fetchall()
        # A new game's data files are kept once, by hash: its record gets their texts back, as the store's.
        return [Record(v, k, s, storefiles.restored(con, k, json.loads(a)), json.loads(d), at)
                for v, k, s, a, d, at in rows]
    finally:
        con.close()


class Mirror:
    """The table's game rebuilt from its records, as the test's player reads it."""

    def __init__(self, db: Path):
        self.db, self.session, self.version, self.records = db, None, 0, {}

    def sync(self) -> None:
        for rec in read_records(self.db, self.version):
            self.session, _ = advance(None if rec.kind == NEW_GAME else self.session, rec.kind, rec.seat,
                                      rec.args, Draws(rec.draws))
            self.version = rec.version
            self.records[rec.version] = rec


def next_command(game: str, session, rng: random.Random) -> Command:
    """A command the host may send for whoever acts now (no phone holds a seat)."""
    state = session.state if session is not None and session.game == game else None
    if state is None or session.spec.over(state):
        return Command(NEW_GAME, {"game": game})
    if game == "dice":
        return Command("roll") if rng.random() < 0.8 else Command("set_dice", {"count": rng.randint(1, 3)})
    if game == "schacht":
        import schacht_play

        command = schacht_play.random_command(state, rng)
    elif game == "gewalt":
        import gewalt_play

        command = gewalt_play.random_command(state, rng)
    elif game == "crash":
        import crash_play

        command = crash_play.random_command(state, rng.choice)
    elif game == "rallye":
        import rallye_play

        first = rallye_play.groups(state)[0]
        command = first[rng.randrange(len(first))]
    else:
        legal = session.spec.legal(state, None)
        command = Command(rng.choice(legal)) if legal else Command("undo")
    return Command(command.kind, json.loads(json.dumps(command.args)), None)


def play(daemon: DaemonProcess, game: str, rng: random.Random, acked: list, stop: threading.Event,
         first: threading.Event) -> None:
    """Post commands as fast as the daemon answers; note each acknowledged one with what was sent."""
    mirror = Mirror(daemon.state_dir / "companion.db")
    token = daemon.host_token
    while not stop.is_set():
        mirror.sync()
        command = next_command(game, mirror.session, rng)
        body = {"kind": command.kind, "args": command.args}
        try:
            status, answer = daemon.post("/api/command", body, headers={"X-Host-Token": token}, timeout=5)
        except (OSError, http.client.HTTPException, ValueError):
            return  # the daemon died mid-answer: what was not answered was never acknowledged
        if status == 200 and answer.get("ok"):
            acked.append((answer["version"], body))
            first.set()


@pytest.mark.parametrize("game", registry.names())
def test_kill_9_during_play_loses_nothing(tmp_path, game):
    rng = random.Random(f"chaos-{game}")
    daemon = DaemonProcess(tmp_path / "state")
    db = daemon.state_dir / "companion.db"
    acked: list = []
    kept: dict[int, Record] = {}
    kills = 0
    started = time.monotonic()
    while kills < KILLS:
        daemon.start()
        if kept:  # the restarted daemon shows exactly the state the records replay to
            mirror = Mirror(db)
            mirror.sync()
            state = daemon.get("/api/state")
            assert state["version"] == mirror.version
            assert state["public"] == mirror.session.spec.public_json(mirror.session.state)
        stop, first = threading.Event(), threading.Event()
        player = threading.Thread(target=play, args=(daemon, game, random.Random(rng.random()), acked, stop,
                                                      first))
        player.start()
        assert first.wait(30), f"{game}: the daemon acknowledged no command in 30 s"
        time.sleep(rng.uniform(0, 0.4))  # a random moment after the first acknowledgement
        daemon.kill()
        kills += 1
        stop.set()
        player.join(10)
        mirror = Mirror(db)
        mirror.sync()
        for version, body in acked:
            assert version in mirror.records, f"{game}: acknowledged command {version} {body} was lost"
            assert mirror.records[version].kind == body["kind"]
        for version, record in kept.items():
            assert mirror.records.get(version) == record, f"{game}: record {version} changed or vanished"
        kept = dict(mirror.records)
    daemon.start()
    daemon.stop()
    print(f"{game}: {kills} kills, {len(acked)} commands acknowledged, {len(kept)} records, "
          f"{time.monotonic() - started:.1f} s")
    assert len(acked) > KILLS
