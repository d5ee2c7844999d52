"""Figures of the daemon as its own process: cold start, idle wake-ups, peak memory with 30 phones."""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from companion.benchmark.process import Daemon, open_pages
from companion.benchmark.stats import Figure, count


def cold_start(rounds: int = 5, prefix: tuple[str, ...] = ()) -> list[Figure]:
    """Process start to the first HTTP answer (the table saying it is starting), to the first real one
    (the game's state), and to the first e-ink frame written (median of rounds)."""
    answering, serving, framed = [], [], []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            daemon = Daemon(Path(tmp), prefix)
            try:
                answering.append(daemon.wait_answering())
                serving.append(daemon.wait_serving())
                frame = Path(tmp) / "frame.png"
                while not frame.exists():
                    time.sleep(0.005)
                framed.append(time.monotonic() - daemon.started)
            finally:
                daemon.stop()
    return [count("cold start: process → first answer (starting)", round(statistics.median(answering), 2),
                  "s"),
            count("cold start: process → web answering", round(statistics.median(serving), 2), "s", 1.0),
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
            pages = open_pages(daemon.port, phones)
            for page in pages:
                page.wait(0)  # its snapshot came: the page is open
            time.sleep(3)
            with_phones = _rate(daemon, seconds)
            for page in pages:
                page.close()
        finally:
            daemon.stop()
    return [count("idle wake-ups, no phone", round(alone, 2), "/s", 5),
            count(f"idle wake-ups, {phones} phones", round(with_phones, 2), "/s", 5)]


def idle_memory(phones: int = 10, prefix: tuple[str, ...] = (), launch=None) -> list[Figure]:
    """Resident memory and threads of an idle daemon after its first frame, with no phone (as
    tests/bench_inkypi.py measures it) and with `phones` live pages open."""
    with tempfile.TemporaryDirectory() as tmp:
        daemon = Daemon(Path(tmp), prefix, **({"launch": launch} if launch else {}))
        try:
            daemon.wait_serving()
            while not (Path(tmp) / "frame.png").exists():
                time.sleep(0.05)
            time.sleep(2)  # start-up work done, as bench_inkypi waits
            alone = daemon.status()
            pages = open_pages(daemon.port, phones)
            for page in pages:
                page.wait(0)
            time.sleep(2)
            with_phones = daemon.status()
            for page in pages:
                page.close()
        finally:
            daemon.stop()
    return [count("idle memory (resident), no phone", round(alone["VmRSS"] / 1024, 1), "MB", 60),
            count(f"idle memory (resident), {phones} phones", round(with_phones["VmRSS"] / 1024, 1), "MB"),
            count("threads, no phone", alone["Threads"], ""),
            count(f"threads, {phones} phones", with_phones["Threads"], "")]


def _rate(daemon: Daemon, seconds: float) -> float:
    before = daemon.switches()
    time.sleep(seconds)
    return (daemon.switches() - before) / seconds


def peak_memory(phones: int = 30, prefix: tuple[str, ...] = ()) -> list[Figure]:
    """The daemon's peak resident memory after a full game of every game, `phones` live pages open."""
    with tempfile.TemporaryDirectory() as tmp:
        daemon = Daemon(Path(tmp), prefix, module="companion.benchmark.target", args=(tmp, str(phones)))
        pages = []
        try:
            daemon.wait_serving()
            pages = open_pages(daemon.port, phones, json.loads(daemon.wait_line("tokens ")))
            daemon.wait_line("played", timeout=1800)
            status = daemon.status()
            last = int(daemon.wait_line("version "))
            missed = sum(page.wait(last, timeout=30) is None for page in pages)
        finally:
            for page in pages:
                page.close()
            daemon.stop()
    mb = {key: round(value / 1024, 1) for key, value in status.items()}
    return [count(f"peak memory, every game played, {phones} phones", mb["VmHWM"], "MB", 60),
            count("memory then: resident", mb["VmRSS"], "MB"),
            count("memory then: of which written (objects, heaps)", mb["Anonymous"], "MB"),
            count("memory then: of which mapped from files (libraries, fonts)", mb["Files"], "MB"),
            count("memory then: proportional share (PSS)", mb["Pss"], "MB"),
            count("threads then", status["Threads"], ""),
            count(f"pages of the {phones} that missed the last command", missed, "", 0)]
