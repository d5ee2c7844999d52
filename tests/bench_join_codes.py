"""How many wrong join codes a guesser with 1,030 addresses gets checked: `companion demo`, loopback
addresses 127.0.x.y as the guesser's, a few threads guessing for some seconds.

    .venv/bin/python tests/bench_join_codes.py [SECONDS] [--source DIR]

`--source` runs the daemon from another checkout's `companion` package (an older tree, to compare).
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from daemon_process import DaemonProcess  # noqa: E402

ADDRESSES = [f"127.0.{n // 250}.{n % 250 + 2}" for n in range(1030)]
THREADS = 8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", nargs="?", type=float, default=10.0)
    parser.add_argument("--source", help="a checkout whose companion package the daemon runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        env = {**os.environ, **({"PYTHONPATH": str(Path(args.source).resolve())} if args.source else {})}
        daemon = DaemonProcess(Path(work) / "state", env=env, cwd=Path(work)).start()  # not this checkout
        answers: Counter = Counter()
        addresses = itertools.cycle(ADDRESSES)
        lock = threading.Lock()
        stop_at = time.monotonic() + args.seconds
        right = daemon.get_host("/api/host")["join_code"]
        wrong = "ZZZZ" if right != "ZZZZ" else "YYYY"
        body = json.dumps({"code": wrong, "seat": 0, "name": "Eve"})

        def guess():
            while time.monotonic() < stop_at:
                with lock:
                    address = next(addresses)
                conn = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=10,
                                                  source_address=(address, 0))
                try:
                    conn.request("POST", "/api/join", body, {"Content-Type": "application/json"})
                    status = conn.getresponse().status
                except OSError:
                    status = "refused connection"
                finally:
                    conn.close()
                with lock:
                    answers[status] += 1

        threads = [threading.Thread(target=guess) for _ in range(THREADS)]
        started = time.monotonic()
        try:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            daemon.stop()
        took = time.monotonic() - started
    checked = answers[409]
    print(f"{sum(answers.values())} wrong codes from {len(ADDRESSES)} addresses in {took:.1f} s, daemon from "
          f"{args.source or 'this checkout'}: {dict(answers)}")
    print(f"checked (409): {checked}, {checked / took:.1f} a second; refused unchecked (429): {answers[429]}")


if __name__ == "__main__":
    main()
