"""A daemon as its own process (`companion demo`): started, asked, watched from /proc, stopped."""

from __future__ import annotations

import glob
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    """`companion demo` in `state_dir`, on a free loopback port; `prefix` runs it under another command
    (a CPU limit), `launch` starts it (inside a Confinement, say) and `module` replaces the command by a
    script of ours (`python -m module`)."""

    def __init__(self, state_dir: Path, prefix: tuple[str, ...] = (), module: str | None = None,
                 args: tuple[str, ...] = (), launch=subprocess.Popen):
        self.state_dir, self.port = Path(state_dir), free_port()
        command = [sys.executable, "-m", module or "companion"]
        self.state_dir.mkdir(parents=True, exist_ok=True)
        if not module:
            # A benchmark sends faster than any hand: the phones' pace (docs/security.md) is off.
            unpaced = self.state_dir / "unpaced.toml"
            unpaced.write_text("sends_per_second = 0\n")
            command += ["demo", "--state-dir", str(state_dir), "--config", str(unpaced)]
        else:
            command += list(args)
        env = {**os.environ, "COMPANION_PORT": str(self.port), "PYTHONUNBUFFERED": "1"}
        self.output = self.state_dir / "daemon.out"
        self.started = time.monotonic()
        with self.output.open("w") as out:
            # Run in its state directory: `python -m` looks in the working directory first, and a checkout
            # there would be run instead of the code `prefix` names (another version's, with --code).
            self.proc = launch([*prefix, *command], stdout=out, stderr=subprocess.STDOUT, env=env,
                               cwd=self.state_dir)

    def wait_serving(self, timeout: float = 60.0) -> float:
        """Seconds from the process start to its first real HTTP answer (the game's state, 200)."""
        return self._wait(200, timeout)

    def wait_answering(self, timeout: float = 60.0) -> float:
        """Seconds from the process start to its first HTTP answer of any kind ("starting" counts)."""
        return self._wait(None, timeout)

    def _wait(self, status: int | None, timeout: float) -> float:
        deadline = self.started + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the daemon exited: {self.output.read_text()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                try:
                    conn.request("GET", "/api/state")
                    answered = conn.getresponse().status
                finally:
                    conn.close()
                if status is None or answered == status:
                    return time.monotonic() - self.started
                # "Starting": asked again as a phone's page does, not in a loop that would take the
                # daemon's CPU (a tenth of a core on the stand-in) from its start
                time.sleep(0.1)
            except OSError:
                time.sleep(0.005)
        raise TimeoutError("the daemon did not answer")

    def get(self, path: str) -> dict:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            conn.request("GET", path)
            return json.loads(conn.getresponse().read())
        finally:
            conn.close()

    def host_token(self) -> str:
        """The host link's token, once printed (a slow daemon prints it after it first answers)."""
        return self.wait_line("  host link: ").rsplit("?host=", 1)[1].strip()

    def wait_line(self, start: str, timeout: float = 60.0) -> str:
        """The rest of the first line of the daemon's output that begins with `start`, once printed."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.output.read_text().splitlines():
                if line.startswith(start):
                    return line[len(start):]
            if self.proc.poll() is not None:
                raise RuntimeError(f"the daemon exited: {self.output.read_text()[-2000:]}")
            time.sleep(0.1)
        raise TimeoutError(f"no line starting {start!r}: {self.output.read_text()[-2000:]}")

    def status(self) -> dict[str, int]:
        return status(self.proc.pid)

    def switches(self) -> int:
        return switches(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM in kB and the thread count of a process, from /proc; and from its smaps, in kB, the
    resident memory it wrote (Anonymous), what it maps from files (libraries, fonts: read-only, shared
    with other processes, and counted once per mapping) and its proportional share (Pss)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            fields[key] = int(value.split()[0])
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("Rss", "Anonymous", "Pss"):
            fields[key] = int(value.split()[0])
    fields["Files"] = fields["Rss"] - fields["Anonymous"]
    return fields


def switches(pid: int) -> int:
    """Context switches of every thread of a process so far (voluntary and not)."""
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/status"):
        try:
            text = Path(path).read_text()
        except FileNotFoundError:
            continue  # a thread that just ended
        total += sum(int(line.split()[1]) for line in text.splitlines() if "ctxt_switches" in line)
    return total


def open_pages(port: int, phones: int, tokens: Sequence[str] = ()) -> list[LivePage]:
    """`phones` live pages, the seats' of `tokens` among them, each from its own loopback address (as
    phones are), each read as it comes, as a phone reads it."""
    paths = [f"/api/seat/{t}/events" for t in tokens[:phones]]
    paths += ["/api/events"] * (phones - len(paths))
    return [LivePage(port, path, source=f"127.0.{2 + i // 250}.{2 + i % 250}")
            for i, path in enumerate(paths)]


class LivePage(threading.Thread):
    """A phone's live page on its own connection: notes each event's kind and version as it arrives."""

    def __init__(self, port: int, path: str = "/api/events", source: str | None = None):
        super().__init__(daemon=True, name="bench-phone")
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60,
                                               source_address=(source, 0) if source else None)
        self.conn.request("GET", path, headers={"Accept": "text/event-stream"})
        # The socket the response reads, kept: a connection that will close lets go of it.
        self.sock = self.conn.sock
        self.response = self.conn.getresponse()
        if self.response.status != 200:
            raise RuntimeError(f"{path}: {self.response.status} {self.response.read()[:200]!r}")
        self.events: list[tuple[str, int]] = []  # (event, version) in the order they came
        self.arrived: dict[int, float] = {}  # version → when it first came (monotonic)
        self.cond = threading.Condition()
        self.start()

    def run(self) -> None:
        event = ""
        try:
            for raw in self.response:
                line = raw.decode()
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:") and event in ("snapshot", "update"):
                    version = json.loads(line[5:])["version"]
                    with self.cond:
                        self.events.append((event, version))
                        self.arrived.setdefault(version, time.monotonic())
                        self.cond.notify_all()
        except Exception:  # the page was closed under its reader (http.client then raises several kinds)
            return

    def wait(self, version: int, timeout: float = 10.0) -> float | None:
        """When `version` (or a later snapshot) reached this page, or None if it did not in time."""
        with self.cond:
            self.cond.wait_for(lambda: any(v >= version for v in self.arrived), timeout)
            return min((t for v, t in self.arrived.items() if v >= version), default=None)

    def gaps(self) -> int:
        """Updates that skipped a version (or went back) without a snapshot to heal it. An update of the
        same version is the table's own status told again (its devices starting, a panel fault, the
        network): nothing skipped."""
        with self.cond:
            events = list(self.events)
        return sum(1 for (_, before), (kind, after) in zip(events, events[1:], strict=False)
                   if kind == "update" and after not in (before, before + 1))

    def close(self) -> None:
        sock = self.sock if self.response.fp is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)  # the reading thread wakes up and ends
            except OSError:
                pass
        self.response.close()
        self.conn.close()
