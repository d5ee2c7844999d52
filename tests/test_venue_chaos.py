"""Chaos with exact accounting: every acknowledged command's public update reaches the dashboard once, in
order, through a Wi-Fi cut while the table plays, a table killed between its commit and its publish, and a
dashboard killed mid-game; each at seeded moments (the broker's own kill -9 is in test_venue_outbox.py)."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys

import pytest
import venue_parts
from daemon_process import DaemonProcess, free_port
from polling import wait_for
from venue_chaos_parts import Link, PlayingTable, exactly_once_in_order, kept_versions, waiting_in_outbox
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


@pytest.mark.parametrize("seed", [5, 6])
def test_a_table_on_a_new_store_has_every_new_message_kept_once_and_none_taken_for_the_old(tmp_path, broker,
                                                                                          seed):
    """A new SD card, or `companion store fresh`: its seqs start again at 1. The old store's
    acknowledgements still queued at the broker for the table delete nothing of the new store's."""
    rng = random.Random(seed)
    dashboard = Dashboard(tmp_path, broker)
    board_db = tmp_path / "dashboard.db"
    old = PlayingTable(tmp_path / "old.db", broker.broker("t1"), VENUE, "t1")
    try:
        sent = old.rolls(rng.randrange(20, 60))
        wait_for(lambda: old.sender.waiting() == 0)
        more = old.rolls(rng.randrange(5, 40))  # the table is switched off mid-burst: acks still coming
    finally:
        old.stop()
        old_stream = old.outbox.stream
    new = PlayingTable(tmp_path / "new.db", broker.broker("t1"), VENUE, "t1")
    try:
        assert new.outbox.stream != old_stream
        acked = new.rolls(rng.randrange(5, 30))
        wait_for(lambda: new.sender.waiting() == 0, timeout=60)
        acked += new.rolls(rng.randrange(1, 10))
        wait_for(lambda: new.sender.waiting() == 0, timeout=60)
        exactly_once_in_order(kept_versions(board_db, "t1", new.outbox.stream), acked)
        kept_old = kept_versions(board_db, "t1", old_stream)
        exactly_once_in_order(kept_old, sent)
        # What the old store never had acknowledged is still in it, for its own return.
        left = Outbox(tmp_path / "old.db")
        assert set(more) - set(kept_old) <= {m.version for m in left.after(0, 10**6)}
        left.close()
    finally:
        new.stop()
        dashboard.close()


@pytest.mark.parametrize("seed", [7, 8])
def test_a_dashboard_on_a_new_store_keeps_every_message_it_never_acknowledged_once(tmp_path, broker, seed):
    """A new evening's folder, or a new laptop: the dashboard starts from what each table still holds, kept
    once and in order; whether it comes up while messages wait at the broker (the last one was killed
    mid-burst) or with none waiting, the table's retained status reaching it first."""
    rng = random.Random(seed)
    boards = []

    def serve(name: str):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "venue.toml").write_text(f'name = "{VENUE}"\nbroker = "127.0.0.1"\nport = {broker.port}\n'
                                           f'password = "{broker.users["dashboard"]}"\ntables = ["t1"]\n')
        boards.append(folder / "dashboard" / "venue.db")
        return subprocess.Popen([sys.executable, "-m", "companion", "venue", "serve", "--dir", str(folder),
                                 "--host", "127.0.0.1", "--port", str(free_port())],
                                stdout=subprocess.DEVNULL, stderr=open(tmp_path / f"{name}.log", "ab"))

    def marked_online(board_db) -> bool:
        if not board_db.exists():
            return False
        db = sqlite3.connect(f"file:{board_db}?mode=ro", uri=True, timeout=10)
        try:
            return db.execute("SELECT online FROM tables WHERE name = 't1'").fetchone() == (1,)
        except sqlite3.OperationalError:
            return False  # not made yet
        finally:
            db.close()

    table = PlayingTable(tmp_path / "t1.db", broker.broker("t1"), VENUE, "t1")
    process = serve("first")
    try:
        acked = table.rolls(rng.randrange(5, 30))
        wait_for(lambda: table.sender.waiting() == 0, timeout=30)
        acked += table.rolls(rng.randrange(20, 120))
        process.kill()  # kill -9 at a seeded moment, its messages in flight; its folder is never seen again
        process.wait()
        acked += table.rolls(rng.randrange(1, 40))  # the table plays on with no dashboard
        process = serve("second")
        acked += table.rolls(rng.randrange(1, 40))
        wait_for(lambda: table.sender.waiting() == 0, timeout=60)
        process.kill()  # with nothing waiting, this time
        process.wait()
        process = serve("third")
        wait_for(lambda: marked_online(boards[-1]), timeout=30)
        acked += table.rolls(rng.randrange(1, 40))
        wait_for(lambda: table.sender.waiting() == 0, timeout=60)
        kept = [kept_versions(board_db, "t1") for board_db in boards]
        for one in kept:
            assert one == sorted(set(one)), "an update was kept twice, or out of order"
        lost = sorted(set(acked) - set().union(*map(set, kept)))
        assert not lost, f"acknowledged but on no dashboard: {lost}"
        assert kept[-1] and kept[-1][-1] == acked[-1]
    finally:
        process.kill()
        process.wait()
        table.stop()
