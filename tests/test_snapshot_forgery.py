"""A forged snapshot in the store of the real daemon: it starts, serves the game its records replay to, and
says in one log line that the snapshot was refused; no crash loop, no huge allocation, no nested daemon."""

from __future__ import annotations

import hashlib
import pickle
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from daemon_process import CONSOLE_SCRIPT, DaemonProcess

from companion.core.session import NEW_GAME, replay
from companion.storage.store import Store

pytestmark = pytest.mark.slow  # a 100-roll game, then a daemon started on each forged snapshot

ROLLS = 100  # the game's 100th session is kept as a snapshot
PEAK_MB = 150  # the daemon's peak memory at a start: about 60 MB; a forged body once asked for 300 MB more


def unkeyed_digest(version: int, since: int, count: int, format: int, code: str, body: bytes) -> str:
    """The digest anyone could recompute before snapshots were signed: what a forger writes."""
    return hashlib.blake2b(f"{version} {since} {count} {format} {code}\n".encode() + body,
                           digest_size=16).hexdigest()


def wrong_type(body: bytes) -> bytes:
    values = pickle.loads(body)
    return pickle.dumps((*values[:2], 42, *values[3:]), protocol=5)


def more_sixes(body: bytes) -> bytes:
    """The true snapshot with every die of its last rolls a six: well formed, and a lie."""
    values = pickle.loads(body)
    state = values[2]
    rolls = tuple(tuple(6 for _ in roll) for roll in state.rolls)
    forged = type(state)(state.count, rolls, state.earlier)
    return pickle.dumps((*values[:2], forged, *values[3:]), protocol=5)


FORGED = {
    "wrong type": wrong_type,
    "300 MB from 29 bytes": lambda body: b"cbuiltins\nbytearray\n(J\x00\xa3\xe1\x11tR.",
    "naming companion.__main__": lambda body: b"ccompanion.__main__\nmain\n.",
    "well formed, recomputed digest": more_sixes,
}


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A state directory whose running game of free dice has a snapshot after its 100th roll."""
    daemon = DaemonProcess(tmp_path_factory.mktemp("played") / "state").start()
    try:
        for _ in range(ROLLS):
            assert daemon.post("/api/command", {"kind": "roll"})[0] == 200
    finally:
        daemon.stop()
    (daemon.state_dir / "daemon.out").unlink()
    return daemon.state_dir


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


@pytest.mark.parametrize("forgery", FORGED)
def test_a_forged_snapshot_is_refused_in_one_log_line_and_the_game_replays(played, tmp_path, forgery):
    state_dir = tmp_path / "state"
    shutil.copytree(played, state_dir)
    db = sqlite3.connect(state_dir / "companion.db")
    version, since, count, format, code, body = db.execute(
        "SELECT version, since, count, format, code, body FROM snapshots ORDER BY version DESC").fetchone()
    forged = FORGED[forgery](body)
    db.execute("UPDATE snapshots SET body = ?, digest = ? WHERE version = ?",
               (forged, unkeyed_digest(version, since, count, format, code, forged), version))
    db.commit()
    db.close()
    store = Store(state_dir / "companion.db")
    truth, last = replay(store.records_since_last(NEW_GAME))
    store.close()

    daemon = DaemonProcess(state_dir, paced=True)  # the table as it is shipped (an older one has no pace)
    daemon.launcher = CONSOLE_SCRIPT  # as the service runs it: a body naming companion.__main__ would run it
    began = time.monotonic()
    try:
        daemon.start(timeout=30)
        took = time.monotonic() - began
        answer = daemon.get("/api/state")
        assert daemon.proc is not None
        peak = peak_mb(daemon.proc.pid)
    finally:
        daemon.stop()
    out = daemon.output.read_text()
    print(f"\n{forgery}: started in {took:.2f} s, peak {peak:.0f} MB")
    assert answer["version"] == last
    assert answer["public"] == truth.spec.public_json(truth.state)
    refused = [line for line in out.splitlines() if f"the snapshot after record {version}" in line]
    assert len(refused) == 1 and "refused" in refused[0], out
    assert peak < PEAK_MB
