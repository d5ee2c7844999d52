"""Chaos with exact accounting: every acknowledged command's public update reaches the dashboard once, in
order, through a Wi-Fi cut while the table plays, a table killed between its commit and its publish, and a
dashboard killed mid-game; each at seeded moments (the broker's own kill -9 is in test_venue_outbox.py)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
import venue_parts
from daemon_process import DaemonProcess, free_port
from polling import wait_for
from venue_chaos_parts import Link, exactly_once_in_order, kept_versions, waiting_in_outbox
from venue_parts import VENUE, Dashboard

from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.outputs.venue.outbox import Outbox, writer
from companion.outputs.venue.publishing import scoreboard_view
from companion.outputs.venue.sender import Sender
from companion.storage.store import Store
from companion.venue.link import Broker

broker = venue_parts.broker  # this module's fixture
pytestmark = pytest.mark.slow  # seconds each: brokers, daemons and dashboards killed and started again


def venue_section(broker, name: str) -> str:
    return (f'[venue]\nname = "{VENUE}"\ntable = "{name}"\nbroker = "127.0.0.1"\n'
            f'port = {broker.port}\n'
            f'password = "{broker.users[name]}"\n')


def rolls(table, n: int) -> list[int]:
    out = []
    for _ in range(n):
        result = table.call(Command("roll"))
        assert result.ok, result.error
        out.append(result.version)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_a_table_cut_from_the_broker_while_it_plays_sends_all_it_queued_once(tmp_path, broker, seed):
    rng = random.Random(seed)
    dashboard = Dashboard(tmp_path, broker)
    wifi = Link(broker.port)
    store = Store(tmp_path / "t1.db")
    outbox = Outbox(store.path)
    table = Table(store)
    table.outbox = writer(scoreboard_view)
    login = broker.broker("t1")
    sender = Sender(outbox, Broker("127.0.0.1", wifi.port, login.username, login.password), VENUE, "t1")
    table.subscribe(sender.wake)
    table.start()
    sender.start()
    try:
        acked = rolls(table, rng.randrange(5, 30))
        for _ in range(2):
            wifi.cut()
            # "An hour" of play compressed: hundreds of messages queue while the table cannot reach the venue.
            acked += rolls(table, rng.randrange(200, 400))
            assert sender.waiting() >= 200
            wifi.mend()
            acked += rolls(table, rng.randrange(1, 20))
        wait_for(lambda: sender.waiting() == 0, timeout=60)
        exactly_once_in_order(dashboard.board.versions("t1"), acked)
    finally:
        table.stop()
        sender.stop()
        outbox.close()
        store.close()
        wifi.close()
        dashboard.close()


@pytest.mark.parametrize("seed", [3])
def test_a_table_killed_between_its_commit_and_its_publish_sends_it_after_its_restart(tmp_path, broker, seed):
    rng = random.Random(seed)
    dashboard = Dashboard(tmp_path, broker)
    daemon = DaemonProcess(tmp_path / "t1", config=venue_section(broker, "t1")).start()
    acked: list[int] = []

    def play(n: int) -> None:
        for _ in range(n):
            status, answer = daemon.post("/api/command", {"kind": "roll"})
            assert status == 200 and answer["ok"], answer
            acked.append(answer["version"])

    try:
        play(rng.randrange(3, 10))
        # Committed and acknowledged, never published: the broker is gone, then the table dies (kill -9).
        broker.kill()
        play(rng.randrange(5, 20))
        daemon.kill()
        broker.start()
        daemon.start()
        # At seeded moments: killed right after an acknowledgement, its message in flight or not yet sent.
        for _ in range(3):
            play(rng.randrange(1, 15))
            daemon.kill()
            daemon.start()
        play(3)
        wait_for(lambda: waiting_in_outbox(daemon.state_dir / "companion.db") == 0, timeout=60)
        exactly_once_in_order(dashboard.board.versions("t1"), acked)
    finally:
        daemon.stop()
        dashboard.close()


@pytest.mark.parametrize("seed", [4])
def test_a_dashboard_killed_mid_game_keeps_every_update_once(tmp_path, broker, seed):
    rng = random.Random(seed)
    folder = tmp_path / "venue"
    folder.mkdir()
    (folder / "venue.toml").write_text(f'name = "{VENUE}"\nbroker = "127.0.0.1"\nport = {broker.port}\n'
                                       f'password = "{broker.users["dashboard"]}"\ntables = ["t1"]\n')
    board_db = folder / "dashboard" / "venue.db"

    def start_dashboard() -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "companion", "venue", "serve", "--dir", str(folder),
                                 "--host", "127.0.0.1", "--port", str(free_port())],
                                stdout=subprocess.DEVNULL, stderr=open(folder / "dashboard.log", "ab"))

    store = Store(tmp_path / "t1.db")
    outbox = Outbox(store.path)
    table = Table(store)
    table.outbox = writer(scoreboard_view)
    sender = Sender(outbox, broker.broker("t1"), VENUE, "t1")
    table.subscribe(sender.wake)
    table.start()
    sender.start()
    process = start_dashboard()
    try:
        acked = rolls(table, 5)
        wait_for(lambda: kept_versions(board_db, "t1")[-1:] == acked[-1:], timeout=30)
        for _ in range(3):
            # kill -9 at a seeded moment: right after a burst, with its messages in flight to the dashboard
            acked += rolls(table, rng.randrange(20, 120))
            process.kill()
            process.wait()
            acked += rolls(table, rng.randrange(1, 30))  # the table plays on while the dashboard is down
            process = start_dashboard()
        wait_for(lambda: sender.waiting() == 0, timeout=60)
        exactly_once_in_order(kept_versions(board_db, "t1"), acked)
    finally:
        process.kill()
        process.wait()
        table.stop()
        sender.stop()
        outbox.close()
        store.close()
