"""`companion bench venue --tables N --hours H`, run tiny through a real Mosquitto and a real dashboard
process: every figure of the first and the last hour is reported, and nothing is lost or kept twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import companion
from companion.benchmark import venue
from companion.benchmark.mosquitto import installed

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not installed(), reason="needs Mosquitto (apt-get install mosquitto)")]


def by_name(figures) -> dict:
    return {f.name: f for f in figures}


def test_a_tiny_day_reports_the_first_and_the_last_hour_and_loses_nothing(tmp_path):
    # Another checkout (this one's package under another folder) that notes each process started on it.
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "companion").symlink_to(Path(companion.__file__).parent)
    (checkout / "sitecustomize.py").write_text(
        "import os, pathlib\n"
        "with open(pathlib.Path(__file__).with_name('started'), 'a') as out:\n"
        "    out.write(f'{os.getpid()}\\n')\n")
    figures = by_name(venue.measure(tables=3, hours=2, window=4.0, drain=60, pace=0.5, code=checkout))
    # The dashboard twice (first and last hour) and the history once ran on that checkout.
    assert len((checkout / "started").read_text().split()) == 3
    for hour in ("first hour", "hour 2 (last)"):
        page = figures[f"commit → dashboard page, 3 tables, {hour}"]
        assert page.samples > 0 and page.p99 is not None and page.target == "p99 ≤ 250 ms"
        assert figures[f"dashboard CPU, {hour}"].p50 >= 0
        assert figures[f"dashboard memory (RSS), {hour}"].p50 > 0
        assert figures[f"dashboard memory (VmHWM), {hour}"].p50 > 0
    # The history between the two windows went in through the board: 3-4 games per table per hour.
    assert 3 * 3 <= figures["history filled: results"].p50 <= 3 * 4
    assert figures["history filled: updates"].p50 >= figures["history filled: results"].p50
    assert figures["p99, last hour against the first"].target
    assert figures["memory (VmHWM), last hour against the first"].target
    drain = next(f for name, f in figures.items() if name.startswith("drain of "))
    assert drain.p50 > 0
    assert figures["lost (committed, never on the dashboard)"].p50 == 0
    assert figures["kept twice"].p50 == 0


def test_the_command_takes_the_day_and_leaves_no_process_behind(tmp_path):
    out = tmp_path / "venue.json"
    run = subprocess.run([sys.executable, "-m", "companion", "bench", "venue", "--tables", "2",
                          "--hours", "2", "--window", "3", "--drain", "20", "--json", str(out)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env={**os.environ, "TMPDIR": str(tmp_path)})  # its broker's and dashboard's folders
    assert run.returncode == 0, run.stderr[-3000:]
    assert "commit → dashboard page, 2 tables, hour 2 (last)" in run.stdout
    figures = {f["name"]: f for f in json.loads(out.read_text())["figures"]}
    assert figures["lost (committed, never on the dashboard)"]["p50"] == 0
    assert figures["kept twice"]["p50"] == 0
    left = subprocess.run(["pgrep", "-f", str(tmp_path)], capture_output=True, text=True).stdout.split()
    assert not left, f"left running: {left}"


def test_a_bench_stopped_midway_stops_its_broker_and_dashboard(tmp_path):
    bench = subprocess.Popen([sys.executable, "-m", "companion", "bench", "venue", "--tables", "2",
                              "--window", "60"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             cwd=tmp_path, env={**os.environ, "TMPDIR": str(tmp_path)})
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob("bench-venue-*/venue/dashboard.log")):  # the dashboard is starting
            assert time.monotonic() < deadline and bench.poll() is None, bench.stderr.read().decode()[-2000:]
            time.sleep(0.1)
        bench.terminate()
        bench.wait(60)
    finally:
        bench.kill()
    left = subprocess.run(["pgrep", "-f", str(tmp_path)], capture_output=True, text=True).stdout.split()
    assert not left, f"left running: {left}"
    assert not list(tmp_path.glob("bench-venue-*")), "its folder was left behind"
