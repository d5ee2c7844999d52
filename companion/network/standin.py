"""A NetworkManager stand-in on a private D-Bus (python-dbusmock's template), for the simulator and tests."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from companion.network.manager import NetworkError, open_bus

# Debian's python3-dbusmock and python3-dbus run under the system interpreter, not the project's venv.
SYSTEM_PYTHON = "/usr/bin/python3"
NM_NAME = "org.freedesktop.NetworkManager"
NM_PATH = "/org/freedesktop/NetworkManager"
DEVICE_DISCONNECTED = 30  # NMDeviceState: a Wi-Fi device that is up but joined to nothing
STARTUP = 10.0  # seconds for the bus and the mock to come up, even on a slow Pi
# python-dbusmock's own start (python3 -m dbusmock ...), with every secret it reads from stdin written as
# ******** in its log; DBusMockObject.log is where every logged call and signal goes.
REDACTED_MOCK = """
import json, runpy, sys
import dbusmock.mockobject
secrets = json.load(sys.stdin)
sys.stdin.close()
logged = dbusmock.mockobject.DBusMockObject.log
def log(self, msg):
    for secret in secrets:
        msg = msg.replace(secret, "********")
    logged(self, msg)
dbusmock.mockobject.DBusMockObject.log = log
runpy.run_module("dbusmock", run_name="__main__", alter_sys=True)
"""


@functools.cache
def _mock_interface():
    """The mock's control interface, as an sdbus proxy class (imported lazily, like the binding itself)."""
    from sdbus import DbusInterfaceCommon, dbus_method

    class NetworkManagerMock(DbusInterfaceCommon, interface_name="org.freedesktop.DBus.Mock"):
        @dbus_method("ssi", result_signature="s", method_name="AddWiFiDevice")
        def add_wifi_device(self, name: str, interface: str, state: int) -> str:
            raise NotImplementedError

        @dbus_method("ssssuuuyu", result_signature="s", method_name="AddAccessPoint")
        def add_access_point(self, device: str, name: str, ssid: str, hw_address: str, mode: int,
                             frequency: int, rate: int, strength: int, security: int) -> str:
            raise NotImplementedError

        @dbus_method("ssss", result_signature="s", method_name="AddWiFiConnection")
        def add_wifi_connection(self, device: str, name: str, ssid: str, key_mgmt: str) -> str:
            raise NotImplementedError

        @dbus_method("assssu", result_signature="s", method_name="AddActiveConnection")
        def add_active_connection(self, devices: list[str], connection: str, specific: str, name: str,
                                  state: int) -> str:
            raise NotImplementedError

        @dbus_method("sssss", method_name="AddMethod")
        def add_method(self, interface: str, name: str, in_signature: str, out_signature: str,
                       code: str) -> None:
            raise NotImplementedError

        @dbus_method("ssv", method_name="AddProperty")
        def add_property(self, interface: str, name: str, value: tuple) -> None:
            raise NotImplementedError

    return NetworkManagerMock


def _require_binding() -> None:
    """The stand-in is driven as a Pi's NetworkManager is, through sdbus-networkmanager: without it, say
    what to add before anything is started (every install from the lock has it; one made otherwise may
    not)."""
    try:
        import sdbus  # noqa: F401
        import sdbus_block.networkmanager  # noqa: F401
    except ImportError:
        raise NetworkError(f"the simulated hotspot needs the D-Bus binding: {sys.executable} -m pip install "
                           "sdbus-networkmanager") from None


class StandIn:
    """A private bus with a mock NetworkManager on it; `address` is what DBUS_SYSTEM_BUS_ADDRESS takes.

    Nothing here touches the machine's own buses: the bus is a fresh dbus-daemon, and the clients reach
    it only through the address.
    """

    # What the system interpreter runs: dbusmock's NetworkManager, on the bus DBUS_SYSTEM_BUS_ADDRESS names,
    # its log of every call kept free of the secrets it is handed on stdin.
    MOCK = ("-c", REDACTED_MOCK, "--system", "--template", "networkmanager")

    def __init__(self, workdir: Path, secrets: tuple[str, ...] = ()):
        """`secrets` (the hotspot's password) never reach the mock's log: the profile's psk goes through
        AddConnection and Update, which dbusmock logs with their arguments."""
        self.workdir = Path(workdir)
        self.secrets = tuple(secret for secret in secrets if secret)
        self.address = ""
        self._bus: subprocess.Popen | None = None
        self._mock: subprocess.Popen | None = None

    def start(self, *, wifi: bool = True) -> StandIn:
        """Start the bus and the mock; whatever fails on the way, neither is left running."""
        _require_binding()
        daemon = shutil.which("dbus-daemon")
        if daemon is None or not Path(SYSTEM_PYTHON).exists():
            raise NetworkError("the simulated network needs dbus-daemon and python3-dbusmock: "
                               "sudo apt-get install dbus-daemon python3-dbusmock")
        self.workdir.mkdir(parents=True, exist_ok=True)
        try:
            self._start(daemon, wifi)
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self, daemon: str, wifi: bool) -> None:
        self._bus = bus = subprocess.Popen([daemon, "--session", "--nofork", "--print-address=1"],
                                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert bus.stdout is not None  # stdout=PIPE
        self.address = bus.stdout.readline().strip()
        if not self.address:
            raise NetworkError("dbus-daemon did not start: run `dbus-daemon --session --print-address` to "
                               "see why.")
        env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": self.address}
        # The child writes to the log; our handle is closed once it has it.
        log = open(self.log_path, "w")  # noqa: SIM115
        self._mock = mock = subprocess.Popen([SYSTEM_PYTHON, *self.MOCK], env=env, stdin=subprocess.PIPE,
                                             stdout=log, stderr=subprocess.STDOUT)
        log.close()
        assert mock.stdin is not None  # stdin=PIPE
        # On stdin rather than in its arguments or environment, which other processes may read.
        try:
            with mock.stdin:
                mock.stdin.write(json.dumps(self.secrets).encode())
        except BrokenPipeError:
            pass  # it stopped at once: _wait_for_name says why, from its log
        self._wait_for_name(mock)
        if wifi:
            self.add_wifi_device()

    @property
    def log_path(self) -> Path:
        return self.workdir / "networkmanager-mock.log"

    def _wait_for_name(self, mock: subprocess.Popen[bytes]) -> None:
        from sdbus import DbusServiceUnknownError, DbusUnknownObjectError

        deadline = time.monotonic() + STARTUP
        while True:
            try:
                self.manager_version()
                return
            except (DbusServiceUnknownError, DbusUnknownObjectError):
                pass
            ended = mock.poll() is not None
            if ended or time.monotonic() > deadline:
                said = " ".join(self.log_path.read_text(errors="replace").split())[-300:]
                if re.search(r"No module named '?dbusmock", said):
                    raise NetworkError(f"the simulated network needs python3-dbusmock for {SYSTEM_PYTHON}: "
                                       "sudo apt-get install python3-dbusmock")
                how = "stopped as it started" if ended else f"did not start within {STARTUP:.0f} s"
                raise NetworkError(f"the NetworkManager stand-in {how}: {said or 'it printed nothing'}")
            time.sleep(0.05)

    def bus(self):
        """A new connection to the private bus."""
        return open_bus(self.address)

    def manager_version(self) -> str:
        from sdbus_block.networkmanager import NetworkManager

        return NetworkManager(self.bus()).version

    def nm_mock(self, path: str = NM_PATH):
        """The mock's own controls on the object at `path` (AddMethod, AddWiFiDevice, ...)."""
        return _mock_interface()(NM_NAME, path, self.bus())

    def add_wifi_device(self, interface: str = "wlan0", state: int = DEVICE_DISCONNECTED) -> str:
        return self.nm_mock().add_wifi_device(interface, interface, state)

    def add_known_wifi(self, device: str, ssid: str, *, connected: bool) -> str:
        """A Wi-Fi the Pi knows; `connected`: it is in range and NetworkManager joined it."""
        mock = self.nm_mock()
        ap = mock.add_access_point(device, f"ap_{len(ssid)}", ssid, "00:11:22:33:44:55", 2, 2437, 54000, 80,
                                   0x100)
        connection = mock.add_wifi_connection(device, f"known_{len(ssid)}", ssid, "wpa-psk")
        if connected:
            mock.add_active_connection([device], connection, ap, "known", 2)
        return connection

    def stop_networkmanager(self) -> None:
        """NetworkManager goes away; the bus stays (as on a system where it is not running)."""
        self._end(self._mock)
        self._mock = None

    def stop(self) -> None:
        for process in (self._mock, self._bus):
            self._end(process)
        if self._bus is not None and self._bus.stdout is not None:
            self._bus.stdout.close()
        self._mock = self._bus = None

    @staticmethod
    def _end(process: subprocess.Popen | None) -> None:
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
