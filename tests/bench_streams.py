"""Benchmark: many phones' live streams on one table; command -> update latency on every stream, and limits.

Run: .venv/bin/python tests/bench_streams.py [phones] [commands]. Prints figures; asserts nothing.
Everything runs in this one process on loopback: the table, waitress, and one reader thread per phone,
so the peak RSS and thread count include the phones' side as well as the server's.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import resource
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from webfixtures import SSEClient, live_server, running_app  # noqa: E402

SIZES = (24, 50, 100, 200)  # phones tried for the "largest that all stay connected" figure
WAIT = 10.0  # seconds a command's update may take to reach every stream before the phone counts as lost


class Phone:
    """One open stream, read on its own thread; notes when each version first arrives."""

    def __init__(self, port: int):
        self.arrived: dict[int, float] = {}
        self.latest = -1
        self.error: str | None = None
        self.changed = threading.Condition()
        try:
            self.client = SSEClient(port, timeout=30)
        except OSError as exc:
            self.client, self.error = None, f"connect: {type(exc).__name__}"
            return
        if self.client.status != 200:
            self.error = f"HTTP {self.client.status}"
            return
        self.thread = threading.Thread(target=self._read, name="phone", daemon=True)
        self.thread.start()

    @property
    def open(self) -> bool:
        return self.error is None

    def _read(self) -> None:
        try:
            while True:
                msg = self.client.next()
                if msg["event"] in ("snapshot", "update"):
                    now = time.monotonic()
                    # A phone that fell behind gets a fresh snapshot instead: it covers every version before.
                    with self.changed:
                        self.latest = max(self.latest, msg["data"]["version"])
                        self.arrived.setdefault(self.latest, now)
                        self.changed.notify_all()
        # AttributeError: http.client drops its socket under a reader when close() races it.
        except (OSError, ConnectionError, http.client.HTTPException, ValueError, AttributeError) as exc:
            with self.changed:
                self.error = f"read: {type(exc).__name__}"
                self.changed.notify_all()

    def wait_for(self, version: int, deadline: float) -> float | None:
        """When `version` (or a later one) reached this phone, or None if it did not in time."""
        with self.changed:
            self.changed.wait_for(
                lambda: self.latest >= version or self.error is not None,
                timeout=max(0.0, deadline - time.monotonic()),
            )
            # Versions arrive in order; a resync may skip some, so the first one at or after counts.
            return next((self.arrived[v] for v in range(version, self.latest + 1) if v in self.arrived), None)

    def close(self) -> None:
        if self.client is None:
            return
        # Closing a response blocks while this phone's reader thread sits in recv() holding the
        # buffer's lock: shut the socket down first, so the read returns and the close can go on.
        sock = getattr(getattr(self.client.response.fp, "raw", None), "_sock", None)
        if sock is not None:
            with contextlib.suppress(OSError):  # the server may have closed it already
                sock.shutdown(socket.SHUT_RDWR)
        self.client.close()


def post_roll(conn: http.client.HTTPConnection, host: str) -> int:
    conn.request(
        "POST",
        "/api/command",
        body=b'{"kind": "roll"}',
        headers={"Content-Type": "application/json", "X-Host-Token": host},
    )
    response = conn.getresponse()
    answer = json.loads(response.read())
    if response.status != 200:
        raise RuntimeError(f"roll refused: {response.status} {answer}")
    return answer["version"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(phones: int, commands: int) -> dict:
    """One table and server with `phones` streams open; `commands` rolls, one after another."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        running_app(Path(tmp), max_streams=phones + 10) as (runtime, app),
        live_server(app) as server,
    ):
        started = time.monotonic()
        crowd = [Phone(server.port) for _ in range(phones)]
        opened = time.monotonic() - started
        host = runtime.table.host_token()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        latencies: list[float] = []  # command -> update, per stream
        slowest: list[float] = []  # command -> update on the last stream to get it
        server_threads = 0
        try:
            first = runtime.table.latest.version
            for phone in crowd:  # every stream has its snapshot before the clock starts
                if phone.open:
                    phone.wait_for(first, time.monotonic() + WAIT)
            for _ in range(commands):
                sent = time.monotonic()
                version = post_roll(conn, host)
                deadline = time.monotonic() + WAIT
                arrivals = [phone.wait_for(version, deadline) for phone in crowd if phone.open]
                got = [t - sent for t in arrivals if t is not None]
                latencies += got
                if got:
                    slowest.append(max(got))
                server_threads = max(server_threads, server_side_threads())
            connected = sum(1 for phone in crowd if phone.open and phone.latest >= version)
            errors = sorted({phone.error for phone in crowd if phone.error})  # before closing makes more
        finally:
            conn.close()
            for phone in crowd:
                phone.close()
    return {
        "phones": phones,
        "connected": connected,
        "commands": commands,
        "opened_s": opened,
        "latencies": latencies,
        "slowest": slowest,
        "threads": server_threads,
        "waitress_threads": server.threads,
        "errors": errors,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def server_side_threads() -> int:
    """Threads of the server side: waitress's workers and loop, and the table's writer."""
    return sum(
        1 for t in threading.enumerate() if t.name.startswith("waitress") or t.name in ("web", "table")
    )


def report(result: dict) -> None:
    ms = [x * 1000 for x in result["latencies"]]
    last = [x * 1000 for x in result["slowest"]]
    errors = f", errors: {', '.join(result['errors'])}" if result["errors"] else ""
    print(
        f"phones connected : {result['connected']} of {result['phones']} "
        f"(all opened in {result['opened_s']:.2f} s){errors}"
    )
    print(f"commands         : {result['commands']} rolls, one after another, {len(ms)} deliveries timed")
    if ms:
        print(
            f"command -> event : p50 {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
            f"max {max(ms):.1f} ms (every stream)"
        )
        print(
            f"  last stream    : p50 {statistics.median(last):.1f} ms, p99 {percentile(last, 0.99):.1f} ms, "
            f"max {max(last):.1f} ms (per command, the slowest phone)"
        )
    print(
        f"server threads   : {result['threads']} running (waitress sized for {result['waitress_threads']} "
        f"workers), {threading.active_count()} in the process now"
    )
    print(f"peak RSS so far  : {result['rss_mb']:.1f} MB (server and phones in one process)")


def main(argv: list[str]) -> int:
    phones = int(argv[1]) if len(argv) > 1 else 100
    commands = int(argv[2]) if len(argv) > 2 else 200
    held = {}
    # Smallest first: ru_maxrss only grows, so each figure is the peak up to that size.
    for size in sorted({*SIZES, phones}):
        print(f"--- {size} phones ---")
        result = run(size, commands if size == phones else max(20, commands // 10))
        report(result)
        held[size] = result["connected"] == size
    fine = [size for size, ok in held.items() if ok]
    print(
        f"largest number of phones that all stayed connected: {max(fine) if fine else 'none'} "
        f"(tried {', '.join(str(s) for s in held)})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
