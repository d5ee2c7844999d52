"""kill -9 at random points while commands stream in: no acknowledged command is ever lost."""

from __future__ import annotations

import http.client
import random
import threading
import time

import pytest
from daemon_process import DaemonProcess, assert_a_restart_serves

from companion.core.session import NEW_GAME
from companion.storage.store import Store

RUNS = 20

pytestmark = pytest.mark.slow  # 20 daemons killed and restarted


def stream_commands(daemon: DaemonProcess, acked: list, stop: threading.Event, rng: random.Random,
                    first: threading.Event) -> None:
    """Post rolls and dice changes as fast as the daemon answers; note every acknowledged one."""
    while not stop.is_set():
        if rng.random() < 0.8:
            body = {"kind": "roll"}
        else:
            body = {"kind": "set_dice", "args": {"count": rng.randint(1, 3)}}
        try:
            status, answer = daemon.post("/api/command", body, timeout=5)
        except (OSError, http.client.HTTPException, ValueError):
            return  # the daemon died mid-answer: what was not answered was never acknowledged
        if status == 200 and answer.get("ok"):
            acked.append((answer["version"], body))
            first.set()


@pytest.mark.parametrize("run", range(RUNS))
def test_kill_9_loses_no_acknowledged_command(tmp_path, run):
    rng = random.Random(run)
    daemon = DaemonProcess(tmp_path / "state").start()
    acked: list = []
    stop, first = threading.Event(), threading.Event()
    clients = [threading.Thread(target=stream_commands,
                                args=(daemon, acked, stop, random.Random(run * 10 + i), first))
               for i in range(2)]
    for client in clients:
        client.start()
    # The kill comes at a random moment after the first acknowledgement: before it, a kill proves nothing.
    assert first.wait(30), "the daemon acknowledged no command in 30 s"
    time.sleep(rng.uniform(0, 1.0))
    daemon.kill()
    stop.set()
    for client in clients:
        client.join(10)
    assert acked, "no command was acknowledged before the kill; the test proved nothing"

    store = Store(daemon.state_dir / "companion.db")
    records = {r.version: r for r in store.records_since_last(NEW_GAME)}
    for version, body in acked:
        assert version in records, f"acknowledged command {version} {body} was lost"
        assert records[version].kind == body["kind"]
        assert records[version].args == body.get("args", {})
    records = store.records_since_last(NEW_GAME)
    store.close()
    assert_a_restart_serves(daemon, records)
