"""`companion bench venue`: 50 simulated tables playing seeded random games through the real table code,
one broker, one dashboard (its own process): commit → dashboard page, the dashboard's CPU and memory, and
the drain of 10,000 messages queued while the broker was down."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from companion.benchmark import stats
from companion.benchmark.mosquitto import Mosquitto, installed
from companion.benchmark.process import free_port, status
from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.outputs.venue.outbox import Outbox, writer
from companion.outputs.venue.publishing import scoreboard_view
from companion.outputs.venue.sender import Sender
from companion.storage.store import Store

VENUE = "bench"
PACE = 2.0  # seconds between a table's moves, on average (a table's pace, generous)
BURST_EVERY = 0.05  # the chance that a move starts a burst of 5 back to back (an undo and a replay, a rush)
DRAIN = 10_000  # messages queued while the broker is down


class BenchTable:
    """One table: its store, its outbox and sender, and the moments each version was committed."""

    def __init__(self, folder: Path, name: str, broker: Mosquitto):
        self.name = name
        self.store = Store(folder / f"{name}.db")
        self.outbox = Outbox(self.store.path)
        self.table = Table(self.store)
        self.table.outbox = writer(scoreboard_view)
        self.sender = Sender(self.outbox, broker.broker(name), VENUE, name)
        self.table.subscribe(self.sender.wake)
        self.committed: dict[int, float] = {}
        self.table.start()
        self.sender.start()

    def roll(self, rng: random.Random) -> None:
        command = Command("roll") if rng.random() < 0.9 else Command("set_dice", {"count": rng.randint(1, 3)})
        result = self.table.call(command)
        if result.ok:
            self.committed[result.version] = time.monotonic()

    def stop(self) -> None:
        self.table.stop()
        self.sender.stop()
        self.outbox.close()
        self.store.close()


class PageWatcher(threading.Thread):
    """The dashboard's live page, read as a browser reads it: when each table's version first shows."""

    def __init__(self, url: str):
        super().__init__(daemon=True, name="page")
        self.url = url
        self.seen: dict[tuple[str, int | None], float] = {}  # (table, version) → when it first showed
        self.connected = threading.Event()

    def run(self) -> None:
        with urllib.request.urlopen(self.url, timeout=600) as stream:
            self.connected.set()
            for line in stream:
                if not line.startswith(b"data: "):
                    continue
                now = time.monotonic()
                for row in json.loads(line[6:])["tables"]:
                    update = row["update"] or {}
                    self.seen.setdefault((row["name"], update.get("version")), now)


def _dashboard(folder: Path, broker: Mosquitto) -> tuple:
    import subprocess
    import sys

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "venue.toml").write_text(f'name = "{VENUE}"\nbroker = "127.0.0.1"\nport = {broker.port}\n'
                                       f'password = "{broker.users["dashboard"]}"\ntables = []\n')
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "companion", "venue", "serve", "--dir", str(folder),
                                "--host", "127.0.0.1", "--port", str(port)], stdout=subprocess.DEVNULL,
                               stderr=open(folder / "dashboard.log", "ab"))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/venue", timeout=5).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the dashboard did not answer")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _kept(board: Path) -> dict[str, list[int]]:
    db = sqlite3.connect(f"file:{board}?mode=ro", uri=True, timeout=30)
    try:
        out: dict[str, list[int]] = {}
        for name, version in db.execute("SELECT name, version FROM updates ORDER BY name, seq"):
            out.setdefault(name, []).append(version)
        return out
    finally:
        db.close()


def measure(tables: int = 50, seconds: float = 60.0, drain: int = DRAIN, seed: int = 22
            ) -> list[stats.Figure]:
    if not installed():
        raise SystemExit("companion bench venue needs Mosquitto: apt-get install mosquitto")
    folder = Path(tempfile.mkdtemp(prefix="bench-venue-"))
    names = [f"t{n:02d}" for n in range(tables)]
    broker = Mosquitto(folder / "broker", VENUE, names).start()
    process, running = None, []
    try:
        process, port = _dashboard(folder / "venue", broker)
        running = [BenchTable(folder, name, broker) for name in names]
        watcher = PageWatcher(f"http://127.0.0.1:{port}/api/venue/events")
        watcher.start()
        watcher.connected.wait(30)
        cpu0, wall0 = _cpu_seconds(process.pid), time.monotonic()
        stop = time.monotonic() + seconds

        def play(table: BenchTable, rng: random.Random) -> None:
            while (now := time.monotonic()) < stop:
                table.roll(rng)
                if rng.random() < BURST_EVERY:
                    for _ in range(4):
                        table.roll(rng)
                time.sleep(min(rng.expovariate(1 / PACE), max(0.0, stop - now)))

        players = [threading.Thread(target=play, args=(t, random.Random(seed * 1000 + i)))
                   for i, t in enumerate(running)]
        for player in players:
            player.start()
        for player in players:
            player.join()
        _settle(running)
        cpu = _cpu_seconds(process.pid) - cpu0
        wall = time.monotonic() - wall0
        memory = status(process.pid)
        delays = [watcher.seen[(t.name, v)] - at for t in running for v, at in t.committed.items()
                  if (t.name, v) in watcher.seen]
        moves = sum(len(t.committed) for t in running)
        # The drain: the broker down, 10,000 moves queued across the tables, the broker back.
        broker.kill()
        per_table = drain // tables
        for table in running:
            rng = random.Random(seed + len(table.committed))
            for _ in range(per_table):
                table.roll(rng)
        queued = sum(t.sender.waiting() for t in running)
        started = time.monotonic()
        broker.start()
        _settle(running, timeout=600)
        drained = time.monotonic() - started
        kept = _kept(folder / "venue" / "dashboard" / "venue.db")
        lost = sum(len(set(t.committed) - set(kept.get(t.name, []))) for t in running)
        doubled = sum(len(v) - len(set(v)) for v in kept.values())
        return [
            stats.timed(f"commit → dashboard page, {tables} tables", delays, 250),
            stats.count("moves committed", moves, "moves"),
            # A page is sent the newest state of each table: a move followed by the next before the page's
            # message was made shows only as that next one.
            stats.count("moves whose own version the page showed", len(delays), "moves"),
            stats.count("dashboard CPU", round(100 * cpu / wall, 1), "% of a core"),
            stats.count("dashboard memory (VmHWM)", round(memory["VmHWM"] / 1024, 1), "MB"),
            stats.count(f"drain of {queued} queued messages after a broker restart", round(drained, 2), "s"),
            stats.count("lost (committed, never on the dashboard)", lost, "moves", 0),
            stats.count("kept twice", doubled, "moves", 0),
        ]
    finally:
        for table in running:
            table.stop()
        if process is not None:
            process.kill()
            process.wait()
        broker.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _settle(running: list[BenchTable], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while any(t.sender.waiting() for t in running):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{sum(t.sender.waiting() for t in running)} messages never acknowledged")
        time.sleep(0.05)
