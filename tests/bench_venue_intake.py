"""The venue door's figures, on whichever code is first on the path (PYTHONPATH=<a checkout> to compare):
pages answering through a poison flood, one table's messages kept beside another's unstorable one,
messages kept across a table's and a dashboard's new store, the dashboard's memory with a 21 MB message.

    .venv/bin/python tests/bench_venue_intake.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from daemon_process import free_port
from polling import eventually
from venue_chaos_parts import PlayingTable, kept_versions
from venue_parts import VENUE, RawTable, update

from companion.benchmark.mosquitto import Mosquitto
from companion.venue.dashboard import Dashboard


def status_of(port: int, path: str) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            answer.read()
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


def dashboard_on(folder: Path, mosquitto: Mosquitto) -> Dashboard:
    made = Dashboard(folder, mosquitto.broker("dashboard"), VENUE, "en")
    made.start("127.0.0.1", free_port())
    eventually(made.collector.connected.is_set)
    return made


@contextmanager
def two_tables(folder: Path, mosquitto: Mosquitto, *store: str
               ) -> Iterator[tuple[Dashboard, RawTable, RawTable]]:
    """A dashboard on its own store in `folder`, and tables t1 and t2 sending to it."""
    board = dashboard_on(folder, mosquitto)
    t1, t2 = RawTable(mosquitto, "t1", *store), RawTable(mosquitto, "t2", *store)
    try:
        yield board, t1, t2
    finally:
        t1.close()
        t2.close()
        board.stop()


def poison_flood(folder: Path, mosquitto: Mosquitto) -> str:
    answered = asked = 0
    with two_tables(folder / "flood", mosquitto) as (board, t1, t2):
        t1.send(1, update(1))
        t1.send(2, update(2, (["a", "list"], "Bo"), True, {"winners": [1], "scores": [3, 5], "ranks": None}))
        for seq in range(1, 41):
            t1.raw("status", "[" * 100000)
            t2.send(seq, update(seq))
            for path in ("/api/venue", "/api/venue?by=points", "/board"):
                asked += 1
                answered += status_of(board.server.port, path) == 200
        eventually(lambda: t2.acked() == 40, 10)
        return (f"poison flood: pages answered {answered}/{asked}; the other table's messages kept "
                f"{len(board.board.versions('t2'))}/40")


def unstorable(folder: Path, mosquitto: Mosquitto) -> str:
    with two_tables(folder / "unstorable", mosquitto, "u") as (board, t1, t2):
        for seq in range(1, 21):
            t2.send(seq, update(seq))
            if seq in (5, 10, 15):
                t1.send(seq // 5, update(seq), version=2**64)
        eventually(lambda: t2.acked() == 20, 10)
        return f"unstorable message from t1: t2's messages kept {len(board.board.versions('t2'))}/20"


def new_stores(folder: Path, mosquitto: Mosquitto) -> str:
    board = dashboard_on(folder / "stores", mosquitto)
    db = folder / "stores" / "venue.db"
    old = PlayingTable(folder / "old.db", mosquitto.broker("t3"), VENUE, "t3")
    old.rolls(30)
    eventually(lambda: old.sender.waiting() == 0, 20)
    old.stop()
    before = len(kept_versions(db, "t3"))
    new = PlayingTable(folder / "new.db", mosquitto.broker("t3"), VENUE, "t3")
    played = new.rolls(20)
    # its new game's message, then the 20 rolls: rows the board adds past the old store's
    eventually(lambda: len(kept_versions(db, "t3")) - before > len(played), 15)
    table_side = max(0, len(kept_versions(db, "t3")) - before - 1)
    board.stop()
    # A dashboard on a new store, the table's retained status reaching it first.
    fresh = dashboard_on(folder / "fresh", mosquitto)
    fresh_db = folder / "fresh" / "venue.db"
    eventually(lambda: fresh.board.tables(), 10)
    played = new.rolls(20)
    eventually(lambda: len(kept_versions(fresh_db, "t3")) >= 20, 15)
    dashboard_side = len(set(played) & set(kept_versions(fresh_db, "t3")))
    new.stop()
    fresh.stop()
    return (f"table's new store: its messages kept {table_side}/20; dashboard's new store: messages kept "
            f"{dashboard_side}/20")


def huge(folder: Path, mosquitto: Mosquitto) -> str:
    venue = folder / "huge"
    venue.mkdir()
    (venue / "venue.toml").write_text(f'name = "{VENUE}"\nbroker = "127.0.0.1"\nport = {mosquitto.port}\n'
                                      f'password = "{mosquitto.users["dashboard"]}"\ntables = []\n')
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "companion", "venue", "serve", "--dir", str(venue),
                                "--host", "127.0.0.1", "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t4 = RawTable(mosquitto, "t4", "h")
    try:
        eventually(lambda: status_of(port, "/api/venue") == 200 if _up(port) else False, 20)
        t4.send(1, update(1))
        eventually(lambda: t4.acked() == 1, 20)
        for _ in range(3):
            status_of(port, "/api/venue")
        idle = _peak(process.pid)
        try:
            t4.send(2, {**update(2), "public": {"pad": "x" * (21 * 1024 * 1024)}})
            t4.send(3, update(3))  # after the big one: kept, or a gap acknowledged again
            fate = "the broker passed it on"
        except RuntimeError:  # the venue's broker drops a packet over its bound, and its sender with it
            fate = "the broker refused it and dropped its sender"
            t4.close()
            t4 = RawTable(mosquitto, "t4", "h")
            t4.send(2, update(2))
        eventually(lambda: t4.acked() >= 2, 30)
        for _ in range(3):
            status_of(port, "/api/venue")
        return f"21 MB message ({fate}): dashboard peak memory {_peak(process.pid)} MB ({idle} MB before it)"
    finally:
        t4.close()
        process.kill()
        process.wait()


def _peak(pid: int) -> int:
    """A process's peak resident memory so far, in MB."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    line = next(line for line in lines if line.startswith("VmHWM"))
    return int(line.split()[1]) // 1024


def _up(port: int) -> bool:
    try:
        return status_of(port, "/api/venue") > 0
    except OSError:
        return False


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for figure in (poison_flood, unstorable, new_stores, huge):
            folder = Path(tmp) / figure.__name__  # a broker each: a poison left in one touches no other
            mosquitto = Mosquitto(folder / "broker", VENUE, ["t1", "t2", "t3", "t4"]).start()
            try:
                started = time.monotonic()
                print(figure(folder, mosquitto), f"({time.monotonic() - started:.1f} s)", flush=True)
            finally:
                mosquitto.stop()


if __name__ == "__main__":
    main()
