"""Start the real daemon (`companion demo`) as a subprocess on a free loopback port, for end-to-end tests."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# What the `companion` console script runs (the systemd unit's ExecStart): no `companion.__main__` loaded.
CONSOLE_SCRIPT = ("-c", "import sys; from companion.cli import main; sys.exit(main())")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DaemonProcess:
    """`companion demo` with its own state directory, listening on 127.0.0.1 only.

    `config` is added to its config file; `prefix` runs it under another command (systemd-socket-activate);
    `paced` keeps the table's own pace on what phones send (else it is off, and its line is left out)."""

    def __init__(self, state_dir: Path, port: int | None = None, python: str = sys.executable,
                 env: dict | None = None, cwd: Path | None = None, config: str = "",
                 prefix: tuple[str, ...] = (), paced: bool = False):
        self.state_dir = Path(state_dir)
        self.python, self.env, self.cwd = python, env, cwd
        self.extra_config, self.prefix, self.paced = config, prefix, paced
        self._chosen = port is None  # a free port may be taken by another process before the daemon binds it
        self._use_port(port or free_port())
        self.config = self.state_dir / "companion.toml"
        self.proc: subprocess.Popen | None = None
        # How Python starts the companion; `CONSOLE_SCRIPT` runs it as the installed `companion` command does.
        self.launcher: tuple[str, ...] = ("-m", "companion")

    def _use_port(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0, tries: int = 3) -> DaemonProcess:
        try:
            return self._start(timeout)
        except RuntimeError as exc:
            if not (self._chosen and tries > 1 and "already in use" in str(exc)):
                raise
        self._use_port(free_port())
        return self.start(timeout, tries - 1)

    def _start(self, timeout: float) -> DaemonProcess:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        # No pace unless a test asks for the table's own: these tests send as fast as the daemon answers.
        unpaced = "" if self.paced else "sends_per_second = 0\n"
        self.config.write_text(f'host = "127.0.0.1"\nport = {self.port}\nstate_dir = "{self.state_dir}"\n'
                               f'url = "{self.base}/"\n{unpaced}' + self.extra_config)
        env = {**(self.env if self.env is not None else os.environ), "PYTHONUNBUFFERED": "1"}
        env.pop("COMPANION_PORT", None)
        # Output goes to a file: an unread pipe would fill up and stall the daemon.
        self.output = self.state_dir / "daemon.out"
        with self.output.open("a") as out:
            command = [*self.prefix, self.python, *self.launcher, "demo", "--config", str(self.config)]
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=self.cwd)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daemon exited with {self.proc.returncode}: {self.output.read_text()}")
            try:
                self.get("/api/state")
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.05)
        self.kill()
        raise TimeoutError("daemon did not answer within the timeout")

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            return json.load(response)

    def get_host(self, path: str) -> dict:
        """GET as the host."""
        request = urllib.request.Request(self.base + path, headers={"X-Host-Token": self.host_token})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    @property
    def host_token(self) -> str:
        """The host token from the last "host link" line `companion demo` printed (a long press on D
        prints a new one)."""
        for line in reversed(self.output.read_text().splitlines()):
            if "host link:" in line:
                return line.rsplit("?host=", 1)[1].strip()
        raise RuntimeError(f"no host link in {self.output}")

    def printed(self, label: str) -> list[str]:
        """What the daemon printed after `label:` on each line that has it, oldest first."""
        return [line.split(f"{label}:", 1)[1].strip() for line in self.output.read_text().splitlines()
                if f"{label}:" in line]

    def post(self, path: str, body: dict, headers: dict | None = None,
             timeout: float = 10) -> tuple[int, dict]:
        """POST JSON; without `headers`, as the host."""
        if headers is None:
            headers = {"X-Host-Token": self.host_token}
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", **headers})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as err:
            return err.code, json.load(err)

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind runs, as in a power cut of the process."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM, as systemd stops the service."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def venv_daemon(venv: Path, tmp_path_factory) -> Iterator[DaemonProcess]:
    """`companion demo` of an installed venv, with nothing of this checkout on its path."""
    from installed import clean_env

    running = DaemonProcess(tmp_path_factory.mktemp("state"), python=str(venv / "bin" / "python"),
                            env=clean_env(), cwd=tmp_path_factory.mktemp("cwd")).start()
    try:
        yield running
    finally:
        running.stop()


def assert_a_restart_serves(daemon: DaemonProcess, records: list) -> None:
    """Start `daemon` again and check it serves the game `records` (read from its store) replay to."""
    from companion.core.session import replay

    session, version = replay(records)
    daemon.start()
    try:
        state = daemon.get("/api/state")
    finally:
        daemon.stop()
    assert state["version"] == version
    assert state["public"] == session.spec.public_json(session.state)
