"""Load: phones hold live pages while commands are posted at a steady rate; every page must keep up."""

from __future__ import annotations

import http.client
import json
import tempfile
import threading
import time
from pathlib import Path

from companion.benchmark.process import Daemon, LivePage, open_pages
from companion.benchmark.stats import Figure, count, timed

SEATS = 6  # seat pages among the phones: one per seat of the table


def post(conn: http.client.HTTPConnection, path: str, body: dict, headers: dict) -> tuple[int, dict]:
    """One JSON POST on a kept-alive connection: (status, answer)."""
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json", **headers})
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"{}")


def seat_tokens(daemon: Daemon, host: str, seats: int) -> list[str]:
    """Seats given to players by the host, as a table's first minute does."""
    conn = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=30)
    tokens = []
    for seat in range(seats):
        status, answer = post(conn, f"/api/seats/{seat}/assign", {"name": f"Player {seat + 1}"},
                              {"X-Host-Token": host})
        if status != 200:
            raise RuntimeError(f"seat {seat}: {status} {answer}")
        tokens.append(answer["token"])
    conn.close()
    return tokens


class Poster:
    """Commands sent on a schedule (`rate` per second) by a few kept-alive connections, as many phones."""

    def __init__(self, port: int, headers: dict, rate: float, total: int, senders: int = 8):
        self.port, self.headers, self.rate, self.total = port, headers, rate, total
        self.next, self.lock = 0, threading.Lock()
        self.sent: dict[int, float] = {}  # version → when its command was due to be sent
        self.answered: list[float] = []  # seconds from the due time to the answer
        self.failures: list[str] = []
        self.started = time.monotonic() + 0.5
        self.finished = self.started  # when the last answer came
        self.threads = [threading.Thread(target=self._send, daemon=True) for _ in range(senders)]

    def run(self) -> Poster:
        for thread in self.threads:
            thread.start()
        for thread in self.threads:
            thread.join()
        return self

    def _send(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        while True:
            with self.lock:
                index, self.next = self.next, self.next + 1
            if index >= self.total:
                break
            due = self.started + index / self.rate
            time.sleep(max(0.0, due - time.monotonic()))
            try:
                status, answer = post(conn, "/api/command", {"kind": "roll"}, self.headers)
            except (OSError, http.client.HTTPException, ValueError) as exc:
                self.failures.append(f"{type(exc).__name__}: {exc}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                continue
            done = time.monotonic()
            self.finished = max(self.finished, done)
            if status != 200 or not answer.get("ok"):
                self.failures.append(f"{status}: {answer}")
                continue
            with self.lock:
                self.sent[answer["version"]] = due
                self.answered.append(done - due)
        conn.close()


def measure(phones: int = 30, rate: float = 100.0, seconds: float = 60.0,
            prefix: tuple[str, ...] = ()) -> list[Figure]:
    """`phones` live pages while free dice are rolled `rate` times a second for `seconds`."""
    with tempfile.TemporaryDirectory() as tmp:
        daemon = Daemon(Path(tmp), prefix)
        pages: list[LivePage] = []
        try:
            daemon.wait_serving()
            host = daemon.host_token()
            pages = open_pages(daemon.port, phones, seat_tokens(daemon, host, min(SEATS, phones)))
            poster = Poster(daemon.port, {"X-Host-Token": host}, rate, int(rate * seconds)).run()
            last = max(poster.sent, default=0)
            heard = [page.wait(last, timeout=30) for page in pages]
            delays = [page.arrived[v] - due for page in pages for v, due in poster.sent.items()
                      if v in page.arrived]
            healed = sum(1 for page in pages for kind, _ in page.events[1:] if kind == "snapshot")
            gaps = sum(page.gaps() for page in pages)
        finally:
            for page in pages:
                page.close()
            daemon.stop()
    rate_seen = len(poster.sent) / max(poster.finished - poster.started, 1e-9)  # answered, not just sent
    return [
        count(f"load: commands answered, {phones} phones", len(poster.sent), "", int(rate * seconds),
              most=False),
        count("load: failed commands", len(poster.failures), "", 0),
        count("load: pages that missed the last command", sum(h is None for h in heard), "", 0),
        count("load: versions skipped without a snapshot", gaps, "", 0),
        count("load: snapshots that healed a slow page", healed, ""),
        count("load: commands per second sustained", round(rate_seen, 1), "/s"),
        timed("load: command sent → answered", poster.answered),
        timed("load: command sent → every page has it (SSE)", delays),
    ]
