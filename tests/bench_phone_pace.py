"""How fast one seated phone can fill the store: it sends rolls as fast as `companion demo` answers,
over one kept-alive connection, for a few seconds; the records and bytes written give a minute's worth,
and the minutes until the store's bound (256 MB) refuses every move of every seat.

    .venv/bin/python tests/bench_phone_pace.py [--seconds 10] [--source DIR]

`--source` runs the daemon from another checkout's `companion` package (an older tree, to compare).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from daemon_process import DaemonProcess  # noqa: E402

BOUND_MB = 256  # store_limit_mb's default


def flood(port: int, headers: dict, seconds: float, body: dict | None = None) -> tuple[dict[int, int], float]:
    """Post `body` (a roll) as fast as the server answers for `seconds`: how many answers of each status,
    and the seconds from the first send to the last answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    data = json.dumps(body or {"kind": "roll"})
    sent = {"Content-Type": "application/json", **headers}
    statuses: dict[int, int] = {}
    began = time.monotonic()
    try:
        while time.monotonic() - began < seconds:
            conn.request("POST", "/api/command", body=data, headers=sent)
            response = conn.getresponse()
            response.read()
            statuses[response.status] = statuses.get(response.status, 0) + 1
    finally:
        conn.close()
    return statuses, time.monotonic() - began


def store_bytes(state_dir: Path) -> int:
    """The bytes the database's pages in use hold, its WAL folded in (a free page is used again before
    the file grows). Only on the bench's own store, once its daemon has stopped."""
    db = sqlite3.connect(state_dir / "companion.db")
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, free, size = (db.execute(f"PRAGMA {name}").fetchone()[0]
                             for name in ("page_count", "freelist_count", "page_size"))
    finally:
        db.close()
    return (pages - free) * size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--source", help="a checkout whose companion package the daemon runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ)
        if args.source:
            env["PYTHONPATH"] = str(Path(args.source).resolve())
        daemon = DaemonProcess(Path(work) / "state", env=env, cwd=Path(work), paced=True).start()
        try:
            status, seat = daemon.post("/api/seats/0/assign", {"name": "Flood"})
            assert status == 200, seat
            before_records = daemon.get("/api/state")["version"]
        finally:
            daemon.stop()  # a clean stop folds the WAL into the database: its size is the store's own
        before_bytes = store_bytes(daemon.state_dir)
        daemon.start()
        try:
            statuses, took = flood(daemon.port, {"X-Seat-Token": seat["token"]}, args.seconds)
            written = daemon.get("/api/state")["version"] - before_records
        finally:
            daemon.stop()
        grown = store_bytes(daemon.state_dir) - before_bytes
    per_minute = written / took * 60
    bytes_per_minute = grown / took * 60
    print(f"daemon from {args.source or 'this checkout'}; one seated phone flooding rolls for {took:.1f} s")
    print(f"answers: {dict(sorted(statuses.items()))}")
    print(f"records written: {written} ({per_minute:,.0f} a minute); store grew {grown / 2**20:.2f} MB, "
          f"{grown / max(written, 1):.0f} bytes a record ({bytes_per_minute / 2**20:.2f} MB a minute)")
    if bytes_per_minute > 0:
        minutes = BOUND_MB * 2**20 / bytes_per_minute
        print(f"minutes to reach the store's {BOUND_MB} MB bound: {minutes:,.0f} ({minutes / 60 / 24:,.1f} "
              "days)")


if __name__ == "__main__":
    main()
