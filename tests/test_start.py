"""Starting again: after kill -9 between commands or in the middle of a snapshot's write, every acknowledged
command is there and the game is the one its records replay to; a start with a long log tells systemd, and
the host's export of a long log streams it whole."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap

import pytest
from daemon_process import DaemonProcess, assert_a_restart_serves

from companion.core import snapshots
from companion.core.session import NEW_GAME, UNDO, replay
from companion.core.table import Table
from companion.gamekit.contract import Command
from companion.storage.store import Store, create

DB = "companion.db"

# One life of a table, in a process of its own, killed with SIGKILL by SQLite's trace of its own statements:
# "command": while the command that makes session 10 commits with its snapshot (after the snapshot's
# insert, before the commit); "start": at the third snapshot a first start keeps as it replays a store
# written without snapshots.
LIFE = textwrap.dedent("""
    import os, signal, sys
    from companion.core import snapshots
    from companion.gamekit.contract import Command
    from companion.storage.store import Store
    from companion.core.table import Table

    path, mode = sys.argv[1], sys.argv[2]
    snapshots.EVERY = 10
    store = Store(path)
    seen = []

    def kill_at(sql):
        if sql.startswith("INSERT OR REPLACE INTO snapshots"):
            seen.append(sql)
            if mode == "start" and len(seen) == 3:
                os.kill(os.getpid(), signal.SIGKILL)
        if mode == "command" and sql == "COMMIT" and seen:
            os.kill(os.getpid(), signal.SIGKILL)

    if mode == "command":
        table = Table(store).start()
        print(table.call(Command("new_game", {"game": "dice"})).version, flush=True)
        for _ in range(8):
            print(table.call(Command("roll")).version, flush=True)  # acknowledged: printed once durable
        store._db.set_trace_callback(kill_at)
        print(table.call(Command("roll")).version, flush=True)
    else:
        store._db.set_trace_callback(kill_at)
        Table(store)
    print("not killed", flush=True)
""")


def live(path, mode: str) -> list[int]:
    """Run one life; the versions it had acknowledged when it was killed."""
    done = subprocess.run([sys.executable, "-c", LIFE, str(path), mode], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stdout + done.stderr
    return [int(line) for line in done.stdout.split()]


def resumes_whole(path, acked: list[int]) -> Store:
    """The store holds every acknowledged record, and a table starts on it showing what they replay to."""
    store = Store(path)
    kept = {r.version for r in store.records_from(0)}
    assert set(acked) <= kept
    session, version = replay(store.records_since_last(NEW_GAME))
    table = Table(store)
    assert (table.version, table.session) == (version, session)
    return store


def test_kill_9_while_a_command_commits_with_its_snapshot_loses_nothing_acknowledged(tmp_path):
    path = tmp_path / DB
    acked = live(path, "command")
    # Version 1 is the table's own first game; the roll after version 10 was never acknowledged.
    assert acked == list(range(2, 11))
    store = resumes_whole(path, acked)
    try:
        assert store.last_version() == 10 and list(store.snapshots(0)) == []  # neither it nor its snapshot
    finally:
        store.close()
    with pytest.MonkeyPatch.context() as mp:  # the game goes on, and the snapshot is kept this time
        mp.setattr(snapshots, "EVERY", 10)
        table = Table(Store(path)).start()
        assert table.call(Command("roll")).ok
        assert [row.version for row in table.store.snapshots(0)] == [11]
        table.stop()
        table.store.close()


def test_kill_9_while_a_first_start_keeps_snapshots_loses_nothing(tmp_path):
    path = tmp_path / DB
    store = Store(path)  # written as the code before snapshots wrote it: records alone
    acked = [store.append(NEW_GAME, None, {"game": "dice", "options": {"count": 2}, "data": {}}, []).version]
    acked += [store.append("roll", None, {}, [v % 6, (v + 3) % 6]).version for v in range(60)]
    acked += [store.append(UNDO, None, {}, []).version for _ in range(5)]
    store.close()
    live(path, "start")
    store = resumes_whole(path, acked)
    store.close()


def test_kill_9_between_commands_of_a_long_game_with_undos_resumes_it_whole(tmp_path):
    daemon = DaemonProcess(tmp_path / "state").start()
    acked = []
    for n in range(260):  # past two snapshots, with undos across them
        body = {"kind": UNDO} if n % 7 == 6 else {"kind": "roll"}
        status, answer = daemon.post("/api/command", body)
        assert status == 200, answer
        acked.append(answer["version"])
    daemon.kill()
    store = Store(daemon.state_dir / DB)
    try:
        assert set(acked) <= {r.version for r in store.records_from(0)}
        assert len(list(store.snapshots(0))) >= 2
        records = store.records_since_last(NEW_GAME)
    finally:
        store.close()
    assert_a_restart_serves(daemon, records)


def notices(listener: socket.socket) -> list[str]:
    """What the daemon told the service manager, up to READY=1."""
    told: list[str] = []
    while "READY=1" not in told:
        told += listener.recv(4096).decode().split("\n")
    return told


def test_a_start_with_a_long_log_to_replay_tells_systemd_to_wait(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    rows = [(1, NEW_GAME, None, json.dumps({"game": "dice", "options": {"count": 1}, "data": {}}), "[]", "")]
    rows += [(v, "roll", None, "{}", json.dumps([v % 6]), "") for v in range(2, snapshots.LONG_START + 100)]
    create(state / DB, "5eed5eed5eed5eed", rows)  # a long log and no snapshot: an upgrade's first start
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.settimeout(60)
    daemon = DaemonProcess(state, env={**os.environ, "NOTIFY_SOCKET": str(tmp_path / "notify")})
    try:
        daemon.start()
        told = notices(listener)
        assert told.index(f"EXTEND_TIMEOUT_USEC={30_000_000}") < told.index("READY=1")
        daemon.stop()
        daemon.start()  # the first start kept snapshots: this one has a short tail, and asks for nothing
        assert not [line for line in notices(listener) if line.startswith("EXTEND_TIMEOUT_USEC")]
    finally:
        daemon.stop()
        listener.close()


def test_the_host_s_export_of_a_long_log_streams_every_record_in_order(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    rows = [(1, NEW_GAME, None, json.dumps({"game": "dice", "options": {"count": 1}, "data": {}}), "[]", "")]
    rows += [(v, "roll", None, "{}", json.dumps([v % 6]), "") for v in range(2, 1_203)]  # 3 pieces of 500
    create(state / DB, "5eed5eed5eed5eed", rows)
    daemon = DaemonProcess(state).start()
    try:
        exported = daemon.get_host("/api/export")
    finally:
        daemon.stop()
    assert (exported["ok"], exported["version"], exported["complete"]) == (True, 1_202, True)
    assert [r["version"] for r in exported["records"]] == list(range(1, 1_203))
    assert [r["draws"] for r in exported["records"][1:]] == [[v % 6] for v in range(2, 1_203)]
