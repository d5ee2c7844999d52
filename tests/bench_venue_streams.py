"""Benchmark: strangers' live pages against the venue dashboard (docs/security.md).

Opens 16 live pages from each of 3 loopback addresses (48, past the dashboard's threads), then times a
page load and a director's correction from other addresses. Prints how many pages were let in and
both times (a 5 s timeout counts as 5 s).
Run: .venv/bin/python tests/bench_venue_streams.py
"""

from __future__ import annotations

import http.client
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from daemon_process import free_port  # noqa: E402
from mosquitto import Mosquitto  # noqa: E402

from companion.venue.dashboard import Dashboard  # noqa: E402


def timed(port: int, method: str, path: str, client: str, body: bytes | None = None) -> float:
    start = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(client, 0))
        conn.request(method, path, body=body)
        conn.getresponse().read()
    except OSError:
        pass
    return time.monotonic() - start


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-venue-streams-"))
    broker = Mosquitto(folder / "broker", "club", ["t1"]).start()
    dashboard = Dashboard(folder / "dashboard", broker.broker("dashboard"), "club", "en")
    dashboard.start("127.0.0.1", free_port())
    port = dashboard.server.port
    try:
        opened, unanswered = [], 0
        for n in (2, 3, 4):
            for _ in range(16):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5,
                                                  source_address=(f"127.0.0.{n}", 0))
                try:
                    conn.request("GET", "/api/venue/events")
                    opened.append(conn.getresponse())
                except OSError:
                    unanswered += 1  # no thread left to answer it within 5 s
        live = sum(r.status == 200 for r in opened)
        page = timed(port, "GET", "/", "127.0.0.20")
        director = f"/api/director/{dashboard.director}/corrections"
        correction = timed(port, "POST", director, "127.0.0.21", b"[]")
        print(f"live pages let in: {live} of 48, unanswered: {unanswered}; page load: {page:.3f} s; "
              f"director's correction: {correction:.3f} s")
        for response in opened:
            response.close()
    finally:
        dashboard.stop()
        broker.stop()


if __name__ == "__main__":
    main()
