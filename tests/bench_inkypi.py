"""Benchmark: `companion demo` against InkyPi in --dev mode, interleaved: cold start, idle wake-ups, memory.

Run: .venv/bin/python tests/bench_inkypi.py --inkypi PATH [--rounds 5] [--idle 10] [--pi-zero] [--code DIR]

`--code DIR` adds the companion from another checkout (the version before, say) to the same rounds.
PATH is a checkout of InkyPi's source (`git clone https://github.com/fatihak/InkyPi`). InkyPi publishes
no package; without --inkypi this looks for an sdist with `pip download inkypi --no-binary :all:` and,
finding none, says so and exits 0. InkyPi's own `install/requirements-dev.txt` goes into a venv of its
own (in ~/.cache/table-companion/, made once). Each round starts each program from a fresh copy of its
state, waits for its first HTTP answer (the companion's "starting" answer, then its first real one), then
counts its context switches while idle. `--pi-zero` runs both inside the Pi Zero 2 W stand-in
(companion.benchmark.confine). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from companion.benchmark.confine import Confinement
from companion.benchmark.process import Daemon, status, switches

CACHE = Path.home() / ".cache" / "table-companion"
INKYPI_PORT = 8080  # fixed by InkyPi's --dev mode


def inkypi_source(given: Path | None, work: Path) -> Path | None:
    """InkyPi's source tree: the one given, else an sdist from the package index if one exists."""
    if given is not None:
        if not (given / "src" / "inkypi.py").is_file():
            raise SystemExit(f"{given}: not an InkyPi checkout (no src/inkypi.py). Clone "
                             "https://github.com/fatihak/InkyPi and pass its folder.")
        return given
    fetched = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                              "inkypi", "-d", str(work)], capture_output=True, text=True)
    archives = sorted(work.glob("*.tar.gz"))
    if fetched.returncode != 0 or not archives:
        return None
    shutil.unpack_archive(archives[0], work)
    found = next(work.glob("*/src/inkypi.py"), None)
    return found.parent.parent if found else None


def inkypi_python(source: Path) -> Path:
    """A venv with InkyPi's own development requirements, made once."""
    venv = CACHE / "inkypi-venv"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "-r",
                        str(source / "install" / "requirements-dev.txt")], check=True)
    return python


class InkyPi:
    """InkyPi in --dev mode (a mock display, port 8080), from a fresh copy of its tree."""

    def __init__(self, python: Path, source: Path, work: Path, launch=subprocess.Popen):
        tree = work / "inkypi"
        shutil.copytree(source, tree, ignore=shutil.ignore_patterns(".git"))
        self.started = time.monotonic()
        self.proc = launch([str(python), "src/inkypi.py", "--dev"], cwd=tree,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def wait_serving(self, timeout: float = 120.0) -> float:
        deadline = self.started + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("InkyPi exited before answering")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{INKYPI_PORT}/", timeout=2):
                    return time.monotonic() - self.started
            except OSError:
                time.sleep(0.005)
        raise TimeoutError("InkyPi did not answer")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def one_round(start, idle: float) -> tuple[float, float, float, float]:
    """(seconds to the first answer of any kind, to the first real one, idle context switches per second,
    resident MB) of one program."""
    with tempfile.TemporaryDirectory() as tmp:
        program = start(Path(tmp))
        try:
            answering = program.wait_answering(120) if hasattr(program, "wait_answering") else None
            serving = program.wait_serving(120)
            if isinstance(program, Daemon):  # the companion answers first and draws next
                while not (program.state_dir / "frame.png").exists():
                    time.sleep(0.05)
            time.sleep(2)  # start-up work done
            before = switches(program.proc.pid)
            time.sleep(idle)
            rate = (switches(program.proc.pid) - before) / idle
            resident = status(program.proc.pid)["VmRSS"] / 1024
        finally:
            program.stop()
    return answering if answering is not None else serving, serving, rate, resident


def summary(label: str, rows: list[tuple[float, float, float, float]]) -> None:
    answering, serving, rates, resident = zip(*rows, strict=True)
    print(f"{label}")
    print(f"  process → first HTTP answer : {statistics.median(answering):.2f} s "
          f"(rounds: {', '.join(f'{s:.2f}' for s in answering)})")
    print(f"  process → first real answer : {statistics.median(serving):.2f} s "
          f"(rounds: {', '.join(f'{s:.2f}' for s in serving)})")
    print(f"  idle wake-ups               : {statistics.median(rates):.1f} /s")
    print(f"  resident memory when idle   : {statistics.median(resident):.1f} MB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inkypi", type=Path, help="a checkout of InkyPi's source")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle counted per round")
    parser.add_argument("--pi-zero", action="store_true", help="both inside the Pi Zero 2 W stand-in")
    parser.add_argument("--code", type=Path, help="also the companion from the code in this folder (another "
                                                  "version's checkout), in the same rounds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = inkypi_source(args.inkypi, Path(tmp))
        if source is None:
            print("InkyPi publishes no sdist on the package index: skipped. Clone "
                  "https://github.com/fatihak/InkyPi and pass --inkypi PATH.")
            return 0
        python = inkypi_python(source)
        limit = Confinement() if args.pi_zero else None
        launch = limit.popen if limit is not None else subprocess.Popen
        ours, before, theirs = [], [], []
        earlier = ("env", f"PYTHONPATH={args.code}") if args.code else ()
        try:
            for _ in range(args.rounds):  # interleaved, so a busy moment of the machine hits each alike
                ours.append(one_round(lambda work: Daemon(work, launch=launch), args.idle))
                if args.code:
                    before.append(one_round(lambda work: Daemon(work, earlier, launch=launch), args.idle))
                theirs.append(one_round(lambda work: InkyPi(python, source, work, launch), args.idle))
        finally:
            if limit is not None:
                limit.close()
    if limit is not None:
        print(f"Pi Zero 2 W stand-in: {limit.how}")
    summary("companion demo", ours)
    if before:
        summary(f"companion demo, the code in {args.code}", before)
    summary("InkyPi --dev", theirs)
    faster = sum(o[1] < t[1] for o, t in zip(ours, theirs, strict=True))
    print(f"companion answered for real first in {faster} of {args.rounds} rounds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
