"""A Mosquitto of its own for a benchmark or a test: a free loopback port, its config, persistence,
password and ACL files in one folder."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from companion.benchmark.process import free_port
from companion.venue import access
from companion.venue.link import Broker

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def installed() -> bool:
    return os.path.exists(MOSQUITTO) and shutil.which("mosquitto_passwd") is not None


class Mosquitto:
    """One broker; `kill()` is kill -9, `start()` again keeps its port and its persisted sessions."""

    def __init__(self, folder: Path, venue: str, tables: list[str], autosave: int | None = 1):
        self.folder, self.venue = folder, venue
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.passwords = folder / "passwd"
        self.users = {access.DASHBOARD: access.add_user(self.passwords, access.DASHBOARD)}
        for name in tables:
            self.users[name] = access.add_user(self.passwords, name)
        (folder / "acl").write_text(access.acl(venue, tables))
        (folder / "broker-data").mkdir(exist_ok=True)
        # The venue's own config (access.broker_conf), on loopback; `autosave` seconds between saves
        # (None: the venue's own), and its log on stderr.
        saves = "" if autosave is None else f"autosave_interval {autosave}\n"
        (folder / "mosquitto.conf").write_text(
            access.broker_conf(folder, self.port, "127.0.0.1") + saves
            + "max_inflight_messages 100\nlog_dest stderr\n"
            # Run as root, mosquitto would become user "mosquitto", who cannot read this folder.
            + ("user root\n" if os.geteuid() == 0 else ""))
        self.process: subprocess.Popen | None = None

    def broker(self, user: str) -> Broker:
        return Broker("127.0.0.1", self.port, user, self.users[user])

    def start(self) -> Mosquitto:
        with open(self.folder / "log", "ab") as log:
            self.process = process = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")],
                                            stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError((self.folder / "log").read_text()) from None
                time.sleep(0.02)
        raise RuntimeError(f"mosquitto did not listen on {self.port}")

    def kill(self) -> None:
        assert self.process is not None, "kill() after start()"
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
