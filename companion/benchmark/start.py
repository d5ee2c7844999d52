"""A start with a long log: the daemon started on 250,000 free-dice rolls, and on 3,000 rolls each undone;
process → web answering, and its peak memory, at the first start and the next; then the host's export."""

from __future__ import annotations

import http.client
import json
import tempfile
import time
from pathlib import Path

from companion.benchmark.process import Daemon
from companion.benchmark.stats import Figure, count
from companion.storage.store import create, new_table_id

TARGET_S, TARGET_MB = 10.0, 100.0
LIMIT_S = 300.0  # a start still replaying after this is reported as such (systemd's own limit is 90 s)


def rolls_then_undos(rolls: int, undos: int) -> list[tuple]:
    """The records of a game of free dice with two dice: `rolls` rolls, then `undos` undos."""
    setup = {"data": {}, "game": "dice", "options": {"count": 2}}
    rows = [(1, "new_game", None, json.dumps(setup), "[]", "")]
    rows += [(v, "roll", None, "{}", json.dumps([v % 6, v * 7 % 6]), "") for v in range(2, rolls + 2)]
    rows += [(v, "undo", None, "{}", "[]", "") for v in range(rolls + 2, rolls + undos + 2)]
    return rows


LOGS = {"250,000 rolls": (250_000, 0), "3,000 rolls, 3,000 undos": (3_000, 3_000)}


def measure(code: Path | None = None, quick: bool = False) -> list[Figure]:
    """Each log, written as the code before snapshots left it (records alone), started twice: the first
    start replays it whole (and keeps snapshots), the next starts from the newest. With `code`, the
    daemons run the code in that folder (another version's checkout) instead. `quick`: a tenth of each log."""
    prefix = ("env", f"PYTHONPATH={code}") if code is not None else ()
    figures = []
    for name, (rolls, undos) in LOGS.items():
        if quick:
            rolls, undos, name = rolls // 10, undos // 10, f"{name} / 10"
        with tempfile.TemporaryDirectory() as tmp:
            create(Path(tmp) / "companion.db", new_table_id(), rolls_then_undos(rolls, undos))
            for which in ("first start", "next start"):
                daemon = Daemon(Path(tmp), prefix)
                try:
                    try:
                        seconds = round(daemon.wait_serving(LIMIT_S), 2)
                    except TimeoutError:
                        seconds = LIMIT_S
                    label = f"start on {name}, {which}"
                    figures.append(count(f"{label}: process → web answering", seconds, "s", TARGET_S))
                    figures.append(count(f"{label}: peak memory", peak_mb(daemon), "MB", TARGET_MB))
                    if which == "next start" and seconds < LIMIT_S:
                        took = export(daemon)
                        figures.append(count(f"the host's export of {name}: time", took, "s"))
                        figures.append(count(f"the host's export of {name}: peak memory", peak_mb(daemon),
                                             "MB", TARGET_MB))
                finally:
                    daemon.stop()
    return figures


def peak_mb(daemon: Daemon) -> float:
    return round(daemon.status()["VmHWM"] / 1024, 1)


def export(daemon: Daemon) -> float:
    """Seconds to download the running game's record as the host (`GET /api/export`), read as it comes."""
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=LIMIT_S)
    try:
        conn.request("GET", "/api/export", headers={"X-Host-Token": daemon.host_token()})
        response = conn.getresponse()
        tail = b""
        while chunk := response.read(65536):
            tail = (tail + chunk)[-16:]
        if response.status != 200 or not tail.rstrip().endswith(b"}"):
            raise RuntimeError(f"the export failed: {response.status}")
    finally:
        conn.close()
    return round(time.monotonic() - started, 2)
