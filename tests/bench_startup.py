"""Benchmark: seconds from `companion demo` to serving and to the first e-ink frame, and peak RSS.

Run: .venv/bin/python tests/bench_startup.py [runs]. Prints figures; asserts nothing.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from daemon_process import free_port  # noqa: E402


def poll(url: str, ready, deadline: float) -> float:
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if ready(json.load(response)):
                    return time.monotonic()
        except OSError:
            pass
        time.sleep(0.005)
    raise TimeoutError(url)


def one_run(state: Path) -> tuple[float, float, int]:
    port = free_port()
    config = state / "c.toml"
    config.write_text(f'host = "127.0.0.1"\nport = {port}\nstate_dir = "{state}"\n')
    base = f"http://127.0.0.1:{port}"
    start = time.monotonic()
    proc = subprocess.Popen(["/usr/bin/time", "-v", sys.executable, "-m", "companion", "demo", "--config",
                             str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    serving = poll(base + "/api/state", lambda s: True, start + 60) - start
    framed = poll(base + "/api/device", lambda d: d["frame_version"] >= 1, start + 60) - start
    with sqlite3.connect(state / "companion.db") as db:  # the host token, as a host's phone holds it
        host = db.execute("SELECT value FROM meta WHERE key = 'host_token'").fetchone()[0]
    for _ in range(20):  # some traffic, so the peak includes rolls, frames and the LED animation
        request = urllib.request.Request(base + "/api/command", data=b'{"kind": "roll"}', method="POST",
                                         headers={"Content-Type": "application/json", "X-Host-Token": host})
        urllib.request.urlopen(request, timeout=10).close()
    time.sleep(1.5)
    child = int(subprocess.check_output(["pgrep", "-P", str(proc.pid)]).split()[0])
    os.kill(child, signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1))
    return serving, framed, rss_kb


def main(argv: list[str]) -> int:
    runs = int(argv[1]) if len(argv) > 1 else 5
    results = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            results.append(one_run(Path(tmp)))
    serving, framed, rss = zip(*results, strict=True)
    print(f"companion demo, {runs} cold starts (median, min-max)")
    for label, values in (("serving /api/state", serving), ("first e-ink frame ", framed)):
        print(f"  {label} : {statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})")
    print(f"  peak RSS           : {statistics.median(rss) / 1024:.1f} MB ({min(rss) / 1024:.1f}-"
          f"{max(rss) / 1024:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
