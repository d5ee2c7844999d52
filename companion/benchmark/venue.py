"""`companion bench venue --tables N --hours H`: a venue's day on one broker and one dashboard, both real
processes: commit → dashboard page, the dashboard's CPU and memory in the first and the last hour, the
drain of the messages queued while the broker was down, and what was lost or kept twice.

What is real: each table is the real table code (Table, its Store, the venue outbox written in each
command's transaction) playing seeded random free dice; Mosquitto with the venue's config and ACL; the
dashboard (`companion venue serve`, from `code` if given: another checkout, to compare), whose live page
`/api/venue/events` is read as a browser reads it; the dashboard's acknowledgements, which alone empty a
table's outbox. What is shared to keep the load generator light on two cores: the tables' MQTT side runs in
lanes (venue_lanes: one connection and one thread for up to LANE_TABLES tables), each table still with its
own topics, stream, window and acknowledgements as its Sender would publish them, under a login whose ACL
names exactly those topics; and one thread schedules every table's moves (each table keeps its own
writer thread, asleep between its moves).

What is simulated: the hours between the first and the last. The first hour is a live window (`window`
seconds) on an empty board; then the dashboard is stopped and hours 2..H are written into its board
(venue_history, run on the dashboard's code: `Board.take_all`, back-dated), the dashboard is started
again on that board, and the same live window is measured as hour H. Then the broker is killed, `drain`
moves are queued across the tables, and the broker is started again."""

from __future__ import annotations

import heapq
import json
import logging
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import msgspec

import companion
from companion.benchmark import stats, venue_history
from companion.benchmark.mosquitto import Mosquitto, installed
from companion.benchmark.process import free_port, status
from companion.benchmark.venue_lanes import Lane, acl
from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.outputs.venue.outbox import Outbox, writer
from companion.outputs.venue.publishing import scoreboard_view
from companion.storage.store import Store
from companion.venue import access, link

VENUE = "bench"
PACE = 2.0  # seconds between a table's moves, on average, in the live windows (a table's pace, generous)
BURST_EVERY = 0.05  # the chance that a move starts a burst of 5 back to back (an undo and a replay, a rush)
DRAIN = 10_000  # messages queued while the broker is down
LANE_TABLES = 125  # tables sharing one MQTT connection and one thread of the load generator
HISTORY_UPDATES = 120  # updates per table per simulated hour: a move every 30 s
GAMES = ["crash", "dice", "gewalt", "rallye", "schacht"]  # the results' games in the history
TARGET_MS = 250  # p99 of commit → page
FLAT_P99, FLAT_MEMORY = 1.5, 1.2  # the last hour against the first: "flat" within these factors
HERE = Path(companion.__file__).resolve().parent.parent  # this checkout: the dashboard's code by default


@dataclass(frozen=True)
class Day:
    """The venue bench's options: `window` and `drain` None take the defaults (shorter with --quick)."""

    tables: int = 50
    hours: int = 1
    window: float | None = None
    drain: int | None = None

    def options(self) -> list[str]:
        """The same day as `companion bench venue` options."""
        return ["--tables", str(self.tables), "--hours", str(self.hours),
                *(["--window", str(self.window)] if self.window is not None else []),
                *(["--drain", str(self.drain)] if self.drain is not None else [])]


class BenchTable:
    """One table: its store and outbox, the real table code, and when each version was committed."""

    def __init__(self, folder: Path, name: str):
        self.name = name
        self.store = Store(folder / f"{name}.db")
        self.outbox = Outbox(self.store.path)
        self.table = Table(self.store)
        self.table.outbox = writer(scoreboard_view)
        self.committed: dict[int, float] = {}
        self.table.start()

    def roll(self, rng: random.Random) -> Future:
        command = Command("roll") if rng.random() < 0.9 else Command("set_dice", {"count": rng.randint(1, 3)})
        future = self.table.submit(command)
        future.add_done_callback(self._done)
        return future

    def _done(self, future: Future) -> None:
        result = future.result()
        if result.ok:
            self.committed[result.version] = time.monotonic()

    def stop(self) -> None:
        self.table.stop()
        self.outbox.close()
        self.store.close()


class _Version(msgspec.Struct):
    version: int | None = None


class _Row(msgspec.Struct):
    name: str
    update: _Version | None = None


class _Message(msgspec.Struct):
    """What the watcher reads of a live page's message: the rest (results, standings) is skipped unread."""

    tables: list[_Row] = []  # a message of other changes only may name no table


class PageWatcher(threading.Thread):
    """The dashboard's live page, read as a browser reads it: when each table's version first shows. Every
    message is a JSON object whose "tables" rows (all at first, then all or only the changed ones) each
    name a table and its update."""

    def __init__(self, url: str):
        super().__init__(daemon=True, name="page")
        self.url = url
        self.seen: dict[tuple[str, int | None], float] = {}  # (table, version) → when it first showed
        self.messages = self.bytes = 0

    def run(self) -> None:
        try:
            with urllib.request.urlopen(self.url, timeout=600) as stream:
                for line in stream:
                    if not line.startswith(b"data: "):
                        continue
                    now = time.monotonic()
                    self.messages += 1
                    self.bytes += len(line)
                    for row in msgspec.json.decode(line[6:], type=_Message).tables:
                        self.seen.setdefault((row.name, row.update.version if row.update else None), now)
        except OSError:
            return  # the dashboard was stopped under its page


class Dashboard:
    """`companion venue serve` in its own process, on `code` (first on its PYTHONPATH)."""

    def __init__(self, folder: Path, broker: Mosquitto, code: Path):
        self.folder, self.code = folder, code
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "venue.toml").write_text(f'name = "{VENUE}"\nbroker = "127.0.0.1"\nport = {broker.port}\n'
                                           f'password = "{broker.users[access.DASHBOARD]}"\ntables = []\n')
        self.board = folder / "dashboard" / "venue.db"
        self.process: subprocess.Popen | None = None

    def start(self) -> int:
        port = free_port()
        with open(self.folder / "dashboard.log", "ab") as log:
            # Its working folder is the bench's: no checkout's package is found there before `code`'s.
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion", "venue", "serve", "--dir", str(self.folder), "--host",
                 "127.0.0.1", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=log, cwd=self.folder,
                env=code_env(self.code))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                said = (self.folder / "dashboard.log").read_text()
                raise RuntimeError(f"the dashboard exited: {said[-2000:]}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/venue", timeout=30).close()
                return port
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the dashboard did not answer")

    def stop(self) -> None:
        """Stopped as its service would be (SIGTERM), killed if it does not end."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def code_env(code: Path) -> dict[str, str]:
    """The environment of a process that runs `code`'s package: that checkout first on its path."""
    path = [str(code), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


def _waking(lane: Lane, name: str):
    """A table's subscriber: its commit wakes its lane for it (as a table wakes its own Sender)."""
    return lambda _update: lane.wake(name)


def quiet(down: bool) -> None:
    """While the broker is down on purpose, MQTT's complaints that it is are not news."""
    logging.getLogger(link.__name__).setLevel(logging.CRITICAL if down else logging.NOTSET)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(tables: int = 50, hours: int = 1, window: float = 60.0, drain: int = DRAIN, seed: int = 22,
            pace: float = PACE, code: Path | None = None) -> list[stats.Figure]:
    """The figures for `tables` tables over a day of `hours` hours (see the module's docstring); `code`:
    the dashboard's (and the history's) code from that checkout instead of this one."""
    if not installed():
        raise SystemExit("companion bench venue needs Mosquitto: apt-get install mosquitto")
    wrong = [f"--{name} {value:g}" for name, value, least in (("tables", tables, 1), ("hours", hours, 1),
                                                                ("window", window, 0.001)) if value < least]
    if wrong:
        raise SystemExit(f"companion bench venue: {', '.join(wrong)} cannot be measured; give --tables and "
                         "--hours 1 or more, --window more than 0 seconds")
    folder = Path(tempfile.mkdtemp(prefix="bench-venue-"))
    names = [f"t{n:03d}" for n in range(tables)]
    shards = [names[i:i + LANE_TABLES] for i in range(0, tables, LANE_TABLES)]
    broker = Mosquitto(folder / "broker", VENUE, [])
    logins = [f"lane{i}" for i in range(len(shards))]
    with open(broker.folder / "acl", "a") as rules:
        for login, shard in zip(logins, shards, strict=True):
            broker.users[login] = access.add_user(broker.passwords, login)
            rules.write(acl(VENUE, login, shard))
    dashboard = Dashboard(folder / "venue", broker, code or HERE)
    running: list[BenchTable] = []
    lanes: list[Lane] = []
    rng = random.Random(seed)
    # Stopped (SIGTERM) as when interrupted: the `finally` below still kills the broker and the dashboard.
    on_main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, _interrupted) if on_main else None
    try:
        broker.start()
        running = [BenchTable(folder / "tables", name) for name in names]
        by_name = {t.name: t for t in running}
        for login, shard in zip(logins, shards, strict=True):
            # Started once the dashboard first runs: its session with the broker exists from then on.
            lane = Lane(broker.broker(login), VENUE, {n: by_name[n].outbox for n in shard})
            for n in shard:
                by_name[n].table.subscribe(_waking(lane, n))
            lanes.append(lane)
        figures, first = _hour(dashboard, running, lanes, window, pace, rng, "first hour")
        if hours > 1:
            dashboard.stop()
            figures += _history(dashboard, running, hours, seed)
            more, last = _hour(dashboard, running, lanes, window, pace, rng, f"hour {hours} (last)")
            figures += more
            figures += [stats.count("p99, last hour against the first", round(last[0] / first[0], 2), "×",
                                    FLAT_P99),
                        stats.count("memory (VmHWM), last hour against the first",
                                    round(last[1] / first[1], 2), "×", FLAT_MEMORY)]
        # The drain: the broker down, `drain` moves queued across the tables, the broker back.
        quiet(True)
        broker.kill()
        futures = [t.roll(rng) for t in running for _ in range(max(1, drain // tables))]
        for future in futures:
            future.result(60)
        queued = sum(lane.waiting() for lane in lanes)
        started = time.monotonic()
        broker.start()
        _settle(lanes, timeout=900)
        drained = time.monotonic() - started
        quiet(False)
        lost, doubled = _accounted(dashboard.board, running)
        figures += [
            stats.count(f"drain of {queued} queued messages after a broker restart", round(drained, 2), "s"),
            stats.count("lost (committed, never on the dashboard)", lost, "moves", 0),
            stats.count("kept twice", doubled, "moves", 0),
        ]
        return figures
    finally:
        quiet(True)  # a lane's connection, ended, says so once more
        for lane in lanes:
            lane.stop()
        for table in running:
            table.stop()
        dashboard.kill()
        broker.stop()
        quiet(False)
        shutil.rmtree(folder, ignore_errors=True)
        if on_main:
            signal.signal(signal.SIGTERM, before)


def _interrupted(*_args) -> None:
    raise KeyboardInterrupt


def _hour(dashboard: Dashboard, running: list[BenchTable], lanes: list[Lane], window: float, pace: float,
          rng: random.Random, hour: str) -> tuple[list[stats.Figure], tuple[float, float]]:
    """One live window: the dashboard started, its page open, the tables playing; its figures, and its
    (p99 in ms, VmHWM in kB) for the comparison of the hours."""
    port = dashboard.start()
    assert dashboard.process is not None
    watcher = PageWatcher(f"http://127.0.0.1:{port}/api/venue/events")
    watcher.start()
    for lane in lanes:
        if not lane.started:
            lane.start()
    # Every table on the page: its retained status reached the dashboard, whose subscription now holds.
    deadline = time.monotonic() + 120
    while len({name for name, _ in list(watcher.seen)}) < len(running):
        if time.monotonic() > deadline or not watcher.is_alive():
            raise RuntimeError("the dashboard's live page never showed every table")
        time.sleep(0.05)
    before = {t.name: set(t.committed) for t in running}
    ours0, cpu0, wall0 = sum(os.times()[:2]), _cpu_seconds(dashboard.process.pid), time.monotonic()
    _play(running, window, pace, rng)
    _settle(lanes)
    wall = time.monotonic() - wall0
    cpu, ours = _cpu_seconds(dashboard.process.pid) - cpu0, sum(os.times()[:2]) - ours0
    memory = status(dashboard.process.pid)
    moves = [(t.name, v, at) for t in running for v, at in t.committed.items() if v not in before[t.name]]
    delays = [watcher.seen[(name, v)] - at for name, v, at in moves if (name, v) in watcher.seen]
    shown = len(delays)
    delays = delays or [float("inf")]  # no move reached the page: the target is missed, not the bench
    tables = len(running)
    figures = [
        stats.timed(f"commit → dashboard page, {tables} tables, {hour}", delays, TARGET_MS),
        stats.count(f"moves committed, {hour}", len(moves), "moves"),
        # A page is sent the newest state of each table: a move followed by the next before the page's
        # message was made shows only as that next one.
        stats.count(f"moves whose own version the page showed, {hour}", shown, "moves"),
        stats.count(f"live page: size of a message, {hour}",
                    round(watcher.bytes / max(1, watcher.messages) / 1024, 1), "kB"),
        stats.count(f"dashboard CPU, {hour}", round(100 * cpu / wall, 1), "% of a core"),
        stats.count(f"dashboard memory (RSS), {hour}", round(memory["VmRSS"] / 1024, 1), "MB"),
        stats.count(f"dashboard memory (VmHWM), {hour}", round(memory["VmHWM"] / 1024, 1), "MB"),
        stats.count(f"load generator CPU (tables, lanes, page), {hour}", round(100 * ours / wall, 1),
                    "% of a core"),
        stats.count(f"load generator threads, {hour}", threading.active_count(), ""),
    ]
    return figures, (figures[0].p99 or 0.0, float(memory["VmHWM"]))


def _play(running: list[BenchTable], seconds: float, pace: float, rng: random.Random) -> None:
    """Every table's moves for `seconds`, from one thread: a move every `pace` s per table on average, a
    burst of 5 in one move of 20; each command waits in its table's queue, not in this thread."""
    now = time.monotonic()
    stop = now + seconds
    due = [(now + rng.expovariate(1 / pace), i) for i in range(len(running))]
    heapq.heapify(due)
    futures: list[Future] = []
    while due and due[0][0] < stop:
        at, i = heapq.heappop(due)
        if (wait := at - time.monotonic()) > 0:
            time.sleep(wait)
        futures += [running[i].roll(rng) for _ in range(5 if rng.random() < BURST_EVERY else 1)]
        heapq.heappush(due, (at + rng.expovariate(1 / pace), i))
    if (rest := stop - time.monotonic()) > 0:
        time.sleep(rest)
    for future in futures:
        future.result(60)


def _history(dashboard: Dashboard, running: list[BenchTable], hours: int, seed: int) -> list[stats.Figure]:
    """Hours 2..`hours` written into the stopped dashboard's board, by the dashboard's own code."""
    template = json.loads(json.dumps(scoreboard_view(running[0].table.moment)))
    spec = dashboard.folder / "history.json"
    spec.write_text(json.dumps({"board": str(dashboard.board), "tables": [t.name for t in running],
                                "hours": hours, "updates_per_hour": HISTORY_UPDATES, "games": GAMES,
                                "template": template, "seed": seed}))
    run = subprocess.run([sys.executable, venue_history.__file__, str(spec)], capture_output=True, text=True,
                         cwd=dashboard.folder, env=code_env(dashboard.code))
    if run.returncode != 0:
        raise RuntimeError(f"the history could not be written: {run.stderr[-3000:]}")
    done = json.loads(run.stdout.splitlines()[-1])
    return [stats.count("history filled: updates", done["updates"], "updates"),
            stats.count("history filled: results", done["results"], "results"),
            stats.count("history filled: time", done["seconds"], "s")]


def _accounted(board: Path, running: list[BenchTable]) -> tuple[int, int]:
    """Moves committed by the live tables and never kept on their streams; versions kept twice there."""
    db = sqlite3.connect(f"file:{board}?mode=ro", uri=True, timeout=30)
    try:
        kept: dict[str, list[int]] = {}
        streams = {t.name: t.outbox.stream for t in running}
        for name, store, version in db.execute("SELECT name, store, version FROM updates ORDER BY name, seq"):
            if streams.get(name) == store:
                kept.setdefault(name, []).append(version)
    finally:
        db.close()
    lost = sum(len(set(t.committed) - set(kept.get(t.name, []))) for t in running)
    doubled = sum(len(v) - len(set(v)) for v in kept.values())
    return lost, doubled


def _settle(lanes: list[Lane], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while waiting := sum(lane.waiting() for lane in lanes):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{waiting} messages never acknowledged")
        time.sleep(0.1)
