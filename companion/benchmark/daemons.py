"""Figures of the daemon as its own process: cold start, idle wake-ups, peak memory with 30 phones."""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from companion.benchmark.process import Daemon, open_streams
from companion.benchmark.stats import Figure, count


def cold_start(rounds: int = 5, prefix: tuple[str, ...] = ()) -> list[Figure]:
    """Process start to the first HTTP answer, and to the first e-ink frame written (median of rounds)."""
    serving, framed = [], []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            daemon = Daemon(Path(tmp), prefix)
            try:
                serving.append(daemon.wait_serving())
                frame = Path(tmp) / "frame.png"
                while not frame.exists():
                    time.sleep(0.005)
                framed.append(time.monotonic() - daemon.started)
            finally:
                daemon.stop()
    return [count("cold start: process → web answering", round(statistics.median(serving), 2), "s", 1.0),
            count("cold start: process → first e-ink frame written", round(statistics.median(framed), 2), "s",
                  1.0)]


def idle(seconds: float = 60.0, phones: int = 10, prefix: tuple[str, ...] = ()) -> list[Figure]:
    """Context switches per second of an idle daemon, with no phone and with `phones` live pages."""
    with tempfile.TemporaryDirectory() as tmp:
        daemon = Daemon(Path(tmp), prefix)
        try:
            daemon.wait_serving()
            time.sleep(3)  # the first frame and the start-up work are done
            alone = _rate(daemon, seconds)
            conns = open_streams(daemon.port, ["/api/events"] * phones)
            time.sleep(3)
            with_phones = _rate(daemon, seconds)
            for conn in conns:
                conn.close()
        finally:
            daemon.stop()
    return [count("idle wake-ups, no phone", round(alone, 2), "/s", 5),
            count(f"idle wake-ups, {phones} phones", round(with_phones, 2), "/s", 5)]


def _rate(daemon: Daemon, seconds: float) -> float:
    before = daemon.switches()
    time.sleep(seconds)
    return (daemon.switches() - before) / seconds


def peak_memory(phones: int = 30, prefix: tuple[str, ...] = ()) -> list[Figure]:
    """The daemon's peak resident memory after a full game of every game, `phones` live pages open."""
    seat_pages = 6
    with tempfile.TemporaryDirectory() as tmp:
        daemon = Daemon(Path(tmp), prefix, module="companion.benchmark.target", args=(tmp, str(phones)))
        try:
            daemon.wait_serving()
            tokens = daemon.wait_line("tokens ")
            paths = ["/api/events"] * (phones - seat_pages) + [f"/api/seat/{t}/events" for t in
                                                               json.loads(tokens)[:seat_pages]]
            conns = open_streams(daemon.port, paths)
            daemon.wait_line("played", timeout=1800)
            status = daemon.status()
            for conn in conns:
                conn.close()
        finally:
            daemon.stop()
    return [count(f"peak memory, every game played, {phones} phones", round(status["VmHWM"] / 1024, 1), "MB",
                  60), count("threads then", status["Threads"], "")]
