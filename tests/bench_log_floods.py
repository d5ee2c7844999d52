"""How many lines waitress logs while one client drops streams in a loop and sends bursts of requests
it hangs up on, through the real server.

    .venv/bin/python tests/bench_log_floods.py

Runs on any tree (it uses only the test fixtures), to compare the journal before and after.
"""

from __future__ import annotations

import logging
import socket
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from polling import wait_for  # noqa: E402
from webfixtures import SSEClient, live_server, running_app  # noqa: E402

DROPS = 40  # streams opened and dropped: each one is a "Client disconnected" line without the filter
BURST = 120  # requests sent at once: more than the server's threads, so they queue


def waitress_lines(records) -> Counter:
    kinds: Counter = Counter()
    for record in records:
        if record.name.startswith("waitress"):
            text = record.getMessage()
            kinds["disconnected" if "Client disconnected" in text else
                  "queue" if "Task queue depth" in text else text] += 1
    return kinds


def drop_streams(port: int, hub, count: int) -> None:
    for _ in range(count):
        stream = SSEClient(port)
        stream.next_event()
        stream.close()
    wait_for(lambda: hub.open_streams == 0)


def burst(port: int, count: int) -> None:
    """`count` connections that each send a request at once and hang up without reading the answer."""
    ready = threading.Barrier(count)

    def one():
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            ready.wait()
            sock.sendall(b"GET /api/seats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()



class Kept(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def main() -> None:
    kept = Kept()
    logging.getLogger().addHandler(kept)
    logging.getLogger("waitress").setLevel(logging.INFO)
    with tempfile.TemporaryDirectory() as tmp, running_app(Path(tmp)) as (runtime, app), \
            live_server(app, threads=4) as server:
        drop_streams(server.port, app.extensions["companion.hub"], DROPS)
        for _ in range(3):
            burst(server.port, BURST)
        wait_for(lambda: server._dispatcher.active_count == 0 and not server._dispatcher.queue)
    lines = waitress_lines(kept.records)
    print(f"{DROPS} streams dropped, 3 bursts of {BURST} requests: {sum(lines.values())} lines from waitress")
    for kind, count in lines.most_common():
        print(f"  {count:4d}  {kind}")


if __name__ == "__main__":
    main()
